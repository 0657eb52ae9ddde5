"""A game named in the question ("2e battle") keeps the search to it, and the answer and the
results page say so, with one link to the same words in both games (issue #11). The answer and
the page on the fixture corpus tests/data/search/vocab (2E "game", 1E "rul"); the page and a
phone's browser on the real corpus. The pack's copy: tests/test_pack_results.py and
tests/test_pack_search.py."""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit

import pytest

from judgekit.commands import main
from judgekit.search.choice import COOKIE
from judgekit.search.elsewhere import elsewhere
from judgekit.search.query import strip_named, strip_versions, version_names, without_edition
from judgekit.search.service import SearchService
from judgekit.web.context import current_search

from .conftest import DATA, BlockedRequests, guarded_context, wait_until

VOCAB = DATA / "search" / "vocab"
WHOLE = (
    "document.querySelector('#search-results .search-summary q')?.textContent === '2e battle'"
    " && !!document.querySelector('#search-results .search-summary a')"
)
SUMMARY = re.compile(r'<p class="search-summary" role="status">(.*?)\s*</p>', re.S)


def answer(client, **params) -> dict:
    response = client.get("/api/search", query_string=params)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def named(data: dict) -> tuple:
    return data["filters"], data["edition_from"], data["query_without_edition"]


def editions(body: str) -> set[str]:
    """The edition badges of the results on a page."""
    return set(re.findall(r'<span class="badge badge-ed ed-(\w+)"', body))


def summary(body: str) -> str:
    found = SUMMARY.search(body)
    assert found, body
    return found.group(1)


# -- the question without the game's name --------------------------------------------------------
@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("2e battle", ("2E", "battle")),
        ("stopped ship (1E)", ("1E", "stopped ship")),
        ("Second Edition: stopped ship", ("2E", "stopped ship")),
        ("2nd ed. beam", ("2E", "beam")),
        ("how many dilemmas in 2e?", ("2E", "how many dilemmas in")),
        ('1e "2nd ed" stopped', ("1E", '"2nd ed" stopped')),
        ("second edition", (None, "")),  # nothing else: words to find
        ("(2e)", (None, "")),  # nor brackets around it: words to find, not an empty search
        ("[1E] ?", (None, "")),
        ("2e's", (None, "")),  # nor a possessive: the name's "'s" is no word to search
        ("(2E)’s?", (None, "")),
        ("1e vs 2e stopped", (None, "")),  # both games: neither
    ],
)
def test_the_question_without_the_games_name(typed, expected):
    stripped, game, without = strip_named(typed, typed, None)
    assert (game, without) == expected
    if game:
        assert strip_named(without, without, None)[1] is None  # no game left to name


def test_a_chosen_game_leaves_no_named_one_and_the_version_named_goes_too():
    assert strip_named("1e stopped ship", "1e stopped ship", "2E") == (
        "   stopped ship",
        None,
        "",
    )
    names = version_names([("game", "2", "v2")])
    typed = "2e stopped in v2"
    blanked, _ = strip_versions(typed, names)
    # Both games' words: v2 names 2E too (issue #27), so the link drops it with the game's name.
    stripped, game, without = strip_named(typed, blanked, None, frozenset({"2E"}))
    assert (stripped, game, without) == ("   stopped in   ", "2E", "stopped in")
    assert without_edition("(2E) x", "(2E) x", "(  ) x") == "x"


# -- the answer ------------------------------------------------------------------------------------
def test_a_named_game_is_echoed_as_the_game_searched_and_marked_as_from_the_question(vocab_client):
    data = answer(vocab_client, q="1e stopped ship")
    assert named(data) == ({"edition": "1E"}, "question", "stopped ship")
    assert {r["edition"] for r in data["results"]} == {"1E"}
    # The words without the name search both games.
    both = answer(vocab_client, q=data["query_without_edition"])
    assert {r["edition"] for r in both["results"]} == {"2E", "1E"}
    assert named(both) == ({}, None, None)
    assert named(answer(vocab_client, q="stopped ship (1E)", kind="ruling")) == (
        {"kind": "ruling", "edition": "1E"},
        "question",
        "stopped ship",
    )


def test_a_chosen_game_wins_and_is_no_named_one(vocab_client):
    data = answer(vocab_client, q="1e stopped ship", edition="2E")
    # The words without the name: what the link to the game set aside searches.
    assert named(data) == ({"edition": "2E"}, "filter", "stopped ship")
    assert {r["edition"] for r in data["results"]} == {"2E"}
    # The same game chosen and named: chosen.
    assert named(answer(vocab_client, q="2e stopped ship", edition="2e")) == (
        {"edition": "2E"},
        "filter",
        None,
    )


