"""Reading the 1.1 web scrape: header, contents, headings, captions and the section tree."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..common import Removal, heading_key, is_caps, read_lines, slugify
from .blocks import build_blocks
from .contents import is_standalone, match_contents, parse_contents, title_case
from .evidence import SeedIndex, evidence, icon_labels, read_legend
from .icon_words import IconFix

NAV_RE = re.compile(r"^\s*back to top of page\s+(?P<title>\S.*?)\s*$", re.I)
TOC_RE = re.compile(r"^\s*table of contents\s*$", re.I)
VERSION_RE = re.compile(
    r"^\s*Version\s+(?P<id>\S+)\s+from\s+(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>\d{4})\s*$"
)


@dataclass
class Section:
    """One heading (or captioned figure) of the page with its lines, blocks and children."""

    id: str
    title: str
    heading: str
    level: int
    start: int  # first line (the heading line, or the caption line)
    end: int = 0
    lines: list[tuple[int, str]] = field(default_factory=list)
    children: list[Section] = field(default_factory=list)
    note: str | None = None
    blocks: list[dict] = field(default_factory=list)


@dataclass
class Parsed:
    """What the scrape holds: version facts, contents, the section tree and the draft records."""

    title: str
    version: str | None
    released: str | None
    released_printed: str | None
    toc: list[dict]
    roots: list[Section]
    fixes: list[IconFix]
    removed: list[Removal]


@dataclass
class _Header:
    title: str | None = None
    version: str | None = None
    released: str | None = None
    printed: str | None = None


def _header(lines: list[str], name: str, toc_line: int, removed: list[Removal]) -> _Header:
    """Title and version line above the contents; the site's junk there is removed."""
    head = _Header()
    junk: list[int] = []
    meta: list[int] = []
    for number in range(1, toc_line):
        text = lines[number - 1].strip()
        if not text:
            continue
        m = VERSION_RE.match(text)
        if m:
            head.version, head.printed = m.group("id"), text
            head.released = f"{m.group('y')}-{int(m.group('m')):02d}-{int(m.group('d')):02d}"
            meta.append(number)
        elif is_caps(text) and "RULEBOOK" in text:
            head.title = text
            meta.append(number)
        else:
            junk.append(number)
    if junk:
        names = ", ".join(repr(lines[n - 1].strip()) for n in junk)
        what = f"site header and navigation of the web page ({names})"
        removed.append(Removal(name, junk[0], junk[-1], what, "debris"))
    if meta:
        what = (
            "document title and version line (recorded as the version's title and released_printed)"
        )
        removed.append(Removal(name, meta[0], meta[-1], what, "debris"))
    return head


def _headings(
    lines: list[str], name: str, items: list[dict], first_nav: int, removed: list[Removal]
) -> tuple[list[Section], list[tuple[int, str]]]:
    """Sections from the navigation headings and stand-alone sub-headings; the captions left over."""
    sections: list[Section] = []
    captions: list[tuple[int, str]] = []
    current: Section | None = None
    pointer = 0
    last_caps_level = 0
    for number in range(first_nav, len(lines) + 1):
        raw = lines[number - 1]
        nav = NAV_RE.match(raw)
        heading = None
        if nav:
            heading = nav.group("title")
            what = (
                f"'back to top of page' navigation link before the heading {heading!r} "
                "(the heading is the entry's title)"
            )
            removed.append(Removal(name, number, number, what, "navigation"))
        elif is_standalone(lines, number):
            candidate = raw.strip()
            if match_contents(items, candidate, pointer) is not None:
                heading = candidate
            else:
                captions.append((number, candidate))
                if current:
                    current.lines.append((number, ""))
                continue
        if heading is None:
            if current:
                current.lines.append((number, raw))
            continue
        index = match_contents(items, heading, pointer)
        if index is not None:
            item = items[index]
            level = item["level"]
            entry_id = heading_key(item["title"])
            pointer = index + 1
        else:
            level = last_caps_level + 1
            entry_id = heading_key(heading)
        if is_caps(heading):
            last_caps_level = level
        else:
            level = max(level, last_caps_level + 1)
        current = Section(entry_id, title_case(heading), heading, level, number)
        if index is not None:
            items[index]["entry"] = current
        sections.append(current)
    return sections, captions


