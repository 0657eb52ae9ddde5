"""The search page says what it did (judgekit/shapes/search_notes.py): a search in a game whose
rulebook is not held says so, a name of several versions says what it was read as, a chip of
another kind names its kind, and a 404 suggests pages of its own game only.

The fixture corpus tests/data/search where it can say it (a 2E book, 1E rulings only); the real
corpus, by words, for its versions' names and its timing pages.
"""

from __future__ import annotations

import html
import re

import pytest

from judgekit import create_app
from judgekit.search.query import version_names
from judgekit.shapes.search_notes import and_list, cut_note, cut_question, held_notes, read_as

from .conftest import DATA

HELD_1E = (
    "For 1E, judgekit holds only the Search Fixture Rulings of 1/1/00, no 1E rulebook: a ruling"
    " found may share your words without answering your question."
)


@pytest.fixture(scope="module")
def fixture_client():
    app = create_app({"TESTING": True, "CORPUS_DIR": str(DATA / "search"), "SEARCH_CACHE_DIR": ""})
    return app.test_client()


@pytest.fixture(scope="module")
def real_client():
    """The real corpus, by words alone (the notes do not depend on meaning)."""
    return create_app({"TESTING": True, "SEARCH_MEANING": "off"}).test_client()


def _held(client, **params) -> str | None:
    body = client.get("/search/results", query_string=params).get_data(as_text=True)
    found = re.search(r'<p class="search-held" role="note">(.*?)</p>', body)
    return html.unescape(found.group(1)) if found else None


@pytest.mark.parametrize(
    "params",
    [
        {"q": "dilemma", "edition": "1E"},  # the game chosen
        {"q": "1e dilemma"},  # the game named in the question
        {"q": "dilemma", "document": "rul"},  # its document chosen
        {"q": "dilemma", "version": "2000-01-01"},  # its version chosen
        {"q": "commandeer"},  # nothing chosen, and every result is a 1E ruling
    ],
)
def test_a_1e_search_says_only_its_rulings_are_held(fixture_client, params):
    assert _held(fixture_client, **params) == HELD_1E


@pytest.mark.parametrize(
    "params",
    [
        {"q": "dilemma", "edition": "2E"},  # a 2E search
        {"q": "commandeer", "edition": "2E"},  # a 2E search, even with nothing found
        {"q": "dilemma"},  # both games' results
        {"q": "dilemma", "document": "book"},
        {"q": "2e dilemma"},
    ],
)
def test_a_2e_or_mixed_search_says_nothing_of_it(fixture_client, params):
    assert _held(fixture_client, **params) is None


def test_the_held_note_names_what_the_real_corpus_holds_and_refers_to(corpus):
    """Only games without a held rulebook; the documents referenced but not held named."""
    assert held_notes(corpus) == {
        "1E": "For 1E, judgekit holds only the Current Rulings of 2/28/00, no 1E rulebook (the 1E"
        " Rulebook and 1E Glossary are not held here): a ruling found may share your words"
        " without answering your question."
    }


def test_and_list():
    assert [and_list(n) for n in ([], ["a"], ["a", "b"], ["a", "b", "c"])] == [
        "",
        "a",
        "a and b",
        "a, b and c",
    ]


@pytest.mark.parametrize(
    ("query", "filters", "said"),
    [
        (
            "battle in the 2003 rules",
            {},
            [
                "“2003” read as v1.1 and Call to Arms, each result showing its Call to Arms"
                " passage first"
            ],
        ),
        (
            "beaming Aug 2003",
            {},
            [
                "“Aug 2003” read as v1.1 and Call to Arms, each result showing its Call to Arms"
                " passage first"
            ],
        ),
        # One version named: said too (the tryout: "1.1 unique personnel" said only "in 2E").
        (
            "battle in CTA",
            {},
            ["“CTA” read as Call to Arms, each result showing its Call to Arms passage first"],
        ),
        (  # a name inside a longer one: 1.1 alone
            "battle in the 08/19/2003 rules",
            {},
            ["“08/19/2003” read as v1.1, each result showing its v1.1 passage first"],
        ),
        ("battle in v4", {}, []),  # its own name: nothing the judge did not type
        ("battle in the 2003 rules", {"version": "4"}, []),  # a version chosen wins
    ],
)
def test_a_version_name_says_what_it_was_read_as(corpus, query, filters, said):
    names = version_names(
        [(v.document, v.id, v.short_title, v.released) for v in corpus.versions()]
    )
    assert read_as(query, names, corpus, filters) == said


