"""Where the newer version still says a removed sentence: the editor's suggested counterpart.

A sentence the alignment leaves ``removed`` was looked for only in its own entry and the entries
it was merged with or split from. A judge reading "removed" wants to know whether the newer
version dropped the rule or only says it in another place (its glossary, another section), so
every removed sentence is looked for in ALL entries of the newer version.

Match. Each sentence becomes its content words in order (``sentences.content_words``: no stop
words, crudely stemmed). ``difflib.SequenceMatcher`` over those word lists finds the removed
sentence's words a newer sentence holds, in order; the score is their Dice overlap with the
shortest stretch of the newer sentence that holds them, so a newer sentence may say more around
it (1.1's "A stopped personnel cannot help staff a ship." is inside Version 4's glossary
"Though stopped personnel cannot staff ships, they are still carried along ...": 5 of its 6
words in a stretch of 5, 0.91). A newer sentence says the removed one "elsewhere" when it holds
at least ``MIN_SHARED`` of its words and scores at least ``THRESHOLD``. Ties go to the closer
wording (``SequenceMatcher.ratio`` of the whole sentences), then reading order.

This is an interpretation, not the rulebook's words: pages and the API mark it as editorial.

The newer version's sentences are indexed once per version (by content word), and the answers
once per version pair, in the Library's memos.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from difflib import SequenceMatcher

from judgekit.compare.align import entry_units
from judgekit.compare.sentences import Unit, content_words
from judgekit.corpus.model import Version
from judgekit.render.library import Library, Memo

_SENTENCE_INDEX: Memo[tuple[str, str], _Indexed] = Memo(__name__, "sentences by content word")
_ANSWERS: Memo[tuple[str, str, str], dict[tuple[str, int], Elsewhere | None]] = Memo(
    __name__, "removed sentences said elsewhere"
)

# The Dice overlap (``coverage``) a restatement needs. On the real corpus (2E 1.1, Call to Arms
# and 4, every pair of versions) true restatements score 0.85 or more: 1.1's "A stopped personnel
# cannot help staff a ship." in 4's glossary "stopped" (0.91); 1.1's "Afterward, shuffle the
# remaining cards in your deck." in 4's "Download: ... and shuffle the remaining cards in your
# deck." (0.89); "You can try again later to attempt that mission, ..." (0.89). Below it, two
# sentences share a topic, not a rule: "For example: While this personnel is facing a dilemma,
# he gains Anthropology and Security." against 4's glossary "skills" example "When your
# personnel is facing a dilemma, he or she gains all skills ..." (0.83); "Whenever you download
# a card, you must reveal that card ..." against "Whenever you take a card from your discard
# pile, you must reveal that card ..." (0.76).
THRESHOLD = 0.85
# Fewer shared content words than this is a coincidence of short phrases: Call to Arms's
# "Personnel – Non-Aligned" and 4's "Your personnel attempt those missions." (3 words each)
# are found whole in unrelated sentences. Four is enough for "You have seven counters to spend
# each turn." (seven, counter, spend, turn).
MIN_SHARED = 4


@dataclass(frozen=True)
class Elsewhere:
    """A sentence of the newer version that says what a removed sentence said."""

    unit: Unit  # the newer sentence (its entry's id is ``unit.entry``)
    score: float  # ``coverage``: how closely it holds the removed sentence's words, in order


@dataclass(frozen=True)
class _Indexed:
    """A version's sentences, their content words, and which sentences hold each word."""

    units: tuple[Unit, ...]
    words: tuple[tuple[str, ...], ...]
    by_word: dict[str, tuple[int, ...]]


def _index(lib: Library, version: Version) -> _Indexed:
    """Every sentence of a version, indexed by content word (built once per version)."""
    cache = lib.memo(_SENTENCE_INDEX)
    key = (version.document, version.id)
    if key not in cache:
        all_units = tuple(u for e in version.walk() for u in entry_units(lib, e))
        words = tuple(content_words(u.key) for u in all_units)
        by_word: dict[str, list[int]] = {}
        for n, ws in enumerate(words):
            for w in set(ws):
                by_word.setdefault(w, []).append(n)
        cache[key] = _Indexed(all_units, words, {w: tuple(ns) for w, ns in by_word.items()})
    return cache[key]


def coverage(old: tuple[str, ...], new: tuple[str, ...]) -> tuple[int, float]:
    """How many of ``old``'s words ``new`` holds in order, and how closely: their Dice overlap
    with the shortest stretch of ``new`` that holds them (what ``new`` says around it is not
    counted against it, gaps inside that stretch are)."""
    if not old:
        return 0, 0.0
    matcher = SequenceMatcher(None, old, new, autojunk=False)
    blocks = [b for b in matcher.get_matching_blocks() if b.size]
    shared = sum(b.size for b in blocks)
    if not shared:
        return 0, 0.0
    span = blocks[-1].b + blocks[-1].size - blocks[0].b
    return shared, 2 * shared / (len(old) + span)


def find(index: _Indexed, sentence: Unit) -> Elsewhere | None:
    """The newer sentence that best says ``sentence`` again, or None."""
    words = content_words(sentence.key)
    if len(words) < MIN_SHARED:
        return None
    # How many of its words (counted as often as they occur) each newer sentence holds: an upper
    # bound on what SequenceMatcher can match, so most sentences are never compared at all.
    hits = Counter(n for w in words for n in index.by_word.get(w, ()))
    needed = max(MIN_SHARED, THRESHOLD * len(words) / (2 - THRESHOLD))
    best: tuple[float, float, int] | None = None
    for n, count in hits.items():
        if count < needed:
            continue
        shared, score = coverage(words, index.words[n])
        if shared < MIN_SHARED or score < THRESHOLD:
            continue
        ratio = SequenceMatcher(None, words, index.words[n], autojunk=False).ratio()
        rank = (-score, -ratio, n)
        if best is None or rank < best:
            best = rank
    if best is None:
        return None
    return Elsewhere(index.units[best[2]], -best[0])


def finder(lib: Library, old: Version, new: Version) -> Callable[[Unit], Elsewhere | None]:
    """A lookup of removed sentences in ``new`` for the pair (old, new), its answers kept."""
    cache = lib.memo(_ANSWERS)
    index = _index(lib, new)
    answers = cache.setdefault((old.document, old.id, new.id), {})

    def lookup(sentence: Unit) -> Elsewhere | None:
        key = (sentence.entry, sentence.index)
        if key not in answers:
            answers[key] = find(index, sentence)
        return answers[key]

    return lookup
