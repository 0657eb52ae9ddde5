"""The fragmented extraction (003): repeated fragments and debris dropped, a token stream kept."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..common import Removal
from .sections import find_heading
from .source import (
    ADVERT_RE,
    CONTACT_RE,
    GROUP_RE,
    LEADER_RE,
    LEGAL_NOTICE,
    LEGAL_RE,
    MARKER_RE,
    RUNNING_003,
    SEED_003,
    Tok,
    keys,
    tokens,
)


@dataclass
class Stream:
    """003's text as tokens, with the heading that governs each line and its list items."""

    toks: list[Tok]
    lines: list[str]
    governing: dict[int, str | None]  # 003 line -> governing heading id (reset at page furniture)
    headings: dict[int, str]  # 003 line -> heading id
    items: set[int]  # 003 lines that begin a list item
    fragment: dict[int, int]
    card_lines: list[int]


def _fragments(lines: list[str]) -> list[list[int]]:
    """[first, last] line of each fragment (a marker starts a new one)."""
    frags: list[list[int]] = []
    for i, line in enumerate(lines, 1):
        if MARKER_RE.match(line) or not frags:
            frags.append([i, i])
        else:
            frags[-1][1] = i
    return frags


def _repeats(frags: list[list[int]], bare: list[str], removals: list[Removal]) -> set[int]:
    """Fragments whose text another (longer or earlier) fragment holds."""
    texts = [keys(" ".join(bare[a - 1 : b])) for a, b in frags]
    skip: set[int] = set()
    for k, (a, b) in enumerate(frags):
        t = texts[k]
        if not t:
            continue
        for j, other in enumerate(texts):
            if j != k and j not in skip and t in other and (len(other) > len(t) or j < k):
                what = f"repeated fragment (the same text is at lines {frags[j][0]}-{frags[j][1]})"
                removals.append(Removal(SEED_003, a, b, what, "duplicate"))
                skip.add(k)
                break
    return skip


def _contact_end(bare: list[str], ln: int, b: int) -> int:
    end = ln
    while end < b and (not bare[end].strip() or re.match(r"^(•|\d{5})", bare[end].strip())):
        end += 1
    return end


def _read_fragment(s: Stream, a: int, b: int, removals: list[Removal]) -> None:
    """Add one fragment's lines to the stream, removing its debris."""
    bare = s.lines
    current = None
    in_cards = False
    ln = a
    while ln <= b:
        text = bare[ln - 1].strip()
        if not text:
            ln += 1
            continue
        if CONTACT_RE.match(text):
            what = "Contacting Decipher (heading and the start of its list)"
            removals.append(Removal(SEED_003, ln, b, what, "contact"))
            break
        if re.match(
            r"^(website:|•\s*(address|customer service|gameplay|telephone|tournaments))", text
        ) or re.match(r"^\d{5}-\d{4}$", text):
            end = _contact_end(bare, ln, b)
            what = "Contacting Decipher: web site, postal address, e-mail"
            removals.append(Removal(SEED_003, ln, end, what, "contact"))
            ln = end + 1
            continue
        if LEGAL_RE.match(text):
            end = ln
            while end < b and bare[end].strip():
                end += 1
            removals.append(Removal(SEED_003, ln, end, LEGAL_NOTICE, "contact"))
            ln = end + 1
            continue
        if any(p.match(text) for p in RUNNING_003):
            what = f"running page header/footer {text!r}"
            removals.append(Removal(SEED_003, ln, ln, what, "debris"))
            current = None
            ln += 1
            continue
        if (
            in_cards
            or LEADER_RE.search(text)
            or GROUP_RE.match(text)
            or re.search(r"[a-z]\s*\d{1,3} [RUCS]$", text)
        ):
            in_cards = True  # the card list table runs to the end of its fragment
            s.card_lines.append(ln)
            ln += 1
            continue
        hid = find_heading(text) if not text.startswith("•") else None
        if hid:
            s.headings[ln] = hid
            current = hid
        if text.startswith("•") or re.match(r"^\d+\.\s", text):
            s.items.add(ln)
        s.governing[ln] = current
        if not hid:
            s.toks.extend(tokens(text, ln))
        ln += 1


def parse_003(lines: list[str]) -> tuple[Stream, list[Removal]]:
    """003 as a token stream of its unrepeated text, and what was removed."""
    removals: list[Removal] = []
    frags = _fragments(lines)
    bare = [MARKER_RE.sub("", line) for line in lines]
    skip = _repeats(frags, bare, removals)
    fragment_of = {ln: k for k, (a, b) in enumerate(frags) for ln in range(a, b + 1)}
    stream = Stream([], bare, {}, {}, set(), fragment_of, [])
    for k, (a, b) in enumerate(frags):
        if k in skip:
            continue
        if ADVERT_RE.search(" ".join(bare[a - 1 : b])):
            what = "advertising: online game, fan club store, Communicator magazine"
            removals.append(Removal(SEED_003, a, b, what, "advertising"))
            continue
        _read_fragment(stream, a, b, removals)
    return stream, removals