@pytest.mark.parametrize("chosen", [{"document": "game"}, {"version": "2"}])
def test_a_chosen_document_or_version_wins_over_a_named_game(vocab_client, chosen):
    # The document or version chosen belongs to one game: "1e" there names no other game to
    # look in (it found nothing before), and is no word to look for.
    data = answer(vocab_client, q="1e stopped ship", **chosen)
    assert named(data) == (chosen, None, "stopped ship")
    assert data["total"] == answer(vocab_client, q="stopped ship", **chosen)["total"] > 0


def test_no_game_no_marker(vocab_client):
    assert named(answer(vocab_client, q="stopped ship")) == ({}, None, None)
    assert named(answer(vocab_client, q="")) == ({}, None, None)


def test_a_named_games_words_are_looked_for_in_the_other_game_without_its_name(vocab_app):
    """ "2e seed phase": "seed" is a 1E word, and the judge hears so as when 2E is chosen; the
    game's name ("2e") is no word to look for."""
    with vocab_app.app_context():
        svc: SearchService = current_search()
        named = elsewhere(svc, svc.search({"q": "2e fires"}))
        chosen = elsewhere(svc, svc.search({"q": "fires", "edition": "2E"}))
        assert named == chosen
        assert (named.missing, named.query, named.other_total) == (("fires",), "fires", 1)
        assert elsewhere(svc, svc.search({"q": "2e"})) is None  # nothing but the game's name


# -- the results page ----------------------------------------------------------------------------
def link_of(body: str) -> str:
    """Where the summary's "search both games" goes."""
    found = re.search(r'<a href="([^"]*)">search both games</a>', summary(body))
    assert found, summary(body)
    return html.unescape(found.group(1))


def test_the_page_says_the_named_game_kept_the_search_and_links_both_games(vocab_client):
    total = answer(vocab_client, q="1e stopped ship")["total"]
    body = vocab_client.get("/search?q=1e+stopped+ship").get_data(as_text=True)
    assert summary(body) == (
        f"{total} results for <q>1e stopped ship</q> in 1E only (named in your question; "
        '<a href="/search?q=stopped+ship">search both games</a>).'
    )
    assert editions(body) == {"1E"}
    # Nothing of the other game's offers: the link is the way to both games.
    assert "search-elsewhere" not in body and "not-in-edition" not in body
    both = vocab_client.get(link_of(body)).get_data(as_text=True)
    assert editions(both) == {"2E", "1E"}
    assert summary(both) == (
        f"{answer(vocab_client, q='stopped ship')['total']} results for <q>stopped ship</q>."
    )


def test_a_game_chosen_after_the_link_applies(vocab_client):
    # The link names no edition (no edition=both): a game the judge chooses next still applies.
    body = vocab_client.get("/search?q=2e+stopped+ship").get_data(as_text=True)
    going = vocab_client.get(
        "/search/edition", query_string={"choice": "1E", "next": link_of(body)}
    )
    assert going.headers["Location"] == "/search?q=stopped+ship"
    assert editions(vocab_client.get(going.headers["Location"]).get_data(as_text=True)) == {"1E"}


def test_the_fragment_the_live_results_show_says_it_too(vocab_client):
    fragment = vocab_client.get("/search/results?q=2e+stopped+ship&compact=1").get_data(
        as_text=True
    )
    assert (
        ' in 2E only (named in your question; <a href="/search?q=stopped+ship">'
        "search both games</a>)."
    ) in fragment


def test_with_filters_and_no_results_the_link_keeps_the_filters(vocab_client):
    body = vocab_client.get("/search?q=2e+stopped+ship&kind=ruling").get_data(as_text=True)
    assert summary(body) == (
        "No results for <q>2e stopped ship</q> in 2E only (named in your question; "
        '<a href="/search?q=stopped+ship&amp;kind=ruling">search both games</a>)'
        " with these filters."
    )
    assert editions(vocab_client.get(link_of(body)).get_data(as_text=True)) == {
        "1E"
    }  # the rulings are 1E's


def test_a_game_named_beats_the_remembered_one_and_both_games_in_the_url_lets_it_apply(
    vocab_client,
):
    # A judge who types "1e" means 1E, whatever this device remembers (the tryout of session 16).
    vocab_client.set_cookie(COOKIE, "2E")
    body = vocab_client.get("/search?q=1e+stopped+ship").get_data(as_text=True)
    assert editions(body) == {"1E"}
    assert "in 1E only (named in your question;" in summary(body)
    assert "in 2E only (remembered on this device" not in body
    # Its "search both games" link says so in the address, or the remembered 2E would apply.
    assert link_of(body) == "/search?q=stopped+ship&edition=both"
    assert editions(vocab_client.get(link_of(body)).get_data(as_text=True)) == {"2E", "1E"}
    # edition=both sets the remembered game aside; the named game then keeps to 1E, and its
    # link keeps edition=both, or the remembered game would come back.
    body = vocab_client.get("/search?q=1e+stopped+ship&edition=both").get_data(as_text=True)
    assert editions(body) == {"1E"}
    assert link_of(body) == "/search?q=stopped+ship&edition=both"
    assert editions(vocab_client.get(link_of(body)).get_data(as_text=True)) == {"2E", "1E"}


