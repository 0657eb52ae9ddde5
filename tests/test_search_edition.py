"""The game a judge is judging: a cookie set by plain forms, a chip in every search box, the URL
overriding it. On the fixture corpus tests/data/search/vocab (2E "game", 1E "rul")."""

from __future__ import annotations

import re

import pytest

from judgekit.search.choice import (
    COOKIE,
    Choice,
    parse_choice,
    safe_next,
    with_choice,
    yields_to_question,
)

from .conftest import DATA

VOCAB = DATA / "search" / "vocab"


@pytest.fixture()
def ec(vocab_app):
    return vocab_app.test_client()


def editions(body: str) -> set[str]:
    """The edition badges of the results on a page."""
    return set(re.findall(r'<span class="badge badge-ed ed-(\w+)"', body))


def choose(ec, choice: str, next_url: str = "/search?q=stopped+ship"):
    return ec.get("/search/edition", query_string={"choice": choice, "next": next_url})


def test_without_a_choice_both_games_are_searched_and_labelled(ec):
    body = ec.get("/search?q=stopped+ship").get_data(as_text=True)
    assert editions(body) == {"2E", "1E"}
    assert '<span class="badge badge-ed ed-1E" title="First Edition">1E</span>' in body
    assert '<span class="badge badge-ed ed-2E" title="Second Edition">2E</span>' in body
    assert '<button type="submit" name="choice" value="2E" class="ed-2E"' in body


def test_choosing_an_edition_sets_a_cookie_and_goes_back(ec):
    response = choose(ec, "2E")
    assert response.status_code == 303
    assert response.headers["Location"] == "/search?q=stopped+ship"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=2E;")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Max-Age=34560000" in cookie


def test_the_remembered_edition_applies_to_the_page_the_fragment_and_shows_a_chip(ec):
    choose(ec, "2E")
    body = ec.get("/search?q=stopped+ship").get_data(as_text=True)
    assert editions(body) == {"2E"}
    assert ">Judging 2E</span>" in body
    assert 'aria-label="Stop searching 2E only"' in body
    assert "in 2E only (remembered on this device;" in body
    assert '<a href="/search?q=stopped+ship&amp;edition=both">search both games</a>' in body
    fragment = ec.get("/search/results?q=stopped+ship&compact=1").get_data(as_text=True)
    assert editions(fragment) == {"2E"}
    # The filter form does not copy the remembered edition: it applies by itself.
    assert '<option value="" selected>' not in body
    assert '<option value="">as remembered (2E)</option>' in body
    assert '<option value="2E">2E</option>' in body


def test_the_filter_form_keeps_the_remembered_edition_without_copying_it(ec):
    choose(ec, "2E")
    # What the form sends with every select left alone: empty filters name nothing.
    url = "/search?q=stopped+ship&edition=&document=&version=&kind="
    body = ec.get(url).get_data(as_text=True)
    assert editions(body) == {"2E"}
    assert "in 2E only (remembered on this device;" in body
    assert "with these filters" not in body
    # The one place to remember a version shows what is remembered now.
    assert '<option value="2E" selected>2E – Second Edition</option>' in body


def test_clearing_the_choice_drops_an_edition_from_the_page_it_goes_back_to(ec):
    choose(ec, "2E")
    response = choose(ec, "", "/search?q=stopped+ship&edition=2E&document=&version=&kind=")
    assert response.headers["Location"] == "/search?q=stopped+ship&document=&version=&kind="
    body = ec.get(response.headers["Location"]).get_data(as_text=True)
    assert editions(body) == {"2E", "1E"}
    assert "with these filters" not in body
    # Choosing a game goes back exactly where it was.
    assert (
        choose(ec, "1E", "/search?q=x&edition=2E").headers["Location"] == "/search?q=x&edition=2E"
    )


def test_a_word_only_the_other_game_has_is_flagged(ec):
    choose(ec, "2E")
    body = ec.get("/search?q=fires+ship").get_data(as_text=True)
    assert editions(body) == {"2E"}
    assert (
        '<p class="not-in-edition"><q>fires</q>: not in the 2E rules; First Edition has it '
        '(<a href="/search?q=fires+ship&amp;edition=1E">search First Edition instead</a>).</p>'
    ) in body
    assert "not-in-edition" not in ec.get("/search?q=stopped+ship").get_data(as_text=True)


def test_no_results_in_the_remembered_game_offers_the_other(ec):
    choose(ec, "2E")
    body = ec.get("/search?q=fires").get_data(as_text=True)
    assert "No results for <q>fires</q> in 2E only (remembered on this device;" in body
    assert "with these filters" not in body and "Search without the filters" not in body
    assert (
        '<p class="search-elsewhere">First Edition has 1 result: '
        '<a href="/search?q=fires&amp;edition=1E">search First Edition instead</a>.</p>'
    ) in body
    # The hints are the chosen game's: no 1E-only "commandeer a ship" for a 2E judge.
    assert "how many dilemmas do I draw" in body and "commandeer a ship" not in body
    choose(ec, "1E")
    body = ec.get("/search?q=engagement").get_data(as_text=True)
    assert "Second Edition has" in body and "how many dilemmas" not in body
    assert "commandeer a ship" in body


