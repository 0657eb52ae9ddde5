"""Text analysis for search: the analyzer, query parsing, spelling suggestions and snippets."""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from whoosh.analysis import (
    STOP_WORDS,
    Analyzer,
    LowercaseFilter,
    RegexTokenizer,
    StemFilter,
    StopFilter,
)
from whoosh.lang.porter2 import stem as porter2
from whoosh.lang.stopwords import stoplists

TOKEN_PATTERN = r"\w+(?:['’]\w+)*"
TOKEN_RE = re.compile(TOKEN_PATTERN)

# Whoosh's English stop words, plus the words of a judge's question that name no rule.
STOPS = frozenset(STOP_WORDS)
QUESTION_WORDS = frozenset(
    "how what which who whom whose why where does do did done i i'm me my mine happen happens "
    "happened there should would could get gets got rule rules about many much need needs needed "
    "mean means meaning meant its it's their theirs they them his her he she our him himself "
    "herself themselves".split()
)


def _ordinary_words() -> frozenset[str]:
    """The words of ordinary-words.txt (its comments say why each group is there)."""
    text = Path(__file__).with_name("ordinary-words.txt").read_text(encoding="utf-8")
    lines = (line.split("#", 1)[0] for line in text.splitlines())
    return frozenset(word for line in lines for word in line.split())


# Words that carry no meaning for a search (ordinary-words.txt): never "not in the rules".
ORDINARY = STOPS | QUESTION_WORDS | frozenset(stoplists["en"]) | _ordinary_words()

# Where Porter2 splits a game word's forms or merges two game words, say what we mean.
STEM_FIXES = {"staf": "staff", "respons": "respond", "drew": "draw", "drawn": "draw"}
PROTECTED_PREFIXES = ("commandeer",)  # else "commandeer" stems to "command" (the icon)

_NAMING_NO_RULE = STOPS | QUESTION_WORDS

HOW_MANY = re.compile(r"\bhow\s+(?:many|much)\b|\bnumber\s+of\b", re.IGNORECASE)
PROXIMITY = 1.0  # up to double when the query's words stand together in the text
MAX_QUERY_CHARS = 500
MAX_GROUPS = 32
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\ufeff]")
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‟": '"', "«": '"', "»": '"'})


def game_stem(word: str) -> str:
    """Porter2 stem of a lowercased word, with the game's vocabulary kept apart."""
    word = word.replace("’", "'")
    for prefix in PROTECTED_PREFIXES:
        if word.startswith(prefix):
            return prefix
    stemmed = porter2(word)
    return STEM_FIXES.get(stemmed, stemmed)


NUMBER_STEMS = frozenset(
    game_stem(w)
    for w in (
        "zero one two three four five six seven eight nine ten eleven twelve fifteen twenty "
        "thirty forty fifty sixty hundred"
    ).split()
)


def is_number(stem: str) -> bool:
    """Whether an index term is a number ("7", "seven"): what a "how many" question wants."""
    return stem.isdigit() or stem in NUMBER_STEMS


@lru_cache(maxsize=65536)
def stem_token(word: str) -> str | None:
    """The index term of one raw token (any case), or None for a stop word."""
    lowered = word.lower()
    if lowered in STOPS:
        return None
    return game_stem(lowered)


def analyzer() -> Analyzer:
    """The index analyzer: words, lowercased, stop words dropped, game-aware stemming."""
    return (
        RegexTokenizer(TOKEN_PATTERN)
        | LowercaseFilter()
        | StopFilter(stoplist=STOPS, minsize=1)
        | StemFilter(stemfn=game_stem, cachesize=50000)
    )


def stems(text: str) -> list[str]:
    """The index terms of a text, in order (what the analyzer would produce)."""
    if len(text) <= 64:  # a query's words and phrases, asked for again and again: kept
        return list(_short_stems(text))
    return list(_stem_run(text))


def _stem_run(text: str) -> Iterator[str]:
    return (s for s in (stem_token(m.group()) for m in TOKEN_RE.finditer(text)) if s)


@lru_cache(maxsize=65536)
def _short_stems(text: str) -> tuple[str, ...]:
    return tuple(_stem_run(text))


@lru_cache(maxsize=65536)
def title_key(text: str) -> str:
    """The form in which a title and a query are compared for an exact match."""
    return " ".join(stems(text))


def titles_begun(keys: list[str], titles: list[str], query: str, most: int) -> list[str]:
    """The titles (with their sorted title keys) whose key the query is at least three letters and
    half of the start of: "devidian d" begins Devidian Door; "stopped" is not half of a title."""
    key = title_key(query)
    if len(key) < 3:
        return []
    found, i = [], bisect_left(keys, key)
    while i < len(keys) and keys[i].startswith(key) and len(found) < most:
        if len(key) * 2 >= len(keys[i]):
            found.append(titles[i])
        i += 1
    return found