def test_a_game_chosen_in_the_address_still_beats_the_one_named(vocab_client):
    vocab_client.set_cookie(COOKIE, "2E")
    body = vocab_client.get("/search?q=1e+stopped+ship&edition=2E").get_data(as_text=True)
    assert editions(body) == {"2E"}
    assert "search-yielded" not in body
    # The remembered game named in the question too: it applies, as remembered.
    body = vocab_client.get("/search?q=2e+stopped+ship").get_data(as_text=True)
    assert editions(body) == {"2E"}
    assert "search-yielded" not in body
    # No game named: the remembered game, and its "search both games" link without the name.
    body = vocab_client.get("/search?q=stopped+ship").get_data(as_text=True)
    assert "in 2E only (remembered on this device;" in summary(body)
    assert link_of(body) == "/search?q=stopped+ship&edition=both"


def test_the_line_is_escaped(vocab_client):
    body = vocab_client.get("/search", query_string={"q": '2e <img src=x> "a&b" stopped'}).get_data(
        as_text=True
    )
    line = summary(body)
    assert "<img" not in body.split('id="search-results"', 1)[1]
    assert "<q>2e &lt;img src=x&gt; &#34;a&amp;b&#34; stopped</q>" in line
    assert '<a href="/search?q=%3Cimg+src%3Dx%3E+%22a%26b%22+stopped">' in line


def test_on_the_real_corpus_2e_battle_says_so_and_the_link_gives_both_games(client):
    data = client.get("/api/search?q=2e+battle").get_json()
    assert named(data) == ({"edition": "2E"}, "question", "battle")
    body = client.get("/search?q=2e+battle").get_data(as_text=True)
    shown = len(data["results"])
    shown = f", showing the first {shown}" if data["total"] > shown else ""
    assert summary(body) == (
        f"{data['total']} results for <q>2e battle</q>{shown} in 2E only (named in your question; "
        '<a href="/search?q=battle">search both games</a>).'
    )
    both = client.get(link_of(body)).get_data(as_text=True)
    assert editions(both) == {"2E", "1E"}
    assert client.get("/api/search?q=battle").get_json()["total"] > data["total"]


def test_the_command_line_says_it_too(capsys, monkeypatch):
    monkeypatch.setenv("JUDGEKIT_SEARCH_CACHE_DIR", "")
    assert main(["--root", str(VOCAB), "search", "stopped ship (1E)", "--limit", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "2 result(s) for 'stopped ship (1E)', showing 1 in 1E only (named in your question;"
        " for both games search 'stopped ship')"
    )


# -- a phone -------------------------------------------------------------------------------------
def ask(page, question: str, javascript: bool) -> None:
    """Type a question in the search page's box: answered live as typed, or sent with Enter."""
    box = page.locator("#q")
    if javascript:
        box.press_sequentially(question, delay=20)
    else:
        box.fill(question)
        with page.expect_navigation():
            box.press("Enter")


@pytest.mark.browser
@pytest.mark.parametrize("javascript", [True, False])
def test_on_a_phone_the_line_shows_and_one_tap_searches_both_games(
    browser, live_server, client, javascript
):
    total = client.get("/api/search?q=2e+battle").get_json()["total"]
    off_host = BlockedRequests()
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    with guarded_context(browser, off_host, java_script_enabled=javascript, **phone) as context:
        page = context.new_page()
        page.goto(f"{live_server}/search")
        ask(page, "2e battle", javascript)
        line = page.locator("#search-results .search-summary")
        # The answer to the whole question: one to "2e battl", as typed, has the link too.
        wait_until(page, WHOLE)
        assert line.inner_text().startswith(f"{total} results for 2e battle")
        assert line.inner_text().endswith(
            " in 2E only (named in your question; search both games)."
        )
        assert page.locator("#search-results .result .badge-ed.ed-1E").count() == 0
        link = line.locator("a", has_text="search both games")
        assert link.is_visible()
        with page.expect_navigation():
            link.tap()
        assert urlsplit(page.url).query == "q=battle"
        assert page.locator("#q").input_value() == "battle"
        assert page.locator("#search-results .result .badge-ed.ed-1E").count() > 0
        assert page.locator("#search-results .result .badge-ed.ed-2E").count() > 0
        assert "named in your question" not in page.locator("#search-results").inner_text()
    assert off_host.urls == []
