"""Searching a built index: its stages in order (plan the query, score, rank, collapse versions;
service.py shapes the answer), with what they read of the index."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace

from whoosh import query as Q
from whoosh import scoring
from whoosh.index import Index
from whoosh.searching import Searcher

from judgekit.meaning.model import MeaningModel
from judgekit.search import ranking
from judgekit.search.analysis import (
    TOKEN_RE,
    Positions,
    Speller,
    parse_query,
    positions,
    stems,
    title_key,
    titles_begun,
)
from judgekit.search.collapse import Hit, collapse
from judgekit.search.focus import Focus
from judgekit.search.query import (
    FIELDS,
    NUMBER_CUE,
    Group,
    Plan,
    VersionName,
    concepts,
    games_named,
    lost,
    not_in_rules,
    strip_named,
    strip_versions,
    suggest,
    unquote,
    word_groups,
    wordings,
)
from judgekit.search.ranking import DEFAULT_LEAN
from judgekit.search.scoring import TermScores, score
from judgekit.search.snippets import Asked, asked_of, text_stems
from judgekit.search.vocabulary import Vocabulary, english_words, lean_of

# An exact card title beats everything (the card page gathers its rulings), then an exact
# term or ruling topic; any other exact title comes next (tier 3). (As on main, issue #15.)
EXACT_TIERS = {"card": 5, "glossary": 4, "ruling": 4}
# Words for the rules themselves (stems): beside a title's words they still ask for that title.
RULES_WORDS = frozenset({"rule", "rulebook"})
MEANING_WORDS = 3  # fewer words than this are looked up by words alone
# ...but a question of this many words or more, two of them meaning something ("when do
# personnel get unstopped"), is a judge's question, not a title being looked up: by meaning too.
MEANING_QUESTION = 4
# "Did you mean" is offered when the correction changes the first this many results.
COMPARED = 3
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
class Outcome:
    """What a search found: the hits to show, how many topics matched, and hints."""

    total: int
    hits: tuple[Hit, ...]
    terms: frozenset[str]  # index terms to highlight
    suggestion: str | None
    unknown: tuple[str, ...] = ()  # the judge's words that no rule uses
    read_as: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (judge's words, rulebook's words)
    named_edition: str | None = None  # the game the question named, when it kept to it
    without_edition: str = ""  # then the question without that name: searches both games
    asked: Asked = Asked()  # what snippets look for: the judge's words and what stands for them
    by_meaning: bool = False  # whether meaning took part in the ranking
    guess: bool = False  # the first result is only a guess (ranking.is_guess)
    games: tuple[str, ...] = ()  # every game the question names, by name or version (2E first)
    unquoted: tuple[str, ...] = ()  # quoted phrases no passage holds, searched as words (lost)


class SearchIndex:
    """A built index with its vocabulary; searches are safe from any number of threads."""

    def __init__(self, ix: Index, speller: Speller) -> None:
        self.ix = ix
        self.speller = speller
        self._local = threading.local()
        self._stems: dict[int, Positions] = {}  # where each item's terms stand, on demand
        self._flat: dict[int, str] = {}  # and its title and text, space-joined
        self.vocab = Vocabulary()
        self.versions: tuple[VersionName, ...] = ()  # how questions name versions
        self.known_words: frozenset[str] = english_words()
        self.meaning: MeaningModel | None = None  # see use_meaning
        self.focus: Focus | None = None
        # Ranking reads a few fields of every match, results their text: keep them in memory
        # rather than unpickle (and decompress) stored fields on every query.
        with ix.searcher() as searcher:
            stored = list(searcher.all_stored_fields())
        self.texts: list[str] = [fields.get("text", "") for fields in stored]
        self.meta: list[dict] = [
            {k: v for k, v in fields.items() if k != "text"} for fields in stored
        ]
        self.by_key: dict[str, int] = {m["key"]: i for i, m in enumerate(self.meta)}
        self._read_lists()
        self.scores = TermScores(self.searcher, self.meta)

    def _read_lists(self) -> None:
        """What ranking reads of every item, as lists by item number: faster than meta dicts."""
        meta = self.meta
        # Card titles complete as the judge types: "devidian d" means the card Devidian Door.
        self.card_names = sorted(
            {(title_key(m["name"]), m["name"]) for m in meta if m.get("kind") == "card"}
        )
        self._card_keys = [key for key, _ in self.card_names]  # for bisect
        self._card_titles = [name for _, name in self.card_names]
        self._game = {m["document"]: m["edition"] for m in meta}
        self.items = ranking.Items.of(meta, self.texts)  # what ranking and collapsing read

    def searcher(self) -> Searcher:
        """This thread's searcher: Whoosh searchers must not be shared between threads."""
        found = getattr(self._local, "searcher", None)
        if found is None:
            found = self._local.searcher = self.ix.searcher(weighting=weighting())
        return found

    def doc_count(self) -> int:
        """How many items the index holds."""
        return self.searcher().doc_count()

    def use_vocabulary(self, vocab: Vocabulary) -> None:
        """Expand queries with a judge's vocabulary; its words and English are not misspellings."""
        self.vocab = vocab
        self.known_words = english_words() | vocab.known_words()
        self.speller.learn(sorted(vocab.known_words() - set(self.speller.freq)))

    def use_meaning(self, meaning: MeaningModel | None, focus: Focus | None = None) -> None:
        """Rank by meaning as well as words from now on (None: by words alone); focus: what each
        chunk holds, for the snippets of results found by meaning."""
        self.meaning = meaning
        self.focus = focus

    def use_versions(self, names: tuple[VersionName, ...]) -> None:
        """Recognise versions named in a question ("beaming in 1.1")."""
        self.versions = names

    def warm(self) -> None:
        """Read every term's scores and prepare every item's words now (a server's warm-up, in
        the background), so that no judge's query waits for either."""
        self.scores.warm()
        for docnum in range(len(self.meta)):
            self._positions(docnum)
            self._joined(docnum)

    def known(self, word: str) -> bool:
        """A word of the corpus, the vocabulary or English: never 'corrected'."""
        return word in self.speller or word in self.known_words

    def _has(self, stem: str) -> bool:
        """Whether any item holds this index term."""
        return any(self.scores.of(name, stem) for name in FIELDS)

    def _joined(self, docnum: int) -> str:
        """An item's title and text as space-joined index terms, for vocabulary phrases."""
        found = self._flat.get(docnum)
        if found is None:
            seq = stems(f"{self.meta[docnum]['name']} . {self.texts[docnum]}")
            found = self._flat[docnum] = f" {' '.join(seq)} "
        return found

    # -- plan the query ----------------------------------------------------------------------
    def plan(self, query: str, edition: str | None = None, fuzzy: bool = True) -> Plan:
        """The query's groups, the vocabulary's concepts, and the words no rule uses."""
        known = self.known if fuzzy else (lambda _word: True)  # the words as typed
        groups = word_groups(parse_query(query), self.speller, known, self.vocab.said())
        live, unknown = set(), []
        for i, group in enumerate(groups):
            if any(self._has(stem) for stem in group.terms):
                live.add(i)
            elif not group.part.phrase and not group.correction:
                unknown.append(i)
        absent = {groups[i].part.text for i in unknown}
        found = [
            c
            for c in concepts(self.vocab, groups, edition, query)
            if any(self._has(s) for s in c.terms) or c.phrases
        ]
        read_as = tuple(
            (
                " ".join(groups[i].part.text for i in sorted(c.covers)),
                tuple(dict.fromkeys(t for term in c.said for t in term.means)),
            )
            for c in found
            if any(groups[i].part.text in absent for i in c.covers)
        )
        return Plan(groups, found, frozenset(live), not_in_rules(groups, unknown, found), read_as)

    # -- searching ---------------------------------------------------------------------------
    def search(
        self,
        query: str,
        filters: Filters = Filters(),
        all_versions: bool = False,
        limit: int = 20,
        meaning: bool = True,
    ) -> Outcome:
        """Rank items for a judge's query; collapse versions of a topic unless all_versions.

        "Did you mean" is offered only when the correction changes the answer: when the words
        as typed, uncorrected, would find other entries first.
        """
        # The first three are compared whatever the limit: the same question gets the same
        # "Did you mean" however many results are shown (limit=1 too).
        found = self._search(query, filters, all_versions, max(limit, COMPARED), meaning=meaning)
        if found.suggestion:
            literal = self._search(
                query, filters, all_versions, COMPARED, fuzzy=False, meaning=meaning
            )
            if _top(literal) == _top(found):
                found = replace(found, suggestion=None)
        return replace(found, hits=found.hits[:limit]) if limit < COMPARED else found

    def _search(
        self,
        query: str,
        filters: Filters,
        all_versions: bool,
        limit: int,
        fuzzy: bool = True,
        meaning: bool = True,
        unquoted: tuple[str, ...] = (),
    ) -> Outcome:
        typed = query  # plan the query
        # A version named in the question is no word to look for: it says where to look.
        query, mentioned = strip_versions(query, self.versions)
        of_versions = self.games_of(mentioned)
        games = games_named(query, of_versions)
        if filters.version or filters.document:
            mentioned = frozenset()
        chosen = filters.edition or filters.document or filters.version  # wins over "2e battle"
        # A game named, or a version of it ("battle in CTA"), keeps the search to that game.
        query, named, unnamed = strip_named(typed, query, chosen, of_versions)
        if named:
            filters = replace(filters, edition=named)
        plan = self.plan(query, filters.edition, fuzzy)
        suggestion = suggest(typed, plan.groups)
        wanted = plan.live.union(*(c.covers for c in plan.concepts))
        terms = frozenset(stem for g in plan.all for stem in g.terms)
        terms |= frozenset(s for c in plan.concepts for seq in c.phrases for s in seq)
        asked = asked_of(plan)
        found = Outcome(
            0,
            (),
            terms,
            suggestion,
            plan.unknown,
            plan.read_as,
            named,
            unnamed,
            asked,
            games=games,
            unquoted=unquoted,
        )
        if not wanted:
            return found
        allowed = self.scores.allowed(filters)  # score
        acc = score(self.scores, plan.all, allowed, self._phrase_in)
        gone = lost(plan, acc, self._held_anywhere)
        if (
            gone and not unquoted
        ):  # the judge's quote is not the rulebook's wording: search its words
            again = unquote(typed, gone)
            return self._search(again, filters, all_versions, limit, fuzzy, meaning, gone)
        # rank
        said = wordings(query, suggestion, plan) + self._card_completions(query)
        seq = [s for g in plan.groups if g.part and not g.part.phrase for s in stems(g.part.text)]
        exact = self._exact(said)
        # A game chosen or named (or a version's) is searched alone: lean to none. The question
        # naming both games ("1E rules in CTA") searches both, leaning as its words do.
        lean = None if filters.edition else lean_of(self.vocab, seq)
        near = self._nearness(query, plan) if meaning else None
        question = ranking.Question(
            plan,
            wanted,
            exact,
            bool(NUMBER_CUE.search(query)),
            lean or DEFAULT_LEAN,
            mentioned,
            near,
            allowed,
        )
        ranked, every = ranking.rank(self.items, acc, question, limit, self._positions)
        total, hits = collapse(self.items, ranked, all_versions, limit, mentioned, every)
        if near is not None:
            hits = self._focused(query, hits)
        guess = ranking.is_guess(ranked, question)
        return replace(found, total=total, hits=hits, by_meaning=near is not None, guess=guess)

    def _held_anywhere(self, group: Group) -> bool:
        """Whether any item, whatever the filters, holds a quoted phrase (query.lost)."""
        return bool(score(self.scores, [group], None, self._phrase_in))

    def _nearness(self, query: str, plan: Plan) -> Sequence[float] | None:
        """Each item's nearness to the question by meaning, when it is a question (a few words
        at least) and the model is loaded; else None."""
        if self.meaning is None or not wants_meaning(query, len(plan.groups)):
            return None
        return self.meaning.nearness(query)

    def _focused(self, query: str, hits: tuple[Hit, ...]) -> tuple[Hit, ...]:
        """The hits, each whose place owes to meaning with the sentences its nearest chunk holds
        (focus.py): its snippet shows them."""
        if self.meaning is None or self.focus is None:
            return hits
        mine = [i for i, hit in enumerate(hits) if hit.by_meaning]
        if not mine:
            return hits
        items = [self.by_key[f"{hits[i].document}/{hits[i].version}/{hits[i].id}"] for i in mine]
        out = list(hits)
        for i, chunk in zip(mine, self.meaning.nearest(query, items), strict=True):
            out[i] = hits[i]._replace(focus=self.focus.of(chunk))
        return tuple(out)

    def _positions(self, docnum: int) -> Positions:
        """Where each term of an item's text stands (prepared once)."""
        where = self._stems.get(docnum)
        if where is None:
            where = self._stems[docnum] = positions(text_stems(self.texts[docnum]))
        return where

    def _exact(self, wordings: list[str]) -> dict[int, int]:
        """Docnums whose title or alias equals a wording (stemmed), with their tier (EXACT_TIERS).

        Unfiltered: ranking reads it only for the items matched, which the filters kept."""
        found, keys = {}, set()
        for key in map(title_key, wordings):
            # "battle rules", "rules on range": the rules on a title ask for that title.
            keys |= {key, " ".join(s for s in key.split() if s not in RULES_WORDS)}
        for key in filter(None, keys):
            for docnum in self.scores.titled(key):
                found[docnum] = EXACT_TIERS.get(self.meta[docnum]["kind"], 3)
        return found

    def _card_completions(self, query: str, most: int = 5) -> list[str]:
        """Card titles the query is most of the start of, as exact wordings ("devidian d" is
        Devidian Door; at least three letters and half the title: "stopped" is a rule word)."""
        return titles_begun(self._card_keys, self._card_titles, query, most)

    def game_of(self, versions: frozenset[tuple[str, str]]) -> str | None:
        """The one game of the versions a question names (document, version), else None."""
        games = self.games_of(versions)
        return next(iter(games)) if len(games) == 1 else None

    def games_of(self, versions: frozenset[tuple[str, str]]) -> frozenset[str]:
        """The games of the versions a question names (document, version)."""
        return frozenset(self._game[document] for document, _ in versions)

    def unnamed(self, question: str) -> str:
        """The question without the game it names, by name or by versions of it ("battle" for
        "1e battle", "battle in" for "battle in CTA"), or "" if it names none: what searches
        both games."""
        blanked, mentioned = strip_versions(question, self.versions)
        return strip_named(question, blanked, None, self.games_of(mentioned))[2]

    def named_in(self, question: str) -> tuple[frozenset[str], bool]:
        """The games a question names, by name or by versions of them, and whether it names a
        version; no game when it is nothing but names ("v4", "second edition": words to find)."""
        blanked, mentioned = strip_versions(question, self.versions)
        games = frozenset(games_named(blanked, self.games_of(mentioned)))
        if len(games) == 1 and not self.unnamed(question):
            return frozenset(), False
        return games, bool(mentioned)

    def _phrase_in(self, docnum: int, seq: tuple[str, ...]) -> bool:
        """Whether a phrase's terms stand in a row in an item's title or text."""
        return f" {' '.join(seq)} " in self._joined(docnum)


def wants_meaning(query: str, groups: int) -> bool:
    """Whether a question of these meaningful words (groups) is searched by meaning too: three
    or more, or two in a question of MEANING_QUESTION words (pack-search.js: wantsMeaning)."""
    return groups >= MEANING_WORDS - (len(TOKEN_RE.findall(query)) >= MEANING_QUESTION)


def _top(outcome: Outcome) -> list[tuple[str, str, str]]:
    return [(h.document, h.version, h.id) for h in outcome.hits[:COMPARED]]
