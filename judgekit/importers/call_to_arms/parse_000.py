"""The OCR extraction (000): front matter and contents, debris, and the units of the text."""

from __future__ import annotations

import re

from ..common import Removal
from .sections import find_heading, is_label
from .source import (
    ADVERT_RE,
    CONTACT_RE,
    LEGAL_NOTICE,
    LEGAL_RE,
    RUNNING_000,
    SEED_000,
    Unit,
)

TOC_SPILL = "table of contents (two columns spilled into the text)"


def clean_000(line: str) -> str:
    """The line with HTML italics as Markdown and no trailing blanks."""
    line = re.sub(r"</?i>", "*", line)
    return line.rstrip("\t ")


def _contents_line(text: str) -> bool:
    return bool(re.search(r"\S\s*\d{1,2}$", text)) or text.startswith(".")


def _body_start(lines: list[str]) -> int:
    """The body starts at the heading just before the first long paragraph (0-based)."""
    first_long = next(
        i
        for i, line in enumerate(lines)
        if len(line.split()) >= 20 and "\t" not in line and line.rstrip().endswith(".")
    )
    return max(i for i in range(first_long) if find_heading(lines[i]))


def _front_matter(
    lines: list[str], body: int, removals: list[Removal]
) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The contents lines and the version statement before the body; the rest is removed."""
    guide = next((i for i, line in enumerate(lines[:body]) if "ICON GUIDE" in line), -1)
    contents = next(
        (i for i, line in enumerate(lines[:body]) if "TABLE OF CONTENTS" in line.upper()), body
    )
    _remove_cover(guide, contents, removals)
    toc_lines: list[tuple[int, str]] = []
    statement: list[tuple[int, str]] = []
    run_start = None
    for i in range(contents, body):
        line = lines[i].strip()
        if re.match(r"^This version of\b", line):
            statement.append((i + 1, clean_000(line)))
            if run_start is not None:
                removals.append(Removal(SEED_000, run_start, i, TOC_SPILL, "toc"))
                run_start = None
            continue
        if _read_as_contents(line, lines[i]):
            toc_lines.append((i + 1, lines[i]))
        if run_start is None and line:
            run_start = i + 1
        if line and _part_of_contents(line, lines[i]):
            last_toc = i + 1
        elif line:
            # a banner line after the contents
            if run_start is not None and run_start <= last_toc:
                removals.append(Removal(SEED_000, run_start, last_toc, TOC_SPILL, "toc"))
            removals.append(Removal(SEED_000, i + 1, i + 1, "rulebook title banner", "debris"))
            run_start = None
    if run_start is not None:
        removals.append(Removal(SEED_000, run_start, last_toc, TOC_SPILL, "toc"))
    return toc_lines, statement


def _remove_cover(guide: int, contents: int, removals: list[Removal]) -> None:
    """Remove the icon guide (0-based line ``guide``, -1 if none) and the cover title lines."""
    if guide >= 0:
        what = "icon guide legend (icon names run together) and its title"
        removals.append(Removal(SEED_000, 1, guide + 1, what, "figure"))
    if contents > guide + 1:
        what = "cover title lines (SECOND EDITION RULEBOOK, CUSTOMIZABLE CARD GAME)"
        removals.append(Removal(SEED_000, guide + 2, contents, what, "debris"))


def _read_as_contents(line: str, raw: str) -> bool:
    """The line goes to the contents reader: an item, a two-column line, the title, a heading."""
    return bool(
        (line and _contents_line(line))
        or "\t" in raw
        or line.upper() == "TABLE OF CONTENTS"
        or (line and find_heading(line))
    )


def _part_of_contents(line: str, raw: str) -> bool:
    """The (non-blank) line is part of the contents, not a banner printed after them."""
    return bool(
        _contents_line(line) or "\t" in raw or find_heading(line) or "CONTENTS" in line.upper()
    )


def _unit(raw: str, num: int) -> Unit:
    """A paragraph or list item (bulleted, numbered, indented one level) of the body."""
    m = re.match(r"^(\s*)(?:[-•]\s+)?(?:·\s*)?(\d+\.\s+)?", raw)
    indent = len(m.group(1))
    is_item = bool(re.match(r"^\s*(?:[-•]|\d+\.)\s+", raw)) or raw.lstrip().startswith("•")
    body_text = re.sub(r"^\s*(?:[-•]\s+)?(?:·\s*)?", "", raw).strip()
    unit = Unit("item" if is_item else "para", [(num, body_text)], level=1 if indent else 0)
    if re.match(r"^\d+\.\s", body_text):
        unit.numbered = body_text.split()[0]
    return unit


def _body(lines: list[str], body: int, removals: list[Removal]) -> list[Unit]:
    """The units of the body, debris (headers, figures, contact, advertising) removed."""
    n = len(lines)
    units: list[Unit] = []
    i = body
    section = None
    figure: list[int] = []

    def flush_figure() -> None:
        if figure:
            what = "figure labels spilled into the text"
            removals.append(Removal(SEED_000, figure[0], figure[-1], what, "figure"))
            figure.clear()

    while i < n:
        raw = clean_000(lines[i])
        text = raw.strip()
        num = i + 1
        i += 1
        if not text:
            continue
        if ADVERT_RE.search(text):
            flush_figure()
            what = "advertising: fan club store, Communicator magazine, online game"
            removals.append(Removal(SEED_000, num, n, what, "advertising"))
            break
        if CONTACT_RE.match(text):
            flush_figure()
            end = num
            while (
                end < n
                and not LEGAL_RE.match(lines[end].strip())
                and not find_heading(lines[end].strip())
            ):
                end += 1
            what = "Contacting Decipher: web sites, postal address, e-mail, telephone"
            removals.append(Removal(SEED_000, num, end, what, "contact"))
            i = end
            continue
        if LEGAL_RE.match(text):
            removals.append(Removal(SEED_000, num, num, LEGAL_NOTICE, "contact"))
            continue
        if any(p.match(text) for p in RUNNING_000):
            flush_figure()
            what = f"running page header/footer {text!r}"
            removals.append(Removal(SEED_000, num, num, what, "debris"))
            continue
        hid = find_heading(text)
        if hid:
            flush_figure()
            section = hid
            units.append(Unit("heading", [(num, text)], heading_id=hid))
            if hid == "card-list":
                end = num
                while end < n and not ADVERT_RE.search(lines[end]):
                    end += 1
                what = (
                    "card list table, garbled in this extraction (columns run together, OCR "
                    "errors); the list is read from 003"
                )
                removals.append(Removal(SEED_000, num + 1, end, what, "figure"))
                i = end
            continue
        if is_label(text) and section not in {"credits"}:
            figure.append(num)
            continue
        flush_figure()
        units.append(_unit(raw, num))
    flush_figure()
    return units


def parse_000(
    lines: list[str],
) -> tuple[list[Unit], list[Removal], list[tuple[int, str]], list[tuple[int, str]]]:
    """Units, removals, the raw contents lines and the version statement of 000."""
    removals: list[Removal] = []
    body = _body_start(lines)
    toc_lines, statement = _front_matter(lines, body, removals)
    units = _body(lines, body, removals)
    return units, removals, toc_lines, statement
