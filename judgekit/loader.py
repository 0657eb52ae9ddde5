"""Load the YAML corpus into the frozen model, failing with file:line messages."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from .model import (
    BLOCK_KINDS,
    ENTRY_KINDS,
    Block,
    Corpus,
    Correction,
    Document,
    Entry,
    Icon,
    Lineage,
    Removal,
    Source,
    SourceSpan,
    TocItem,
    Version,
)
from .references import ID_RE, VERSION_RE
from .yamlio import LList, LMap, YamlError, load_yaml

CORPUS_DIRS = ("rules", "rulings")
EDITIONS = ("2E", "1E")
DATE_RE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")
LINES_RE = re.compile(r"^\d+(-\d+)?$")
SPECIAL_SUFFIXES = (".corrections.yaml", ".timing.yaml")


class CorpusError(Exception):
    """One or more problems in the corpus, each as ``file:line: message``."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


class _Problems:
    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, path: str | Path, line: int, message: str) -> None:
        self.items.append(f"{path}:{line}: {message}")


def default_root() -> Path:
    """The built-in corpus: the project folder that holds rules/ and rulings/."""
    return Path(__file__).resolve().parent.parent


def _field(
    data: LMap, key: str, path: str, probs: _Problems, kind: type | tuple = str, required=True
) -> Any:
    if key not in data or data[key] is None:
        if required:
            probs.add(path, data.line, f"missing required field {key!r}")
        return None
    value = data[key]
    if kind is str and isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        probs.add(path, data.line_of(key), f"field {key!r} must be {names}")
        return None
    return value


def _check_keys(data: Any, allowed: set[str], path: str, probs: _Problems, what: str) -> bool:
    if not isinstance(data, LMap):
        line = getattr(data, "line", 1)
        probs.add(path, line, f"{what} must be a mapping")
        return False
    for key in data:
        if key not in allowed:
            probs.add(path, data.line_of(key), f"unknown field {key!r} in {what}")
    return True


def _load_icons(root: Path, probs: _Problems) -> dict[str, Icon]:
    path = root / "rules" / "icons.yaml"
    icons: dict[str, Icon] = {}
    if not path.exists():
        probs.add(path, 1, "icon vocabulary is missing")
        return icons
    data = load_yaml(path)
    items = data.get("icons") if isinstance(data, LMap) else None
    if not isinstance(items, LList):
        probs.add(path, getattr(data, "line", 1), "'icons' must be a list")
        return icons
    for item in items:
        if not _check_keys(item, {"name", "label", "group", "shape"}, str(path), probs, "icon"):
            continue
        name = _field(item, "name", str(path), probs)
        if name in icons:
            probs.add(path, item.line, f"duplicate icon {name!r}")
        elif name:
            icons[name] = Icon(
                name,
                _field(item, "label", str(path), probs) or name,
                item.get("group") or "",
                item.get("shape") or "square",
            )
    return icons


ENTRY_FIELDS = {
    "id",
    "kind",
    "title",
    "page",
    "source",
    "body",
    "children",
    "aliases",
    "card_ruling",
    "new",
    "continues",
    "note",
}


def _load_entries(
    items: Any,
    version: dict[str, str],
    path: str,
    probs: _Problems,
    out: dict[str, Entry],
    parent: str | None,
    depth: int,
) -> tuple[str, ...]:
    if not isinstance(items, LList):
        probs.add(path, getattr(items, "line", 1), "'entries'/'children' must be a list")
        return ()
    ids: list[str] = []
    for item in items:
        if not _check_keys(item, ENTRY_FIELDS, path, probs, "entry"):
            continue
        entry_id = _field(item, "id", path, probs)
        if entry_id is None:
            continue
        where = f"{path}:{item.line_of('id')}"
        if not ID_RE.match(entry_id):
            probs.add(path, item.line_of("id"), f"invalid id {entry_id!r} (use [a-z0-9-])")
            continue
        if entry_id in out:
            probs.add(
                path,
                item.line_of("id"),
                f"duplicate id {entry_id!r} (first at {out[entry_id].location})",
            )
            continue
        kind = item.get("kind", "section")
        if kind not in ENTRY_KINDS:
            probs.add(path, item.line_of("kind"), f"unknown kind {kind!r} for {entry_id!r}")
        title = _field(item, "title", path, probs) or entry_id
        body = []
        for block in item.get("body") or []:
            if not isinstance(block, LMap) or len(block) != 1:
                line = getattr(block, "line", item.line)
                probs.add(path, line, f"body block of {entry_id!r} must have exactly one key")
                continue
            ((bkind, text),) = block.items()
            if bkind not in BLOCK_KINDS:
                probs.add(path, block.line, f"unknown block kind {bkind!r} in {entry_id!r}")
            elif not isinstance(text, str) or not text.strip():
                probs.add(path, block.line, f"empty {bkind} block in {entry_id!r}")
            else:
                body.append(Block(bkind, text.strip()))
        sources = []
        for span in item.get("source") or []:
            if (
                isinstance(span, LMap)
                and "file" in span
                and LINES_RE.match(str(span.get("lines", "")))
            ):
                sources.append(SourceSpan(str(span["file"]), str(span["lines"])))
            else:
                probs.add(
                    path, getattr(span, "line", item.line), f"bad source span in {entry_id!r}"
                )
        continues = []
        for rel in item.get("continues") or []:
            if isinstance(rel, LMap) and "ref" in rel and "relation" in rel:
                continues.append(Lineage(str(rel["ref"]), str(rel["relation"])))
            else:
                probs.add(
                    path, getattr(rel, "line", item.line), f"bad continues item in {entry_id!r}"
                )
        placeholder = Entry(
            entry_id, kind, title, version["document"], version["id"], parent, (), ()
        )
        out[entry_id] = placeholder  # reserve the id and its reading-order slot
        children = ()
        if item.get("children"):
            children = _load_entries(
                item["children"], version, path, probs, out, entry_id, depth + 1
            )
        out[entry_id] = Entry(
            id=entry_id,
            kind=kind,
            title=str(title),
            document=version["document"],
            version=version["id"],
            parent=parent,
            children=children,
            body=tuple(body),
            page=item.get("page"),
            source=tuple(sources),
            aliases=tuple(str(a) for a in item.get("aliases") or ()),
            card_ruling=bool(item.get("card_ruling", False)),
            new=bool(item.get("new", False)),
            continues=tuple(continues),
            note=item.get("note"),
            depth=depth,
            location=where,
        )
        ids.append(entry_id)
    return tuple(ids)


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


