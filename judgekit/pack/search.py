"""The pack's search data: the server's index items, analysed by the server's analysis.

``search-index.js`` (a script, so a folder opened with ``file://`` can load it) holds what
``static/js/pack-search.js`` needs to answer like ``/api/search``: each item's result fields,
its title and text as index terms (term frequencies and lengths for BM25F), the stem of every
word of the corpus (so the browser needs no stemmer of its own), and the spelling vocabulary.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from flask import Flask

from judgekit.pack.paths import pack_file
from judgekit.search import analysis, documents, index, query, ranking
from judgekit.search.analysis import stems
from judgekit.search.index import SearchIndex
from judgekit.search.query import version_names
from judgekit.search.service import DEFAULT_LIMIT, MAX_LIMIT, SearchService
from judgekit.search.sources import entry_docs
from judgekit.search.vocabulary import Vocabulary, english_words, load_vocabulary, raw_said
from judgekit.web.context import library_of

SEARCH_DATA = "search-index.js"


def _result_fields(svc: SearchService, doc: documents.IndexDoc) -> dict[str, Any]:
    """The /api/search result of an item, as the server builds it, without snippet or chips."""
    hit = index.Hit(
        document=doc.document,
        version=doc.version,
        id=doc.id,
        kind=doc.kind,
        title=doc.heading or doc.title,
        text=doc.text,
        score=0.0,
        exact=False,
    )
    data = svc.result(hit, frozenset())
    del data["snippet"], data["also_in"], data["exact"]
    data.pop("text", None)  # the answer carries a snippet; the item's text is the item's own
    for key in ("url", "api_url"):
        if data.get(key):
            data[key] = pack_file(data[key], key == "api_url")
    for crumb in data.get("breadcrumb", []):
        for key in ("url", "api_url"):
            if crumb.get(key):
                crumb[key] = pack_file(crumb[key], key == "api_url")
    return data


def _field_lengths(svc: SearchService, items: list[dict[str, Any]]) -> list[list[float]]:
    """Each item's title and text lengths as Whoosh's BM25F reads them: stored in a byte, so
    rounded (a text of 667 terms counts as 647); exact lengths would rank differently."""
    searcher = svc.index.searcher()
    at = svc.index.by_key
    return [
        [searcher.doc_field_length(at[item["key"]], name, 1) for name in query.FIELDS]
        for item in items
    ]


def _stems(corpus: dict[str, str | None], vocab: Vocabulary) -> dict[str, str]:
    """The stem of every corpus word, and of every English or vocabulary word whose stem is an
    index term or a vocabulary phrase's: a judge types words the rules never use ("blows")."""
    out = {w: s for w, s in corpus.items() if s}
    wanted = set(out.values())
    wanted.update(s for key in vocab.said() for s in key)
    wanted.update(s for key in vocab.leaning() for s in key)
    for word in english_words() | vocab.known_words():
        if word not in out and (stem := analysis.stem_token(word)) in wanted:
            out[word] = stem
    return out


def _postings(all_terms: list[list[str]]) -> dict[str, list[list[int]]]:
    out: dict[str, list[list[int]]] = {}
    for i, terms in enumerate(all_terms):
        for term, tf in Counter(terms).items():
            out.setdefault(term, []).append([i, tf])
    return out


def _never_corrected(index: SearchIndex) -> list[str]:
    """English and vocabulary words the speller would otherwise "correct" ("bed" to "be"...):
    the others need not be known to the browser, a phone loads a tenth of the list."""
    speller = index.speller
    return sorted(w for w in index.known_words if w not in speller and speller.correct(w, 1))


def judge_vocabulary(
    vocab: Vocabulary, corpus_words: dict[str, int], index: SearchIndex
) -> dict[str, Any]:
    """A judge's vocabulary as query.py reads it: say phrases as index terms (and, with a stop
    word, as patterns), the rulebook's words for each as index terms, and the lean phrases."""
    terms = [
        {"edition": t.edition, "means": [stems(m) for m in t.means], "said": list(t.means)}
        for t in vocab.terms
    ]
    number = {id(t): i for i, t in enumerate(vocab.terms)}
    return {
        "terms": terms,
        "said": [
            [list(key), [number[id(t)] for t in found]] for key, found in vocab.said().items()
        ],
        "raw": [[p.pattern, number[id(t)]] for p, t in raw_said(vocab)],
        "lean": [[list(key), edition] for key, edition in vocab.leaning().items()],
        # Words a correction may propose beyond the corpus's own, and words never corrected.
        "learned": sorted(vocab.known_words() - set(corpus_words)),
        "english": "\n".join(_never_corrected(index)),
    }


