"""GET /api/search, the /search page and `judgekit search` on the fixture corpus tests/data/search."""

from __future__ import annotations

import html
import json
import re

import pytest

from judgekit import create_app
from judgekit.commands import main

from .conftest import DATA

SEARCH = DATA / "search"
RESULT_KEYS = {"id", "kind", "title", "document", "version", "url", "api_url", "snippet"}


@pytest.fixture(scope="module")
def search_app():
    return create_app({"TESTING": True, "CORPUS_DIR": str(SEARCH), "SEARCH_CACHE_DIR": ""})


@pytest.fixture()
def sc(search_app):
    return search_app.test_client()


def api(sc, **params):
    response = sc.get("/api/search", query_string=params)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_the_answer_has_the_documented_shape(sc):
    data = api(sc, q="dilemma")
    assert list(data) == [
        "query",
        "total",
        "results",
        "suggestion",
        "not_in_rules",
        "read_as",
        "versions_not_held",
        "unquoted",
        "filters",
        "edition_from",
        "edition_set_aside",
        "query_without_edition",
        "editions_named",
        "by_meaning",
        "guess",
        "meaning",
    ]
    assert data["query"] == "dilemma" and data["total"] == 6 and data["suggestion"] is None
    assert (data["filters"], data["edition_from"], data["edition_set_aside"]) == ({}, None, None)
    assert data["query_without_edition"] is None
    for result in data["results"]:
        assert RESULT_KEYS <= set(result)
    first = data["results"][0]
    assert {k: first[k] for k in ("id", "kind", "title", "document", "version")} == {
        "id": "gl-dilemma",
        "kind": "glossary",
        "title": "dilemma",
        "document": "book",
        "version": "2",
    }
    assert first["url"] == "/rules/book/2/gl-dilemma"
    assert first["api_url"] == "/api/entries/book/2/gl-dilemma"
    assert first["snippet"] == "A card your opponent chooses for your personnel to face."
    assert [c["title"] for c in first["breadcrumb"]] == ["Glossary"]


def test_each_result_links_its_page_and_json_where_the_whole_text_is(sc):
    for result in api(sc, q="opponent", limit=50)["results"]:
        assert sc.get(result["url"]).status_code == 200
        entry = sc.get(result["api_url"]).get_json()
        assert "text" not in result  # the answer stays small: the text is one link away
        assert result["citation"] == entry["citation"]
        plain = result["snippet"].replace("<mark>", "").replace("</mark>", "").strip("…")
        assert html.unescape(plain) in entry["text"]


def test_chips_name_the_other_versions(sc):
    (result,) = api(sc, q="beam ")["results"]
    assert (result["version"], result["in_force"]) == ("2", True)
    assert result["also_in"] == [
        {
            "version": "1",
            "short_title": "v1",
            "id": "beaming",
            "title": "Beaming",
            "url": "/rules/book/1/beaming",
            "kind": "section",  # its own kind, which its chip names when it differs
            "snippet": None,  # v1's passage holds no more of the words than v2's
        }
    ]
    every = api(sc, q="beam ", all_versions="1")
    # Both versions, each standing alone (their order is a tie).
    assert sorted((r["version"], r["also_in"]) for r in every["results"]) == [
        ("1", []),
        ("2", []),
    ]


def test_snippets_are_marked_and_escaped(sc):
    (result,) = api(sc, q="stray markup")["results"]
    assert result["snippet"] == (
        "You may not respond during a dilemma&#x27;s resolution, except as the dilemma allows: "
        "no &quot;quotes&quot; &amp; <mark>stray</mark> <mark>markup</mark>."
    )


def test_a_long_question_is_refused_by_the_api_and_cut_by_the_page_with_a_word(sc):
    """The API says why it refuses; the page searches the first 500 characters and says so."""
    question = "dilemma " + "x" * 4992
    response = sc.get("/api/search", query_string={"q": question})
    assert response.status_code == 400
    assert response.get_json()["message"] == (
        "the question is too long to search: 5,000 characters, and a search reads at most 500. "
        "Ask it in fewer words (a card's name, or a few words of the rule), or send its first "
        "part: the search page searches the first 500 characters and says what it left out"
    )
    for path in ("/search", "/search/results"):
        page = sc.get(path, query_string={"q": question})
        assert page.status_code == 200
        body = page.get_data(as_text=True)
        assert (
            '<p class="search-cut" role="status">Your question is longer than a search reads'
            " (500 characters): it was searched up to “dilemma”, and the rest, from “"
            + "x"
            * 40
            + "…”, was left out. A short question finds the rule best: a card&#39;s name, or a"
            " few words of the rule.</p>"
        ) in body
        # The summary quotes what was searched: the words before the cut.
        assert "for <q>dilemma</q>" in body
    # A question of the limit is searched whole, without a word.
    page = sc.get("/search", query_string={"q": "dilemma " + "x" * 492}).get_data(as_text=True)
    assert "search-cut" not in page
    # The box takes more than the limit: the page, not the browser, cuts it, with a word.
    assert 'maxlength="800"' in page


