"""The pack's search data: the server's index items, analysed by the server's analysis.

``search-index.js`` and ``search-more.js`` (scripts, so a folder opened with ``file://`` can
load them) hold what ``static/js/pack-search.js`` needs to answer like ``/api/search``: each
item's result fields, its title and text as index terms (term frequencies and lengths for
BM25F), the stem of every word of the corpus (so the browser needs no stemmer of its own), and
the spelling vocabulary. The second file holds what most first answers can do without (split).
"""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

from flask import Flask

from judgekit.pack.compact import (
    SHARED,
    compact_citations,
    compact_crumbs,
    compact_item,
    compact_postings,
    compact_shared,
)
from judgekit.pack.paths import pack_file
from judgekit.pack.searchpage import SEARCH_PAGE, self_contained
from judgekit.search import analysis, documents, index, query, ranking, snippets
from judgekit.search.analysis import stems
from judgekit.search.collapse import Hit
from judgekit.search.index import SearchIndex
from judgekit.search.query import names_of_versions
from judgekit.search.service import DEFAULT_LIMIT, MAX_LIMIT, SearchService
from judgekit.search.sources import entry_docs
from judgekit.search.vocabulary import (
    Vocabulary,
    english_words,
    load_vocabulary,
    raw_needles,  # the server's own: the pack skips a pattern exactly when the server does
    raw_said,
)
from judgekit.shapes.search_notes import pack_notes
from judgekit.web import version_names as version_names_in_addresses
from judgekit.web.context import library_of

SEARCH_DATA = "search-index.js"
MORE_DATA = "search-more.js"  # what an answer can wait for: split()
STEMMER = "vendor/porter2/index.js"  # under the static folder