def test_the_summary_says_it_and_shows_that_version_first(real_client):
    """In the one notice (the summary), and the results do show Call to Arms first."""
    data = real_client.get("/api/search", query_string={"q": "beaming Aug 2003"}).get_json()
    shown = [r["version"] for r in data["results"] if r["also_in"]]
    assert shown and set(shown) == {"call-to-arms"}
    body = real_client.get("/search/results", query_string={"q": "beaming Aug 2003"})
    summaries = re.findall(
        r'<p class="search-summary"[^>]*>(.*?)</p>', body.get_data(as_text=True), re.S
    )
    assert len(summaries) == 1
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", "", summaries[0])).split())
    assert text.endswith(
        "in 2E only (named in your question; search both games), “Aug 2003” read as v1.1 and"
        " Call to Arms, each result showing its Call to Arms passage first."
    )


def test_chips_of_one_title_say_which_is_the_glossary_entry(real_client):
    """Version 4's Order – Move a Ship: its chips name a section and a glossary entry of one title
    (Call to Arms's Moving a Ship and moving a ship). (With Call to Arms named, each is a result
    of its own: tests/test_search_lost_phrase.py.)"""
    body = real_client.get("/search/results", query_string={"q": "staffing ships"})
    first = body.get_data(as_text=True).split('<li class="result ')[1]
    chips = [html.unescape(c) for c in re.findall(r'<a class="chip[^"]*"[^>]*>([^<]*)</a>', first)]
    assert "Call to Arms" in chips  # its own Moving a Ship: the result's id, no title
    assert "Call to Arms: moving a ship (glossary)" in chips
    assert "Call to Arms: Using Range" in chips  # a section beside a section: no kind


def _suggested(client, path: str) -> list[str]:
    body = client.get(path).get_data(as_text=True)
    listed = (
        body.split('<ul class="suggestions">', 1)[1].split("</ul>", 1)[0]
        if "suggestions" in body
        else ""
    )
    return [html.unescape(w) for w in re.findall(r'<span class="muted">([^<]*)</span>', listed)]


def test_a_timing_pages_404_for_a_bad_version_suggests_its_own_versions(real_client):
    """Not a 1E ruling titled "mission attempt": the sequence in each version it has."""
    assert _suggested(real_client, "/timing/mission-attempt?version=nonsense") == [
        "timing sequence, v4",
        "timing sequence, Call to Arms",
        "timing sequence, v1.1",
    ]
    nearest = real_client.get("/api/timing/mission-attempt?version=x").get_json()["nearest"]
    assert [n["url"] for n in nearest] == [
        "/timing/mission-attempt?version=4",
        "/timing/mission-attempt?version=call-to-arms",
        "/timing/mission-attempt?version=1.1",
    ]


@pytest.mark.parametrize(
    ("path", "game"),
    [
        ("/timing/x/mission-attempt", "2E"),  # the timing pages: 2E's sequences
        ("/cards/2e/x/beaming", "2E"),  # a 2E card's address
        ("/cards/1e/x/mission-attempt", "1E"),
        ("/timing/first-edition/mission-attempt", "1E"),
    ],
)
def test_404_guesses_stay_in_the_pages_game(real_client, path, game):
    assert real_client.get(path).status_code == 404
    where = _suggested(real_client, path)
    assert where and all(w.startswith(game) for w in where), where
    # Without the page's game, the same words find the other game's pages.
    assert any(not w.startswith(game) for w in _suggested(real_client, "/x/mission-attempt"))


def test_a_bad_filter_offers_the_words_without_the_filters(fixture_client):
    """The message names what is held; one tap searches the same words without the filters."""
    page = fixture_client.get("/search", query_string={"q": "dilemma", "version": "nonsense"})
    assert page.status_code == 400
    body = page.get_data(as_text=True)
    assert "unknown version &#39;nonsense&#39;; the versions held: Book v2 (April 2015)" in body
    assert (
        '<p class="search-hints"><a href="/search?q=dilemma">Search without the filters</a>' in body
    )
    blank = fixture_client.get("/search", query_string={"q": " ", "version": "nonsense"})
    assert "Search without the filters" not in blank.get_data(as_text=True)


def _unheld(client, **params) -> str | None:
    body = client.get("/search/results", query_string=params).get_data(as_text=True)
    found = re.search(r'<p class="search-unheld" role="status">(.*?)</p>', body)
    return html.unescape(found.group(1)) if found else None


UNHELD_REAL = (
    ": no such version is held here; the versions held: 2E Rulebook v4 (April 2015), 2E Rulebook"
    " Call to Arms (August 2003), 2E Rulebook v1.1 (Version 1.1 from 08/19/2003) and 1E Current"
    " Rulings 2/28/00. The rest of your question was searched."
)