def test_did_you_mean(sc):
    data = api(sc, q="comandeer a ship")
    assert data["suggestion"] == "commandeer a ship"
    assert data["results"][0]["id"] == "commandeering"


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"limit": "-1"}, "limit must be a whole number from 1 to 100, not '-1'"),
        ({"limit": "abc"}, "limit must be a whole number from 1 to 100, not 'abc'"),
        ({"limit": "0"}, "limit must be a whole number from 1 to 100, not '0'"),
        ({"limit": "101"}, "limit must be a whole number from 1 to 100, not '101'"),
        ({"limit": "１２"}, "limit must be a whole number from 1 to 100, not '１２'"),
        ({"limit": "9" * 5000}, f"limit must be a whole number from 1 to 100, not '{'9' * 40}…'"),
        ({"limit": "0010"}, "limit must be a whole number from 1 to 100, not '0010'"),
        # Versions and documents by the names judges see, with the ids an address takes.
        (
            {"version": "9"},
            "unknown version '9'; the versions held: Book v2 (April 2015) as version=2, Book v1"
            " (August 2003) as version=1, Rulings 1/1/00 as version=2000-01-01",
        ),
        (
            {"document": "book", "version": "2000-01-01"},
            "unknown version '2000-01-01' of Book; the versions held: Book v2 (April 2015) as"
            " version=2, Book v1 (August 2003) as version=1",
        ),
        (
            {"document": "nope"},
            "unknown document 'nope'; the documents held: Book as document=book, Rulings as"
            " document=rul",
        ),
        ({"kind": "k" * 100}, f"unknown kind '{'k' * 40}…' (known: section, glossary, ruling)"),
        ({"kind": "card"}, "unknown kind 'card' (known: section, glossary, ruling)"),
        ({"edition": "3E"}, "unknown edition '3E' (known: 2E, 1E)"),
        ({"all_versions": "maybe"}, "all_versions must be 1 or 0, not 'maybe'"),
    ],
)
def test_bad_parameters_get_a_400_with_a_message(sc, params, message):
    response = sc.get("/api/search", query_string={"q": "dilemma", **params})
    assert response.status_code == 400
    assert response.get_json() == {"error": "Bad Request", "status": 400, "message": message}
    page = sc.get("/search", query_string={"q": "dilemma", **params})
    assert page.status_code == 400
    assert f'<p class="notice search-error" role="alert">{message}</p>' in page.get_data(
        as_text=True
    ).replace("&#39;", "'")


# Everything the fixture corpus finds for "dilemma" when no filter narrows it.
EVERY_DILEMMA_HIT = {
    "2/dilemmas",
    "2/gl-dilemma",
    "2/gl-attempting-missions",
    "2/facing-dilemmas",
    "2/gl-stopped",
    "2000-01-01/dilemmas-timing",
    "2000-01-01/commandeering",
}


@pytest.mark.parametrize(
    ("params", "found"),
    [
        (
            {},
            EVERY_DILEMMA_HIT,
        ),
        (
            {"edition": "", "kind": "", "version": "", "document": ""},
            EVERY_DILEMMA_HIT,
        ),
        ({"edition": "1e"}, {"2000-01-01/dilemmas-timing", "2000-01-01/commandeering"}),
        ({"document": "rul"}, {"2000-01-01/dilemmas-timing", "2000-01-01/commandeering"}),
        (
            {"kind": "ruling", "version": "2000-01-01"},
            {"2000-01-01/dilemmas-timing", "2000-01-01/commandeering"},
        ),
        ({"version": "1"}, {"1/dilemmas"}),
        ({"kind": "glossary"}, {"2/gl-dilemma", "2/gl-attempting-missions", "2/gl-stopped"}),
        ({"all_versions": "0", "kind": "section"}, {"2/dilemmas", "2/facing-dilemmas"}),
        (
            {"all_versions": "true", "kind": "section"},
            {"2/dilemmas", "1/dilemmas", "2/facing-dilemmas"},
        ),
    ],
)
def test_filter_parameters(sc, params, found):
    data = api(sc, q="dilemma opponent", **params)
    assert {f"{r['version']}/{r['id']}" for r in data["results"]} == found
    assert data["total"] == len(found)


