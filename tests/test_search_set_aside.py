"""A game named in the question that a chosen game, document or version set aside ("2e battle"
with 1E remembered) is said in the answer (edition_set_aside), on the results page with one link
to the named game, and by the CLI; the question without the name keeps no punctuation the name
left (issue #11). The fixture corpus tests/data/search/vocab (2E "game", 1E "rul") and the real
corpus; the pack's copy: tests/test_pack_search.py and tests/test_pack_results.py."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from judgekit.commands import main
from judgekit.search.choice import COOKIE
from judgekit.search.query import strip_named

from .conftest import BlockedRequests, guarded_context, wait_until
from .test_search_named_game import VOCAB, answer, ask, editions, summary

ANSWERED = (
    "document.querySelector('#search-results .search-summary q')?.textContent === '2e battle'"
    " && !!document.querySelector('#search-results .search-yielded a')"
)
YIELDED = re.compile(r'<p class="search-set-aside search-yielded" role="status">(.*?)</p>', re.S)
ASIDE = re.compile(r'<p class="search-set-aside" role="status">(.*?)</p>', re.S)


def aside_of(data: dict) -> tuple:
    return data["edition_set_aside"], data["query_without_edition"]


def aside_line(body: str) -> str:
    found = ASIDE.search(body)
    assert found, body
    return found.group(1)


def aside_link(body: str, line=None) -> str:
    said = (line or aside_line)(body)
    found = re.search(r'<a href="([^"]*)">search \wE[^<]* instead</a>', said)
    assert found, said
    return html.unescape(found.group(1))


def yielded_line(body: str) -> str:
    """The line saying the game typed won over the game remembered."""
    found = YIELDED.search(body)
    assert found, body
    return found.group(1)


# -- the question without the game's name: nothing the name left --------------------------------
@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("2E's battle", "battle"),
        ("2e’s battle", "battle"),
        ("battle 2e's", "battle"),
        ("(2e)'s battle", "battle"),
        ("(2e)’s battle", "battle"),  # a phone's apostrophe: the possessive, not a closing quote
        ("battle, 2e", "battle"),
        ("battle; 2e", "battle"),
        ("battle 2e.", "battle"),
        ("battle 2e...", "battle"),
        ("in 2e, how many", "in how many"),
        ("2e: battle", "battle"),
        ("2e-battle", "battle"),
        ("battle-2e", "battle"),
        ("battle -2e", "battle"),
        ("2e - battle", "battle"),
        ("battle – 2e", "battle"),
        ("battle—2e", "battle"),
        ("(2e) battle", "battle"),
        ("[2e] battle", "battle"),
        ("{2e} battle", "battle"),
        ("'2e' battle", "battle"),
        ("‘2e’ battle", "battle"),
        ("x (2e) (y)", "x (y)"),
        # Brackets and quotes that still enclose words stay, closed up on them.
        ("battle (2e rules)", "battle (rules)"),
        ("battle (rules 2e)", "battle (rules)"),
        ("battle (rules 2e )", "battle (rules)"),
        ("battle (2e - rules)", "battle (rules)"),  # the dash after the name goes with it
        ("the '2e rules' x", "the 'rules' x"),
        ("'rules 2e' x", "'rules' x"),
        ('"stopped ship" 2e', '"stopped ship"'),
        ('"stopped ship"2e battle', '"stopped ship" battle'),
        ('1e "2nd ed" stopped', '"2nd ed" stopped'),
        # Punctuation that is the judge's, away from the name, stays; so does every word.
        ("double-check 2e battle", "double-check battle"),
        ("e.g. 2e battle", "e.g. battle"),
        ("2e battle's cost", "battle's cost"),
        ("how many dilemmas in 2e?", "how many dilemmas in"),
    ],
)
def test_the_question_without_the_name_keeps_nothing_it_left(typed, expected):
    assert strip_named(typed, typed, None)[2] == expected


# -- the answer ------------------------------------------------------------------------------------
def test_a_chosen_game_other_than_the_named_one_sets_it_aside(vocab_client):
    data = answer(vocab_client, q="1e stopped ship", edition="2E")
    assert aside_of(data) == ("1E", "stopped ship")
    assert data["filters"] == {"edition": "2E"} and data["edition_from"] == "filter"
    assert {r["edition"] for r in data["results"]} == {"2E"}
    assert aside_of(answer(vocab_client, q="stopped ship (2E)", edition="1e")) == (
        "2E",
        "stopped ship",
    )


def test_the_game_named_and_chosen_sets_nothing_aside(vocab_client):
    assert aside_of(answer(vocab_client, q="2e stopped ship", edition="2E")) == (None, None)
    assert aside_of(answer(vocab_client, q="2e stopped ship", document="game")) == (None, None)


def test_no_game_named_sets_nothing_aside(vocab_client):
    assert aside_of(answer(vocab_client, q="stopped ship", edition="1E")) == (None, None)
    assert aside_of(answer(vocab_client, q="stopped ship")) == (None, None)
    assert aside_of(answer(vocab_client, q="")) == (None, None)
    # Named and nothing chosen: the named game is searched, nothing set aside.
    assert aside_of(answer(vocab_client, q="1e stopped ship")) == (None, "stopped ship")
    # Only the name, or both games named: no game named.
    assert aside_of(answer(vocab_client, q="second edition", edition="1E")) == (None, None)
    # The name with only its possessive is words to find too: no line linking an empty search.
    assert aside_of(answer(vocab_client, q="2e's", edition="1E")) == (None, None)
    assert aside_of(answer(vocab_client, q="1e vs 2e stopped", edition="1E")) == (None, None)


@pytest.mark.parametrize(
    "chosen", [{"document": "game"}, {"version": "2"}, {"document": "game", "version": "2"}]
)
def test_a_chosen_document_or_version_of_the_other_game_sets_the_named_one_aside(
    vocab_client, chosen
):
    data = answer(vocab_client, q="1e stopped ship", **chosen)
    assert aside_of(data) == ("1E", "stopped ship")
    assert data["filters"] == chosen and data["edition_from"] is None


# -- the results page ----------------------------------------------------------------------------
def test_the_game_named_wins_over_the_remembered_one_and_the_page_says_so(vocab_client):
    vocab_client.set_cookie(COOKIE, "2E")
    body = vocab_client.get("/search?q=1e+stopped+ship").get_data(as_text=True)
    assert editions(body) == {"1E"}
    assert not ASIDE.search(body)  # nothing was set aside: the question's game was searched
    assert yielded_line(body) == (
        "Your question names 1E, so 1E was searched, not 2E as remembered on this device: "
        '<a href="/search?q=stopped+ship&amp;edition=2E">search 2E instead</a>.'
    )
    # The link names the game in the address, which wins over the question's.
    there = vocab_client.get(aside_link(body, yielded_line)).get_data(as_text=True)
    assert editions(there) == {"2E"}
    assert answer(vocab_client, q="stopped ship", edition="2E")["total"] == int(
        re.search(r'data-total="(\d+)"', there).group(1)
    )
    assert "search-yielded" not in there
    # A remembered version (2E v2): the link searches that version again.
    vocab_client.set_cookie(COOKIE, "2E:2")
    body = vocab_client.get("/search?q=1e+stopped+ship").get_data(as_text=True)
    assert editions(body) == {"1E"}
    assert aside_link(body, yielded_line) == "/search?q=stopped+ship&edition=2E&version=2"


def test_the_page_says_a_game_document_or_version_chosen_set_it_aside(vocab_client):
    body = vocab_client.get("/search?q=1e+stopped+ship&edition=2E").get_data(as_text=True)
    assert aside_line(body) == (
        "Your question names 1E, but 2E was searched (the game chosen): "
        '<a href="/search?q=stopped+ship&amp;edition=1E">search 1E instead</a>.'
    )
    # The kind and every version stay; the document or version chosen (the other game's) goes.
    body = vocab_client.get("/search?q=1e+stopped+ship&document=game&kind=section").get_data(
        as_text=True
    )
    assert aside_line(body) == (
        "Your question names 1E, but only the chosen document was searched: "
        '<a href="/search?q=stopped+ship&amp;kind=section&amp;edition=1E">search 1E instead</a>.'
    )
    body = vocab_client.get("/search?q=1e+stopped+ship&version=2&all_versions=1").get_data(
        as_text=True
    )
    assert aside_line(body) == (
        "Your question names 1E, but only the chosen version was searched: "
        '<a href="/search?q=stopped+ship&amp;all_versions=1&amp;edition=1E">search 1E instead</a>.'
    )
    assert editions(vocab_client.get(aside_link(body)).get_data(as_text=True)) == {"1E"}


def test_nothing_set_aside_no_line(vocab_client):
    for url in (
        "/search?q=2e+stopped+ship&edition=2E",
        "/search?q=1e+stopped+ship",
        "/search?q=stopped+ship&edition=1E",
    ):
        assert "search-set-aside" not in vocab_client.get(url).get_data(as_text=True), url


def test_the_live_results_fragment_says_it_too(vocab_client):
    fragment = vocab_client.get("/search/results?q=1e+stopped+ship&edition=2E&compact=1").get_data(
        as_text=True
    )
    assert aside_line(fragment) == (
        "Your question names 1E, but 2E was searched (the game chosen): "
        '<a href="/search?q=stopped+ship&amp;edition=1E">search 1E instead</a>.'
    )


def test_the_line_is_escaped(vocab_client):
    body = vocab_client.get(
        "/search", query_string={"q": '1e <img src=x> "a&b" stopped', "edition": "2E"}
    ).get_data(as_text=True)
    assert "<img" not in body.split('id="search-results"', 1)[1]
    assert aside_line(body) == (
        "Your question names 1E, but 2E was searched (the game chosen): "
        '<a href="/search?q=%3Cimg+src%3Dx%3E+%22a%26b%22+stopped&amp;edition=1E">'
        "search 1E instead</a>."
    )


def test_on_the_real_corpus_2e_battle_with_1e_remembered(client):
    client.set_cookie(COOKIE, "1E")
    body = client.get("/search?q=2e+battle").get_data(as_text=True)
    assert editions(body) == {"2E"}
    total = client.get("/api/search?q=2e+battle").get_json()["total"]
    assert summary(body).startswith(f"{total} results for <q>2e battle</q>")
    assert yielded_line(body) == (
        "Your question names 2E, so 2E was searched, not 1E as remembered on this device: "
        '<a href="/search?q=battle&amp;edition=1E">search 1E instead</a>.'
    )
    there = client.get(aside_link(body, yielded_line)).get_data(as_text=True)
    assert editions(there) == {"1E"}


@pytest.mark.parametrize(
    ("q", "params", "expected"),
    [
        # A version named names its game; the question for that game keeps the version.
        ("battle in Call to Arms", {"edition": "1E"}, ("2E", "battle in Call to Arms")),
        ("beaming in 1.1", {"document": "1e-current-rulings"}, ("2E", "beaming in 1.1")),
        ("battle in Call to Arms", {"edition": "2E"}, (None, None)),
        # None chosen: the version's game is searched (issue #27), and both without its name.
        ("battle in Call to Arms", {}, (None, "battle in")),
    ],
)
def test_a_version_named_names_its_game(client, q, params, expected):
    data = client.get("/api/search", query_string={"q": q, **params}).get_json()
    assert aside_of(data) == expected


def test_a_version_named_wins_over_the_remembered_game_with_the_version_first(client):
    client.set_cookie(COOKIE, "1E")
    body = client.get("/search?q=battle+in+Call+to+Arms").get_data(as_text=True)
    assert editions(body) == {"2E"}
    assert 'class="result result-' in body
    first = client.get("/api/search?q=battle+in+Call+to+Arms").get_json()["results"][0]
    assert first["version"] == "call-to-arms"
    assert yielded_line(body).startswith("Your question names 2E, so 2E was searched, not 1E")
    # A remembered version of the same game gives way to the version named, silently.
    client.set_cookie(COOKIE, "2E:4")
    body = client.get("/search?q=battle+in+Call+to+Arms").get_data(as_text=True)
    assert "search-yielded" not in body and not ASIDE.search(body)
    assert "in 2E only (named in your question;" in summary(body)  # not v4 only


def test_with_no_game_chosen_a_version_named_keeps_to_its_game(client):
    # "stopped" is a 1E ruling's word too; Call to Arms is 2E's: its entry comes first, and
    # only 2E is searched (issue #27).
    data = client.get("/api/search?q=stopped+under+call+to+arms").get_json()
    first = data["results"][0]
    assert (first["edition"], first["version"], first["title"]) == ("2E", "call-to-arms", "stopped")
    assert data["edition_set_aside"] is None and data["edition_from"] == "question"
    assert {r["edition"] for r in data["results"]} == {"2E"}


# -- the command line ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("chosen", "line"),
    [
        (
            ["--edition", "2e"],
            "your question names 1E, but 2E was searched (--edition);"
            " for 1E: judgekit search --edition 1E 'stopped ship'",
        ),
        (
            ["--document", "game"],
            "your question names 1E, but only the chosen document was searched;"
            " for 1E: judgekit search --edition 1E 'stopped ship'",
        ),
        # The kind and all versions stay, as on the page; a question starting with a dash is
        # not taken for an option.
        (
            ["--edition", "2E", "--kind", "section", "--all-versions"],
            "your question names 1E, but 2E was searched (--edition);"
            " for 1E: judgekit search --edition 1E --kind section --all-versions 'stopped ship'",
        ),
    ],
)
def test_the_command_line_says_it_too(capsys, monkeypatch, chosen, line):
    monkeypatch.setenv("JUDGEKIT_SEARCH_CACHE_DIR", "")
    assert main(["--root", str(VOCAB), "search", *chosen, "1e stopped ship", "--limit", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith(" result(s) for '1e stopped ship', showing 1") and out[1] == line
    # Named and chosen alike: no such line.
    assert main(["--root", str(VOCAB), "search", "--edition", "1E", "1e stopped ship"]) == 0
    assert "your question names" not in capsys.readouterr().out


def test_the_command_line_s_command_runs_a_question_starting_with_a_dash(capsys, monkeypatch):
    monkeypatch.setenv("JUDGEKIT_SEARCH_CACHE_DIR", "")
    assert main(["--root", str(VOCAB), "search", "--edition", "2E", "1e -stopped"]) == 0
    line = capsys.readouterr().out.splitlines()[1]
    assert line.endswith(" for 1E: judgekit search --edition 1E -- -stopped")
    command = line.split(": judgekit ", 1)[1].split(" ")
    assert main(["--root", str(VOCAB), *command]) == 0
    assert capsys.readouterr().out.startswith("2 result(s) for '-stopped'")


# -- a phone -------------------------------------------------------------------------------------
@pytest.mark.browser
@pytest.mark.parametrize("javascript", [True, False])
def test_on_a_phone_with_1e_remembered_the_game_named_is_searched(
    browser, live_server, client, javascript
):
    off_host = BlockedRequests()
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    with guarded_context(browser, off_host, java_script_enabled=javascript, **phone) as context:
        page = context.new_page()
        page.goto(f"{live_server}/search/edition?choice=1E&next=/search")  # remember 1E
        ask(page, "2e battle", javascript)
        # The answer to the whole question: one to "2e battl", as typed, has the line too.
        wait_until(page, ANSWERED)
        line = page.locator("#search-results .search-yielded")
        assert line.inner_text() == (
            "Your question names 2E, so 2E was searched, not 1E as remembered on this device:"
            " search 1E instead."
        )
        assert page.locator("#search-results .result .badge-ed.ed-2E").count() > 0
        assert page.locator("#search-results .result .badge-ed.ed-1E").count() == 0
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        link = line.locator("a", has_text="search 1E instead")
        assert link.is_visible()
        with page.expect_navigation():
            link.tap()
        assert parse_qs(urlsplit(page.url).query) == {"q": ["battle"], "edition": ["1E"]}
        wait_until(page, "!!document.querySelector('#search-results .result')")
        assert page.locator("#search-results .result .badge-ed.ed-1E").count() > 0
        assert page.locator("#search-results .result .badge-ed.ed-2E").count() == 0
        assert page.locator("#search-results .search-yielded").count() == 0
    assert off_host.urls == []
