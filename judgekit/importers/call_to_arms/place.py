"""003 text that 000 lacks, placed beside its 003 neighbours; icon captions restored."""

from __future__ import annotations

import re
from collections import defaultdict

from .parse_003 import Stream
from .sections import CAPTION_ICONS, CAPTION_RE, ORDER, SECTIONS
from .source import SEED_003, Records, Tok, Unit


def _continues(
    stream: Stream, group: list[int], ln: int, by_line: dict, orphans: list[int]
) -> bool:
    """Orphan line ``ln`` goes on the paragraph of ``group`` (same fragment, no break between)."""
    last = group[-1]
    between = range(last + 1, ln)
    return (
        stream.fragment.get(ln) == stream.fragment.get(last)
        and all(not stream.lines[k - 1].strip() or k in by_line and k in orphans for k in between)
        and ln not in stream.items
        and not any(k in stream.headings for k in range(last + 1, ln + 1))
        and not CAPTION_RE.match(stream.lines[ln - 1].strip())
        and (
            not any(not stream.lines[k - 1].strip() for k in between)
            or not re.search(r"[.!?:]$", stream.lines[last - 1].strip())
            or stream.lines[ln - 1].strip()[:1].islower()
        )
    )


def _orphan_groups(stream: Stream, used: set[int]) -> list[list[int]]:
    """Runs of 003 lines whose tokens mostly no unit took, one run a paragraph or item."""
    by_line: dict[int, list[tuple[int, Tok]]] = defaultdict(list)
    for p, t in enumerate(stream.toks):
        by_line[t.line].append((p, t))
    orphans = sorted(
        ln for ln, pts in by_line.items() if sum(p in used for p, _ in pts) < len(pts) / 2
    )
    groups: list[list[int]] = []
    for ln in orphans:
        if groups and _continues(stream, groups[-1], ln, by_line, orphans):
            groups[-1].append(ln)
        else:
            groups.append([ln])
    return groups


def _neighbour(
    stream: Stream, covered: dict[int, Unit], lines: range, frag: int | None
) -> Unit | None:
    """The first unit holding one of ``lines`` of the same fragment."""
    return next(
        (covered[k] for k in lines if k in covered and stream.fragment.get(k) == frag), None
    )


def place_orphans(
    units: list[Unit], stream: Stream, used: set[int], records: Records
) -> list[Unit]:
    """The units with 003's text that 000 lacks inserted where its neighbours in 003 are."""
    covered_lines: dict[int, Unit] = {}
    for unit in units:
        for ln in unit.src003:
            covered_lines.setdefault(ln, unit)
    result = list(units)
    for group in _orphan_groups(stream, used):
        unit = _orphan_unit(stream, group)
        before, after = _assign_entry(stream, covered_lines, group, unit)
        at = _insert_index(result, unit, before, after)
        prev = result[at - 1] if at else None
        if prev is not None and _continues_caption(prev, unit):
            _extend_caption(prev, group, stream, records)
            holder = prev
        else:
            caption_icons(unit, records)
            result.insert(at, unit)
            holder = unit
        for ln in group:
            covered_lines.setdefault(ln, holder)
    return result


def _orphan_unit(stream: Stream, group: list[int]) -> Unit:
    """A paragraph or list item of the 003 lines ``group``, not yet placed."""
    text = " ".join(stream.lines[ln - 1].strip() for ln in group)
    unit = Unit(
        "item" if group[0] in stream.items else "para",
        [(ln, stream.lines[ln - 1].strip()) for ln in group],
        src=SEED_003,
    )
    unit.text = re.sub(r"^•\s*", "", text)
    unit.src003 = group
    return unit


def _assign_entry(
    stream: Stream, covered: dict[int, Unit], group: list[int], unit: Unit
) -> tuple[Unit | None, Unit | None]:
    """Set the unit's entry; return its placed neighbours in 003 (before, after) that may anchor it.

    The entry is the governing heading's in 003, else the neighbours'.
    """
    gov = stream.governing.get(group[0])
    frag = stream.fragment.get(group[0])
    before = _neighbour(stream, covered, range(group[0] - 1, 0, -1), frag)
    after = _neighbour(stream, covered, range(group[-1] + 1, len(stream.lines) + 1), frag)
    unit.entry = gov or (before.entry if before else after.entry if after else None)
    nxt = next(
        (k for k in range(group[-1] + 1, len(stream.lines) + 1) if stream.lines[k - 1].strip()),
        None,
    )
    if not gov and nxt in stream.headings and ORDER[stream.headings[nxt]] > 0:
        # text that runs into a heading belongs to the section before that heading
        unit.entry = SECTIONS[ORDER[stream.headings[nxt]] - 1][0]
        before = after = None
    return before, after


def _insert_index(result: list[Unit], unit: Unit, before: Unit | None, after: Unit | None) -> int:
    """Where the unit goes: beside a neighbour of its entry, else after its entry's last unit."""
    anchor = (
        before
        if before and before.entry == unit.entry
        else after
        if after and after.entry == unit.entry
        else None
    )
    if anchor is not None and anchor in result:
        return result.index(anchor) + (1 if anchor is before else 0)
    return max(
        (k + 1 for k, u in enumerate(result) if u.entry == unit.entry),
        default=len(result),
    )


def _continues_caption(prev: Unit, unit: Unit) -> bool:
    """``prev`` is an icon caption of the unit's entry whose icons are not yet restored."""
    return bool(
        prev.entry == unit.entry and CAPTION_RE.search(prev.text) and "{icon:" not in prev.text
    )


def _extend_caption(prev: Unit, group: list[int], stream: Stream, records: Records) -> None:
    """The rest of a caption whose first line 000 also has: one caption, from 003's lines."""
    first = min(prev.src003) if prev.src003 else group[0]
    prev.lines = [
        (ln, stream.lines[ln - 1].strip())
        for ln in range(first, group[-1] + 1)
        if stream.lines[ln - 1].strip()
    ]
    prev.text = " ".join(t for _, t in prev.lines)
    prev.src = SEED_003
    prev.src003 = sorted(set(prev.src003) | set(group))
    caption_icons(prev, records)


def caption_icons(unit: Unit, records: Records) -> None:
    """An icon caption: put the lost icons back before their printed labels."""
    m = CAPTION_RE.match(unit.text)
    icons = CAPTION_ICONS.get(unit.entry or "")
    if not m or not icons:
        return
    rest = unit.text[m.end() :].strip()
    labels = sorted(icons, key=len, reverse=True)
    found = []
    while rest:
        for label in labels:
            if rest.startswith(label):
                found.append(label)
                rest = rest[len(label) :].strip()
                break
        else:
            return
    items = []
    for label in found:
        items.append(f"- {{icon:{icons[label]}}} {label}")
        line = next(ln for ln, t in unit.lines if re.search(rf"(^|\s){re.escape(label)}(\s|$)", t))
        evidence = (
            f"icon lost beside its printed label {label!r}; the same caption in 1.1 (002) "
            "names the icon"
        )
        records.fix(unit, SEED_003, line, label, f"{{icon:{icons[label]}}} {label}", evidence)
    unit.text = m.group(0) + "\n\n" + "\n".join(items)
    unit.kind = "para"