def search_data(app: Flask) -> dict[str, Any]:
    """Everything the browser's search reads, built with the server's analysis."""
    lib = library_of(app)
    svc = SearchService.for_library(lib, None)
    docs = entry_docs(lib) + [d for extra in svc.extras.values() for d in extra.docs()]
    items, titles, texts, stem_of = [], [], [], {}
    vocab = documents.vocab_of(docs)
    vocab_terms = load_vocabulary(lib.corpus.root)
    named = version_names([(v.document, v.id, v.short_title) for v in lib.corpus.versions()])
    for doc in docs:
        names = tuple(n for n in (doc.title, *doc.aliases) if n)
        title = " ; ".join(names)
        for token in analysis.TOKEN_RE.findall(" ".join((title, doc.text))):
            low = token.lower()
            if low not in stem_of:
                stem_of[low] = analysis.stem_token(low)
        titles.append(analysis.stems(title))
        texts.append(analysis.stems(doc.text))
        items.append(
            {
                "result": _result_fields(svc, doc),
                "topic": doc.topic,
                "key": doc.key,
                "edition": doc.edition,
                "current": doc.current,
                "vorder": doc.vorder,
                "successors": list(doc.successors),
                "keys": sorted({k for k in map(analysis.title_key, names) if k}),
                "parent": f"{doc.document}/{doc.version}/{doc.parent}" if doc.parent else "",
                "cites": list(doc.cites),
                "name": doc.heading or doc.title,
                "text": doc.text,  # for snippets and phrases, not part of the answer
            }
        )
    return {
        "items": items,
        "lengths": _field_lengths(svc, items),
        "averages": {name: svc.index.searcher().avg_field_length(name) for name in query.FIELDS},
        "title": _postings(titles),
        "text": _postings(texts),
        "stems": _stems(stem_of, vocab_terms),
        "vocabulary": vocab,
        "judge": judge_vocabulary(vocab_terms, vocab, svc.index),
        "versions": [[n.pattern.pattern, n.document, n.version] for n in named],
        "stops": sorted(analysis.STOPS),
        "questions": sorted(analysis.QUESTION_WORDS),
        "numbers": sorted(analysis.NUMBER_STEMS),
        "kinds": list(svc.kinds),
        "settings": {
            "title_boost": documents.TITLE_BOOST,
            "k1": 1.2,
            "b": index.LENGTH_NORM,
            "prefix_weight": query.PREFIX_WEIGHT,
            "fuzzy_weight": query.FUZZY_WEIGHT,
            "expansion_weight": query.EXPANSION_WEIGHT,
            "exact_tiers": dict(index.EXACT_TIERS),
            "coord_power": index.COORD_POWER,
            "superseded": index.SUPERSEDED,
            "rerank": index.RERANK,
            "length_norm": index.LENGTH_NORM,
            "lean_away": index.LEAN_AWAY,
            "default_lean": index.DEFAULT_LEAN,
            "default_away": index.DEFAULT_AWAY,
            "no_number": index.NO_NUMBER,
            "card_name_share": index.CARD_NAME_SHARE,
            "mentioned": index.MENTIONED,
            "child_share": ranking.CHILD_SHARE,
            "subsection_rerank": ranking.RERANK,
            "quote_share": ranking.QUOTE_SHARE,
            "number_cue": query.NUMBER_CUE.pattern,
            "proximity": analysis.PROXIMITY,
            "max_groups": analysis.MAX_GROUPS,
            "max_query_chars": analysis.MAX_QUERY_CHARS,
            "default_limit": DEFAULT_LIMIT,
            "max_limit": MAX_LIMIT,
        },
    }


def write_search_data(app: Flask, out: Path) -> list[str]:
    """Write ``search-index.js``; returns the file written."""
    data = json.dumps(search_data(app), ensure_ascii=False, separators=(",", ":"))
    (out / SEARCH_DATA).write_text(f"self.JUDGEKIT_SEARCH = {data};\n", encoding="utf-8")
    return [SEARCH_DATA]
