"""Snippets: the sentence of an item's text that answers the question best, in a window, marked.

A sentence answers best when it holds the most of the judge's words (each by its own stem, a
completion, a correction or the vocabulary's rulebook words for it, at the plan's weights), and
among those, the words that are rarest in that text (the ones that single out the passage);
between equals, the one whose window (what the snippet shows from it) holds most.
pack-search.js (snippet) picks the same sentence and window."""

from __future__ import annotations

import html
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import lru_cache

from judgekit.search.analysis import TOKEN_RE, stem_token, stems
from judgekit.search.query import EXPANSION_WEIGHT, Plan

# A sentence ends at a full stop, question or exclamation mark (and the quotes or brackets
# closing on it) before a space: "For example: ..." runs on, ". . ." ends three times.
SENTENCE_END = re.compile(r"[.!?][\"'”’)\]]* ")
# A result found by meaning shows the sentences its nearest chunk holds (its focus), unless the
# question's words clearly answer elsewhere: a sentence holding at least this many of the words
# (by weight), and this many times as much of the question as the focus's best sentence.
WORDS_WIN = 2

Word = tuple[tuple[tuple[str, ...], float], ...]  # what stands for one word: (stems, weight)


@dataclass(frozen=True)
class Asked:
    """The question as snippets read it: for each of the judge's words (or quoted phrases), the
    stems or runs of stems that stand for it in a text, each with its weight (query.py's)."""

    words: tuple[Word, ...] = ()


def asked_of(plan: Plan) -> Asked:
    """What stands for each of the judge's words: its stems, completions and corrections (a
    quoted phrase: its words in a row), and the vocabulary's rulebook words for it."""
    words: list[dict[tuple[str, ...], float]] = []
    for group in plan.groups:
        seq = tuple(stems(group.part.text)) if group.part.phrase else ()
        if len(seq) > 1:
            words.append({seq: 1.0})
        else:
            words.append({(stem,): weight for stem, weight in group.terms.items()})
    for concept in plan.concepts:
        targets = [((stem,), weight) for stem, weight in concept.terms.items()]
        targets += [(seq, EXPANSION_WEIGHT) for seq in concept.phrases]
        for i in concept.covers:
            for seq, weight in targets:
                words[i][seq] = max(words[i].get(seq, 0.0), weight)
    return Asked(tuple(tuple(sorted(word.items())) for word in words))


