"""Searching a built index: query expansion, judge-style ranking and collapsing versions."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

from whoosh import query as Q
from whoosh import scoring
from whoosh.index import Index
from whoosh.searching import Searcher

from judgekit.search.analysis import (
    HOW_MANY,
    QueryPart,
    Speller,
    parse_query,
    proximity,
    stems,
    title_key,
)

PREFIX_WEIGHT = 0.6  # a completion of the word being typed counts less than the word itself
FUZZY_WEIGHT = 0.8  # so does a spelling correction
# An exact card title beats everything (the card page gathers its rulings), then an exact
# term or ruling topic; any other exact title comes next (tier 3).
EXACT_TIERS = {"card": 5, "glossary": 4, "ruling": 4}
COORD_POWER = 2  # an item holding half the query's words scores a quarter
SUPERSEDED = 0.85  # a rule found only in an older version ranks a little lower
RERANK = 50  # how many of the best hits are checked for proximity
LENGTH_NORM = 0.5  # BM25's B: how much a long section is penalised for its length


def weighting() -> scoring.WeightingModel:
    """BM25F with the length normalisation above."""
    return scoring.BM25F(B=LENGTH_NORM, K1=1.2)


@dataclass(frozen=True)
class Filters:
    """Which items a search may return; None means any."""

    document: str | None = None
    version: str | None = None
    kind: str | None = None
    edition: str | None = None

    def query(self) -> Q.Query | None:
        """The Whoosh filter, or None when nothing is filtered."""
        terms = [Q.Term(name, value) for name, value in self.__dict__.items() if value]
        return Q.And(terms) if terms else None


@dataclass(frozen=True)
class Hit:
    """One result: an item, and the other versions in which the same topic matched."""

    document: str
    version: str
    id: str
    kind: str
    title: str
    text: str
    score: float
    exact: bool
    also_in: tuple[tuple[str, str], ...] = ()  # (version, id), oldest first


@dataclass(frozen=True)
class Outcome:
    """What a search found: the hits to show, how many topics matched, and hints."""

    total: int
    hits: tuple[Hit, ...]
    terms: frozenset[str]  # index terms to highlight
    suggestion: str | None


@dataclass(frozen=True)
class _Group:
    """A query word or phrase as weighted index terms."""

    part: QueryPart
    terms: dict[str, float]  # word: alternative stems; phrase: the sequence (weights 1)
    correction: str | None = None
    completions: tuple[str, ...] = ()


class SearchIndex:
    """A built index with its vocabulary; searches are safe from any number of threads."""

    def __init__(self, ix: Index, speller: Speller) -> None:
        self.ix = ix
        self.speller = speller
        self._local = threading.local()
        self._stems: dict[int, list[str]] = {}  # each item's text as index terms, on demand
        # Ranking reads a few fields of every match, results their text: keep them in memory
        # rather than unpickle (and decompress) stored fields on every query.
        with ix.searcher() as searcher:
            stored = list(searcher.all_stored_fields())
        self.texts: list[str] = [fields.get("text", "") for fields in stored]
        self.meta: list[dict] = [
            {k: v for k, v in fields.items() if k != "text"} for fields in stored
        ]
        # Card titles complete as the judge types: "devidian d" means the card Devidian Door.
        self.card_names = sorted(
            {(title_key(m["name"]), m["name"]) for m in self.meta if m.get("kind") == "card"}
        )

    def searcher(self) -> Searcher:
        """This thread's searcher: Whoosh searchers must not be shared between threads."""
        found = getattr(self._local, "searcher", None)
        if found is None:
            found = self._local.searcher = self.ix.searcher(weighting=weighting())
        return found

    def doc_count(self) -> int:
        """How many items the index holds."""
        return self.searcher().doc_count()

    # -- query building ----------------------------------------------------------------------
    def _groups(self, parts: Sequence[QueryPart]) -> list[_Group]:
        groups = []
        for part in parts:
            if part.phrase:
                seq = stems(part.text)
                if seq:
                    groups.append(_Group(part, dict.fromkeys(seq, 1.0)))
                continue
            own = stems(part.text)
            terms: dict[str, float] = {own[0]: 1.0} if own else {}
            correction = None
            # A one-letter prefix matches half the corpus: expand it to fewer words.
            width = {1: 4, 2: 8}.get(len(part.text), 12)
            completions = self.speller.complete(part.text, width) if part.last else []
            for word in completions:
                for stem in stems(word):
                    terms.setdefault(stem, PREFIX_WEIGHT)
            if part.text not in self.speller and not completions:
                fixes = self.speller.correct(part.text)
                correction = fixes[0] if fixes else None
                for word in fixes:
                    for stem in stems(word):
                        terms.setdefault(stem, FUZZY_WEIGHT)
            if terms:
                groups.append(_Group(part, terms, correction, tuple(completions[:3])))
        return groups

    @staticmethod
    def _group_query(group: _Group) -> Q.Query:
        if group.part.phrase and len(group.terms) > 1:
            seq = list(group.terms)
            return Q.Or([Q.Phrase("title", seq), Q.Phrase("text", seq)])
        return Q.Or(
            [
                Q.Term(field, stem, boost=weight)
                for stem, weight in group.terms.items()
                for field in ("title", "text")
            ]
        )

    # -- searching ---------------------------------------------------------------------------
    def search(
        self,
        query: str,
        filters: Filters = Filters(),
        all_versions: bool = False,
        limit: int = 20,
    ) -> Outcome:
        """Rank items for a judge's query; collapse versions of a topic unless all_versions."""
        parts = parse_query(query)
        groups = self._groups(parts)
        suggestion = _suggest(query, groups)
        if not groups:
            return Outcome(0, (), frozenset(), suggestion)
        searcher = self.searcher()
        fq = filters.query()
        results = searcher.search(
            Q.Or([self._group_query(g) for g in groups]), filter=fq, limit=None, terms=True
        )
        wordings = _wordings(query, suggestion, groups) + self._card_completions(query)
        exact = self._exact(searcher, wordings, fq)
        ranked = self._rank(results, groups, exact, bool(HOW_MANY.search(query)))
        hits = self._collapse(ranked, all_versions, limit)
        terms = frozenset(stem for g in groups for stem in g.terms)
        return Outcome(hits[0], hits[1], terms, suggestion)

    def _card_completions(self, query: str, most: int = 5) -> list[str]:
        """Card titles the query is most of the start of, as exact wordings.

        At least three letters and half the title: "devidian d" is Devidian Door, while
        "stopped" is a rule word, not the start of Stop First Contact.
        """
        key = title_key(query)
        if len(key) < 3:
            return []
        found = [
            name for k, name in self.card_names if k.startswith(key) and len(key) * 2 >= len(k)
        ]
        return found[:most]

    def _rank(self, results, groups: list[_Group], exact: dict[int, int], number: bool) -> list:
        """Order hits: exact titles, then titles holding every word, then by relevance.

        Relevance is Whoosh's BM25F score (titles boosted), scaled by the share of the query's
        words the item holds, by how close together they stand (with a number, for "how
        many"), and down a little for an item that is not in the version in force.
        """
        owner: dict[tuple[str, str], set[int]] = {}
        for i, group in enumerate(groups):
            for stem in group.terms:
                for field in ("title", "text"):
                    owner.setdefault((field, stem), set()).add(i)
        ranked = []
        for hit in results:
            found: set[int] = set()
            in_title: set[int] = set()
            for field, term in hit.matched_terms():
                idx = owner.get((field, term.decode() if isinstance(term, bytes) else term), ())
                found.update(idx)
                if field == "title":
                    in_title.update(idx)
            tier = exact.get(hit.docnum, 0) or (2 if len(in_title) == len(groups) else 0)
            value = hit.score * (len(found) / len(groups)) ** COORD_POWER
            if not self.meta[hit.docnum]["current"]:
                value *= SUPERSEDED
            ranked.append([tier, value, hit.docnum, hit.score])
        ranked.sort(key=lambda item: (-item[0], -item[1], item[2]))
        if len(groups) > 1 or number:
            stem_groups: dict[str, set[int]] = {}
            for i, group in enumerate(groups):
                for stem in group.terms:
                    stem_groups.setdefault(stem, set()).add(i)
            wanted = len(groups) + number  # a wanted number counts as one more word
            for item in ranked[:RERANK]:
                item[1] *= self._proximity(item[2], stem_groups, wanted, number)
            ranked.sort(key=lambda item: (-item[0], -item[1], item[2]))
        return ranked

    def _proximity(self, docnum: int, stem_groups: dict, count: int, number: bool) -> float:
        """1 + a bonus when the query's words stand close together in the item's text."""
        seq = self._stems.get(docnum)
        if seq is None:
            seq = self._stems[docnum] = stems(self.texts[docnum])
        return proximity(seq, stem_groups, count, number)

    def _fold(self, topics: dict[str, list]) -> dict[str, list]:
        """A rule gone from the version in force joins the rule it was merged into, if found."""
        place = {topic: i for i, topic in enumerate(topics)}
        live = {
            t for t, items in topics.items() if any(self.meta[it[2]]["current"] for it in items)
        }
        for topic, items in list(topics.items()):
            if topic in live:
                continue
            heirs = [s for it in items for s in self.meta[it[2]]["successors"] if s in live]
            if heirs:
                heir = min(heirs, key=place.__getitem__)
                topics[heir].extend(topics.pop(topic))
                place[heir] = min(place[heir], place.pop(topic))
        return {topic: topics[topic] for topic in sorted(topics, key=place.__getitem__)}

    def _exact(self, searcher, wordings: list[str], fq: Q.Query | None) -> dict[int, int]:
        """Docnums whose title or alias equals a wording (stemmed), with their tier (EXACT_TIERS)."""
        keys = {key for key in map(title_key, wordings) if key}
        if not keys:
            return {}
        found = searcher.search(
            Q.Or([Q.Term("title_key", key) for key in keys]), filter=fq, limit=None
        )
        return {hit.docnum: EXACT_TIERS.get(hit["kind"], 3) for hit in found}

    def _collapse(
        self, ranked: list, all_versions: bool, limit: int
    ) -> tuple[int, tuple[Hit, ...]]:
        """One hit per topic in its newest matched version, with chips for the others."""
        topics: dict[str, list] = {}
        for item in ranked:
            fields = self.meta[item[2]]
            topics.setdefault(fields["key"] if all_versions else fields["topic"], []).append(item)
        if not all_versions:
            topics = self._fold(topics)
        hits = []
        for items in list(topics.values())[:limit]:
            best = max(
                items, key=lambda it: (self.meta[it[2]]["current"], self.meta[it[2]]["vorder"])
            )
            others = sorted(
                (self.meta[it[2]] for it in items if it is not best), key=lambda f: f["vorder"]
            )
            fields = self.meta[best[2]]
            hits.append(
                Hit(
                    document=fields["document"],
                    version=fields["version"],
                    id=fields["entry"],
                    kind=fields["kind"],
                    title=fields["name"],
                    text=self.texts[best[2]],
                    score=round(max(it[1] for it in items), 4),
                    exact=max(it[0] for it in items) >= 3,
                    also_in=tuple((f["version"], f["entry"]) for f in others),
                )
            )
        return len(topics), tuple(hits)


def _wordings(query: str, suggestion: str | None, groups: list[_Group]) -> list[str]:
    """What the judge may mean, best first: as typed, as corrected, or with the last word done."""
    out = [query] + ([suggestion] if suggestion else [])
    typing = [g for g in groups if g.completions]
    if typing:
        last = typing[-1].part
        out += [query[: last.start] + word + query[last.end :] for word in typing[-1].completions]
    return out


def _suggest(query: str, groups: list[_Group]) -> str | None:
    """The query with each misspelled word replaced by its likeliest correction."""
    fixes = [g for g in groups if g.correction]
    if not fixes:
        return None
    out, pos = [], 0
    for group in sorted(fixes, key=lambda g: g.part.start):
        out.append(query[pos : group.part.start])
        out.append(group.correction)
        pos = group.part.end
    out.append(query[pos:])
    return "".join(out).strip()
