"""The printed contents (with 1.1's contents for headings the extraction lost) and the card list."""

from __future__ import annotations

import re

from ..common import heading_key
from .parse_003 import Stream
from .sections import HEADINGS, ORDER
from .source import CARDLINE_RE, GROUP_RE, LEADER_RE, SEED_003


def card_list(entries: dict, stream: Stream) -> None:
    """The card list from 003's clean table (first copy of each card number)."""
    seen: dict[int, tuple] = {}
    group = None
    pending = ""
    groups: dict[str, list] = {}
    order: list[str] = []
    lines_used: list[int] = []
    for ln in stream.card_lines:
        text = stream.lines[ln - 1].strip()
        g = GROUP_RE.match(text)
        if g:
            group = f"{g.group(1).title()} – {g.group(2).title()}"
            continue
        m = CARDLINE_RE.match(LEADER_RE.sub(" ", text))
        if not m:
            pending = (pending + " " + text).strip()
            continue
        kind, title, num, rarity = m.groups()
        if kind:
            group = kind.title()
        title = (pending + " " + title).strip() if pending else title
        pending = ""
        number = int(num)
        if number in seen or not title:
            continue
        seen[number] = (group, title, rarity)
        lines_used.append(ln)
        if group not in groups:
            groups[group] = []
            order.append(group)
        groups[group].append((number, title, rarity))
    body = []
    for g in order:
        items = "\n".join(f"- {t} – {n} {r}" for n, t, r in sorted(groups[g]))
        body.append({"rule": f"**{g}**\n\n{items}"})
    ent = entries["card-list"]
    ent["body"] = body
    if lines_used:
        ent["_src"][SEED_003].update(lines_used)
    missing = [n for n in range(1, max(seen, default=0) + 1) if n not in seen]
    ent["note"] = (
        "Read from 003's card list table (dot leaders dropped; affiliation icons after the group "
        "headings were lost in both extractions). 000's copy of the table is garbled and was not used."
        + (f" Numbers not found: {missing}." if missing else "")
    )


def _section(title: str) -> str | None:
    return HEADINGS.get(heading_key(title))


def contents_11(lines_11: list[str]) -> list[tuple[str, None]]:
    """1.1's contents items (no page numbers)."""
    out = []
    started = False
    for line in lines_11:
        text = line.strip()
        if text.lower() == "table of contents":
            started = True
            continue
        if not started or not text:
            continue
        if text.startswith("back to top"):
            break
        out.append((text, None))
    return out


def read_toc(toc_lines: list[tuple[int, str]], lines_11: list[str]) -> list[dict]:
    """The printed contents, columns untangled; lost headings from 1.1's contents."""
    col1, col2, pages = _columns(toc_lines)
    _fill_pages(col2, pages)
    col2_all = _with_lost_headings(col1, col2, contents_11(lines_11))
    return _toc_items(col1 + col2_all)


def _columns(toc_lines: list[tuple[int, str]]) -> tuple[list[list], list[list], list[int]]:
    """The two columns' [title, page] items, and the page numbers printed on lines of their own."""
    col1: list[list] = []
    col2: list[list] = []
    pages: list[int] = []
    in_col2 = False
    for _ln, raw in toc_lines:
        parts = [p.strip() for p in raw.split("\t")]
        # Once a line shows both columns, a line with one part is column 2's.
        in_col2 = in_col2 or len(parts) > 1
        for k, part in enumerate(parts):
            target = col2 if k > 0 or (in_col2 and len(parts) == 1) else col1
            _read_part(part, target, col1, pages)
    return col1, col2, pages


def _read_part(part: str, target: list[list], col1: list[list], pages: list[int]) -> None:
    """One cell of a contents line: a page number, or a title (and page) for ``target``."""
    if not part or "CONTENTS" in part.upper() or part.startswith("This version"):
        return
    if re.fullmatch(r"\.+\s*\d+", part):
        pages.append(int(re.sub(r"\D", "", part)))
        return
    m = re.match(r"^(.*?)[\s.]*(\d{1,2})?$", part)
    title, page = m.group(1).strip(), m.group(2)
    if not title:
        return
    dup = _longer_title(col1, title)
    if dup is not None:
        # Column 1 spilled again with its first letters cut off: only its page number may be new.
        if page and not dup[1]:
            dup[1] = int(page)
        return
    if any(it[0] == title for it in col1):
        return
    target.append([title, int(page) if page else None])


def _longer_title(col1: list[list], title: str) -> list | None:
    """The column-1 item whose title is longer than ``title`` and ends with it."""
    return next(
        (
            it
            for it in col1
            if it[0].upper().endswith(title.upper()) and it[0].upper() != title.upper()
        ),
        None,
    )


def _fill_pages(col2: list[list], pages: list[int]) -> None:
    """Column 2's items without a page take the lone page numbers, in order."""
    for item, page in zip([it for it in col2 if it[1] is None], pages, strict=False):
        if item[1] is None:
            item[1] = page


def _with_lost_headings(col1: list[list], col2: list[list], ref: list[tuple[str, None]]) -> list:
    """Column 2 as printed: the headings this extraction lost (from 1.1's contents ``ref``)
    and the extracted ones, in 1.1's order."""
    found = {_section(t) for t, _ in col1 + col2}
    in_col1 = {_section(x) for x, _ in col1}
    last1 = max((i for i, (t, _) in enumerate(ref) if _section(t) in in_col1), default=-1)
    lost = [[t, None] for t, _ in ref[last1 + 1 :] if _section(t) and _section(t) not in found]
    col2_all = lost + col2
    col2_all.sort(key=lambda it: ORDER.get(_section(it[0]) or "", 999))
    return col2_all


def _toc_items(items: list[list]) -> list[dict]:
    """The contents items of the titles that name a section: title, page if printed, entry."""
    toc = []
    for title, page in items:
        sid = _section(title)
        if sid is None:
            continue
        item = {"title": title}
        if page:
            item["page"] = page
        item["entry"] = sid
        toc.append(item)
    return toc