@dataclass(frozen=True)
class _Flat:
    """A text prepared for snippets (kept: results repeat): whitespace made single, each word's
    place, index term and sentence, where each term stands among the words, where each sentence
    begins, and how to escape pieces."""

    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    stems: tuple[str, ...]
    at: dict[str, tuple[int, ...]]
    sentence_of: tuple[int, ...]  # each word's sentence
    sentences: tuple[int, ...]  # where each sentence begins, in the text
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
    sentences = (0, *(m.end() for m in SENTENCE_END.finditer(flat)))
    # Most texts hold no character HTML needs escaped: skip the work for them.
    marks = _stand_ins(flat) if any(c in flat for c in "&<>\"'") else _MARKS
    return _Flat(
        flat,
        tuple(t[0] for t in tokens),
        tuple(t[1] for t in tokens),
        tuple(t[2] for t in tokens),
        {k: tuple(v) for k, v in at.items()},
        tuple(bisect_right(sentences, t[0]) - 1 for t in tokens),
        sentences,
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


def sentences_of(text: str) -> tuple[str, tuple[int, ...]]:
    """A text with its whitespace made single, and where each of its sentences begins there (as
    snippets count them: a snippet's focus names sentences by their number)."""
    flat = _flat(text)
    return flat.text, flat.sentences


def text_stems(text: str) -> list[str]:
    """The index terms of a text, in order, as stems() gives them (kept with its snippet data)."""
    return list(_flat(text).stems)


def snippet(
    text: str,
    terms: frozenset[str] | set[str],
    width: int = 220,
    asked: Asked | None = None,
    focus: tuple[int, int] | None = None,
) -> str:
    """Escaped HTML: the window of text showing the sentence that answers best (asked; without
    it, each query term is a word asked), every query term in it in <mark>. With a focus (the
    first and last sentence that meaning found nearest: focus.py), that sentence is one of those
    (the one holding most of the question, else the first), unless the words clearly answer
    elsewhere (_sentence)."""
    flat = _flat(text)
    held = frozenset(flat.at.keys() & terms)
    if asked is None:
        asked = Asked(tuple((((term,), 1.0),) for term in sorted(held)))
    if focus is not None and not 0 <= focus[0] <= focus[1] < len(flat.sentences):
        focus = None
    # A snippet depends only on what of the question the text holds: a question sharing that
    # with an earlier one (a judge typing, rephrasing, asking again) finds it made.
    words = (tuple(a for a in word if all(s in flat.at for s in a[0])) for word in asked.words)
    return _snippet(text, held, tuple(word for word in words if word), width, focus)


def _places(flat: _Flat, run: tuple[str, ...]) -> list[int]:
    """Where these terms stand in a row in one sentence (one term: where it stands), in order."""
    first, rest = flat.at.get(run[0], ()), len(run) - 1
    if not rest:
        return list(first)
    seq, sentence = flat.stems, flat.sentence_of
    return [i for i in first if seq[i : i + rest + 1] == run and sentence[i + rest] == sentence[i]]


def _occurrences(flat: _Flat, words: tuple[Word, ...]) -> list[tuple[int, int, float, float]]:
    """Each place a word asked stands in the text, in text order: (place, word, weight, the
    weight over how many sentences hold it there: a word rare in the text singles a passage out)."""
    found = []
    for n, word in enumerate(words):
        for run, weight in word:
            places = _places(flat, run)
            if places:
                share = weight / len({flat.sentence_of[i] for i in places})
                found += [(i, n, weight, share) for i in places]
    found.sort()
    return found


def _credit(
    found: list[tuple[int, int, float, float]],
    places: list[int],
    lo: int,
    hi: int,
    count: int,
) -> tuple[float, float]:
    """How much of the question the words lo to hi hold: each word asked by its best weight, and
    by its best share; summed in the question's order, one addition at a time (as the pack).
    places: each occurrence's place (found's first items), searched instead of found's tuples."""
    weights, shares = [0.0] * count, [0.0] * count
    for i in range(bisect_left(places, lo), bisect_left(places, hi)):
        _place, n, weight, share = found[i]
        if weight > weights[n]:
            weights[n] = weight
        if share > shares[n]:
            shares[n] = share
    cover = rare = 0.0
    for n in range(count):
        cover += weights[n]
        rare += shares[n]
    return cover, rare


def _holding(flat: _Flat, found: list[tuple[int, int, float, float]]) -> list[int]:
    """The sentences, in order, where a word asked stands (no other holds any of the question:
    best_sentence need not weigh them)."""
    sentence = flat.sentence_of
    return sorted({sentence[place] for place, *_ in found})


def best_sentence(flat: _Flat, words: tuple[Word, ...], width: int) -> int:
    """The sentence holding most of the question (its words by weight), then the rarest of them;
    between equals, the one whose window holds most, then the rarest; then the first. -1: none."""
    return _best(flat, _occurrences(flat, words), len(words), width)[0]


def _best(
    flat: _Flat,
    found: list[tuple[int, int, float, float]],
    count: int,
    width: int,
    within: tuple[int, int] | None = None,
) -> tuple[int, float]:
    """best_sentence from the question's occurrences (of count words), with how much of the
    question it holds; within: only the sentences from the first to the last of these."""
    # Bounded: the places the question's terms stand (a text's words at most, for each term a
    # word has: its own, 12 completions or 3 corrections, the vocabulary's), then for each
    # sentence its places and the question's words (at most analysis.MAX_GROUPS).
    best, best_key = -1, (0.0, 0.0, 0.0, 0.0)
    ends = (*flat.sentences[1:], len(flat.text))
    places = [place for place, *_ in found]
    for k in _holding(flat, found):
        if within is not None and not within[0] <= k <= within[1]:
            continue
        begin = flat.sentences[k]
        lo = bisect_left(flat.starts, begin)
        cover, rare = _credit(found, places, lo, bisect_left(flat.starts, ends[k]), count)
        if not cover:
            continue
        seen = _credit(found, places, lo, bisect_left(flat.starts, begin + width - 30), count)
        key = (cover, rare, *seen)
        if key > best_key:
            best, best_key = k, key
    return best, best_key[0]


def _sentence(
    flat: _Flat, words: tuple[Word, ...], width: int, focus: tuple[int, int] | None
) -> tuple[int, tuple[int, int] | None]:
    """The sentence a snippet shows, and the focus it keeps: best_sentence; with a focus, the
    best of its sentences (else its first), unless the words clearly answer elsewhere (a sentence
    holding WORDS_WIN of the question's words by weight at least, and WORDS_WIN times as much of
    it as the focus's best): then best_sentence, and no focus."""
    found = _occurrences(flat, words)
    best, cover = _best(flat, found, len(words), width)
    if focus is None:
        return best, None
    mine, held = _best(flat, found, len(words), width, focus)
    if cover >= WORDS_WIN and cover >= WORDS_WIN * held:
        return best, None
    return (mine if mine >= 0 else focus[0]), focus


def _window(
    flat: _Flat,
    hits: list[int],
    words: tuple[Word, ...],
    width: int,
    focus: tuple[int, int] | None = None,
) -> tuple[int, int]:
    """Where a long text's window begins, and the place it must show: the sentence to show
    (_sentence) from its start if its marks show from there (or it has none, for a focus), else
    from some words before its best window of marks."""
    starts = flat.starts
    sentence, focus = _sentence(flat, words, width, focus)
    if sentence >= 0:
        lowest = flat.sentences[sentence]
        after = (
            flat.sentences[sentence + 1] if sentence + 1 < len(flat.sentences) else len(flat.text)
        )
        inside = [i for i in hits if lowest <= starts[i] < after]
        hits = inside if focus is not None else inside or hits
        if not hits or starts[hits[-1]] < lowest + width - 30:
            return lowest, lowest
    else:  # no word stands in the text as asked (a quoted phrase's words apart): the marks
        lowest = 0
        if starts[hits[-1]] < starts[hits[0]] + width - 30:
            return max(0, starts[hits[0]] - 24), starts[hits[0]]
    first = starts[_best_window(flat, hits, width, len({flat.stems[i] for i in hits}))]
    return max(lowest, first - 24), first


@lru_cache(maxsize=16384)  # ~1.5 KB each: a bound of some 24 MB
def _snippet(
    text: str,
    held: frozenset[str],
    words: tuple[Word, ...],
    width: int,
    focus: tuple[int, int] | None = None,
) -> str:
    """The snippet of a text holding these of the query's terms and of its words (and showing
    these sentences: snippet)."""
    flat = _flat(text)
    body = flat.text
    if not body:
        return ""
    hits = sorted(i for t in held for i in flat.at[t])
    starts, ends = flat.starts, flat.ends
    start = 0
    if (hits or focus) and len(body) > width:
        want, first = _window(flat, hits, words, width, focus)
        # A full window near the end; a window begins with a word, and shows ``first``.
        start = min(want, len(body) - width)
        if start and body[start - 1] != " ":
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