def _load_corrections(path: Path, probs: _Problems) -> tuple[tuple, tuple]:
    if not path.exists():
        return (), ()
    data = load_yaml(path)
    if data is None:
        return (), ()
    if not _check_keys(data, {"corrections", "removed"}, str(path), probs, "corrections file"):
        return (), ()
    corrections, removed = [], []
    for item in data.get("corrections") or []:
        keys = {"entry", "source", "line", "original", "corrected", "evidence"}
        if not _check_keys(item, keys, str(path), probs, "correction"):
            continue
        missing = [k for k in sorted(keys) if item.get(k) in (None, "")]
        if missing:
            probs.add(path, item.line, f"correction lacks {', '.join(missing)}")
            continue
        corrections.append(
            Correction(
                str(item["entry"]),
                str(item["source"]),
                int(item["line"]),
                str(item["original"]),
                str(item["corrected"]),
                str(item["evidence"]),
                f"{path}:{item.line}",
            )
        )
    for item in data.get("removed") or []:
        keys = {"source", "lines", "what", "reason"}
        if not _check_keys(item, keys, str(path), probs, "removal"):
            continue
        if not LINES_RE.match(str(item.get("lines", ""))):
            probs.add(path, item.line_of("lines"), "removal 'lines' must be 'A-B'")
            continue
        removed.append(
            Removal(
                str(item.get("source")),
                str(item["lines"]),
                str(item.get("what", "")),
                str(item.get("reason", "")),
                f"{path}:{item.line}",
            )
        )
    return tuple(corrections), tuple(removed)


def _load_version(path: Path, doc: Document, probs: _Problems) -> Version | None:
    data = load_yaml(path)
    spath = str(path)
    if not _check_keys(data, VERSION_FIELDS, spath, probs, "version file"):
        return None
    version_id = _field(data, "id", spath, probs)
    if version_id is None:
        return None
    if not VERSION_RE.match(version_id):
        probs.add(path, data.line_of("id"), f"invalid version id {version_id!r}")
    if path.stem != version_id:
        probs.add(path, data.line_of("id"), f"version id {version_id!r} must match the file name")
    if data.get("document") != doc.id:
        probs.add(path, data.line_of("document"), f"document must be {doc.id!r}")
    edition = _field(data, "edition", spath, probs)
    if edition and edition != doc.edition:
        probs.add(
            path,
            data.line_of("edition"),
            f"edition {edition!r} differs from document's {doc.edition!r}",
        )
    released = _field(data, "released", spath, probs)
    if released and not DATE_RE.match(released):
        probs.add(path, data.line_of("released"), f"released {released!r} must be YYYY[-MM[-DD]]")
    entries: dict[str, Entry] = {}
    roots = _load_entries(
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
        if _check_keys(item, {"title", "page", "entry"}, spath, probs, "toc item"):
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
        if _check_keys(item, {"file", "description"}, spath, probs, "source"):
            sources.append(Source(str(item.get("file", "")), str(item.get("description", ""))))
    corrections, removed = _load_corrections(
        path.with_name(f"{version_id}.corrections.yaml"), probs
    )
    supersedes = data.get("supersedes")
    return Version(
        document=doc.id,
        id=version_id,
        title=_field(data, "title", spath, probs) or version_id,
        short_title=_field(data, "short_title", spath, probs) or version_id,
        edition=doc.edition,
        released=released or "",
        released_printed=str(data.get("released_printed") or released or ""),
        publisher=_field(data, "publisher", spath, probs) or "",
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


def _order_versions(versions: list[Version], doc_path: Path, probs: _Problems) -> list[Version]:
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


def _load_document(folder: Path, probs: _Problems) -> Document | None:
    path = folder / "document.yaml"
    data = load_yaml(path)
    spath = str(path)
    if not _check_keys(data, DOCUMENT_FIELDS, spath, probs, "document file"):
        return None
    doc_id = _field(data, "id", spath, probs)
    if doc_id is None:
        return None
    if doc_id != folder.name:
        probs.add(path, data.line_of("id"), f"document id {doc_id!r} must match its folder name")
    edition = _field(data, "edition", spath, probs)
    if edition not in EDITIONS:
        probs.add(path, data.line_of("edition"), f"edition must be one of {', '.join(EDITIONS)}")
    doc = Document(
        id=doc_id,
        title=_field(data, "title", spath, probs) or doc_id,
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
        if version is None:
            continue
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
    probs = _Problems()
    documents: dict[str, Document] = {}
    icons: dict[str, Icon] = {}
    try:
        icons = _load_icons(root, probs)
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
    if probs.items:
        raise CorpusError(probs.items)
    corpus = Corpus(documents=documents, icons=icons, root=str(root), digest=corpus_digest(root))
    dangling = _dangling(corpus)
    if dangling:
        raise CorpusError(dangling)
    return corpus


def _dangling(corpus: Corpus) -> list[str]:
    from .references import find_refs, resolve

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
