"""After scoring: prefer the sub-section that answers, put a quoted entry before the timing step
quoting it, and collapse versions of a topic.

A ranked item is [tier, value, docnum, words found]; what these steps read of every indexed item
is an Items (made once per index, by item number).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
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
    hit_fields: Sequence[tuple[str, str, str, str, str, str]]  # see of()
    version_entry: Sequence[tuple[str, str]]  # (version, entry)
    cited: Mapping[int, frozenset[str]]  # a timing step's number: the topics it quotes

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
        )


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
    if len(plain) > 4 * rest:  # a heap pays only when it keeps a small part
        cut = heapq.nlargest(rest, map(_VALUE, plain))[-1]
    else:
        cut = sorted(map(_VALUE, plain), reverse=True)[rest - 1]
    top = [it for it in plain if it[1] >= cut]
    sort_ranked(top)
    return tiered + top[:rest]


def prefer_subsections(index: Items, ranked: list) -> list:
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


def _live(index: Items, docnums: Iterable[int]) -> set[str]:
    """The topics of these items that are in force."""
    live = set(map(index.live_topics.__getitem__, docnums))
    live.discard(None)
    return live


def _fold(index: Items, topics: dict[str, list], live: set[str]) -> dict[str, list]:
    """A rule gone from the version in force joins the rule it was merged into, if found.

    live: the topics with an item in force among those matched.
    """
    if len(live) == len(topics):
        return topics  # every topic is in force: nothing to fold
    successors = index.successors
    place = {topic: i for i, topic in enumerate(topics)}
    moved = False
    for topic in [t for t in topics if t not in live]:
        items = topics[topic]
        heirs = [s for it in items for s in successors[it[2]] if s in live]
        if heirs:
            heir = min(heirs, key=place.__getitem__)
            topics[heir].extend(topics.pop(topic))
            place[heir] = min(place[heir], place.pop(topic))
            moved = True
    if not moved:
        return topics
    return {topic: topics[topic] for topic in sorted(topics, key=place.__getitem__)}


def count_topics(index: Items, ranked: list, all_versions: bool) -> int:
    """How many results a full collapse of every match would give (without collapsing it)."""
    docs = list(map(_NUMBER, ranked))
    if all_versions:
        return len(set(map(index.keys.__getitem__, docs)))
    names = index.topics
    matched = set(map(names.__getitem__, docs))
    live = _live(index, docs)
    if len(live) == len(matched):
        return len(matched)
    dead, successors = matched - live, index.successors
    folded = {
        names[d]
        for d in docs
        if successors[d] and names[d] in dead and not live.isdisjoint(successors[d])
    }
    return len(matched) - len(folded)


def collapse(
    index: Items,
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
        name = names[item[2]]
        found = topics.get(name)
        if found is None:
            topics[name] = [item]
        else:
            found.append(item)
    if not all_versions:
        live = _live(index, map(_NUMBER, ranked))
        topics = _fold(index, topics, live)
    total = len(topics)
    if every is not None and len(every) > len(ranked):
        # ranked is the best of every match: count every match's topics, and give the topics
        # shown their other versions that ranked below the cut.
        total = count_topics(index, every, all_versions)
        shown = {topic: topics[topic] for topic in list(topics)[:limit]}
        seen = set(map(_NUMBER, ranked))
        for item in [it for it in every if names[it[2]] in shown and it[2] not in seen]:
            shown[names[item[2]]].append(item)
    hits = tuple(_hit(index, items, mentioned) for items in list(topics.values())[:limit])
    return total, hits


def _hit(index: Items, items: list, mentioned: frozenset[tuple[str, str]]) -> Hit:
    """The result of one topic: its version to show, with chips for the others."""
    texts, shown_first = index.texts, index.shown_first
    if len(items) == 1:  # most topics: no version to choose, no chips
        best, others = items[0], ()
        score, exact = best[1], best[0] >= 3
    else:
        if mentioned:
            places = index.places
            best = max(items, key=lambda it: (places[it[2]] in mentioned, shown_first[it[2]]))
        else:
            best = max(items, key=lambda it: shown_first[it[2]])
        others = sorted(
            (it for it in items if it is not best), key=lambda it: shown_first[it[2]][1]
        )
        score, exact = max(map(_VALUE, items)), max(map(_TIER, items)) >= 3
    document, version, entry, kind, title, edition = index.hit_fields[best[2]]
    at = index.version_entry
    return Hit(
        document,
        version,
        entry,
        kind,
        title,
        texts[best[2]],
        round(score, 4),
        exact,
        tuple(at[it[2]] for it in others),  # also_in
        edition,
        tuple((*at[it[2]], texts[it[2]]) for it in others if it[3] > best[3]),  # older
    )


def _quoted(index: Items, ranked: list, steps: list) -> dict[int, frozenset[str]]:
    """The topics each matched step quotes, as the result it is shown in quotes them.

    An older version's step with another id joins its newer counterpart's result (see _fold),
    so the entries that result quotes count for every version of it.
    """
    topics, cited, successors = index.topics, index.cited, index.successors
    live = _live(index, map(_NUMBER, ranked))
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


def quoted_first(index: Items, ranked: list) -> list:
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