def _unheaded(
    lines: list[str],
    name: str,
    items: list[dict],
    captions: list[tuple[int, str]],
    removed: list[Removal],
) -> list[Section]:
    """Contents items without a heading: a figure caption between their neighbours, if any."""
    sections = []
    for i, item in enumerate(items):
        if item["entry"] is not None:
            continue
        prev = next((items[j]["entry"] for j in range(i - 1, -1, -1) if items[j]["entry"]), None)
        nxt = next((items[j]["entry"] for j in range(i + 1, len(items)) if items[j]["entry"]), None)
        low = prev.start if prev else 0
        high = nxt.start if nxt else len(lines) + 1
        caption = next(((n, c) for n, c in captions if low < n < high), None)
        start = caption[0] if caption else (nxt.start if nxt else len(lines))
        section = Section(
            heading_key(item["title"]),
            title_case(item["title"]),
            item["title"],
            item["level"],
            start,
        )
        if caption:
            section.note = (
                f"The web page shows this as an image captioned {caption[1]!r}; the image is not "
                "in the source text."
            )
            what = f"caption of the image {caption[1]!r} (section {item['title']!r})"
            removed.append(Removal(name, caption[0], caption[0], what, "figure"))
        else:
            section.note = "Listed in the contents; no heading in the source text."
        item["entry"] = section
        sections.append(section)
        captions[:] = [c for c in captions if c != caption]
    last_line = max(i + 1 for i, line in enumerate(lines) if line.strip())
    for number, caption in captions:
        if number == last_line:
            what = f"link {caption!r} at the foot of the page (to another page)"
            removed.append(Removal(name, number, number, what, "navigation"))
        else:
            removed.append(Removal(name, number, number, f"figure caption {caption!r}", "figure"))
    return sections


def _nest(sections: list[Section]) -> list[Section]:
    """Line ranges, unique ids and nesting by level; the top-level sections."""
    seen: set[str] = set()
    stack: list[Section] = []
    roots: list[Section] = []
    for sec in sections:
        body = [n for n, text in sec.lines if text.strip()]
        sec.end = body[-1] if body else sec.start
        while stack and stack[-1].level >= sec.level:
            stack.pop()
        if sec.id in seen and stack:
            # A heading printed twice (under two chapters) is told apart by its parent.
            sec.id = f"{sec.id}-{stack[-1].id}"
        seen.add(sec.id)
        (stack[-1].children if stack else roots).append(sec)
        stack.append(sec)
    return roots


def parse(path: Path, seeds: Path) -> Parsed:
    """Read the scrape at ``path``; the other texts in ``seeds`` give evidence for corrections."""
    lines = read_lines(path)
    name = path.name
    removed: list[Removal] = []
    fixes: list[IconFix] = []

    toc_line = next(i + 1 for i, line in enumerate(lines) if TOC_RE.match(line))
    first_nav = next(i + 1 for i, line in enumerate(lines) if NAV_RE.match(line))
    head = _header(lines, name, toc_line, removed)
    items = parse_contents(lines, toc_line + 1, first_nav - 1)
    last_toc = max(i["line"] for i in items)
    what = "printed table of contents (recorded as toc:)"
    removed.append(Removal(name, toc_line, last_toc, what, "toc"))

    sections, captions = _headings(lines, name, items, first_nav, removed)
    sections += _unheaded(lines, name, items, captions, removed)
    sections.sort(key=lambda s: (s.start, 0 if s.lines else 1))
    roots = _nest(sections)
    toc = [{"title": item["title"], "entry": item["entry"].id} for item in items]

    by_title = {slugify(s.title): s.id for s in sections}
    by_title.update({heading_key(i["title"]): i["entry"].id for i in items})
    for sec in sections:
        sec_fixes: list[IconFix] = []
        sec.blocks = build_blocks(sec.lines, sec_fixes, by_title)
        for fix in sec_fixes:
            fix.entry = sec.id
            fix.source = name
        fixes.extend(sec_fixes)
    index = SeedIndex(seeds)
    labels = icon_labels()
    legend = read_legend(seeds)
    for fix in fixes:
        fix.evidence = evidence(fix, index, labels, legend)
    return Parsed(
        head.title or path.stem,
        head.version,
        head.released,
        head.printed,
        toc,
        roots,
        fixes,
        removed,
    )
