"""Read the YAML corpus into the frozen model, checking every field against rules/FORMAT.md.

Reading reports what the format forbids (fields, types, ids, references); the content checks
of `judgekit check` (debris, contents, corrections, timing) are in check.py, and
``loader.load_corpus`` runs both, so the app and `judgekit check` refuse the same corpora.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from judgekit.corpus import drafts
from judgekit.corpus.cards import load_cards
from judgekit.corpus.fields import Problems, read_record
from judgekit.corpus.files import CORPUS_DIRS, missing_folder_problems, special_file_problems
from judgekit.corpus.model import Corpus, Document, Entry, Icon, Source, TocItem, Version
from judgekit.corpus.pages import load_pages
from judgekit.corpus.references import find_refs, resolve
from judgekit.corpus.schema import EntryContext, load_corrections, load_entries, load_icons
from judgekit.corpus.yamlio import YamlError, load_yaml
from judgekit.resources import data_root

# Files beside a document's versions that are not versions themselves: <version><suffix>.
COMPANION_SUFFIXES = drafts.COMPANION_SUFFIXES
MAX_MESSAGE = 200
MAX_VERSIONS = 20  # of one document; the built-in corpus's largest has 3


class CorpusError(Exception):
    """One or more problems in the corpus, each as ``file:line: message``."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


def default_root() -> Path:
    """The built-in corpus: the folder that holds rules/ and rulings/."""
    return data_root()


def _version_files(folder: Path) -> list[Path]:
    return [
        path
        for path in sorted(folder.glob("*.yaml"))
        if path.name != "document.yaml" and not path.name.endswith(COMPANION_SUFFIXES)
    ]


def _load_version(
    path: Path, doc: Document, icons: dict[str, Icon] | None, probs: Problems, draft: bool = False
) -> Version | None:
    data = load_yaml(path)
    spath = str(path)
    values = read_record(data, "version file", spath, probs)
    if values is None:
        return None
    version_id = values["id"]
    if path.stem != version_id:
        probs.add(path, data.line_of("id"), f"version id {version_id!r} must match the file name")
    # The folder names the document (its document.yaml must agree, and says so if not).
    if values["document"] != path.parent.name:
        probs.add(path, data.line_of("document"), f"document must be {path.parent.name!r}")
    if values["edition"] != doc.edition:
        probs.add(
            path,
            data.line_of("edition"),
            f"edition {values['edition']!r} differs from document's {doc.edition!r}",
        )
    entries: dict[str, Entry] = {}
    ctx = EntryContext(doc.id, version_id, spath, icons, probs)
    roots = load_entries(ctx, values["entries"], entries, None, 0)
    toc = _toc(values["toc"], path, probs)
    corrections, removed = load_corrections(path.with_name(f"{version_id}.corrections.yaml"), probs)
    pages = load_pages(path.with_name(f"{version_id}.pages.yaml"), doc.id, version_id, probs)
    return Version(
        document=doc.id,
        id=version_id,
        title=values["title"],
        short_title=values["short_title"] or version_id,
        edition=doc.edition,
        released=values["released"],
        released_printed=values["released_printed"] or values["released"],
        publisher=values["publisher"],
        supersedes=values["supersedes"],
        supersedes_note=values["supersedes_note"],
        called=tuple(values["called"]),
        examples_unlabelled=values["examples_unlabelled"],
        sources=tuple(Source(s["file"], s["description"]) for s in values["sources"]),
        source_note=values["source_note"],
        note=values["note"],
        toc=toc,
        entries=entries,
        roots=roots,
        corrections=corrections,
        removed=removed,
        path=spath,
        pages=pages.places,
        printed_references=pages.references,
        pages_note=pages.note,
        draft=draft,
    )


