"""Where meaning found an item near a question: the sentences of its text a chunk holds.

Search by meaning embeds an item in chunks (meaning/passages.py): runs of its paragraphs, and
each table-talk saying of the rules it holds (tabletalk.py). When a result's place owes to
meaning, its snippet shows what its nearest chunk holds: that paragraph's sentences, or the
sentence holding the saying's rule (the rulebook's own words: a saying is never shown).
Sentences are numbered as snippets number them (snippets.py), so the pack reads the same numbers
from its meaning part (pack/meaning.py) and pack-search.js needs no copy of this.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

import numpy as np

from judgekit.meaning.passages import Passages, paragraphs
from judgekit.search.snippets import sentences_of
from judgekit.search.tabletalk import plain

_ASCII_WORD = re.compile(r"[a-z0-9]+")
GAP = 3  # words an item's text may hold within a rule that the rule does not (an icon's label)
NONE = (-1, -1)  # in the table: a chunk whose sentences are not known (a rule not found)

Sentences = tuple[int, int]  # the first and last sentence a chunk holds


class Focus:
    """The sentences each chunk of the items holds, worked out for an item when first asked."""

    def __init__(
        self, texts: Sequence[str], passages: Passages, rules: Sequence[tuple[str, ...]]
    ) -> None:
        self.texts = texts
        self.passages = passages
        self.rules = rules  # each item's sayings' rules, one for each saying, in their order
        self._kept: dict[int, list[Sentences | None]] = {}

    def of(self, chunk: int) -> Sentences | None:
        """The sentences a chunk holds (None: not found in its item's text)."""
        item = int(self.passages.owners[chunk])
        found = self._kept.get(item)
        if found is None:
            found = self._kept[item] = self._item(item)
        return found[chunk - int(self.passages.starts[item])]

    def warm(self) -> None:
        """Work out every item's now (a server's background warm-up): no question waits for it."""
        for item in range(self.passages.count):
            if item not in self._kept:
                self._kept[item] = self._item(item)

    def table(self) -> np.ndarray:
        """Every chunk's sentences, in chunk order, (-1, -1) where not known: the pack's."""
        rows = [self.of(chunk) or NONE for chunk in range(len(self.passages.owners))]
        return np.array(rows, dtype=np.int32).reshape(-1, 2)

    def _item(self, item: int) -> list[Sentences | None]:
        text = self.texts[item]
        flat, starts = sentences_of(text)
        spans = _paragraph_spans(text)
        words: list[tuple[str, int]] | None = None  # read only for an item with sayings
        found: dict[str, tuple[int, int] | None] = {}  # a rule's span (a rule has many sayings)
        out: list[Sentences | None] = []
        begin, end = self.passages.starts[item], self.passages.ends[item]
        for first, last in self.passages.parts[begin:end].tolist():
            if first >= 0:
                span = (spans[first][0], spans[last][1]) if first <= last < len(spans) else None
            else:
                words = _words(flat) if words is None else words
                rule = self.rules[item][last]
                if rule not in found:
                    found[rule] = _rule_span(words, rule)
                span = found[rule]
            out.append(_sentences(starts, span) if span else None)
        return out


def _sentences(starts: Sequence[int], span: tuple[int, int]) -> Sentences:
    """The sentences holding characters begin to end (past the last) of a flat text."""
    return bisect_right(starts, span[0]) - 1, bisect_right(starts, max(span[0], span[1] - 1)) - 1


def _paragraph_spans(text: str) -> list[tuple[int, int]]:
    """Where each paragraph (passages.paragraphs) stands in the text with whitespace made single."""
    spans, at = [], 0
    for para in paragraphs(text):
        length = len(" ".join(para.split()))
        spans.append((at, at + length))
        at += length + 1
    return spans


def _words(flat: str) -> list[tuple[str, int]]:
    """The words of a flat text as tabletalk.plain reads them, each with where its run begins."""
    out, at = [], 0
    for run in flat.split(" "):
        low = run.casefold()
        # Most runs are plain ASCII: their words read directly (plain() is the slow way).
        plainly = low.isascii() and "(" not in low
        for word in _ASCII_WORD.findall(low) if plainly else plain(run).split():
            out.append((word, at))
        at += len(run) + 1
    return out


def _rule_span(words: list[tuple[str, int]], rule: str) -> tuple[int, int] | None:
    """Where a rule's words stand in the text (first its words in a row, else with at most GAP
    other words between two of them), as characters (begin, end); None: not there."""
    wanted = plain(rule).split()
    seq = [w for w, _ in words]
    if not wanted:
        return None
    starts = [i for i, w in enumerate(seq) if w == wanted[0]]
    for i in starts:
        if seq[i : i + len(wanted)] == wanted:
            return _span(words, i, i + len(wanted) - 1)
    for i in starts:
        at = i
        for word in wanted[1:]:
            window = seq[at + 1 : at + 2 + GAP]
            if word not in window:
                break
            at += 1 + window.index(word)
        else:
            return _span(words, i, at)
    return None


def _span(words: list[tuple[str, int]], first: int, last: int) -> tuple[int, int]:
    return words[first][1], words[last][1] + 1
