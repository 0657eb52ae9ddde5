"""Score, the search's second stage (pack-search.js: score): Whoosh's BM25F score of each index
term in each item, read once, summed over the planned query in memory.

A judge's query is a sum of term scores (Whoosh's Or of Terms is exactly that), so the scores
of a term are read from Whoosh the first time a query uses it and kept; a query then costs
dictionary additions, not a Whoosh collector run (the corpus is small; this is its hot path).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from whoosh import query as Q
from whoosh.searching import Searcher

from judgekit.search.query import EXPANSION_WEIGHT, FIELDS


class TermScores:
    """Per-(field, term) scores by item, and the items each filter and exact title allows."""

    def __init__(self, searcher: Callable[[], Searcher], meta: list[dict]) -> None:
        self._searcher = searcher
        self._meta = meta
        self._scores: dict[tuple[str, str], dict[int, float]] = {}
        self._allowed: dict[tuple, frozenset[int] | None] = {}
        self._titles: dict[str, tuple[int, ...]] | None = None
        self._complete: set[str] = set()  # fields whose every term was read (see warm)
        self._lock = threading.Lock()

    def of(self, field: str, term: str) -> dict[int, float]:
        """Each item holding the term in the field, with its BM25F score there."""
        key = (field, term)
        found = self._scores.get(key)
        if found is None and field in self._complete:
            return {}  # every term of the field was read: this one is in no item
        if found is None:
            searcher = self._searcher()
            found = {}
            if searcher.doc_frequency(field, term):
                for sub, offset in searcher.leaf_searchers():
                    matcher = Q.Term(field, term).matcher(sub, searcher.context())
                    while matcher.is_active():
                        found[offset + matcher.id()] = matcher.score()
                        matcher.next()
            self._scores[key] = found  # a race computes the same dict twice: harmless
        return found

    def warm(self, fields: tuple[str, ...] = FIELDS) -> int:
        """Read the scores of every term of the index now (a server's warm-up, in the background),
        so that no judge's query waits for Whoosh; returns how many terms."""
        reader = self._searcher().reader()
        count = 0
        for field in fields:
            for term in list(reader.lexicon(field)):
                self.of(field, term.decode() if isinstance(term, bytes) else term)
                count += 1
            self._complete.add(field)
        self.titled("")
        return count

    def allowed(self, filters: Any) -> frozenset[int] | None:
        """The items a filter lets through, or None for all."""
        wanted = tuple((k, v) for k, v in filters.__dict__.items() if v)
        if not wanted:
            return None
        found = self._allowed.get(wanted)
        if found is None:
            found = frozenset(
                i for i, m in enumerate(self._meta) if all(m.get(k) == v for k, v in wanted)
            )
            with self._lock:
                if len(self._allowed) > 512:  # filters come from requests: keep the cache small
                    self._allowed.clear()
                self._allowed[wanted] = found
        return found

    def titled(self, key: str) -> tuple[int, ...]:
        """The items whose title or an alias is this title key."""
        if self._titles is None:
            titles: dict[str, list[int]] = {}
            reader = self._searcher().reader()
            for term in reader.lexicon("title_key"):
                text = term.decode() if isinstance(term, bytes) else term
                titles[text] = list(reader.postings("title_key", term).all_ids())
            self._titles = {k: tuple(v) for k, v in titles.items()}
        return self._titles.get(key, ())


def score(
    scores: TermScores,
    groups: list[Any],
    allowed: frozenset[int] | None,
    phrase_in: Callable[[int, tuple[str, ...]], bool],
) -> dict[int, list]:
    """Each matching item: [score, groups found in its rules' words (bit mask), own words in its
    title (mask), groups found only in what judges say of it (mask: see ranking.TALK_COUNT)].

    groups are query.Group objects, word groups first (bit i for group i); a concept sets the
    bits of the word groups it covers. phrase_in(docnum, terms) tells whether a phrase stands
    in an item.
    """
    acc: dict[int, list] = {}
    for i, group in enumerate(groups):
        own = group.part is not None
        mask = 1 << i if own else sum(1 << c for c in group.covers)
        if own and group.part.phrase and len(group.terms) > 1:
            _phrase(scores, acc, tuple(group.terms), 1.0, mask, allowed, phrase_in)
            continue
        for term, weight in group.terms.items():
            for field in FIELDS:
                title, talk = own and field == "title", field == "talk"
                _add(acc, scores.of(field, term), weight, mask, title, allowed, talk)
        for seq in group.phrases:
            _phrase(scores, acc, seq, EXPANSION_WEIGHT, mask, allowed, phrase_in)
    return acc


def _add(
    acc: dict[int, list],
    postings: dict[int, float],
    weight: float,
    mask: int,
    title: bool,
    allowed: frozenset[int] | None,
    talk: bool = False,
) -> None:
    """Add one term's scores in one field to the items holding it (the hot loop of a query)."""
    if allowed is not None:
        postings = {doc: value for doc, value in postings.items() if doc in allowed}
    title_mask = mask if title else 0
    rules_mask, talk_mask = (0, mask) if talk else (mask, 0)
    get = acc.get
    for doc, value in postings.items():
        entry = get(doc)
        if entry is None:
            acc[doc] = [weight * value, rules_mask, title_mask, talk_mask]
        else:
            entry[0] += weight * value
            entry[1] |= rules_mask
            entry[2] |= title_mask
            entry[3] |= talk_mask


def _phrase(scores, acc, seq, weight, mask, allowed, phrase_in) -> None:
    """Add the items where a phrase stands: its terms' scores, times weight."""
    per_term = [{**scores.of("text", t)} for t in seq]
    for t, found in zip(seq, per_term, strict=True):
        for doc, value in scores.of("title", t).items():
            found[doc] = found.get(doc, 0.0) + value
    candidates = set(per_term[0]).intersection(*per_term[1:])
    for doc in candidates:
        if (allowed is not None and doc not in allowed) or not phrase_in(doc, seq):
            continue
        entry = acc.get(doc)
        if entry is None:
            entry = acc[doc] = [0.0, 0, 0, 0]
        entry[0] += weight * sum(found[doc] for found in per_term)
        entry[1] |= mask
