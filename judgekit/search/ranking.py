"""Rank, the search's third stage (pack-search.js: rank): order the items scored by tier and
value, then prefer the sub-section that answers and put a quoted entry before the timing step
quoting it.

The stages, named alike here and in the pack: plan the query (query.py, SearchIndex.plan), score
(scoring.py), rank (this), collapse versions (collapse.py), shape the answer (service.py). A
ranked item is [tier, value, docnum, words found], and once meaning joined (fuse) whether its
place owes to meaning as well; what ranking and collapsing read of every indexed item is an
Items (made once per index, by item number).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

import numpy as np

from judgekit.search.analysis import Positions, proximity, stems
from judgekit.search.query import Plan

COORD_POWER = 2  # an item holding half the query's words scores a quarter
# A word found only in what judges say of an item (the table talk, documents.py: TALK_BOOST)
# counts as this share of a word found in its rules, for the share of the query's words held.
TALK_COUNT = 0.7
SUPERSEDED = 0.85  # a rule found only in an older version ranks a little lower
PROXIMITY_RERANK = 30  # how many of the best hits are checked for proximity
# An item of the other game, when the question's words belong to one, counts this share. With no
# game chosen and no word of either, lean the same to 2E: the rulebook is the whole game there,
# while the 1E corpus is one rulings document answering narrower questions. Words lean no harder
# than that: judges of both games say "away team", "tapped", "HQ"; naming a game or a version
# of one filters (index.py).
LEAN_AWAY = 0.75
DEFAULT_LEAN = "2E"
NO_NUMBER = 0.6  # a number question: a passage stating no number at all is a poor answer
CARD_NAME_SHARE = 0.5  # a card's name holding every word typed ranks as a title from half of it
MENTIONED = 2.0  # a version the question names ("under Call to Arms") is preferred by words
MENTIONED_NEAR = 1.15  # and by meaning: its items' nearness scaled by this
CHILD_SHARE = 0.5  # a sub-section scoring at least this share of its parent's value replaces it
SUBSECTION_RERANK = 50  # how many of the best hits may give way to a sub-section
QUOTE_SHARE = 0.999  # a step moved below an entry it quotes: just below, before the rest
# A step whose quoted entry matched as well counts this share of its own value: its words are
# the entry's, so a short step would otherwise outrank other entries on the entry's words.
QUOTING_SHARE = 0.75
# Meaning joins the words as a share of each item's value: (1 - MEANING_SHARE) of its value by
# words (as a share of the best's) plus MEANING_SHARE of its nearness by meaning, counted from
# MEANING_SPAN below the nearest item's (0) to the nearest's (1). Words keep most of the say:
# meaning reorders close calls and brings in what no word found, it does not outvote words.
MEANING_SHARE = 0.3
MEANING_SPAN = 0.1
# A long question's words are many and loose (most of them table talk around the rule): meaning's
# share grows with its words (groups), from MEANING_SHARE up to MEANING_SHORT_WORDS to
# MEANING_LONG_SHARE from MEANING_LONG_WORDS, in proportion between (meaning_share).
MEANING_LONG_SHARE = 0.4
MEANING_SHORT_WORDS = 6
MEANING_LONG_WORDS = 10
MEANING_DEPTH = 30  # the nearest items by meaning that may join the results words did not find
MEANING_FLOOR = 0.3  # and only if at least this near
# The best answer is a guess when it holds less than half of the question's words and, where
# meaning took part, is less near than this: the page says so (is_guess).
GUESS_SHARE = 0.5
GUESS_NEAR = 0.4
BY_MEANING = 4  # where a fused item says whether its place owes to meaning (owes_to_meaning)


@dataclass(frozen=True)
class Items:
    """What ranking and collapsing read of every indexed item, as lists by item number (faster
    than the stored fields' dicts in the hot loops)."""

    texts: Sequence[str]
    keys: Sequence[str]  # document/version/entry
    topics: Sequence[str]  # the same rule across versions
    live_topics: Sequence[str | None]  # its topic if in force, else None
    successors: Sequence[tuple[str, ...]]  # the topics it was merged into
    parents: Sequence[int]  # its parent's item number, or -1
    places: Sequence[tuple[str, str]]  # (document, version)
    shown_first: Sequence[tuple[bool, int]]  # (in force, version order): which version shows
    hit_fields: Sequence[tuple[str, ...]]  # document, version, entry, kind, name, edition
    version_entry: Sequence[tuple[str, str]]  # (version, entry)
    cited: Mapping[int, frozenset[str]]  # a timing step's number: the topics it quotes
    base: Sequence[float]  # 1, or SUPERSEDED for an item not in the version in force
    editions: Sequence[str]
    card_words: Mapping[int, int]  # a card's number: how many words its name has
    # Each item's factor for leaning to one game, by (game, factor away): see lean_factors.
    _leaning: dict[tuple[str | None, float], list[float]] = field(default_factory=dict)

    @classmethod
    def of(cls, meta: Sequence[Mapping[str, Any]], texts: Sequence[str]) -> Items:
        """The Items of an index's stored fields (meta) and texts, in item order."""
        by_key = {m["key"]: i for i, m in enumerate(meta)}
        topics = [m["topic"] for m in meta]
        fields = ("document", "version", "entry", "kind", "name", "edition")
        return cls(
            texts=texts,
            keys=[m["key"] for m in meta],
            topics=topics,
            live_topics=[m["topic"] if m["current"] else None for m in meta],
            successors=[tuple(m["successors"]) for m in meta],
            parents=[by_key.get(m.get("parent") or "", -1) for m in meta],
            places=[(m["document"], m["version"]) for m in meta],
            shown_first=[(bool(m["current"]), m["vorder"]) for m in meta],
            hit_fields=[tuple(m[f] for f in fields) for m in meta],
            version_entry=[(m["version"], m["entry"]) for m in meta],
            cited={
                i: frozenset(topics[by_key[k]] for k in m["cites"] if k in by_key)
                for i, m in enumerate(meta)
                if m.get("cites")
            },
            base=[1.0 if m["current"] else SUPERSEDED for m in meta],
            editions=[m["edition"] for m in meta],
            card_words={
                i: len(stems(m["name"])) for i, m in enumerate(meta) if m.get("kind") == "card"
            },
        )

    def live(self, docnums: Iterable[int]) -> set[str]:
        """The topics of these items that are in force."""
        live = set(map(self.live_topics.__getitem__, docnums))
        live.discard(None)
        return live

    def lean_factors(self, lean: str | None, away: float) -> list[float]:
        """Each item's factor for leaning to one game: away for the other game's, else 1."""
        key = (lean, away)
        found = self._leaning.get(key)
        if found is None:
            found = self._leaning[key] = [
                away if lean and edition != lean else 1.0 for edition in self.editions
            ]
        return found

    def name_share(self, docnum: int, in_title: int, want: int) -> float:
        """The share of a card's name the judge typed (1 for any other item).

        A card item holds nothing but its name: its title tier (every word typed is in the
        title) needs half of the name typed, or "hq" would put HQ: War Room above every rule
        about headquarters. Its score is left alone: "picard" still finds Jean-Luc Picard.
        """
        name_words = self.card_words.get(docnum)
        if not name_words:
            return 1.0
        return min(1.0, (in_title & want).bit_count() / name_words)


@dataclass(frozen=True)
class Question:
    """What ranking reads of the planned question besides the scores."""

    plan: Plan
    wanted: frozenset[int]  # the groups an item should hold (its own words or a concept's)
    exact: Mapping[int, int]  # items whose title is a wording's: their tier
    number: bool  # a question about a number
    lean: str  # the game leaned to
    mentioned: frozenset[tuple[str, str]]  # versions named (document, version)
    near: Sequence[float] | None = None  # each item's nearness by meaning, when asked
    allowed: frozenset[int] | None = None  # the items the filters let through (None: all)


def rank(
    items: Items,
    acc: dict[int, list],
    question: Question,
    limit: int,
    positions: Callable[[int], Positions],
) -> tuple[list, list]:
    """Order hits: exact titles, then titles holding every word, then by relevance; return the
    best in order and every match (for collapsing's count).

    Relevance is Whoosh's BM25F score (titles boosted), scaled by the share of the query's
    words the item holds (itself or in the rulebook's words for it), by how close together
    they stand (with a number, for a number question), down a little for an item not in
    the version in force, and down for the other game when the words lean to one.
    """
    q = question
    want = sum(1 << i for i in q.wanted)
    words = len(q.wanted)
    coord = [(k / words) ** COORD_POWER for k in range(len(q.plan.all) + 1)]
    base, factor = items.base, items.lean_factors(q.lean, LEAN_AWAY)
    # The hot loop (once per match): what only a few items need is done after it.
    ranked = [
        [
            0,
            score * _coord(coord, words, found & want, said & want) * base[d] * factor[d],
            d,
            (found & want).bit_count(),
        ]
        for d, (score, found, _, said) in acc.items()
    ]
    for item, (_, _, in_title, _) in zip(ranked, acc.values(), strict=True):
        if (
            in_title
            and in_title & want == want
            and items.name_share(item[2], in_title, want) >= CARD_NAME_SHARE
        ):
            item[0] = 2
    if q.mentioned:
        for item in ranked:
            if items.places[item[2]] in q.mentioned:
                item[1] *= MENTIONED
    if q.exact:
        for item in ranked:
            item[0] = q.exact.get(item[2], item[0])
    # Only the best need ordering: a bigger corpus must not sort every match.
    every = ranked
    ranked = best_of(every, max(limit, PROXIMITY_RERANK) * 3)
    if len(q.wanted) > 1 or q.number:
        _by_proximity(ranked, q, positions)
    if q.near is not None:
        # An item held some words only in what judges say of it: those sayings' rules answer.
        said = {d for d, (_, found, _, talk) in acc.items() if talk & want & ~found}
        ranked = fuse(ranked, every, q, base, _named_first(items, q, factor), said)
    return quoted_first(items, prefer_subsections(items, ranked)), every


def _named_first(items: Items, q: Question, factor: Sequence[float]) -> Sequence[float]:
    """The factors meaning is scaled by, those of a version the question names raised."""
    if not q.mentioned:
        return factor
    places = items.places
    return [f * MENTIONED_NEAR if places[d] in q.mentioned else f for d, f in enumerate(factor)]


def _coord(coord: list[float], words: int, found: int, said: int) -> float:
    """The share of the query's words an item holds, to the COORD_POWER: a word found only in
    what judges say of it counts TALK_COUNT of one."""
    talk_only = said & ~found
    if not talk_only:
        return coord[found.bit_count()]
    return ((found.bit_count() + TALK_COUNT * talk_only.bit_count()) / words) ** COORD_POWER


def is_guess(ranked: list, q: Question) -> bool:
    """Whether the first item is only a guess: not its exact title typed, fewer than half of the
    question's words in it (counting the words no rule uses, but not ordinary ones: the plan's
    unknown), and (where meaning took part) not near the question either."""
    if not ranked or ranked[0][0] >= 3 or not q.wanted:
        return False
    unknown = set(q.plan.unknown)
    asked = q.wanted | {i for i, g in enumerate(q.plan.groups) if g.part and g.part.text in unknown}
    top = ranked[0]
    near = float(q.near[top[2]]) if q.near is not None else 0.0
    return top[3] / len(asked) < GUESS_SHARE and near < GUESS_NEAR


def by_meaning(
    near: Sequence[float], allowed: Iterable[int] | None, weight: Sequence[float], most: int
) -> list:
    """(nearness × weight, item) of the `most` allowed items (None: all) nearest by meaning,
    nearest first (then by item number): the weight scales meaning as words are scaled (an older
    version a little down, the other game down when leaning). In numpy, and only the nearest
    are ordered: a Python sort of every item cost a millisecond a question."""
    items = np.arange(len(near)) if allowed is None else np.fromiter(allowed, dtype=np.intp)
    values = np.asarray(near, dtype=np.float64)[items] * np.asarray(weight, dtype=np.float64)[items]
    if len(values) > most:  # those at least as near as the most-th (its ties too)
        edge = np.partition(values, len(values) - most)[len(values) - most]
        keep = values >= edge
        items, values = items[keep], values[keep]
    order = np.lexsort((items, -values))[:most]
    return list(zip(values[order].tolist(), items[order].tolist(), strict=True))


def fuse(
    ranked: list,
    every: list,
    q: Question,
    base: Sequence[float],
    factor: Sequence[float],
    said: Collection[int] = (),
) -> list:
    """Join the value by words with the nearness by meaning (see MEANING_SHARE); tiers stay.

    ranked is in order. The nearest items by meaning that words did not find join the results
    and the count of matches. said: the items holding words only in what judges say of them."""
    assert q.near is not None
    weight = [b * f for b, f in zip(base, factor, strict=True)]
    nearest = by_meaning(q.near, q.allowed, weight, MEANING_DEPTH)
    if not nearest:
        return ranked
    low = nearest[0][0] - MEANING_SPAN
    share = meaning_share(len(q.plan.groups))

    def meaning(docnum: int) -> float:
        return share * max(0.0, (q.near[docnum] * weight[docnum] - low) / MEANING_SPAN)

    held = {item[2] for item in every}
    joined = [
        [0, 0.0, d, 0] for s, d in nearest[:MEANING_DEPTH] if s >= MEANING_FLOOR and d not in held
    ]
    every.extend(joined)
    best = max((item[1] for item in ranked if not item[0]), default=0.0) or 1.0
    for place, item in enumerate(ranked):
        words = item[1] / best if not item[0] else 1.0
        item[1] = (1 - share) * words + meaning(item[2])
        item.append(place)  # its place by words (owes_to_meaning, below)
    for item in joined:
        item[1] = meaning(item[2])
        item.append(-1)
    ranked = ranked + joined
    sort_ranked(ranked)
    for place, item in enumerate(ranked):
        was = item[BY_MEANING]
        raised = place < was or item[2] in said
        item[BY_MEANING] = was < 0 or (raised and meaning(item[2]) > 0)
    return ranked


def meaning_share(words: int) -> float:
    """Meaning's share of a fused value for a question of so many words (MEANING_LONG_SHARE)."""
    if words <= MEANING_SHORT_WORDS:
        return MEANING_SHARE
    if words >= MEANING_LONG_WORDS:
        return MEANING_LONG_SHARE
    grown = (MEANING_LONG_SHARE - MEANING_SHARE) * (words - MEANING_SHORT_WORDS)
    return MEANING_SHARE + grown / (MEANING_LONG_WORDS - MEANING_SHORT_WORDS)


def owes_to_meaning(item: list) -> bool:
    """Whether a ranked item's place owes to meaning (fuse): found by meaning alone, or raised by
    meaning above its place by words, or found by words only judges say of it (the sayings are
    meaning's chunks), with a part by meaning of its own."""
    return len(item) > BY_MEANING and item[BY_MEANING]


def _by_proximity(ranked: list, q: Question, positions: Callable[[int], Positions]) -> None:
    """Scale the best by how close together the query's words stand in each, and sort again."""
    stem_words: dict[str, int] = {}
    for i, group in enumerate(q.plan.all):
        mask = sum(1 << c for c in group.covers) if group.part is None else 1 << i
        for stem in group.terms:
            stem_words[stem] = stem_words.get(stem, 0) | mask
    count = len(q.plan.groups) + q.number  # a wanted number counts as one more word
    for item in ranked[:PROXIMITY_RERANK]:
        if item[3] > 1 or q.number:  # one word alone stands close to nothing
            where = positions(item[2])
            factor = proximity(where, stem_words, count, q.number)
            if q.number and not where.numerals:
                factor *= NO_NUMBER
            item[1] *= factor
    sort_ranked(ranked)


def order(item: list) -> tuple:
    """The sort key of a ranked item: tier, then value (both highest first), then item number."""
    return (-item[0], -item[1], item[2])


TIER, VALUE, NUMBER = itemgetter(0), itemgetter(1), itemgetter(2)  # of a ranked item


def sort_ranked(items: list[list]) -> None:
    """Sort in place by order, in three stable passes keyed in C (no Python call per item)."""
    items.sort(key=NUMBER)
    items.sort(key=VALUE, reverse=True)
    items.sort(key=TIER, reverse=True)


def best_of(items: list[list], count: int) -> list[list]:
    """The first count items in order, without ordering every match (a big corpus has thousands).

    Items of a tier come first; among the rest, those at or above the count-th best value (found
    by a heap over the values alone), ordered, then cut: the same as sorting all and cutting.
    """
    if len(items) <= count:
        items = list(items)
        sort_ranked(items)
        return items
    tiered = [it for it in items if it[0]]
    if len(tiered) >= count:
        return heapq.nsmallest(count, tiered, key=order)
    sort_ranked(tiered)
    rest = count - len(tiered)
    plain = [it for it in items if not it[0]] if tiered else items
    if len(plain) > 4 * rest:  # a heap pays only when it keeps a small part
        cut = heapq.nlargest(rest, map(VALUE, plain))[-1]
    else:
        cut = sorted(map(VALUE, plain), reverse=True)[rest - 1]
    top = [it for it in plain if it[1] >= cut]
    sort_ranked(top)
    return tiered + top[:rest]


def prefer_subsections(items: Items, ranked: list) -> list:
    """Move a sub-section just above its parent when it holds as many of the query's words.

    "Play and Draw Cards" and its "Drawing Cards" both match "draw a card": the narrower entry
    answers. A parent whose title the judge typed exactly (tier 3 or more) keeps its place.
    """
    place = {item[2]: item for item in ranked[:SUBSECTION_RERANK]}
    parents = items.parents
    moved = False
    for item in ranked[:SUBSECTION_RERANK]:
        parent_num = parents[item[2]]
        parent = place.get(parent_num) if parent_num >= 0 else None
        if parent is None or parent[0] >= 3 or order(parent) > order(item):
            continue
        if item[3] >= parent[3] and item[1] >= CHILD_SHARE * parent[1]:
            item[0], item[1] = parent[0], parent[1] * 1.001
            moved = True
    if moved:
        sort_ranked(ranked)
    return ranked


def _quoted(items: Items, ranked: list, steps: list) -> dict[int, frozenset[str]]:
    """The topics each matched step quotes, as the result it is shown in quotes them.

    An older version's step with another id joins its newer counterpart's result (see _fold),
    so the entries that result quotes count for every version of it.
    """
    topics, cited, successors = items.topics, items.cited, items.successors
    live = items.live(map(NUMBER, ranked))
    shown_in: dict[int, tuple[str, ...]] = {}
    by_result: dict[str, frozenset[str]] = {}
    for item in steps:
        docnum = item[2]
        topic = topics[docnum]
        if topic in live:
            results: tuple[str, ...] = (topic,)
        else:
            results = tuple(s for s in successors[docnum] if s in live) or (topic,)
        shown_in[docnum] = results
        quotes = cited[docnum]
        for result in results:
            held = by_result.get(result)
            # The versions of a step most often quote the same entries: share one set.
            by_result[result] = quotes if held is None or held == quotes else held | quotes
    return {
        docnum: by_result[rs[0]] if len(rs) == 1 else frozenset().union(*map(by_result.get, rs))
        for docnum, rs in shown_in.items()
    }


def quoted_first(items: Items, ranked: list) -> list:
    """Move a timing step just below the entries it quotes, where they matched as well.

    A step's words are the rulebook's, quoted from the entries it cites: the entry is where a
    judge reads (and cites) the rule, the step where it falls in a sequence. A step whose quoted
    entry matched too adds no words of its own: it counts QUOTING_SHARE of its value (a step,
    a few of the entry's sentences, would otherwise outrank other entries on the entry's
    words), and never more than just below that entry. Entries are compared as topics, where
    their results are shown. A step whose own title the judge typed (a higher tier than the
    entry's) keeps its place and value. ranked is in order.
    """
    cited, topics = items.cited, items.topics
    steps = [item for item in ranked if item[2] in cited]
    if not steps:
        return ranked
    quoted = _quoted(items, ranked, steps)
    wanted = set().union(*quoted.values())
    shown: dict[str, list] = {}
    for item in ranked:
        topic = topics[item[2]]
        if topic in wanted and topic not in shown:
            shown[topic] = item
    moved = False
    for item in steps:
        quoting = [s for s in map(shown.get, quoted[item[2]]) if s is not None and s[0] >= item[0]]
        if not quoting:
            continue
        value = item[1] * QUOTING_SHARE
        below = [s for s in quoting if order(s) > order(item)]
        if below:
            last = max(below, key=order)
            item[0], value = last[0], min(value, last[1] * QUOTE_SHARE)
        item[1] = value
        moved = True
    if moved:
        sort_ranked(ranked)
    return ranked