def words(text: str) -> list[str]:
    """Raw lowercased words of a text, for the spelling vocabulary."""
    return [m.group().lower().replace("’", "'") for m in TOKEN_RE.finditer(text)]


def clean_query(raw: str) -> str:
    """A query with control characters removed and whitespace and quotes made plain."""
    text = unicodedata.normalize("NFKC", raw)
    text = _CONTROL.sub(" ", text).translate(_QUOTES)
    return " ".join(text.split()) + (" " if text[-1:].isspace() and text.strip() else "")


@dataclass(frozen=True)
class QueryPart:
    """One word or quoted phrase of a query."""

    text: str  # as typed, lowercased
    phrase: bool
    last: bool  # the word being typed: match it as a prefix too
    start: int = 0  # where it sits in the cleaned query (for did-you-mean)
    end: int = 0


QUOTED_PATTERN = r'"([^"]*)"'  # a quoted phrase (clean_query made every quote mark plain)
QUOTED = re.compile(QUOTED_PATTERN)
_PART_RE = re.compile(QUOTED_PATTERN + "|" + TOKEN_PATTERN)


def parse_query(query: str) -> list[QueryPart]:
    """Words and "quoted phrases"; an unbalanced quote is ignored, operators are plain words."""
    typing = bool(query) and not query[-1].isspace() and not query.endswith('"')
    found = list(_PART_RE.finditer(query))
    parts: list[QueryPart] = []
    for i, m in enumerate(found):
        if m.group(1) is not None:
            inner = m.group(1).strip().lower()
            if TOKEN_RE.search(inner):
                parts.append(QueryPart(inner, True, False, m.start(1), m.end(1)))
            continue
        is_last = typing and i == len(found) - 1 and m.end() == len(query.rstrip())
        parts.append(QueryPart(m.group().lower().replace("’", "'"), False, is_last, *m.span()))
    meaningful = [p for p in parts if p.phrase or (p.text not in _NAMING_NO_RULE)]
    if not meaningful:  # "when and while": keep what is not a stop word
        meaningful = [p for p in parts if p.phrase or p.text not in STOPS]
    return meaningful[:MAX_GROUPS]


@dataclass(frozen=True)
class Positions:
    """Where each index term of a text stands, and its numerals: what proximity reads."""

    length: int
    at: dict[str, tuple[int, ...]]
    numerals: tuple[int, ...]


def positions(seq: list[str]) -> Positions:
    """The Positions of a text given as index terms."""
    at: dict[str, list[int]] = {}
    for pos, stem in enumerate(seq):
        at.setdefault(stem, []).append(pos)
    numerals = tuple(pos for pos, stem in enumerate(seq) if is_number(stem))
    return Positions(len(seq), {k: tuple(v) for k, v in at.items()}, numerals)


def proximity(where: Positions, stem_words: dict[str, int], count: int, number: bool) -> float:
    """1 + up to PROXIMITY when the query's words stand close together in a text's terms.

    stem_words maps each query term to its word(s) of the query, as a bit mask (bit i for word
    i); count is how many words the query has. With number, any numeral is one more word.
    """
    # A position holds one term, so the query's terms never share one; only a numeral standing
    # where a query term does is left out. A spot is coded as one int, position << 6 | word,
    # so that the spots sort in C; a term standing for several words is a spot for each.
    at, spots, present = where.at, [], 0
    for stem, mask in stem_words.items():
        places = at.get(stem)
        if places:
            present |= mask
            for word in _words_of(mask):
                spots += [pos << 6 | word for pos in places]
    if number and where.numerals:
        word = count - 1
        taken = {spot >> 6 for spot in spots}
        extra = [pos << 6 | word for pos in where.numerals if pos not in taken]
        if extra:
            present |= 1 << word
            spots += extra
    need = present.bit_count()
    if need < 2:
        return 1.0
    # The shortest run of words holding every query word the text holds. Spots of one position
    # (a term standing for two words) sort together, so a window never splits them.
    spots.sort()
    have, held = [0] * 64, 0
    best, left = where.length + 1, 0
    for spot in spots:
        word = spot & 63
        if not have[word]:
            held += 1
        have[word] += 1
        while held == need:
            first = spots[left]
            width = (spot >> 6) - (first >> 6) + 1
            if width < best:
                best = width
            word = first & 63
            have[word] -= 1
            if not have[word]:
                held -= 1
            left += 1
    share = (need - 1) / (count - 1)
    return 1.0 + PROXIMITY * share * min(1.0, need / best)


@lru_cache(maxsize=1024)
def _words_of(mask: int) -> tuple[int, ...]:
    """The words (bit numbers) a mask holds."""
    return tuple(i for i in range(mask.bit_length()) if mask >> i & 1)


# -- spelling -----------------------------------------------------------------------------
def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


