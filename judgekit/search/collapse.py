"""Collapse versions, the search's fourth stage (pack-search.js: collapse): one result per topic,
in the version to show, with chips for the other versions in which it matched.

The stages, named alike here and in the pack: plan the query (query.py, SearchIndex.plan), score
(scoring.py), rank (ranking.py), collapse versions (this), shape the answer (service.py).
"""

from __future__ import annotations

from typing import NamedTuple

from judgekit.search.ranking import NUMBER, TIER, VALUE, Items, owes_to_meaning


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
    by_meaning: bool = False  # its place owes to meaning (ranking.owes_to_meaning)
    # Then the sentences (first, last) of its text that the chunk nearest in meaning holds: the
    # snippet's (index.py: _focused).
    focus: tuple[int, int] | None = None


def _fold(
    items: Items,
    topics: dict[str, list],
    live: set[str],
    named: dict[str, set[tuple[str, str]]] | None = None,
) -> dict[str, list]:
    """A rule gone from the version in force joins the rule it was merged into, if found; not
    where the question names a version holding both: there they are two sections ("same dilemma
    twice in Call to Arms": When Your Attempt Fails and Facing Dilemmas, two results, not one
    shown with the other as a chip).

    live: the topics with an item in force among those matched; named: the versions named in
    the question each topic matched in (named_in).
    """
    if len(live) == len(topics):
        return topics  # every topic is in force: nothing to fold
    successors = items.successors
    place = {topic: i for i, topic in enumerate(topics)}
    moved = False
    for topic in [t for t in topics if t not in live]:
        heirs = [
            s
            for it in topics[topic]
            for s in successors[it[2]]
            if s in live and may_join(named, topic, s)
        ]
        if heirs:
            heir = min(heirs, key=place.__getitem__)
            topics[heir].extend(topics.pop(topic))
            place[heir] = min(place[heir], place.pop(topic))
            moved = True
    if not moved:
        return topics
    return {topic: topics[topic] for topic in sorted(topics, key=place.__getitem__)}


def may_join(named: dict[str, set[tuple[str, str]]] | None, topic: str, heir: str) -> bool:
    """Whether a rule gone from the version in force may join this heir: not where a version
    the question names holds both (named: named_in's)."""
    return not (named and named.get(topic, set()) & named.get(heir, set()))


def named_in(
    items: Items, ranked: list, mentioned: frozenset[tuple[str, str]]
) -> dict[str, set[tuple[str, str]]]:
    """Each topic's versions named in the question (document, version) that it matched in."""
    out: dict[str, set[tuple[str, str]]] = {}
    if mentioned:
        topics, places = items.topics, items.places
        for item in ranked:
            if places[item[2]] in mentioned:
                out.setdefault(topics[item[2]], set()).add(places[item[2]])
    return out


def count_topics(
    items: Items,
    ranked: list,
    all_versions: bool,
    mentioned: frozenset[tuple[str, str]] = frozenset(),
) -> int:
    """How many results a full collapse of every match would give (without collapsing it)."""
    docs = list(map(NUMBER, ranked))
    if all_versions:
        return len(set(map(items.keys.__getitem__, docs)))
    names = items.topics
    matched = set(map(names.__getitem__, docs))
    live = items.live(docs)
    if len(live) == len(matched):
        return len(matched)
    dead, successors = matched - live, items.successors
    named = named_in(items, ranked, mentioned)
    folded = {
        names[d]
        for d in docs
        if successors[d]
        and names[d] in dead
        and any(s in live and may_join(named, names[d], s) for s in successors[d])
    }
    return len(matched) - len(folded)


def collapse(
    items: Items,
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
    names = items.keys if all_versions else items.topics
    topics: dict[str, list] = {}
    for item in ranked:
        name = names[item[2]]
        found = topics.get(name)
        if found is None:
            topics[name] = [item]
        else:
            found.append(item)
    if not all_versions:
        live = items.live(map(NUMBER, ranked))
        topics = _fold(items, topics, live, named_in(items, every or ranked, mentioned))
    total = len(topics)
    if every is not None and len(every) > len(ranked):
        # ranked is the best of every match: count every match's topics, and give the topics
        # shown their other versions that ranked below the cut.
        total = count_topics(items, every, all_versions, mentioned)
        shown = {topic: topics[topic] for topic in list(topics)[:limit]}
        seen = set(map(NUMBER, ranked))
        for item in [it for it in every if names[it[2]] in shown and it[2] not in seen]:
            shown[names[item[2]]].append(item)
    hits = tuple(_hit(items, found, mentioned) for found in list(topics.values())[:limit])
    return total, hits


def _hit(items: Items, found: list, mentioned: frozenset[tuple[str, str]]) -> Hit:
    """The result of one topic (its ranked items found): its version to show, with chips for
    the others."""
    texts, shown_first = items.texts, items.shown_first
    if len(found) == 1:  # most topics: no version to choose, no chips
        best, others = found[0], ()
        score, exact = best[1], best[0] >= 3
    else:
        # A version the question names, then the version to show first; within one version, the
        # item that ranks best (tier, value): a topic folded into its heir holds the named
        # version's copies of both ("While" in 1.1: When and While, not Paying Costs).
        places = items.places
        best = max(
            found, key=lambda it: (places[it[2]] in mentioned, shown_first[it[2]], it[0], it[1])
        )
        others = sorted(
            (it for it in found if it is not best), key=lambda it: shown_first[it[2]][1]
        )
        score, exact = max(map(VALUE, found)), max(map(TIER, found)) >= 3
    document, version, entry, kind, title, edition = items.hit_fields[best[2]]
    at = items.version_entry
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
        owes_to_meaning(best),
    )
