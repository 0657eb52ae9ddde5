"""The search index on the tiny fixture corpus in tests/data/search: ranking, versions, filters."""

from __future__ import annotations

import threading

import pytest

from judgekit.checks.loader import load_corpus
from judgekit.render.library import Library
from judgekit.search.documents import build_ram
from judgekit.search.index import Filters
from judgekit.search.sources import entry_docs

from .conftest import DATA

SEARCH = DATA / "search"


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library(load_corpus(SEARCH))


@pytest.fixture(scope="module")
def index(lib):
    return build_ram(entry_docs(lib))


def found(outcome):
    return [(h.document, h.version, h.id) for h in outcome.hits]


def ids(outcome):
    return [h.id for h in outcome.hits]


def test_every_entry_of_every_version_is_indexed(index, lib):
    assert index.doc_count() == sum(len(v.entries) for v in lib.corpus.versions()) == 16


def test_exact_glossary_term_comes_first_then_titles_then_bodies(index):
    outcome = index.search("dilemma")
    assert ids(outcome) == [
        "gl-dilemma",  # the exact term
        "dilemmas",  # titles holding the word: the 1E ruling last, with no game chosen
        "facing-dilemmas",  # (the rulebook is the whole game in 2E)
        "dilemmas-timing",
        "gl-attempting-missions",  # the word only in the text
        "gl-stopped",
    ]
    assert [h.exact for h in outcome.hits[:3]] == [True, True, False]  # "Dilemmas" is exact too


def test_an_alias_is_an_exact_term(index):
    assert ids(index.search("attempting a mission "))[0] == "gl-attempting-missions"
    assert ids(index.search("stop "))[0] == "gl-stopped"


def test_exact_ruling_title_comes_first(index):
    assert ids(index.search("dilemmas timing"))[0] == "dilemmas-timing"


def test_a_topic_in_several_versions_appears_once_in_the_version_in_force(index):
    outcome = index.search("beam ")
    assert found(outcome) == [("book", "2", "beaming")]
    assert outcome.hits[0].title == "Order – Beam Personnel"
    assert outcome.hits[0].also_in == (("1", "beaming"),)
    assert outcome.total == 1


def test_a_topic_gone_from_the_version_in_force_shows_its_newest_version(index):
    outcome = index.search("doubled staffing")
    assert found(outcome)[0] == ("book", "1", "doubled-staffing")
    assert outcome.hits[0].also_in == ()


def test_all_versions_lists_each_version_separately(index):
    outcome = index.search("beam ", all_versions=True)
    assert sorted(found(outcome)) == [("book", "1", "beaming"), ("book", "2", "beaming")]
    assert outcome.total == 2 and all(h.also_in == () for h in outcome.hits)


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        (
            Filters(),
            {
                "book/2/dilemmas",
                "book/2/gl-attempting-missions",
                "book/2/gl-dilemma",
                "rul/2000-01-01/commandeering",
            },
        ),
        (Filters(version="1"), {"book/1/dilemmas"}),
        (
            Filters(document="book", version="2"),
            {"book/2/dilemmas", "book/2/gl-attempting-missions", "book/2/gl-dilemma"},
        ),
        (Filters(kind="ruling"), {"rul/2000-01-01/commandeering"}),
        (Filters(edition="1E"), {"rul/2000-01-01/commandeering"}),
        (Filters(edition="2E", kind="section"), {"book/2/dilemmas"}),
        (
            Filters(document="book", kind="glossary"),
            {"book/2/gl-attempting-missions", "book/2/gl-dilemma"},
        ),
        (Filters(document="rul", version="1"), set()),
    ],
)
def test_filters(index, filters, expected):
    assert {"/".join(hit) for hit in found(index.search("opponent ", filters))} == expected


def test_a_filtered_version_has_no_chips(index):
    outcome = index.search("beam ", Filters(version="1"))
    assert found(outcome) == [("book", "1", "beaming")] and outcome.hits[0].also_in == ()


@pytest.mark.parametrize(
    ("typed", "suggestion", "first"),
    [
        ("dilema", "dilemma", "gl-dilemma"),
        ("comandeer ", "commandeer", "commandeering"),
        ("comandeer a ship", "commandeer a ship", "commandeering"),
        ("facing dilemas", "facing dilemmas", "facing-dilemmas"),
    ],
)
def test_misspellings_are_found_and_corrected(index, typed, suggestion, first):
    outcome = index.search(typed)
    assert outcome.suggestion == suggestion
    assert ids(outcome)[0] == first


def test_no_suggestion_for_known_words_or_a_prefix_being_typed(index):
    assert index.search("dilemma").suggestion is None
    assert index.search("dilem").suggestion is None


@pytest.mark.parametrize(
    ("typed", "first"),
    [
        ("dil", "gl-dilemma"),
        ("comman", "gl-command"),
        ("attempting miss", "gl-attempting-missions"),
    ],
)
def test_the_word_being_typed_matches_as_a_prefix(index, typed, first):
    assert ids(index.search(typed))[0] == first


def test_a_finished_word_is_not_a_prefix(index):
    assert "commandeering" in ids(index.search("command"))
    assert "commandeering" not in ids(index.search("command "))


def test_commandeer_does_not_find_command(index):
    assert ids(index.search("commandeer ")) == ["commandeering"]


def test_phrase_queries_need_the_words_together(index):
    assert ids(index.search('"planet mission"')) == ["beaming"]
    # No item holds "mission planet": a judge's quote that is not the rulebook's wording is
    # searched as words, and says so (unquoted).
    reversed_words = index.search('"mission planet"')
    assert reversed_words.unquoted == ("mission planet",)
    assert ids(reversed_words) == ids(index.search("mission planet"))
    assert ids(index.search('"stopped or killed"')) == ["facing-dilemmas"]


def test_a_judges_question_finds_the_rule(index):
    assert ids(index.search("what happens when all my personnel are stopped"))[0] == (
        "facing-dilemmas"
    )
    assert ids(index.search("how many dilemmas does my opponent draw"))[0] == "dilemmas"


def test_limit_and_total(index):
    outcome = index.search("dilemma", limit=2)
    assert len(outcome.hits) == 2 and outcome.total == 6


@pytest.mark.parametrize(
    "query",
    [
        "",
        "   ",
        '"',
        '"""',
        "AND OR NOT",
        "title:(",
        "*",
        "🖖🖖",
        "\x00\x07",
        "the",
        "a" * 5000,
        "dilemma " * 400,
        "ünïcödé ñ",
    ],
)
def test_hostile_queries_answer_without_error(index, query):
    outcome = index.search(query)
    assert outcome.total == len(outcome.hits) or outcome.total > len(outcome.hits)


def test_searches_from_many_threads_agree(index):
    expected = ids(index.search("dilemma"))
    answers, errors = [], []

    def work():
        try:
            for _ in range(20):
                answers.append(ids(index.search("dilemma")))
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert len(answers) == 160 and all(a == expected for a in answers)