def edit_distance(a: str, b: str, limit: int = 3) -> int:
    """Damerau-Levenshtein (optimal string alignment) distance, capped at limit."""
    if abs(len(a) - len(b)) >= limit:
        return limit
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) >= limit:
            return limit
        prev2, prev = prev, cur
    return min(prev[-1], limit)


class Speller:
    """The corpus vocabulary: completes prefixes and corrects misspellings (symmetric deletes)."""

    def __init__(self, frequencies: dict[str, int]) -> None:
        self.freq = frequencies
        self.sorted = sorted(frequencies)
        # No word longer than this plus 2 is within 2 edits of a known one.
        self.longest = max(map(len, frequencies), default=0)
        self.near: dict[str, list[str]] = {}
        # The words learned by first letter and length, each with its letters (see correct).
        self.initial: dict[tuple[str, int], list[tuple[str, frozenset[str]]]] = {}
        self._short: dict[tuple[str, int], list[str]] = {}  # see complete
        self.learn(frequencies)

    def learn(self, known: Iterable[str]) -> None:
        """Add words that corrections may propose (the corpus's, then a judge's vocabulary)."""
        for word in known:
            if len(word) < 3 or word.isdigit() or word in STOPS:
                continue  # never "correct" a word into a stop word: it would search nothing
            self.longest = max(self.longest, len(word))
            if word not in self.near.get(word, ()):
                self.initial.setdefault((word[0], len(word)), []).append((word, frozenset(word)))
            for key in _deletes(word) | {word}:
                bucket = self.near.setdefault(key, [])
                if word not in bucket:
                    bucket.append(word)

    def __contains__(self, word: str) -> bool:
        return word in self.freq

    def complete(self, prefix: str, limit: int = 12) -> list[str]:
        """The most frequent words that start with prefix (prefix itself excluded)."""
        if len(prefix) > 3:
            return self._complete(prefix, limit)
        # Short prefixes are few and the costliest (hundreds of words to rank): keep them.
        key = (prefix, limit)
        found = self._short.get(key)
        if found is None:
            if len(self._short) > 20000:  # prefixes come from requests: keep the store small
                self._short.clear()
            found = self._short[key] = self._complete(prefix, limit)
        return list(found)

    def _complete(self, prefix: str, limit: int) -> list[str]:
        i = bisect_left(self.sorted, prefix)
        found = []
        while i < len(self.sorted) and self.sorted[i].startswith(prefix):
            if self.sorted[i] != prefix:
                found.append(self.sorted[i])
            i += 1
            if len(found) > 400:  # a one-letter prefix: enough to pick the common ones
                break
        found.sort(key=lambda w: (-self.freq[w], w))
        return found[:limit]

    def correct(self, word: str, limit: int = 3, deep: bool = False) -> list[str]:
        """Known words within 1 edit (2 for words of 6+ letters), closest and commonest first.
        deep: where the deletes find none, every known word of the same first letter and of a
        length within two is tried (pack-search.js: correct, the same words)."""
        if len(word) < 3 or word.isdigit() or word in self.freq:
            return []
        if len(word) > self.longest + 2:
            # Nothing is close, and the deletes of a long word cost its length cubed
            # (500 characters like "㌀" grow under NFKC into one 1,752-letter word: 5 GB, 13 s).
            return []
        maxdist = 2 if len(word) >= 6 else 1
        keys = _deletes(word) | {word}
        if maxdist == 2:
            keys |= {d2 for d in _deletes(word) for d2 in _deletes(d)}
        candidates = {w for key in keys for w in self.near.get(key, ())}
        scored = []
        for cand in candidates:
            dist = edit_distance(word, cand, maxdist + 1)
            if dist <= maxdist:
                scored.append((dist, -self.freq.get(cand, 0), cand))
        if deep and not scored and maxdist == 2:
            # Two letters wrong in one word ("beemimg", "persnel") escape the deletes, which
            # find a second edit only where it deletes; a thumb's slips seldom hit the first.
            letters = frozenset(word)
            for size in range(len(word) - maxdist, len(word) + maxdist + 1):
                for cand, its in self.initial.get((word[0], size), ()):
                    # Each edit brings at most one letter the other lacks: a cheap first test.
                    if len(letters - its) > maxdist or len(its - letters) > maxdist:
                        continue
                    dist = edit_distance(word, cand, maxdist + 1)
                    if dist <= maxdist:
                        scored.append((dist, -self.freq.get(cand, 0), cand))
        scored.sort()
        return [cand for _, _, cand in scored[:limit]]


def vocabulary(texts: Iterable[str]) -> dict[str, int]:
    """Each word's count of texts it occurs in."""
    freq: dict[str, int] = {}
    for text in texts:
        for word in set(words(text)):
            freq[word] = freq.get(word, 0) + 1
    return freq