def _toc(items: tuple[dict[str, Any], ...], path: Path, probs: Problems) -> tuple[TocItem, ...]:
    """The contents list; a line not printed in the version must say so, with a note why."""
    for item in items:
        if item["reconstructed"] and item["note"] is None:
            probs.add(
                path, item["_line"], "a reconstructed toc line needs a 'note' (on what evidence)"
            )
    return tuple(
        TocItem(
            item["title"],
            item["entry"],
            item["page"],
            f"{path}:{item['_line']}",
            item["reconstructed"],
            item["note"],
        )
        for item in items
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


def _external_version(values: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in values.items() if not k.startswith("_") and v is not None}


def _read_document(folder: Path, probs: Problems) -> tuple[Document, Any] | None:
    path = folder / "document.yaml"
    data = load_yaml(path)
    values = read_record(data, "document file", str(path), probs)
    if values is None:
        return None
    doc_id = values["id"]
    if doc_id != folder.name:
        probs.add(path, data.line_of("id"), f"document id {doc_id!r} must match its folder name")
    if values["versions"] and not values["external"]:
        probs.add(path, data.line_of("versions"), "'versions' is only for external documents")
    seen: set[str] = set()
    for version in values["versions"]:
        if version["id"] in seen:
            probs.add(path, version["_line"], f"duplicate version id {version['id']!r}")
        seen.add(version["id"])
    doc = Document(
        id=doc_id,
        title=values["title"],
        short_title=values["short_title"] or doc_id,
        edition=values["edition"],
        kind=values["kind"],
        external=values["external"],
        external_versions=tuple(_external_version(v) for v in values["versions"]),
        path=str(path),
        newer_not_held=values["newer_not_held"],
        status_note=values["status_note"],
    )
    return doc, data


def _versions_problem(doc: Document, files: list[Path]) -> str | None:
    """What is wrong with a held document's set of version files, before any is read."""
    if not files:
        # Every page of a held document shows one of its versions: none leaves nothing to show.
        return (
            f"{doc.id} holds no version: add one (<version>.yaml beside this file), "
            "or mark the document 'external: true'"
        )
    if len(files) > MAX_VERSIONS:
        return (
            f"{doc.id} holds {len(files)} versions, more than {MAX_VERSIONS} "
            "(each pair of versions is a comparison page)"
        )
    folded: dict[str, str] = {}
    for path in files:
        first = folded.setdefault(path.stem.casefold(), path.stem)
        if first != path.stem:
            return (
                f"versions {first!r} and {path.stem!r} differ only in case: "
                "Windows and macOS would hold their pages in one folder"
            )
    return None


def _load_document(
    folder: Path, icons: dict[str, Icon] | None, probs: Problems, drafted: tuple[Path, ...] = ()
) -> Document | None:
    """A document with its versions; ``drafted`` are a draft's version files read with them."""
    read = _read_document(folder, probs)
    if read is None:
        return None
    doc, data = read
    files = [p for p in _version_files(folder) if p not in drafted] + list(drafted)
    if doc.external:
        for vpath in files:
            probs.add(vpath, 1, f"{doc.id} is external (not held): it has no version files")
        return doc
    problem = _versions_problem(doc, files)
    if problem:
        probs.add(doc.path, data.line, problem)
        return doc
    versions = []
    failed = False
    for vpath in files:
        before = len(probs.items)
        try:
            version = _load_version(vpath, doc, icons, probs, draft=vpath in drafted)
        except YamlError as exc:
            probs.items.append(str(exc))
            version = None
        failed = failed or version is None or len(probs.items) > before
        if version is not None:
            versions.append(version)
    if not failed:
        versions = _order_versions(versions, Path(doc.path), probs)
    return Document(**{**doc.__dict__, "versions": tuple(versions)})


def _orphans(root: Path, probs: Problems) -> None:
    """Version files in a folder without its document.yaml: an error, never a silent skip."""
    for name in CORPUS_DIRS:
        base = root / name
        for folder in sorted(p for p in base.iterdir() if p.is_dir()) if base.is_dir() else ():
            if (folder / "document.yaml").exists():
                continue
            for path in sorted(folder.glob("*.yaml")):
                probs.add(path, 1, f"no {folder.name}/document.yaml beside this file")


def corpus_files(root: Path) -> list[Path]:
    """Every YAML file of the corpus, sorted, for loading and hashing."""
    files: list[Path] = []
    for name in CORPUS_DIRS:
        files.extend(sorted(p for p in (root / name).rglob("*.yaml") if p.is_file()))
    return files


def corpus_digest(root: Path, draft: Path | None = None) -> str:
    """A hash of every corpus file's path and bytes, and the draft's read on top of them: the key
    of caches built from it (a draft's pages and index are never a held corpus's)."""
    digest = hashlib.sha256()
    for base in (root, draft) if draft else (root,):
        digest.update(b"\0draft\0" if base is draft else b"")
        for path in corpus_files(base):
            digest.update(str(path.relative_to(base)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _documents(
    root: Path, icons: dict[str, Icon] | None, probs: Problems, draft: Path | None = None
) -> dict[str, Document]:
    documents: dict[str, Document] = {}
    for name in CORPUS_DIRS:
        held = sorted(p.parent for p in (root / name).glob("*/document.yaml"))
        added = drafts.new_documents(draft, name) if draft else []
        for folder in held + added:
            mirrored = folder if folder in added else drafts.overlay(draft, folder)
            drafted = tuple(_version_files(mirrored)) if mirrored else ()
            try:
                doc = _load_document(folder, icons, probs, drafted)
            except YamlError as exc:
                probs.items.append(str(exc))
                continue
            if doc is None:
                continue
            if doc.id in documents:
                probs.add(folder / "document.yaml", 1, f"duplicate document id {doc.id!r}")
            documents[doc.id] = doc
    return documents


def read_corpus(root: str | Path | None = None, draft: str | Path | None = None) -> Corpus:
    """Read the corpus under root, with a draft folder's versions on top when one is named, and
    check its format; raise CorpusError listing every problem."""
    root = Path(root) if root else default_root()
    draft = Path(draft) if draft else None
    # Special files and links out of the corpus are refused before any file is opened.
    special = special_file_problems(root) + (special_file_problems(draft) if draft else [])
    if special:
        raise CorpusError(special)
    probs = Problems()
    probs.items.extend(missing_folder_problems(root))
    if draft:
        # A draft that would replace a held file is refused before anything is read from it.
        layout = drafts.layout_problems(root, draft)
        if layout:
            raise CorpusError(layout)
    icons: dict[str, Icon] | None = None
    try:
        icons = load_icons(root, probs)
    except YamlError as exc:
        probs.items.append(str(exc))
    documents = _documents(root, icons, probs, draft)
    _orphans(root, probs)
    if not documents and not probs.items:
        probs.add(root, 0, "no documents found (expected rules/*/document.yaml)")
    versions = [v for doc in documents.values() for v in doc.versions]
    cards = load_cards(root, versions, probs)
    if probs.items:
        raise CorpusError(probs.items)
    held_digest = corpus_digest(root)
    corpus = Corpus(
        documents=documents,
        icons=icons or {},
        root=str(root),
        digest=corpus_digest(root, draft) if draft else held_digest,
        cards=cards,
        draft=str(draft) if draft else "",
        held_digest=held_digest,
    )
    dangling = _dangling(corpus)
    if dangling:
        raise CorpusError(dangling)
    return corpus


def _clip(message: str) -> str:
    """A message quoting a reference, cut to a readable line (a target may be any length)."""
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 3] + "..."


def _dangling(corpus: Corpus) -> list[str]:
    problems = []
    for version in corpus.versions():
        for entry in version.walk():
            for ref in find_refs(entry.markdown):
                found = resolve(corpus, ref.target, entry.document, entry.version)
                if isinstance(found, str):
                    problems.append(f"{entry.location}: {_clip(found)} in {entry.id!r}")
            for rel in entry.continues:
                found = resolve(corpus, rel.ref, entry.document, entry.version)
                if isinstance(found, str):
                    problems.append(
                        f"{entry.location}: {_clip(found)} in continues of {entry.id!r}"
                    )
    return problems
