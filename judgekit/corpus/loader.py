"""Load the YAML corpus into the frozen model, failing with file:line messages."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from judgekit.corpus.cards import load_cards
from judgekit.corpus.model import Corpus, Document, Entry, Icon, Source, TocItem, Version
from judgekit.corpus.references import VERSION_RE
from judgekit.corpus.schema import (
    Problems,
    check_keys,
    field,
    load_corrections,
    load_entries,
    load_icons,
)
from judgekit.corpus.yamlio import LList, YamlError, load_yaml
from judgekit.resources import data_root

CORPUS_DIRS = ("rules", "rulings")
EDITIONS = ("2E", "1E")
DATE_RE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")
SPECIAL_SUFFIXES = (".corrections.yaml", ".timing.yaml", ".mentions.yaml")


class CorpusError(Exception):
    """One or more problems in the corpus, each as ``file:line: message``."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


def default_root() -> Path:
    """The built-in corpus: the folder that holds rules/ and rulings/."""
    return data_root()


VERSION_FIELDS = {
    "document",
    "id",
    "title",
    "short_title",
    "edition",
    "released",
    "released_printed",
    "publisher",
    "supersedes",
    "sources",
    "source_note",
    "toc",
    "entries",
    "note",
}


def _open(path: Path, fields: set[str], what: str, probs: Problems) -> tuple[Any, str | None]:
    """A document or version file's data and id; no id where the file is unusable."""
    data = load_yaml(path)
    if not check_keys(data, fields, str(path), probs, what):
        return data, None
    return data, field(data, "id", str(path), probs)


def _load_version(path: Path, doc: Document, probs: Problems) -> Version | None:
    data, version_id = _open(path, VERSION_FIELDS, "version file", probs)
    if version_id is None:
        return None
    spath = str(path)
    if not VERSION_RE.match(version_id):
        probs.add(path, data.line_of("id"), f"invalid version id {version_id!r}")
    if path.stem != version_id:
        probs.add(path, data.line_of("id"), f"version id {version_id!r} must match the file name")
    if data.get("document") != doc.id:
        probs.add(path, data.line_of("document"), f"document must be {doc.id!r}")
    edition = field(data, "edition", spath, probs)
    if edition and edition != doc.edition:
        probs.add(
            path,
            data.line_of("edition"),
            f"edition {edition!r} differs from document's {doc.edition!r}",
        )
    released = field(data, "released", spath, probs)
    if released and not DATE_RE.match(released):
        probs.add(path, data.line_of("released"), f"released {released!r} must be YYYY[-MM[-DD]]")
    entries: dict[str, Entry] = {}
    roots = load_entries(
        data.get("entries", LList()),
        {"document": doc.id, "id": version_id},
        spath,
        probs,
        entries,
        None,
        0,
    )
    toc = []
    for item in data.get("toc") or []:
        if check_keys(item, {"title", "page", "entry"}, spath, probs, "toc item"):
            toc.append(
                TocItem(
                    str(item.get("title", "")),
                    str(item.get("entry", "")),
                    item.get("page"),
                    f"{path}:{item.line}",
                )
            )
    sources = []
    for item in data.get("sources") or []:
        if check_keys(item, {"file", "description"}, spath, probs, "source"):
            sources.append(Source(str(item.get("file", "")), str(item.get("description", ""))))
    corrections, removed = load_corrections(path.with_name(f"{version_id}.corrections.yaml"), probs)
    supersedes = data.get("supersedes")
    return Version(
        document=doc.id,
        id=version_id,
        title=field(data, "title", spath, probs) or version_id,
        short_title=field(data, "short_title", spath, probs) or version_id,
        edition=doc.edition,
        released=released or "",
        released_printed=str(data.get("released_printed") or released or ""),
        publisher=field(data, "publisher", spath, probs) or "",
        supersedes=str(supersedes) if supersedes is not None else None,
        sources=tuple(sources),
        source_note=str(data.get("source_note") or ""),
        note=data.get("note"),
        toc=tuple(toc),
        entries=entries,
        roots=roots,
        corrections=corrections,
        removed=removed,
        path=spath,
    )


def _order_versions(versions: list[Version], doc_path: Path, probs: Problems) -> list[Version]:
    by_id = {v.id: v for v in versions}
    for v in versions:
        if v.supersedes is not None and v.supersedes not in by_id:
            probs.add(v.path, 1, f"supersedes unknown version {v.supersedes!r}")
    firsts = [v for v in versions if v.supersedes not in by_id]
    if versions and len(firsts) != 1:
        probs.add(doc_path, 1, "versions must form one chain through 'supersedes'")
        return sorted(versions, key=lambda v: v.released)
    ordered = firsts[:]
    while len(ordered) < len(versions):
        nxt = [v for v in versions if v.supersedes == ordered[-1].id]
        if len(nxt) != 1:
            probs.add(doc_path, 1, "versions must form one chain through 'supersedes'")
            return sorted(versions, key=lambda v: v.released)
        ordered.append(nxt[0])
    return ordered


