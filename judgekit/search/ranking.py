"""After scoring: prefer the sub-section that answers, put a quoted entry before the timing step
quoting it, and collapse versions of a topic.

A ranked item is [tier, value, docnum, words found]; the index passed in is a SearchIndex
(its `meta`, `texts` and `by_key`).
"""

from __future__ import annotations

import heapq
from operator import itemgetter
from typing import Any, NamedTuple

CHILD_SHARE = 0.5  # a sub-section scoring at least this share of its parent's value replaces it
RERANK = 50
QUOTE_SHARE = 0.999  # a step moved below an entry it quotes: just below, before the rest


class Hit(NamedTuple):
    """One result: an item, and the other versions in which the same topic matched.

    A named tuple, not a frozen dataclass: as immutable, and built several times faster (a frozen
    dataclass sets each field through object.__setattr__, 20 results a query).
    """

    document: str
    version: str
    id: str
    kind: str
    title: str
    text: str
    score: float
    exact: bool
    also_in: tuple[tuple[str, str], ...] = ()  # (version, id), oldest first
    edition: str = ""
    older: tuple[tuple[str, str, str], ...] = ()  # (version, id, text) that matched more words


def order(item: list) -> tuple:
    """The sort key of a ranked item: tier, then value (both highest first), then item number."""
    return (-item[0], -item[1], item[2])


_TIER, _VALUE, _NUMBER = itemgetter(0), itemgetter(1), itemgetter(2)


def sort_ranked(items: list[list]) -> None:
    """Sort in place by order, in three stable passes keyed in C (no Python call per item)."""
    items.sort(key=_NUMBER)
    items.sort(key=_VALUE, reverse=True)
    items.sort(key=_TIER, reverse=True)


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
    cut = heapq.nlargest(rest, map(itemgetter(1), plain))[-1]
    top = [it for it in plain if it[1] >= cut]
    sort_ranked(top)
    return tiered + top[:rest]


def prefer_subsections(index: Any, ranked: list) -> list:
    """Move a sub-section just above its parent when it holds as many of the query's words.

    "Play and Draw Cards" and its "Drawing Cards" both match "draw a card": the narrower entry
    answers. A parent whose title the judge typed exactly (tier 3 or more) keeps its place.
    """
    place = {item[2]: item for item in ranked[:RERANK]}
    parents = index.parents
    moved = False
    for item in ranked[:RERANK]:
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


def _fold(index: Any, topics: dict[str, list]) -> dict[str, list]:
    """A rule gone from the version in force joins the rule it was merged into, if found."""
    current, successors = index.current, index.successors
    place = {topic: i for i, topic in enumerate(topics)}
    live = {t for t, items in topics.items() if any(current[it[2]] for it in items)}
    for topic, items in list(topics.items()):
        if topic in live:
            continue
        heirs = [s for it in items for s in successors[it[2]] if s in live]
        if heirs:
            heir = min(heirs, key=place.__getitem__)
            topics[heir].extend(topics.pop(topic))
            place[heir] = min(place[heir], place.pop(topic))
    return {topic: topics[topic] for topic in sorted(topics, key=place.__getitem__)}


def count_topics(index: Any, ranked: list, all_versions: bool) -> int:
    """How many results a full collapse of every match would give (without collapsing it)."""
    names, current = (index.keys if all_versions else index.topics), index.current
    docs = [item[2] for item in ranked]
    matched = {names[d] for d in docs}
    if all_versions:
        return len(matched)
    live = {names[d] for d in docs if current[d]}
    if len(live) == len(matched):
        return len(matched)
    dead, successors = matched - live, index.successors
    folded = {
        names[d]
        for d in docs
        if successors[d] and names[d] in dead and any(s in live for s in successors[d])
    }
    return len(matched) - len(folded)