@pytest.mark.parametrize(
    ("q", "named"),
    [
        ("v5 battle", ["v5"]),
        ("version 7 battle", ["version 7"]),
        ("the 2020 rules battle", ["2020"]),
        ("battle in V5 or version 7", ["V5", "version 7"]),
    ],
)
def test_a_version_not_held_is_said_and_the_rest_searched(real_client, q, named):
    # Issue #27: "v5 battle" searched both games for a word no rule has; now the judge is told
    # which versions are held, and the rest of the question is searched as it would be alone.
    data = real_client.get("/api/search", query_string={"q": q}).get_json()
    assert data["versions_not_held"] == named
    assert data["not_in_rules"] == []
    rest = q
    for name in named:
        rest = rest.replace(name, "")
    alone = real_client.get("/api/search", query_string={"q": rest}).get_json()
    assert [r["id"] for r in data["results"]] == [r["id"] for r in alone["results"]]
    words = and_list([f"“{n}”" for n in named])
    assert _unheld(real_client, q=q) == words + UNHELD_REAL


@pytest.mark.parametrize(
    "q",
    [
        "2 ships",
        "cost 3 dilemma",
        "version",
        "which version",
        "battle in v4",
        "battle in version 1.1",
        "the 2003 rules",
        "2020 battle",  # a year without a word for a rulebook
        "battle 1.1",
    ],
)
def test_ordinary_numbers_and_held_versions_are_no_version_not_held(real_client, q):
    data = real_client.get("/api/search", query_string={"q": q}).get_json()
    assert data["versions_not_held"] == []
    assert _unheld(real_client, q=q) is None


def test_a_long_question_is_cut_after_its_last_whole_word():
    """A pasted paragraph is searched up to a word, never half of one: "dilemma" 63 times is 503
    characters, the 63rd cut at 500 ("dilem"): searched are the first 62, with the space after."""
    question = "dilemma " * 70
    searched, rest = cut_question(question)
    assert searched == "dilemma " * 62
    assert searched + rest == question
    assert cut_question("dilemma " * 62 + "x") == ("dilemma " * 62 + "x", "")  # 497: whole
    # The limit at a space: its first 500 characters, the word after it left out whole.
    exact = "x" * 499 + " beam"
    assert cut_question(exact) == ("x" * 499 + " ", "beam")
    # One word of 600 letters has no word to cut after: its first 500 characters.
    assert cut_question("x" * 600) == ("x" * 500, "x" * 100)
    # Spaces before the first word are no word: "  xxx…" is cut at 500 too.
    assert cut_question(" " * 10 + "x" * 600)[0] == " " * 10 + "x" * 490


def test_a_long_question_is_told_what_was_searched_and_what_left_out():
    said = cut_note("can my crew beam to a ship " * 23)
    assert said == (
        "Your question is longer than a search reads (500 characters): it was searched up to"
        " “…a ship can my crew”, and the rest, from “beam to a ship can…”, was left out. A short"
        " question finds the rule best: a card's name, or a few words of the rule."
    )
    # A word longer than a quote is quoted by its first or last 40 characters.
    said = cut_note("dilemma " + "x" * 600)
    assert "searched up to “dilemma”, and the rest, from “" + "x" * 40 + "…”" in said
    assert "searched up to “…" + "y" * 40 + "”" in cut_note("y" * 600)
    # Nothing left out but spaces: nothing to say; nor of a question the search reads whole.
    assert cut_note("x" * 500 + "   ") is None
    assert cut_note("beam " * 100) is None


def test_the_page_searches_the_words_before_the_cut(real_client):
    """The page searches what the note says it searched: the question up to its last whole word
    ("… beam"), not the 'per' the limit cuts "personnel" to."""
    question = "x " * 245 + "beam personnel"
    assert len(question) == 504
    body = real_client.get("/search/results", query_string={"q": question}).get_data(as_text=True)
    assert "searched up to “…x x x x beam”, and the rest, from “personnel”, was left out" in body
    whole = real_client.get("/search/results", query_string={"q": "x " * 245 + "beam "})
    cut = re.sub(r'<p class="search-cut".*?</p>', "", body, flags=re.S)
    assert cut == whole.get_data(as_text=True).replace(
        f"for <q>{('x ' * 245 + 'beam ')[:120]}…</q>", f"for <q>{question[:120]}…</q>"
    )


def test_an_ordinary_word_is_never_one_the_other_game_has(real_client):
    """Judging 1E, "put" is in no 1E rule and in 2E's table talk: not a word Second Edition
    "has" (the tryout's words: "put", "gets"); a game's own word still is."""
    params = {"q": "put a headquarters mission", "edition": "1E"}
    body = real_client.get("/search/results", query_string=params).get_data(as_text=True)
    said = re.search(r'<p class="not-in-edition">(.*?)</p>', body, re.S).group(1)
    assert html.unescape(re.sub(r"<[^>]+>", "", said)).startswith(
        "headquarters: not in the 1E rules; Second Edition has it"
    )
    params = {"q": "gets put on the table", "edition": "1E"}
    body = real_client.get("/search/results", query_string=params).get_data(as_text=True)
    assert "not-in-edition" not in body
