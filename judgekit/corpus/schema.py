"""The parts of the corpus schema shared by every file: fields, icons, entries, corrections."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judgekit.corpus.fields import LINES_RE, Problems, read_record
from judgekit.corpus.model import (
    BLOCK_KINDS,
    Block,
    Correction,
    Entry,
    Icon,
    Lineage,
    Removal,
    SourceSpan,
)
from judgekit.corpus.yamlio import LMap, load_yaml

__all__ = [
    "LINES_RE",
    "Problems",
    "check_keys",
    "list_field",
    "load_corrections",
    "load_entries",
    "load_icons",
]

# Anything that starts like an icon token; each must be exactly {icon:NAME} with a known NAME.
ICON_TOKEN_RE = re.compile(r"\{\s*icon\b[^}\n]{0,40}\}?", re.IGNORECASE)
ICON_NAME_RE = re.compile(r"^\{icon:([a-z0-9-]+)\}$")
MAX_ENTRY_DEPTH = 12  # children of children...; the rulebooks need four


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


def list_field(data: LMap, key: str, path: str, probs: Problems) -> list[Any]:
    """The list under ``key`` (none if absent or null); anything else is a problem, read as none."""
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        probs.add(path, data.line_of(key), f"{key!r} must be a list")
        return []
    return value


def load_icons(root: Path, probs: Problems) -> dict[str, Icon] | None:
    """The icon vocabulary of ``rules/icons.yaml``, by name; None if it is missing or unusable."""
    path = root / "rules" / "icons.yaml"
    if not path.is_file():
        probs.add(path, 1, "icon vocabulary is missing")
        return None
    data = read_record(load_yaml(path), "icon file", str(path), probs)
    if data is None:
        return None
    icons: dict[str, Icon] = {}
    for item in data["icons"]:
        if item["name"] in icons:
            probs.add(path, item["_line"], f"duplicate icon {item['name']!r}")
        else:
            icons[item["name"]] = Icon(item["name"], item["label"], item["group"], item["shape"])
    return icons


def icon_problems(text: str, icons: dict[str, Icon] | None) -> list[str]:
    """What is wrong with each icon token in a text: malformed, or not in the vocabulary.

    Without a vocabulary (its own problem is reported) names are not checked.
    """
    problems = []
    for match in ICON_TOKEN_RE.finditer(text):
        token = match.group(0)
        name = ICON_NAME_RE.match(token)
        if name is None:
            problems.append(f"malformed icon token {token!r} (write {{icon:NAME}})")
        elif icons is not None and name.group(1) not in icons:
            problems.append(f"unknown icon {name.group(1)!r}")
    return problems


@dataclass(frozen=True)
class EntryContext:
    """What every entry of one version file is read against."""

    document: str
    version: str
    path: str
    icons: dict[str, Icon] | None
    probs: Problems


def _body(ctx: EntryContext, entry_id: str, blocks: Any) -> tuple[Block, ...]:
    body = []
    for block in blocks:
        if not isinstance(block, LMap) or len(block) != 1:
            line = getattr(block, "line", 1)
            ctx.probs.add(ctx.path, line, f"body block of {entry_id!r} must have exactly one key")
            continue
        ((kind, text),) = block.items()
        if kind not in BLOCK_KINDS:
            ctx.probs.add(ctx.path, block.line, f"unknown block kind {kind!r} in {entry_id!r}")
        elif not isinstance(text, str) or not text.strip():
            ctx.probs.add(ctx.path, block.line, f"{kind} block of {entry_id!r} must be text")
        else:
            for problem in icon_problems(text, ctx.icons):
                ctx.probs.add(ctx.path, block.line, f"{problem} in {entry_id!r}")
            body.append(Block(kind, text.strip()))
    return tuple(body)


def load_entries(
    ctx: EntryContext,
    items: Any,
    out: dict[str, Entry],
    parent: str | None,
    depth: int,
) -> tuple[str, ...]:
    """Load a list of entries and their children into ``out`` in reading order; return their ids."""
    ids: list[str] = []
    for item in items:
        values = read_record(item, "entry", ctx.path, ctx.probs)
        if values is None:
            continue
        entry_id = values["id"]
        line = item.line_of("id")
        if entry_id in out:
            ctx.probs.add(
                ctx.path, line, f"duplicate id {entry_id!r} (first at {out[entry_id].location})"
            )
            continue
        for problem in icon_problems(values["title"], ctx.icons):
            ctx.probs.add(ctx.path, item.line_of("title"), f"{problem} in {entry_id!r}")
        values["body"] = _body(ctx, entry_id, values["body"])  # its problems before the children's
        # Reserve the id and its reading-order slot before the children take theirs.
        out[entry_id] = Entry(
            entry_id, values["kind"], entry_id, ctx.document, ctx.version, parent, (), ()
        )
        children: tuple[str, ...] = ()
        if values["children"] and depth + 1 >= MAX_ENTRY_DEPTH:
            ctx.probs.add(
                ctx.path,
                item.line_of("children"),
                f"children of {entry_id!r} nested more than {MAX_ENTRY_DEPTH} deep",
            )
        elif values["children"]:
            children = load_entries(ctx, values["children"], out, entry_id, depth + 1)
        out[entry_id] = _entry(ctx, values, parent, children, depth, f"{ctx.path}:{line}")
        ids.append(entry_id)
    return tuple(ids)


def _entry(
    ctx: EntryContext,
    values: dict[str, Any],
    parent: str | None,
    children: tuple[str, ...],
    depth: int,
    location: str,
) -> Entry:
    return Entry(
        id=values["id"],
        kind=values["kind"],
        title=values["title"],
        document=ctx.document,
        version=ctx.version,
        parent=parent,
        children=children,
        body=values["body"],
        page=values["page"],
        source=tuple(SourceSpan(s["file"], s["lines"]) for s in values["source"]),
        aliases=values["aliases"],
        card_ruling=values["card_ruling"],
        new=values["new"],
        continues=tuple(Lineage(c["ref"], c["relation"]) for c in values["continues"]),
        note=values["note"],
        depth=depth,
        location=location,
    )


def load_corrections(
    path: Path, probs: Problems
) -> tuple[tuple[Correction, ...], tuple[Removal, ...]]:
    """A version's corrections file, if there is one: its corrections and removed stretches."""
    if not path.exists():
        return (), ()
    raw = load_yaml(path)
    if raw is None:
        return (), ()
    data = read_record(raw, "corrections file", str(path), probs)
    if data is None:
        return (), ()
    corrections = tuple(
        Correction(
            c["entry"],
            c["source"],
            c["line"],
            c["original"],
            c["corrected"],
            c["evidence"],
            f"{path}:{c['_line']}",
        )
        for c in data["corrections"]
    )
    removed = tuple(
        Removal(r["source"], r["lines"], r["what"], r["reason"], f"{path}:{r['_line']}")
        for r in data["removed"]
    )
    return corrections, removed
