"""Snippets: the window of an item's text that holds most of the words asked about, marked."""

from __future__ import annotations

import html
from collections.abc import Callable
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
    escape: Callable[[str], str]


def _unchanged(text: str) -> str:
    return text


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
    escape = html.escape if any(c in flat for c in "&<>\"'") else _unchanged
    return _Flat(
        flat,
        tuple(t[0] for t in tokens),
        tuple(t[1] for t in tokens),
        tuple(t[2] for t in tokens),
        {k: tuple(v) for k, v in at.items()},
        escape,
    )


def _best_window(flat: _Flat, hits: list[int], width: int) -> int:
    """The first hit of the window (width characters) holding most distinct query terms."""
    starts, stems = flat.starts, flat.stems
    best, best_count, j, counts = 0, -1, 0, {}
    for i, hit in enumerate(hits):
        reach = starts[hit] + width - 30
        while j < len(hits) and starts[hits[j]] < reach:
            stem = stems[hits[j]]
            counts[stem] = counts.get(stem, 0) + 1
            j += 1
        if len(counts) > best_count:
            best, best_count = i, len(counts)
        stem = stems[hit]
        counts[stem] -= 1
        if not counts[stem]:
            del counts[stem]
    return hits[best]


def text_stems(text: str) -> list[str]:
    """The index terms of a text, in order, as stems() gives them (kept with its snippet data)."""
    return list(_flat(text).stems)


def snippet(text: str, terms: frozenset[str] | set[str], width: int = 220) -> str:
    """Escaped HTML: the window of text with most distinct query terms, each in <mark>."""
    flat = _flat(text)
    body, escape = flat.text, flat.escape
    if not body:
        return ""
    at = flat.at
    hits = [i for t in terms if t in at for i in at[t]]
    hits.sort()
    start = 0
    if hits and len(body) > width:
        if flat.starts[hits[-1]] < flat.starts[hits[0]] + width - 30:
            first = flat.starts[hits[0]]  # every mark fits the first window: the best
        else:
            first = flat.starts[_best_window(flat, hits, width)]
        # Some words of context before the first mark; a full window near the end.
        start = min(max(0, first - 24), len(body) - width)
        if start:
            space = body.find(" ", start)
            start = space + 1 if 0 <= space < first else first
    end = min(len(body), start + width)
    if end < len(body):
        space = body.rfind(" ", start, end)
        end = space if space > start else end
    out, pos = [], start
    starts, ends = flat.starts, flat.ends
    for i in hits:
        hs, he = starts[i], ends[i]
        if hs < start or he > end:
            continue
        out.append(escape(body[pos:hs]))
        out.append(f"<mark>{escape(body[hs:he])}</mark>")
        pos = he
    out.append(escape(body[pos:end]))
    return ("…" if start else "") + "".join(out) + ("…" if end < len(body) else "")


def snippet_plain(marked: str) -> str:
    """A snippet as terminal text: marks become [brackets], entities unescaped."""
    return html.unescape(marked.replace("<mark>", "[").replace("</mark>", "]"))