def _result_fields(svc: SearchService, doc: documents.IndexDoc) -> dict[str, Any]:
    """The /api/search result of an item, as the server builds it, without snippet or chips."""
    hit = Hit(
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
    """Each item's title, text and talk lengths as Whoosh's BM25F reads them: stored in a byte, so
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
    """English and vocabulary words the speller would otherwise "correct" ("bed" to "be", and
    deep: "accept" to "access"): the others need not be known to the browser, a phone loads a
    tenth of the list."""
    speller = index.speller
    return sorted(
        w for w in index.known_words if w not in speller and speller.correct(w, 1, deep=True)
    )


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
        # Each pattern with the word a question must hold for it to match (find_raw).
        "raw": [
            [p.pattern, number[id(t)], needle]
            for (p, t), needle in zip(raw_said(vocab), raw_needles(vocab), strict=True)
        ],
        "lean": [[list(key), edition] for key, edition in vocab.leaning().items()],
        # Words a correction may propose beyond the corpus's own, and words never corrected.
        "learned": sorted(vocab.known_words() - set(corpus_words)),
        "english": "\n".join(_never_corrected(index)),
    }


def search_data(app: Flask) -> dict[str, Any]:
    """Everything the browser's search reads, built with the server's analysis."""
    lib = library_of(app)
    svc = SearchService.for_library(lib, None)
    docs = entry_docs(lib, svc.talk) + [d for extra in svc.extras.values() for d in extra.docs()]
    items, titles, texts, talks, stem_of = [], [], [], [], {}
    vocab = documents.vocab_of(docs)
    vocab_terms = load_vocabulary(lib.corpus.root)
    named = names_of_versions(lib.corpus.versions())
    for doc in docs:
        names = tuple(n for n in (doc.title, *doc.aliases) if n)
        title, talk = " ; ".join(names), documents.TALK_JOIN.join(doc.said)
        for token in analysis.TOKEN_RE.findall(" ".join((title, doc.text, talk))):
            low = token.lower().replace("’", "'")  # as the browser looks a word up (stemOf)
            if low not in stem_of:
                stem_of[low] = analysis.stem_token(low)
        titles.append(analysis.stems(title))
        texts.append(analysis.stems(doc.text))
        talks.append(analysis.stems(talk))
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
        "talk": _postings(talks),
        "stems": _stems(stem_of, vocab_terms),
        "corpus_words": sorted(w for w, stem in stem_of.items() if stem),
        "vocabulary": vocab,
        "judge": judge_vocabulary(vocab_terms, vocab, svc.index),
        "versions": [[n.pattern.pattern, n.document, n.version, n.editorial] for n in named],
        "stops": sorted(analysis.STOPS),
        "questions": sorted(analysis.QUESTION_WORDS),
        "ordinary": sorted(analysis.ORDINARY),
        "numbers": sorted(analysis.NUMBER_STEMS),
        "kinds": list(svc.kinds),
        # What the page says it did, in the server page's words (pack-search.js: notes).
        "notes": pack_notes(lib, svc.kinds),
        "settings": {
            "title_boost": documents.TITLE_BOOST,
            "talk_boost": documents.TALK_BOOST,
            "talk_count": ranking.TALK_COUNT,
            "fields": list(query.FIELDS),
            "k1": 1.2,
            "b": index.LENGTH_NORM,
            "prefix_weight": query.PREFIX_WEIGHT,
            "done_prefix_weight": query.DONE_PREFIX_WEIGHT,
            "done_letters": query.DONE_LETTERS,
            "fuzzy_weight": query.FUZZY_WEIGHT,
            "deep_corrections": query.DEEP_CORRECTIONS,
            "expansion_weight": query.EXPANSION_WEIGHT,
            "exact_tiers": dict(index.EXACT_TIERS),
            "rules_words": sorted(index.RULES_WORDS),
            "coord_power": ranking.COORD_POWER,
            "superseded": ranking.SUPERSEDED,
            "rerank": ranking.PROXIMITY_RERANK,
            "length_norm": index.LENGTH_NORM,
            "lean_away": ranking.LEAN_AWAY,
            "default_lean": ranking.DEFAULT_LEAN,
            "no_number": ranking.NO_NUMBER,
            "card_name_share": ranking.CARD_NAME_SHARE,
            "mentioned": ranking.MENTIONED,
            "mentioned_near": ranking.MENTIONED_NEAR,
            "child_share": ranking.CHILD_SHARE,
            "subsection_rerank": ranking.SUBSECTION_RERANK,
            "quote_share": ranking.QUOTE_SHARE,
            "quoting_share": ranking.QUOTING_SHARE,
            "meaning_share": ranking.MEANING_SHARE,
            "meaning_long_share": ranking.MEANING_LONG_SHARE,
            "meaning_short_words": ranking.MEANING_SHORT_WORDS,
            "meaning_long_words": ranking.MEANING_LONG_WORDS,
            "meaning_span": ranking.MEANING_SPAN,
            "meaning_depth": ranking.MEANING_DEPTH,
            "meaning_floor": ranking.MEANING_FLOOR,
            "meaning_words": index.MEANING_WORDS,
            "meaning_question": index.MEANING_QUESTION,
            "guess_share": ranking.GUESS_SHARE,
            "guess_near": ranking.GUESS_NEAR,
            "number_cue": query.NUMBER_CUE.pattern,
            "sentence_end": snippets.SENTENCE_END.pattern,
            "words_win": snippets.WORDS_WIN,
            "edition_names": [[p.pattern, edition] for p, edition in query.EDITION_NAMES],
            "unheld_version": query.UNHELD_VERSION.pattern,
            "left_by_name": query.LEFT_BY_NAME.pattern,
            "leftovers": [[p, r.replace("\\", "$")] for p, r in query.LEFTOVERS],
            "stem_fixes": analysis.STEM_FIXES,
            "protected_prefixes": list(analysis.PROTECTED_PREFIXES),
            "proximity": analysis.PROXIMITY,
            "max_groups": analysis.MAX_GROUPS,
            "max_query_chars": analysis.MAX_QUERY_CHARS,
            "default_limit": DEFAULT_LIMIT,
            "max_limit": MAX_LIMIT,
            "version_chars": version_names_in_addresses.MOST_CHARS,
        },
    }


def as_script(data: str) -> str:
    """JSON text as a script expression that JSON.parse reads: a phone parses JSON text faster
    than the same data as a JavaScript literal (V8: about twice as fast for large objects)."""
    quoted = data.replace("\\", "\\\\").replace("'", "\\'")
    quoted = quoted.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return f"JSON.parse('{quoted}')"


def split(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The search data in two: what most first answers need, and the rest (``MORE_DATA``).

    The rest is what a phone can wait for: the items' texts (snippets, phrases, proximity), the
    words never corrected (the speller) and the stems of words neither the rules nor the judge's
    vocabulary use. The browser
    asks for it as soon as the first part is in, and an answer that needs any of it waits for it
    (pack-search.js: MORE), so the answers are the same as with one file."""
    stems = data["stems"]
    # The words the first part must stem itself: the corpus's, the spelling vocabulary's (the
    # completions) and the item names' (prepared at once), each with the server's stem.
    named = {
        token.lower().replace("’", "'")
        for item in data["items"]
        for token in analysis.TOKEN_RE.findall(item["name"])
    }
    # And the judge's vocabulary: the words a judge says that the rules may not ("mulligan").
    judge = data["judge"]
    said = {
        token.lower().replace("’", "'")
        for term in judge["terms"]
        for phrase in term["said"]
        for token in analysis.TOKEN_RE.findall(phrase)
    }
    judge_words = said | set(judge["learned"])
    first_words = set(data["corpus_words"]) | set(data["vocabulary"]) | named | judge_words
    first = {key: value for key, value in data.items() if key != "corpus_words"}
    first["items"] = [compact_item(item) for item in data["items"]]
    for item, compact in zip(data["items"], first["items"], strict=True):
        _add_name_key(item, compact, stems)
    first["citations"] = compact_citations(first["items"])
    first["shared"] = {"fields": list(SHARED), "rows": compact_shared(first["items"])}
    first["crumbs"] = compact_crumbs(first["items"])
    first["title"] = {term: compact_postings(p) for term, p in data["title"].items()}
    first["text"] = {term: compact_postings(p) for term, p in data["text"].items()}
    first["talk"] = {term: compact_postings(p) for term, p in data["talk"].items()}
    first["stems"] = {
        w: stem
        for w in sorted(first_words)
        if (stem := stems.get(w) or analysis.stem_token(w)) is not None
    }
    english = judge["english"].split("\n")
    first["judge"] = {**judge, "english": "\n".join(w for w in english if w in judge_words)}
    first["phrases"] = _phrase_table(data)
    rest = {
        "texts": [item["text"] for item in data["items"]],
        "english": judge["english"],
        "stems": {w: s for w, s in stems.items() if w not in first["stems"]},
    }
    return first, rest


def _add_name_key(item: dict[str, Any], compact: dict[str, Any], stems: dict[str, str]) -> None:
    """A card's name as the terms pack-search.js makes of it (its completions and ranking), so
    a phone need not make them for every card before its first answer; a name the browser might
    cut otherwise is left to the browser."""
    if item["result"]["kind"] == "card":
        terms = _browser_stems(item["name"], stems)
        if terms is not None:
            compact["name_key"] = " ".join(terms)


def _browser_stems(text: str, stems: dict[str, str]) -> list[str] | None:
    """A text's terms as pack-search.js's stems() makes them from the stems table, or None if
    this may differ from the browser's (a combining mark: the browser's words hold marks)."""
    if any(unicodedata.category(c).startswith("M") for c in text):
        return None
    out = []
    for token in analysis.TOKEN_RE.findall(text):
        low = token.lower().replace("’", "'")
        if low not in analysis.STOPS:
            out.append(stems.get(low, low))
    return out


def _phrase_table(data: dict[str, Any]) -> dict[str, Any]:
    """Where each phrase of the judge's vocabulary stands in an item's name and text, so that
    the first file answers a question the vocabulary reads as a phrase ("mulligan") without
    the texts. Items whose words the browser might cut otherwise are left to the texts."""
    keys = {
        " ".join(key) for term in data["judge"]["terms"] for key in term["means"] if len(key) > 1
    }
    found: dict[str, list[int]] = {key: [] for key in sorted(keys)}
    unsure = []
    for i, item in enumerate(data["items"]):
        terms = _browser_stems(f"{item['name']} . {item['text']}", data["stems"])
        if terms is None:
            unsure.append(i)
            continue
        flat = f" {' '.join(terms)} "
        for key, where in found.items():
            if f" {key} " in flat:
                where.append(i)
    return {"found": found, "unsure": unsure}


def _script(name: str, data: dict[str, Any]) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"self.{name} = {as_script(text)};\n"


def stemmer_script(static: Path) -> str:
    """The server's stemmer for the browser (static/vendor/porter2: npm porter2, the same stem
    as Whoosh's porter2 for every word tried), as a script that sets ``JUDGEKIT_SEARCH_MORE.
    porter2.stem``: the vendored CommonJS file, verbatim, given its ``exports``. It comes with
    search-more.js: the first file stems every word of the rules and of the judge's vocabulary
    itself (its stems table); a word neither holds waits for this (pack-search.js: stemOf)."""
    code = (static / STEMMER).read_text(encoding="utf-8")
    return (
        f"(function (exports) {{\n{code.rstrip()}\n}})(self.JUDGEKIT_SEARCH_MORE.porter2 = {{}});\n"
    )


def write_search_data(app: Flask, out: Path, data: dict[str, Any] | None = None) -> list[str]:
    """Write ``search-index.js`` and ``search-more.js`` (of ``data``, search_data's), and make
    the search page (written before, with the static files it names) carry the first and those
    files (searchpage.py); returns the files written."""
    first, rest = split(data if data is not None else search_data(app))
    script = _script("JUDGEKIT_SEARCH", first)
    (out / SEARCH_DATA).write_text(script, encoding="utf-8")
    more = _script("JUDGEKIT_SEARCH_MORE", rest) + stemmer_script(Path(app.static_folder))
    (out / MORE_DATA).write_text(more, encoding="utf-8")
    page = out / SEARCH_PAGE
    if page.exists():
        html = self_contained(page.read_text("utf-8"), out, first)
        page.write_text(html, encoding="utf-8")
    return [SEARCH_DATA, MORE_DATA]
