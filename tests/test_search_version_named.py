"""A version named in the question is where to look (issue #27): it keeps the search to its game,
as the game's name does, and says so; a question naming both games searches both and says so.
On the fixture corpus tests/data/search/vocab (2E "game" v1 and v2, 1E "rul" 1/1/00). The pack's
copy: tests/test_pack_results.py and the golden answers."""

from __future__ import annotations

import html
import re

from judgekit.search.choice import COOKIE
from judgekit.search.query import strip_named, strip_versions, version_names

SUMMARY = re.compile(r'<p class="search-summary" role="status">(.*?)\s*</p>', re.S)
NAMES = version_names([("game", "1", "v1"), ("game", "2", "v2"), ("rul", "2000-01-01", "1/1/00")])


def answer(client, **params) -> dict:
    response = client.get("/api/search", query_string=params)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def editions(data: dict) -> set[str]:
    return {r["edition"] for r in data["results"]}


def summary(body: str) -> str:
    found = SUMMARY.search(body)
    assert found, body
    return found.group(1)


def test_a_version_of_one_game_keeps_to_it_and_drops_with_the_name():
    typed = "stopped in v2"
    blanked, _ = strip_versions(typed, NAMES)
    assert strip_named(typed, blanked, None, frozenset({"2E"})) == (
        "stopped in   ",
        "2E",
        "stopped in",
    )
    # A game chosen wins; nothing but the name is words to find, in both games.
    assert strip_named(typed, blanked, "1E", frozenset({"2E"}))[1] is None
    assert strip_named("v2", "  ", None, frozenset({"2E"}))[1] is None


def test_a_version_and_the_other_game_named_keep_to_neither():
    typed = "1e stopped in v2"
    blanked, _ = strip_versions(typed, NAMES)
    assert strip_named(typed, blanked, None, frozenset({"2E"}))[1:] == (None, "")
    assert strip_named(typed, blanked, None, frozenset({"2E", "1E"}))[1:] == (None, "")
    # The other game's name alone beside the version still names it: both games, its words.
    assert strip_named("1e v2", "1e   ", None, frozenset({"2E"})) == ("1e   ", None, "")


def test_a_version_named_searches_its_game_only_with_the_version_first(vocab_client):
    both = answer(vocab_client, q="stopped ship")
    assert editions(both) == {"2E", "1E"}  # the words alone find the 1E ruling too
    data = answer(vocab_client, q="stopped ship in v2")
    assert editions(data) == {"2E"}
    assert data["filters"] == {"edition": "2E"} and data["edition_from"] == "question"
    assert data["query_without_edition"] == "stopped ship in"
    assert data["editions_named"] == ["2E"]
    assert data["results"][0]["version"] == "2"


def test_a_version_not_holding_the_answer_still_lists_the_others(vocab_client):
    # v1 has no rule on stopped ships: v2's, a version not named, is still the answer, in 2E.
    data = answer(vocab_client, q="stopped ship in v1")
    assert editions(data) == {"2E"} and data["results"][0]["version"] == "2"


def test_the_1e_version_named_keeps_to_1e(vocab_client):
    data = answer(vocab_client, q="stopped ship in the 1/1/00 rulings")
    assert editions(data) == {"1E"} and data["edition_from"] == "question"


def test_both_games_named_search_both_and_say_so(vocab_client):
    data = answer(vocab_client, q="1e stopped ship in v2")
    assert data["filters"] == {} and data["edition_from"] is None
    assert data["editions_named"] == ["2E", "1E"]
    assert editions(data) == {"2E", "1E"}
    body = vocab_client.get("/search?q=1e+stopped+ship+in+v2").get_data(as_text=True)
    assert summary(body).endswith(
        " in both games (your question names 2E and 1E; "
        '<a href="/search?q=1e+stopped+ship+in+v2&amp;edition=2E">search 2E only</a> or '
        '<a href="/search?q=1e+stopped+ship+in+v2&amp;edition=1E">search 1E only</a>).'
    )


def test_the_page_says_the_version_kept_the_search_and_links_both_games(vocab_client):
    body = vocab_client.get("/search?q=stopped+ship+in+v2").get_data(as_text=True)
    line = summary(body)
    assert line.endswith(
        ' in 2E only (named in your question; <a href="/search?q=stopped+ship+in">'
        "search both games</a>)."
    )
    link = html.unescape(re.search(r'<a href="([^"]*)">search both games', line).group(1))
    assert editions(answer(vocab_client, q=link.split("q=")[1].replace("+", " "))) == {"2E", "1E"}


def test_a_remembered_game_s_both_games_link_drops_the_version_too(vocab_client):
    # With 1E remembered, v2 (2E's) is set aside; "search both games" must give both, so the
    # question loses the version's name (kept, edition=both would let v2 keep it to 2E).
    vocab_client.set_cookie(COOKIE, "1E")
    body = vocab_client.get("/search?q=stopped+ship+in+v2").get_data(as_text=True)
    assert '<a href="/search?q=stopped+ship+in&amp;edition=both">search both games</a>' in body
    there = vocab_client.get("/search?q=stopped+ship+in&edition=both").get_data(as_text=True)
    assert set(re.findall(r'<span class="badge badge-ed ed-(\w+)"', there)) == {"2E", "1E"}