def collapse(
    index: Any,
    ranked: list,
    all_versions: bool,
    limit: int,
    mentioned: frozenset[tuple[str, str]] = frozenset(),
    every: list | None = None,
) -> tuple[int, tuple]:
    """One hit per topic in its newest matched version, with chips for the others.

    An older version whose passage holds more of the query's words than the one shown (v4
    dropped some Call to Arms sentences) is kept beside it with its text. A version the
    question names ("under Call to Arms") is shown rather than the one in force.
    """
    names = index.keys if all_versions else index.topics
    topics: dict[str, list] = {}
    for item in ranked:
        topics.setdefault(names[item[2]], []).append(item)
    if not all_versions:
        topics = _fold(index, topics)
    total = len(topics)
    if every is not None and len(every) > len(ranked):
        # ranked is the best of every match: count every match's topics, and give the topics
        # shown their other versions that ranked below the cut.
        total = count_topics(index, every, all_versions)
        shown = {topic: topics[topic] for topic in list(topics)[:limit]}
        seen = {item[2] for item in ranked}
        for item in [it for it in every if names[it[2]] in shown and it[2] not in seen]:
            shown[names[item[2]]].append(item)
    hits = tuple(_hit(index, items, mentioned) for items in list(topics.values())[:limit])
    return total, hits


def _hit(index: Any, items: list, mentioned: frozenset[tuple[str, str]]) -> Hit:
    """The result of one topic: its version to show, with chips for the others."""
    meta, texts, shown_first = index.meta, index.texts, index.shown_first
    if len(items) == 1:  # most topics: no version to choose, no chips
        best, others = items[0], []
    else:
        if mentioned:
            best = max(items, key=lambda it: (index.places[it[2]] in mentioned, shown_first[it[2]]))
        else:
            best = max(items, key=lambda it: shown_first[it[2]])
        others = sorted(
            (it for it in items if it is not best), key=lambda it: shown_first[it[2]][1]
        )
    fields = meta[best[2]]
    return Hit(
        document=fields["document"],
        version=fields["version"],
        id=fields["entry"],
        kind=fields["kind"],
        title=fields["name"],
        text=texts[best[2]],
        score=round(max(it[1] for it in items), 4),
        exact=max(it[0] for it in items) >= 3,
        also_in=tuple((meta[it[2]]["version"], meta[it[2]]["entry"]) for it in others),
        edition=fields["edition"],
        older=tuple(
            (meta[it[2]]["version"], meta[it[2]]["entry"], texts[it[2]])
            for it in others
            if it[3] > best[3]
        ),
    )


def _quoted(index: Any, ranked: list, steps: list) -> dict[int, set[str]]:
    """The topics each matched step quotes, as the result it is shown in quotes them.

    An older version's step with another id joins its newer counterpart's result (see _fold),
    so the entries that result quotes count for every version of it.
    """
    topics, cited, current, successors = index.topics, index.cited, index.current, index.successors
    live = {topics[item[2]] for item in ranked if current[item[2]]}
    shown_in: dict[int, tuple[str, ...]] = {}
    by_result: dict[str, set[str]] = {}
    for item in steps:
        topic = topics[item[2]]
        if topic in live:
            results: tuple[str, ...] = (topic,)
        else:
            results = tuple(s for s in successors[item[2]] if s in live) or (topic,)
        shown_in[item[2]] = results
        for result in results:
            by_result.setdefault(result, set()).update(cited[item[2]])
    return {docnum: set().union(*(by_result[r] for r in rs)) for docnum, rs in shown_in.items()}


def quoted_first(index: Any, ranked: list) -> list:
    """Move a timing step just below the entries it quotes, where they matched as well.

    A step's words are the rulebook's, quoted from the entries it cites: the entry is where a
    judge reads (and cites) the rule, the step where it falls in a sequence. Entries are
    compared as topics, where their results are shown. A step whose own title the judge typed
    (a higher tier than the entry's) keeps its place. ranked is in order.
    """
    cited, topics = index.cited, index.topics
    steps = [item for item in ranked if item[2] in cited]
    if not steps:
        return ranked
    quoted = _quoted(index, ranked, steps)
    wanted = set().union(*quoted.values())
    shown: dict[str, list] = {}
    for item in ranked:
        topic = topics[item[2]]
        if topic in wanted and topic not in shown:
            shown[topic] = item
    moved = False
    for item in steps:
        below = [
            s
            for s in map(shown.get, quoted[item[2]])
            if s is not None and s[0] >= item[0] and order(s) > order(item)
        ]
        if below:
            last = max(below, key=order)
            item[0], item[1] = last[0], last[1] * QUOTE_SHARE
            moved = True
    if moved:
        sort_ranked(ranked)
    return ranked