DOCUMENT_FIELDS = {"id", "title", "short_title", "edition", "kind", "external", "versions"}


def _load_document(folder: Path, probs: Problems) -> Document | None:
    path = folder / "document.yaml"
    data, doc_id = _open(path, DOCUMENT_FIELDS, "document file", probs)
    if doc_id is None:
        return None
    spath = str(path)
    if doc_id != folder.name:
        probs.add(path, data.line_of("id"), f"document id {doc_id!r} must match its folder name")
    edition = field(data, "edition", spath, probs)
    if edition not in EDITIONS:
        probs.add(path, data.line_of("edition"), f"edition must be one of {', '.join(EDITIONS)}")
    doc = Document(
        id=doc_id,
        title=field(data, "title", spath, probs) or doc_id,
        short_title=data.get("short_title") or doc_id,
        edition=edition or "",
        kind=data.get("kind") or "rulebook",
        external=bool(data.get("external", False)),
        external_versions=tuple(dict(v) for v in data.get("versions") or ()),
        path=spath,
    )
    if doc.external:
        return doc
    versions = []
    failed: set[str] = set()
    for vpath in sorted(folder.glob("*.yaml")):
        if vpath.name == "document.yaml" or vpath.name.endswith(SPECIAL_SUFFIXES):
            continue
        before = len(probs.items)
        try:
            version = _load_version(vpath, doc, probs)
        except YamlError as exc:
            probs.items.append(str(exc))
            version = None
        if version is None or len(probs.items) > before:
            failed.add(vpath.stem)
        if version is not None:
            versions.append(version)
    if failed:
        return Document(**{**doc.__dict__, "versions": tuple(versions)})
    ordered = _order_versions(versions, path, probs)
    return Document(**{**doc.__dict__, "versions": tuple(ordered)})


def corpus_files(root: Path) -> list[Path]:
    """Every YAML file of the corpus, sorted, for loading and hashing."""
    files: list[Path] = []
    for name in CORPUS_DIRS:
        files.extend(sorted((root / name).rglob("*.yaml")))
    return files


def corpus_digest(root: Path) -> str:
    """A hash of every corpus file's path and bytes: the key of caches built from it."""
    digest = hashlib.sha256()
    for path in corpus_files(root):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def load_corpus(root: str | Path | None = None) -> Corpus:
    """Load and validate the corpus under root; raise CorpusError listing every problem."""
    root = Path(root) if root else default_root()
    probs = Problems()
    documents: dict[str, Document] = {}
    icons: dict[str, Icon] = {}
    try:
        icons = load_icons(root, probs)
    except YamlError as exc:
        probs.items.append(str(exc))
    for name in CORPUS_DIRS:
        for folder in sorted(p.parent for p in (root / name).glob("*/document.yaml")):
            try:
                doc = _load_document(folder, probs)
            except YamlError as exc:
                probs.items.append(str(exc))
                continue
            if doc is None:
                continue
            if doc.id in documents:
                probs.add(folder / "document.yaml", 1, f"duplicate document id {doc.id!r}")
            documents[doc.id] = doc
    if not documents and not probs.items:
        probs.add(root, 0, "no documents found (expected rules/*/document.yaml)")
    versions = [v for doc in documents.values() for v in doc.versions]
    cards = load_cards(root, versions, probs)
    if probs.items:
        raise CorpusError(probs.items)
    corpus = Corpus(
        documents=documents, icons=icons, root=str(root), digest=corpus_digest(root), cards=cards
    )
    dangling = _dangling(corpus)
    if dangling:
        raise CorpusError(dangling)
    return corpus


def _dangling(corpus: Corpus) -> list[str]:
    from judgekit.corpus.references import find_refs, resolve

    problems = []
    for version in corpus.versions():
        for entry in version.walk():
            for ref in find_refs(entry.markdown):
                found = resolve(corpus, ref.target, entry.document, entry.version)
                if isinstance(found, str):
                    problems.append(f"{entry.location}: {found} in {entry.id!r}")
            for rel in entry.continues:
                found = resolve(corpus, rel.ref, entry.document, entry.version)
                if isinstance(found, str):
                    problems.append(f"{entry.location}: {found} in continues of {entry.id!r}")
    return problems