HOSTILE = [
    '"unbalanced quote',
    'dilemma"',
    "AND",
    "OR NOT",
    "-",
    "+dilemma -beam",
    "title:dilemma",
    "kind:ruling",
    "dil*",
    "?",
    "(((",
    "\\",
    "%",
    "\x00\x01\x1f",
    "dilemma\r\nbeam",
    "🖖 dilemma 🚀",
    "x" * 500,
    "dilemma " * 62,
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "{{ 7*7 }}",
    "{icon:command}",
    "[[gl-dilemma|x]]",
    "\u202edilemma",
    "𝕕𝕚𝕝𝕖𝕞𝕞𝕒",
]


@pytest.mark.parametrize("query", HOSTILE)
@pytest.mark.parametrize("path", ["/api/search", "/search", "/search/results"])
def test_any_query_is_safe(sc, path, query):
    response = sc.get(path, query_string={"q": query})
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert "<script>alert" not in body and "<img src=x" not in body
    if path == "/api/search":
        data = response.get_json()
        assert data["total"] >= len(data["results"])


def test_the_query_is_shown_escaped(sc):
    body = sc.get("/search", query_string={"q": "<b>dilemma</b>"}).get_data(as_text=True)
    assert "for <q>&lt;b&gt;dilemma&lt;/b&gt;</q>" in body
    assert 'value="&lt;b&gt;dilemma&lt;/b&gt;"' in body


def test_the_page_renders_the_api_results(sc):
    data = api(sc, q="dilemma")
    body = sc.get("/search?q=dilemma").get_data(as_text=True)
    links = re.findall(r'<a class="result-title" href="([^"]+)">([^<]+)</a>', body)
    assert links == [(r["url"], r["title"]) for r in data["results"]]
    assert "6 results for <q>dilemma</q>." in body
    assert "<mark>dilemma</mark>" in body
    assert '<span class="badge badge-kind badge-glossary">Glossary</span>' in body


def test_the_page_shows_chips_and_the_newest_version_held(sc):
    body = sc.get("/search?q=beam+").get_data(as_text=True)
    assert (
        '<span class="chip chip-here ed-2E" title="This result is from the Second Edition '
        "Book v2: the newest version judgekit holds, as the editors record it; not necessarily "
        'current">2E v2 · newest held here (April 2015)</span>' in body
    )
    assert '<a class="chip" href="/rules/book/1/beaming"' in body


def test_the_page_keeps_the_filters(sc):
    body = sc.get("/search?q=dilemma&kind=ruling&all_versions=1").get_data(as_text=True)
    assert '<option value="ruling" selected>' in body
    assert 'name="all_versions" value="1" form="search-form" checked' in body
    assert "1 result for <q>dilemma</q> with these filters." in body


def test_an_empty_search_suggests_what_to_type(sc):
    body = sc.get("/search").get_data(as_text=True)
    assert "Type a rule, a glossary term" in body
    assert '<a href="/search?q=how+many+dilemmas+do+I+draw">how many dilemmas do I draw</a>' in body


def test_a_zero_result_search_suggests_what_to_do(sc):
    body = sc.get("/search?q=dilema&kind=step").get_data(as_text=True)
    assert "unknown kind" in body  # steps are not in this corpus
    body = sc.get("/search?q=xyzzy+plugh&kind=ruling").get_data(as_text=True)
    assert "No results for <q>xyzzy plugh</q> with these filters." in body
    # Only the URL's filters go: a remembered game still applies, with its own way out.
    assert '<a href="/search?q=xyzzy+plugh">Search without the filters</a>' in body
    body = sc.get("/search?q=comandeer+a+ship").get_data(as_text=True)
    assert 'Did you mean <a href="/search?q=commandeer+a+ship">commandeer a ship</a>?' in body


def test_the_fragment_is_the_results_alone(sc):
    body = sc.get("/search/results?q=dilemma&compact=1&limit=2").get_data(as_text=True)
    assert "<html" not in body and 'class="results results-compact"' in body
    assert body.count('class="result ') == 2
    assert "6 results for <q>dilemma</q>, showing the first 2." in body


def test_every_page_has_the_search_box(sc):
    for path in ("/", "/rules/book/2/", "/rules/book/2/gl-dilemma", "/search?q=x"):
        body = sc.get(path).get_data(as_text=True)
        assert '<form class="searchbox" id="search-form" action="/search" method="get"' in body
        assert re.search(r"/static/js/search\.[0-9a-f]{10}\.js", body)