def test_the_words_not_in_the_rules_are_listed_once_with_one_full_stop(ec):
    body = ec.get("/search?q=zzyzx+zzyzx").get_data(as_text=True)
    assert '<p class="not-in-rules"><q>zzyzx</q>: not in the rules.</p>' in body


def test_the_chip_is_in_the_search_box_of_every_page(ec):
    choose(ec, "1E")
    body = ec.get("/rules/game/2/damage").get_data(as_text=True)
    assert ">Judging 1E</span>" in body


def test_the_url_overrides_the_cookie(ec):
    choose(ec, "2E")
    assert editions(ec.get("/search?q=stopped+ship&edition=both").get_data(as_text=True)) == {
        "2E",
        "1E",
    }
    assert editions(ec.get("/search?q=stopped+ship&edition=1E").get_data(as_text=True)) == {"1E"}
    # A document or version in the URL says what to search too.
    assert editions(ec.get("/search?q=stopped+ship&document=rul").get_data(as_text=True)) == {"1E"}


def test_the_api_is_not_changed_by_the_cookie(ec):
    choose(ec, "2E")
    results = ec.get("/api/search?q=stopped+ship").get_json()["results"]
    assert {r["edition"] for r in results} == {"2E", "1E"}


def test_one_tap_clears_the_choice(ec):
    choose(ec, "2E")
    response = choose(ec, "")
    assert response.status_code == 303
    assert f"{COOKIE}=;" in response.headers["Set-Cookie"]
    body = ec.get("/search?q=stopped+ship").get_data(as_text=True)
    assert editions(body) == {"2E", "1E"} and "Judging 2E" not in body


def test_a_version_can_be_chosen_too(ec):
    choose(ec, "2E:1")
    body = ec.get("/search?q=damage+hull").get_data(as_text=True)
    assert ">Judging 2E v1</span>" in body
    assert re.findall(r'<a class="result-title" href="([^"]+)"', body) == ["/rules/game/1/damage"]


def test_an_unknown_choice_is_a_400_with_the_choices(ec):
    response = choose(ec, "3E")
    body = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "There is no edition or version <q>3E</q> to judge." in body
    assert 'value="2E:1">2E v1</button>' in body
    assert COOKIE not in response.headers.get("Set-Cookie", "")


def test_a_stale_or_forged_cookie_is_ignored(ec):
    ec.set_cookie(COOKIE, "9E:<script>")
    response = ec.get("/search?q=stopped+ship")
    assert response.status_code == 200
    assert editions(response.get_data(as_text=True)) == {"2E", "1E"}


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("/rules/game/2/damage?x=1", "/rules/game/2/damage?x=1"),
        ("//evil.example/x", "/search"),
        ("https://evil.example/", "/search"),
        ("/\t/evil.example", "/search"),
        ("/\\evil.example", "/search"),
        ("", "/search"),
    ],
)
def test_going_back_stays_on_this_site(ec, target, expected):
    assert safe_next(target) == expected
    response = choose(ec, "2E", target)
    assert response.headers["Location"] == expected


def test_choices_parse_and_apply(corpus):
    assert parse_choice(corpus, "2e").value == "2E"
    assert parse_choice(corpus, "2E:4").label == "2E v4"
    assert parse_choice(corpus, "1E:4") is None  # v4 is not a 1E version
    assert parse_choice(corpus, "") is None
    choice = parse_choice(corpus, "2E:4")
    assert with_choice({"q": "x"}, choice) == {"q": "x", "edition": "2E", "version": "4"}
    assert with_choice({"q": "x", "edition": "both"}, choice) == {"q": "x", "edition": ""}
    assert with_choice({"q": "x", "edition": ""}, choice) == {
        "q": "x",
        "edition": "2E",
        "version": "4",
    }


@pytest.mark.parametrize(
    "choice",
    ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "x" * 5000, "2E:\x00", "%ff"],
)
def test_a_hostile_choice_is_a_400_and_escaped(ec, choice):
    response = choose(ec, choice)
    body = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "<script>alert" not in body and "<img src=x" not in body
    assert COOKIE not in response.headers.get("Set-Cookie", "")


def test_a_hostile_next_is_never_followed_off_site_nor_breaks_the_header(ec):
    for target in ("/search?q=<script>", "/\r\nSet-Cookie: x=1", "javascript:alert(1)"):
        response = choose(ec, "2E", target)
        assert response.status_code == 303
        location = response.headers["Location"]
        assert location.startswith("/") and "\n" not in location and "<" not in location


def test_a_remembered_game_yields_to_another_game_or_a_version_named():
    one, v4 = Choice("1E"), Choice("2E", "4", "v4")
    assert yields_to_question(one, frozenset({"2E"}), False)  # "2e battle"
    assert yields_to_question(one, frozenset({"2E", "1E"}), True)  # "1E rules battle in CTA"
    assert not yields_to_question(one, frozenset({"1E"}), False)  # "1e battle": as remembered
    assert not yields_to_question(v4, frozenset({"2E"}), False)  # "2e battle": v4 kept
    assert yields_to_question(v4, frozenset({"2E"}), True)  # "battle in CTA"
    assert not yields_to_question(one, frozenset(), False)  # no game named
    assert not yields_to_question(None, frozenset({"2E"}), False)
    assert with_choice({"q": "2e x"}, one, yields=True) == {"q": "2e x"}
    assert with_choice({"q": "2e x"}, one) == {"q": "2e x", "edition": "1E"}
