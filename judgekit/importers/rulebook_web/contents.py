"""The 1.1 page's contents list and headings: reading the list and matching headings to it."""

from __future__ import annotations

import difflib
import re

from ..common import heading_key, is_caps

BULLET_RE = re.compile(r"^\s*[•·]\s+(?P<text>.*\S)\s*$")
NUMBERED_RE = re.compile(r"^\s+(?P<n>\d+)\.\s+(?P<text>.*\S)\s*$")
SEGMENT_RE = re.compile(r"^\s*\d+\.\s+")

SMALL_WORDS = {
    "a",
    "an",
    "and",
    "as",
    "at",
    "but",
    "by",
    "for",
    "in",
    "of",
    "on",
    "or",
    "the",
    "to",
    "with",
}


def title_case(heading: str) -> str:
    """An ALL CAPS or all-lowercase heading in title case; mixed case stays as printed."""
    letters = [c for c in heading if c.isalpha()]
    if not letters or not (all(c.isupper() for c in letters) or all(c.islower() for c in letters)):
        return heading
    words = heading.lower().split()
    out = []
    for i, word in enumerate(words):
        first = i == 0 or re.match(r"^\d+\.$", words[i - 1] if i else "")
        out.append(word if (word in SMALL_WORDS and not first) else word[:1].upper() + word[1:])
    return " ".join(out)


def similarity(a: str, b: str) -> float:
    """How well a contents item and a text heading agree (keys, word subsets, spelling)."""
    ka, kb = heading_key(a), heading_key(b)
    if ka == kb:
        return 1.0
    wa, wb = ka.split("-"), kb.split("-")
    num_a, num_b = re.match(r"^\s*(\d+)\.", a), re.match(r"^\s*(\d+)\.", b)
    if num_a and num_b and num_a.group(1) != num_b.group(1):
        return 0.0
    if set(wa) <= set(wb) or set(wb) <= set(wa):
        return 0.9
    return difflib.SequenceMatcher(None, ka, kb).ratio()


def parse_contents(lines: list[str], first: int, last: int) -> list[dict]:
    """The contents items with their nesting level (ALL CAPS chapters, numbered segments)."""
    items = []
    caps_level = 0
    for number in range(first, last + 1):
        text = lines[number - 1].strip()
        if not text:
            continue
        if is_caps(text):
            level = 1 if SEGMENT_RE.match(text) else 0
            caps_level = level
        else:
            level = caps_level + 1
        items.append({"title": text, "level": level, "line": number, "entry": None})
    return items


def is_standalone(lines: list[str], number: int) -> bool:
    """A short unpunctuated line between blank lines: a sub-heading or a figure caption."""
    text = lines[number - 1].strip()
    before = lines[number - 2].strip() if number > 1 else ""
    after = lines[number].strip() if number < len(lines) else ""
    return (
        bool(text)
        and not before
        and not after
        and len(text.split()) <= 6
        and not re.search(r"[.:;,!?)\"”]$", text)
        and not BULLET_RE.match(lines[number - 1])
        and not NUMBERED_RE.match(lines[number - 1])
    )


def match_contents(items: list[dict], heading: str, pointer: int) -> int | None:
    """Index of the contents item this heading is, looking a few items ahead."""
    best, best_score = None, 0.0
    for i in range(pointer, min(pointer + 4, len(items))):
        if items[i]["entry"] is not None:
            continue
        score = similarity(items[i]["title"], heading)
        if score < 0.75 and heading.lower().endswith(" cards"):
            score = similarity(items[i]["title"], heading[: -len(" cards")])
        if score > best_score + 0.05 * (i - pointer):
            best, best_score = i, score
    return best if best_score >= 0.75 else None