def test_cli_json_is_the_api_json(sc, capsys, monkeypatch):
    monkeypatch.setenv("JUDGEKIT_SEARCH_CACHE_DIR", "")
    assert (
        main(["--root", str(SEARCH), "search", "comandeer a ship", "--json", "--limit", "3"]) == 0
    )
    printed = json.loads(capsys.readouterr().out)
    assert printed == api(sc, q="comandeer a ship", limit="3")


def test_cli_prints_results(capsys, monkeypatch):
    monkeypatch.setenv("JUDGEKIT_SEARCH_CACHE_DIR", "")
    assert main(["--root", str(SEARCH), "search", "beam ", "--limit", "1"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "1 result(s) for 'beam'",
        # The tests turn meaning off (conftest): the CLI says so, as the page does.
        "Found by words only: you asked for it (JUDGEKIT_SEARCH_MEANING=off).",
        "1. Order – Beam Personnel  [section]  Book v2  (also in v1)",
        "   /rules/book/2/beaming",
        "   You may [beam] personnel between your ship and a planet mission, or to another ship.",
    ]


def test_cli_says_a_version_not_held(capsys, monkeypatch):
    monkeypatch.setenv("JUDGEKIT_SEARCH_CACHE_DIR", "")
    assert main(["--root", str(SEARCH), "search", "beam v5", "--limit", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == [
        "1 result(s) for 'beam v5'",
        "“v5”: no such version is held here; the versions held: Book v2 (April 2015), Book v1"
        " (August 2003) and Rulings 1/1/00. The rest of your question was searched.",
    ]


def test_cli_bad_parameter(capsys, monkeypatch):
    monkeypatch.setenv("JUDGEKIT_SEARCH_CACHE_DIR", "")
    assert main(["--root", str(SEARCH), "search", "beam", "--kind", "card"]) == 2
    assert capsys.readouterr().err == ("unknown kind 'card' (known: section, glossary, ruling)\n")


@pytest.mark.parametrize(
    "query_string",
    ["q=%ff%fe%fd", "q=%00", "q=%", "q=%%%", "q=a&q=b", "q", "&&&", "q=dilemma&limit=%00", "q=+"],
)
def test_raw_query_strings_are_safe(sc, query_string):
    for path in ("/api/search", "/search", "/search/results"):
        response = sc.get(f"{path}?{query_string}")
        assert response.status_code in (200, 400), (path, response.status_code)


def test_an_external_document_is_not_searchable(mini_client):
    response = mini_client.get("/api/search?q=x&document=demo-glossary")
    assert response.status_code == 400
    assert response.get_json()["message"] == "document 'demo-glossary' is not held in judgekit"


def test_random_queries_never_fail(sc):
    """A seeded fuzz: quotes, operators, control characters, scripts and emoji, mixed."""
    import random

    rng = random.Random(1701)
    pool = list("abcdilemstop \"'*?~^:-+()[]{}<>&|!\\/%\x00\x07\x1b\t\n") + [
        "é",
        "ß",
        "Ω",
        "中",
        "🖖",
        "\u202e",
        "\ufeff",
        "AND",
        "OR",
        "NOT",
        "dilemma",
        "beam",
    ]
    for _ in range(300):
        query = "".join(rng.choice(pool) for _ in range(rng.randint(0, 40)))
        response = sc.get("/api/search", query_string={"q": query, "limit": "5"})
        assert response.status_code == 200, (query, response.get_json())
        data = response.get_json()
        assert data["total"] >= len(data["results"])


@pytest.mark.parametrize("q", ["beem down to a planet", "discrad pile order"])
def test_did_you_mean_is_the_same_whatever_the_limit(client, q):
    """ "Did you mean" compares the first three results as typed and as corrected, however many
    are asked for: limit=1 offers it as limit=10 does, with the same first result."""
    ten = client.get("/api/search", query_string={"q": q, "limit": "10"}).get_json()
    one = client.get("/api/search", query_string={"q": q, "limit": "1"}).get_json()
    assert ten["suggestion"] and one["suggestion"] == ten["suggestion"]
    assert [r["url"] for r in one["results"]] == [ten["results"][0]["url"]]


@pytest.mark.parametrize(
    ("q", "meant"),
    [("klingn ship", "klingon ship"), ("tactor", "tractor"), ("phhase", "phase")],
)
def test_did_you_mean_offers_the_rules_word_over_a_judges_word_only(client, q, meant):
    """A word only judges say ("kling", "tutor": the vocabulary's) is no likelier correction than
    the rules' word as close: "klingn" is offered as "klingon", never as "kling"; a judge's word
    the rules use too ("phase") still wins its tie."""
    data = client.get("/api/search", query_string={"q": q}).get_json()
    assert data["suggestion"] == meant
