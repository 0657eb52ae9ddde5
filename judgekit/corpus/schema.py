"""The parts of the corpus schema shared by every file: fields, icons, entries, corrections."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from judgekit.corpus.model import (
    BLOCK_KINDS,
    ENTRY_KINDS,
    Block,
    Correction,
    Entry,
    Icon,
    Lineage,
    Removal,
    SourceSpan,
)
from judgekit.corpus.references import ID_RE
from judgekit.corpus.yamlio import LList, LMap, load_yaml

LINES_RE = re.compile(r"^\d+(-\d+)?$")


class Problems:
    """Problems collected while loading, each as ``file:line: message``."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, path: str | Path, line: int, message: str) -> None:
        """Record one problem at ``path:line``."""
        self.items.append(f"{path}:{line}: {message}")


def field(
    data: LMap,
    key: str,
    path: str,
    probs: Problems,
    kind: type | tuple = str,
    required: bool = True,
) -> Any:
    """``data[key]`` if it is of ``kind`` (numbers read as text for str); else a problem, None."""
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


def check_keys(data: Any, allowed: set[str], path: str, probs: Problems, what: str) -> bool:
    """Whether ``data`` is a mapping (else a problem); each key outside ``allowed`` is a problem."""
    if not isinstance(data, LMap):
        line = getattr(data, "line", 1)
        probs.add(path, line, f"{what} must be a mapping")
        return False
    for key in data:
        if key not in allowed:
            probs.add(path, data.line_of(key), f"unknown field {key!r} in {what}")
    return True


def load_icons(root: Path, probs: Problems) -> dict[str, Icon]:
    """The icon vocabulary of ``rules/icons.yaml``, by name."""
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
        if not check_keys(item, {"name", "label", "group", "shape"}, str(path), probs, "icon"):
            continue
        name = field(item, "name", str(path), probs)
        if name in icons:
            probs.add(path, item.line, f"duplicate icon {name!r}")
        elif name:
            icons[name] = Icon(
                name,
                field(item, "label", str(path), probs) or name,
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


def load_entries(
    items: Any,
    version: dict[str, str],
    path: str,
    probs: Problems,
    out: dict[str, Entry],
    parent: str | None,
    depth: int,
) -> tuple[str, ...]:
    """Load a list of entries and their children into ``out`` in reading order; return their ids."""
    if not isinstance(items, LList):
        probs.add(path, getattr(items, "line", 1), "'entries'/'children' must be a list")
        return ()
    ids: list[str] = []
    for item in items:
        if not check_keys(item, ENTRY_FIELDS, path, probs, "entry"):
            continue
        entry_id = field(item, "id", path, probs)
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
        title = field(item, "title", path, probs) or entry_id
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
            children = load_entries(
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


def load_corrections(
    path: Path, probs: Problems
) -> tuple[tuple[Correction, ...], tuple[Removal, ...]]:
    """A version's corrections file, if there is one: its corrections and removed stretches."""
    if not path.exists():
        return (), ()
    data = load_yaml(path)
    if data is None:
        return (), ()
    if not check_keys(data, {"corrections", "removed"}, str(path), probs, "corrections file"):
        return (), ()
    corrections, removed = [], []
    for item in data.get("corrections") or []:
        keys = {"entry", "source", "line", "original", "corrected", "evidence"}
        if not check_keys(item, keys, str(path), probs, "correction"):
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
        if not check_keys(item, keys, str(path), probs, "removal"):
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
