"""Snippets: the window of an item's text that holds most of the words asked about, marked."""

from __future__ import annotations

import html
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache

from judgekit.search.analysis import TOKEN_RE, stem_token


@dataclass(frozen=True)
class _Flat:
    """A text prepared for snippets (kept: results repeat): whitespace made single, each word's
    place and index term, where each term stands among the words, and how to escape pieces."""

    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    stems: tuple[str, ...]
    at: dict[str, tuple[int, ...]]
    # The marks as a snippet is built: <mark> itself, or for a text with a character HTML needs
    # escaped, two characters the text does not hold, put in place of the marks once the
    # window is escaped (one escape of the window, not one for each piece between marks).
    marks: tuple[str, str]


_MARKS = ("<mark>", "</mark>")


def _stand_ins(text: str) -> tuple[str, str]:
    """Two characters of Unicode's private use area that the text does not hold."""
    free = (c for c in map(chr, range(0xE000, 0xF900)) if c not in text)
    return next(free), next(free)


@lru_cache(maxsize=4096)
def _flat(text: str) -> _Flat:
    """The _Flat of a text."""
    flat = " ".join(text.split())
    tokens = [
        (m.start(), m.end(), s)
        for m in TOKEN_RE.finditer(flat)
        if (s := stem_token(m.group())) is not None
    ]
    at: dict[str, list[int]] = {}
    for i, token in enumerate(tokens):
        at.setdefault(token[2], []).append(i)
    # Most texts hold no character HTML needs escaped: skip the work for them.
    marks = _stand_ins(flat) if any(c in flat for c in "&<>\"'") else _MARKS
    return _Flat(
        flat,
        tuple(t[0] for t in tokens),
        tuple(t[1] for t in tokens),
        tuple(t[2] for t in tokens),
        {k: tuple(v) for k, v in at.items()},
        marks,
    )


def _best_window(flat: _Flat, hits: list[int], width: int, distinct: int) -> int:
    """The first hit of the window (width characters) holding most distinct query terms.

    distinct: how many terms the hits hold (no window holds more: the search stops there).
    """
    places = [flat.starts[hit] for hit in hits]
    terms = [flat.stems[hit] for hit in hits]
    count = len(hits)
    best, best_count, j, counts = 0, -1, 0, {}
    for i in range(count):
        reach = places[i] + width - 30
        while j < count and places[j] < reach:
            term = terms[j]
            counts[term] = counts.get(term, 0) + 1
            j += 1
        if len(counts) > best_count:
            best, best_count = i, len(counts)
            if best_count == distinct:
                break
        term = terms[i]
        left = counts[term] - 1
        if left:
            counts[term] = left
        else:
            del counts[term]
    return hits[best]


def text_stems(text: str) -> list[str]:
    """The index terms of a text, in order, as stems() gives them (kept with its snippet data)."""
    return list(_flat(text).stems)


def snippet(text: str, terms: frozenset[str] | set[str], width: int = 220) -> str:
    """Escaped HTML: the window of text with most distinct query terms, each in <mark>."""
    # A snippet depends only on which of the query's terms the text holds: a question sharing
    # those with an earlier one (a judge typing, rephrasing, asking again) finds it made.
    return _snippet(text, frozenset(_flat(text).at.keys() & terms), width)


@lru_cache(maxsize=16384)  # ~1 KB each: a bound of some 16 MB
def _snippet(text: str, held: frozenset[str], width: int) -> str:
    """The snippet of a text holding these of the query's terms."""
    flat = _flat(text)
    body = flat.text
    if not body:
        return ""
    at = flat.at
    found = [at[t] for t in held]
    hits = [i for places in found for i in places]
    hits.sort()
    starts, ends = flat.starts, flat.ends
    start = 0
    if hits and len(body) > width:
        if starts[hits[-1]] < starts[hits[0]] + width - 30:
            first = starts[hits[0]]  # every mark fits the first window: the best
        else:
            first = starts[_best_window(flat, hits, width, len(found))]
        # Some words of context before the first mark; a full window near the end.
        start = min(max(0, first - 24), len(body) - width)
        if start:
            space = body.find(" ", start)
            start = space + 1 if 0 <= space < first else first
    end = min(len(body), start + width)
    if end < len(body):
        space = body.rfind(" ", start, end)
        end = space if space > start else end
    # The marks inside the window: hits are in text order, so they are a run of the list.
    begin = bisect_left(hits, start, key=starts.__getitem__)
    opening, closing = flat.marks
    pieces, pos = [], start
    for i in hits[begin:]:
        hs, he = starts[i], ends[i]
        if he > end:
            break
        pieces += (body[pos:hs], opening, body[hs:he], closing)
        pos = he
    pieces.append(body[pos:end])
    marked = "".join(pieces)
    if opening is not _MARKS[0]:
        marked = html.escape(marked).replace(opening, "<mark>").replace(closing, "</mark>")
    return ("…" if start else "") + marked + ("…" if end < len(body) else "")


def snippet_plain(marked: str) -> str:
    """A snippet as terminal text: marks become [brackets], entities unescaped."""
    return html.unescape(marked.replace("<mark>", "[").replace("</mark>", "]"))
