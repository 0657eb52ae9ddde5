"""Search as a service: validate parameters, run the index, shape the API's JSON dict.

The stages, named alike here and in the pack (pack-search.js): plan the query (query.py,
SearchIndex.plan), score (scoring.py), rank (ranking.py), collapse versions (collapse.py), shape
the answer (SearchService.shape, snippets.py); SearchIndex.search runs the first four.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from judgekit.corpus.model import ENTRY_KINDS, Corpus
from judgekit.render.library import Library
from judgekit.render.status import status
from judgekit.render.summaries import entry_summary
from judgekit.render.text import quoted
from judgekit.search.analysis import MAX_QUERY_CHARS, clean_query
from judgekit.search.cache import cache_key, default_cache_dir, load_or_build
from judgekit.search.collapse import Hit
from judgekit.search.focus import Focus
from judgekit.search.index import Filters, Outcome, SearchIndex
from judgekit.search.meaning import Meaning
from judgekit.search.query import (
    names_of_versions,
    strip_edition,
    strip_versions,
    unheld_versions,
    without_edition,
)
from judgekit.search.snippets import Asked, snippet
from judgekit.search.sources import ExtraSource, card_source, entry_docs, timing_source
from judgekit.search.tabletalk import TableTalk, load_table_talk
from judgekit.search.vocabulary import load_vocabulary

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger(__name__)

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
TRUE = ("1", "true", "yes", "on")
FALSE = ("", "0", "false", "no", "off")
EDITIONS = ("2E", "1E")
EDITION_LABELS = {"2E": "Second Edition", "1E": "First Edition"}


class SearchParamError(ValueError):
    """A bad search parameter; the message says what is wrong (answered with a 400)."""


@dataclass(frozen=True)
class SearchParams:
    """Validated search parameters."""

    q: str
    filters: Filters
    all_versions: bool
    limit: int
    meaning: bool = True  # False: by words alone (meaning=0)


def unknown_choice(what: str, known: Sequence[str]) -> str:
    """What a search says of a value of ``what`` (kind, edition) not among ``known`` (VALUE: the
    value quoted)."""
    return f"unknown {what} {VALUE} (known: {', '.join(known)})"


def flag_words(name: str) -> str:
    """What a search says of a flag (all_versions, meaning) that is neither on nor off."""
    return f"{name} must be 1 or 0, not {VALUE}"


def _known(what: str, value: str, known: list[str]) -> SearchParamError:
    return SearchParamError(unknown_choice(what, known).replace(VALUE, quoted(value)))


def _query(params: Mapping[str, str]) -> str:
    raw_q = params.get("q") or ""
    if len(raw_q) > MAX_QUERY_CHARS:
        raise SearchParamError(
            f"the question is too long to search: {len(raw_q):,} characters, and a search reads "
            f"at most {MAX_QUERY_CHARS:,}. Ask it in fewer words (a card's name, or a few words "
            "of the rule), or send its first part: the search page searches the first "
            f"{MAX_QUERY_CHARS:,} characters and says what it left out"
        )
    return clean_query(raw_q)


def _document(corpus: Corpus, params: Mapping[str, str]) -> str | None:
    held = [doc.id for doc in corpus.held()]
    document = (params.get("document") or "").strip() or None
    if document is not None and document not in held:
        if document in corpus.documents:
            raise SearchParamError(NOT_HELD.replace(VALUE, quoted(document)))
        raise SearchParamError(unknown_document(corpus).replace(VALUE, quoted(document)))
    return document


# Where an unknown value goes in the messages below (the pack's page puts it there too).
VALUE = "{value}"
NOT_HELD = f"document {VALUE} is not held in judgekit"
LIMIT_WORDS = f"limit must be a whole number from 1 to {MAX_LIMIT}, not {VALUE}"


def unknown_document(corpus: Corpus) -> str:
    """What a search says of an unknown document (VALUE: the value quoted): the documents held,
    by the names judges see, with the value the address takes."""
    named = ", ".join(f"{doc.short_title} as document={doc.id}" for doc in corpus.held())
    return f"unknown document {VALUE}; the documents held: {named}"


def unknown_version(lib: Library, document: str | None) -> str:
    """What a search says of an unknown version (of a document chosen, or None): the versions
    held, named as the site names them (citations), with the value the address takes."""
    corpus = lib.corpus
    docs = [corpus.documents[document]] if document else list(corpus.held())
    named = ", ".join(
        f"{lib.cited_version(v)} as version={v.id}" for doc in docs for v in reversed(doc.versions)
    )
    of = f" of {corpus.documents[document].short_title}" if document else ""
    return f"unknown version {VALUE}{of}; the versions held: {named}"


def _version(lib: Library, params: Mapping[str, str], document: str | None) -> str | None:
    version = (params.get("version") or "").strip() or None
    corpus = lib.corpus
    if version is not None:
        docs = [corpus.documents[document]] if document else list(corpus.held())
        if version not in {v.id for doc in docs for v in doc.versions}:
            message = unknown_version(lib, document)
            raise SearchParamError(message.replace(VALUE, quoted(version)))
    return version


def _choice(params: Mapping[str, str], name: str, known: tuple[str, ...]) -> str | None:
    value = (params.get(name) or "").strip()
    if name == "edition":
        value = value.upper()
    if value and value not in known:
        raise _known(name, params.get(name, ""), list(known))
    return value or None


def _limit(params: Mapping[str, str]) -> int:
    limit_text = (params.get("limit") or "").strip() or str(DEFAULT_LIMIT)
    # Length first: int() of thousands of digits is slow, then refused by Python.
    if not (len(limit_text) <= 3 and limit_text.isascii() and limit_text.isdigit()) or not (
        1 <= int(limit_text) <= MAX_LIMIT
    ):
        raise SearchParamError(LIMIT_WORDS.replace(VALUE, quoted(params.get("limit"))))
    return int(limit_text)


def parse_params(lib: Library, params: Mapping[str, str], kinds: tuple[str, ...]) -> SearchParams:
    """Check every parameter against the library's corpus; raise SearchParamError naming the bad
    one (a version or document by the names judges see, with the ids an address takes)."""
    q = _query(params)
    document = _document(lib.corpus, params)
    version = _version(lib, params, document)
    kind = _choice(params, "kind", kinds)
    edition = _choice(params, "edition", EDITIONS)
    return SearchParams(
        q=q,
        filters=Filters(document, version, kind, edition),
        all_versions=_flag(params, "all_versions", False),
        limit=_limit(params),
        meaning=_flag(params, "meaning", True),
    )


def _flag(params: Mapping[str, str], name: str, default: bool) -> bool:
    flag = (params.get(name) or "").strip().lower()
    if not flag:
        return default
    if flag not in TRUE + FALSE:
        raise SearchParamError(flag_words(name).replace(VALUE, quoted(params[name])))
    return flag in TRUE


class SearchService:
    """The index of one corpus, built or opened once on first use, shared by all threads."""

    def __init__(
        self, lib: Library, cache_dir: str | Path | None, extras: tuple[ExtraSource, ...] = ()
    ) -> None:
        self.lib = lib
        self.cache_dir = cache_dir
        self.extras = {extra.kind: extra for extra in extras}
        self.kinds = ENTRY_KINDS + tuple(self.extras)
        self.how = ""  # "cache", "built" or "memory", once the index exists
        self._static: dict[tuple[str, ...], dict] = {}  # see _where
        self._index: SearchIndex | None = None
        self._lock = threading.Lock()
        self.meaning = Meaning(cache_dir)
        self._ask_first: Callable[[Sequence[int]], np.ndarray | None] | None = None

    @classmethod
    def for_library(cls, lib: Library, cache_dir: str | Path | None = "default") -> SearchService:
        """A service over the corpus entries plus the timing steps where they exist."""
        if cache_dir == "default":
            cache_dir = default_cache_dir()
        extras = tuple(x for x in (timing_source(lib), card_source(lib)) if x is not None)
        return cls(lib, cache_dir, extras)

    @cached_property
    def talk(self) -> TableTalk:
        """The corpus's table talk, read once: the index's talk field and meaning's sayings."""
        return load_table_talk(self.lib.corpus.root)

    @property
    def index(self) -> SearchIndex:
        """The index, built or loaded by the first caller while the others wait."""
        if self._index is None:
            with self._lock:
                if self._index is None:
                    self._index = self._load()
        return self._index

    def _load(self) -> SearchIndex:
        corpus = self.lib.corpus
        extra = [doc for source in self.extras.values() for doc in source.docs()]
        expected = sum(len(v.entries) for v in corpus.versions()) + len(extra)
        key = cache_key(corpus.digest, ",".join(sorted(self.extras)))
        index, self.how = load_or_build(
            self.cache_dir, key, expected, lambda: entry_docs(self.lib, self.talk) + extra
        )
        # The vocabulary is read at every start, not cached: it shapes queries, not the index.
        index.use_vocabulary(load_vocabulary(corpus.root))
        index.use_versions(names_of_versions(corpus.versions()))
        return index

    def load_meaning(self, only_if_kept: bool = False) -> str:
        """Load the model and the corpus's vectors (embedding what no cache holds, unless
        only_if_kept) and search by meaning from then on; returns the state (Meaning.state)."""
        index = self.index
        said = self._said(index)
        sayings = [tuple(phrase for phrase, _ in item) for item in said]
        model = self.meaning.load(index.meta, index.texts, only_if_kept, sayings)
        if model is not None:
            rules = [tuple(rule for _, rule in item) for item in said]
            index.use_meaning(model, Focus(index.texts, model.passages, rules))
            self.embed_elsewhere(self._ask_first)
        return self.meaning.state

    def embed_elsewhere(
        self, ask_first: Callable[[Sequence[int]], np.ndarray | None] | None
    ) -> None:
        """Ask ask_first for each question's vector before embedding it in this process (the
        embedder process's meaning.embedder.Remote.embed; None: embed here), from now on."""
        self._ask_first = ask_first
        model = self._index.meaning if self._index is not None else None
        if model is not None and model.gather is not None:
            model.gather.ask_first = ask_first

    def _said(self, index: SearchIndex) -> list[tuple[tuple[str, str], ...]]:
        """What judges say of each item's rules, with each saying's rule (tabletalk.py), by item
        number: entries only."""
        corpus = self.lib.corpus
        said = []
        for m in index.meta:
            entry = corpus.entry(m["document"], m["version"], m["entry"])
            said.append(self.talk.said_of(entry) if entry and m["kind"] in ENTRY_KINDS else ())
        return said

    def warm(self) -> int:
        """Do now what the first queries would otherwise do (a server's background warm-up): read
        every term's scores, prepare every item's words (and, with meaning loaded, the sentences of
        its chunks) and describe every item; returns the count."""
        index = self.index
        index.warm()
        if index.focus is not None:  # the sentences of each chunk, for results found by meaning
            index.focus.warm()
        for m in index.meta:
            self._chip(m["document"], m["version"], m["entry"], m["kind"])  # and its _where
        return len(index.meta)

    def search(self, params: Mapping[str, str]) -> dict[str, Any]:
        """The API's answer to these parameters (README: the search API's answer)."""
        parsed = parse_params(self.lib, params, self.kinds)
        outcome = self.index.search(
            parsed.q, parsed.filters, parsed.all_versions, parsed.limit, parsed.meaning
        )
        return self.shape(parsed, outcome)

    def shape(self, parsed: SearchParams, outcome: Outcome) -> dict[str, Any]:
        """Shape the answer, the search's last stage (pack-search.js: shape): the JSON dict of
        an outcome (the page renders this same dict)."""
        named = outcome.named_edition
        filters = dict(parsed.filters.__dict__, edition=parsed.filters.edition or named)
        aside, unnamed = self._set_aside(parsed)
        return {
            "query": parsed.q.strip(),
            "total": outcome.total,
            "results": [self.result(hit, outcome.terms, outcome.asked) for hit in outcome.hits],
            "suggestion": outcome.suggestion,
            "not_in_rules": list(outcome.unknown),
            "read_as": [{"words": said, "means": list(means)} for said, means in outcome.read_as],
            # Versions the question names that none held answers to ("v5"): searched without.
            "versions_not_held": list(unheld_versions(parsed.q, self.index.versions)),
            # Quoted phrases no passage holds word for word: searched as words.
            "unquoted": list(outcome.unquoted),
            # The game searched, chosen (a parameter) or named in the question ("2e battle").
            "filters": {k: v for k, v in filters.items() if v},
            "edition_from": "question" if named else "filter" if filters["edition"] else None,
            # The game named in the question when a chosen one kept the search to another.
            "edition_set_aside": aside,
            "query_without_edition": outcome.without_edition if named else unnamed or None,
            # Every game the question names, by name or version: two, and both were searched.
            "editions_named": list(outcome.games),
            # Whether meaning took part in this answer, and why not (Meaning.state).
            "by_meaning": outcome.by_meaning,
            # The first result holds few of the question's words and is not near it in meaning.
            "guess": outcome.guess,
            "meaning": self.meaning.state if parsed.meaning else "off",
        }

    def _set_aside(self, parsed: SearchParams) -> tuple[str | None, str]:
        """The game the question names if the search kept to another game, document or version
        (chosen: they win), with the question without that name; else (None, "").

        A version named ("battle in Call to Arms") names its game too; the question for that
        game keeps the version's name, which then says which version to show first.
        """
        typed, chosen = parsed.q, parsed.filters
        if not (chosen.edition or chosen.document or chosen.version):
            return None, ""  # the named game, if any, was searched
        blanked, mentioned = strip_versions(typed, self.index.versions)  # as the index reads it
        stripped, named = strip_edition(blanked)
        named = named or self.index.game_of(mentioned)
        if named is None or named in self._editions(chosen):
            return None, ""
        return named, without_edition(typed, blanked, stripped)

    def _editions(self, chosen: Filters) -> set[str]:
        """The games a chosen game, document or version keeps the search to."""
        return {
            doc.edition
            for doc in self.lib.corpus.held()
            if chosen.edition in (None, doc.edition)
            and chosen.document in (None, doc.id)
            and (chosen.version is None or doc.version(chosen.version) is not None)
        }

    def result(self, hit: Hit, terms: frozenset[str], asked: Asked | None = None) -> dict[str, Any]:
        """One result: where it is, what it says (the sentence answering what was asked), and
        where else the topic matched."""
        data = dict(self._where(hit.document, hit.version, hit.id, hit.kind))
        data["snippet"] = snippet(hit.text, terms, asked=asked, focus=hit.focus)
        data["exact"] = hit.exact
        older = {(v, i): text for v, i, text in hit.older} if hit.older else {}
        chips = data["also_in"] = []
        for other_version, other_id in hit.also_in:
            chip = dict(self._chip(hit.document, other_version, other_id, hit.kind))
            passage = older.get((other_version, other_id))
            # This older version's passage holds more of the words asked about.
            chip["snippet"] = snippet(passage, terms, asked=asked) if passage else None
            chips.append(chip)
        return data

    def _chip(self, document: str, version_id: str, item: str, kind: str) -> dict:
        """What a result's chip for another version says of it (kept, as _where)."""
        key = ("chip", document, version_id, item, kind)
        found = self._static.get(key)
        if found is None:
            other = self._where(document, version_id, item, kind)
            index = self.index
            found = self._static[key] = {
                "version": version_id,
                "short_title": other["version_title"],
                "id": item,
                "title": other["title"],
                "url": other["url"],
                # Its own kind: a topic folds in entries of other kinds (a section's glossary
                # entry of the same title), which its chip names (search/_macros.html).
                "kind": index.meta[index.by_key[f"{document}/{version_id}/{item}"]]["kind"],
            }
        return found

    def _where(self, document: str, version_id: str, item: str, kind: str) -> dict:
        """What a result says of an item besides its snippet: the same for every query, so kept
        (a result's dict copies it; nothing changes it)."""
        key = (document, version_id, item, kind)
        found = self._static.get(key)
        if found is None:
            # Each item's own title: an older version's step has its own number and heading.
            index = self.index
            title = index.meta[index.by_key[f"{document}/{version_id}/{item}"]]["name"]
            found = self._static[key] = self._describe(document, version_id, item, kind, title)
        return found

    def _describe(self, document: str, version_id: str, item: str, kind: str, title: str) -> dict:
        lib = self.lib
        doc = lib.corpus.documents[document]
        version = doc.version(version_id)
        entry = version.get(item) if kind in ENTRY_KINDS else None
        hit = Hit(document, version_id, item, kind, title, "", 0.0, False)
        data: dict[str, Any] = {
            "id": item,
            "kind": kind,
            "title": entry.title if entry is not None and kind != "step" else title,
            "document": document,
            "version": version_id,
            "url": self._url(hit),
            "api_url": None,
            "edition": doc.edition,
            "edition_label": EDITION_LABELS.get(doc.edition, doc.edition),
            "in_force": lib.corpus.in_force(version),  # kept for scripts: newest held
            "status": status(lib.corpus, version).label,
            "draft": version.draft,
            "document_title": doc.short_title,
            "version_title": version.short_title,
        }
        if entry is not None:
            data["api_url"] = lib.entry_api_url(entry)
            data["citation"] = lib.citation_title(entry)
            data["breadcrumb"] = [entry_summary(lib, e) for e in lib.breadcrumb(entry)]
        elif kind in self.extras:
            extra = self.extras[kind]
            data["api_url"] = extra.urls(hit)[1]
            data["citation"] = f"{lib.label(version)}, {title}"
            data["breadcrumb"] = extra.breadcrumb(hit)
            if extra.describe is not None:
                data.update(extra.describe(hit))
        return data

    def _url(self, hit: Hit) -> str:
        """The page of a hit: an entry's permalink, or what its extra source says."""
        if hit.kind in self.extras:
            return self.extras[hit.kind].urls(hit)[0]
        entry = self.lib.corpus.entry(hit.document, hit.version, hit.id)
        return self.lib.entry_url(entry) if entry else ""
