"""What a judge sees on a 360 px phone, in Chromium: the search page says what it did (a 1E search
holds only the 2/28/00 rulings, "the 2003 rules" read as two versions, a chip naming its glossary
entry, a pasted question too long cut with a word), on the server's page with and without
JavaScript and on the pack's, and none of it makes the page scroll sideways."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from judgekit import create_app
from tests.conftest import serving, wait_until
from tests.test_pack_browser import guarded_context, static_server
from tests.test_phone_browser import PHONE

pytestmark = pytest.mark.browser

LONG = "can my crew beam to a ship " * 23  # 621 characters
SEEN = [
    (
        {"q": "commandeer"},
        ".search-held",
        "For 1E, judgekit holds only the Current Rulings of 2/28/00",
    ),
    (
        {"q": "battle in the 2003 rules"},
        ".search-summary",
        "“2003” read as v1.1 and Call to Arms, each result showing its Call to Arms passage first.",
    ),
    ({"q": "staffing ships"}, ".result .chips", "Call to Arms: moving a ship (glossary)"),
    (
        {"q": LONG},
        ".search-cut",
        "it was searched up to “…a ship can my crew”, and the rest, from “beam to a ship can…”,"
        " was left out. A short question finds the rule best",
    ),
]


@pytest.fixture(scope="module")
def words_server():
    """The real corpus served by words (what is said does not depend on meaning)."""
    with serving(create_app({"TESTING": True, "SEARCH_MEANING": "off"})) as base:
        yield base


def _sees(page, where: str, words: str) -> None:
    wait_until(page, "!!document.querySelector('#search-results .search-summary')", timeout=30)
    shown = page.locator(f"#search-results {where}").first
    assert shown.is_visible(), where
    assert words in " ".join(shown.inner_text().split()), (where, shown.inner_text())
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("script", [True, False], ids=["javascript", "no-javascript"])
def test_the_server_page_says_what_it_did_at_360_px(browser, words_server, script):
    with guarded_context(browser, PHONE, java_script_enabled=script) as (context, off):
        page = context.new_page()
        for params, where, words in SEEN:
            page.goto(f"{words_server}/search?{urlencode(params)}")
            _sees(page, where, words)
        if script:
            # Pasted into the box: the box keeps it whole, and the answer says it was cut.
            page.goto(f"{words_server}/search")
            page.fill("#q", LONG)
            wait_until(page, "!!document.querySelector('#search-results .search-cut')", timeout=30)
            assert page.input_value("#q") == LONG
            _sees(page, ".search-cut", "the rest, from “beam to a ship can…”, was left out")
            # Under the header's box elsewhere, the note reads as small as the summary above it.
            page.goto(f"{words_server}/rules/2e-rulebook/4/beaming")
            page.fill("#q", "commandeer")
            wait_until(page, "!!document.querySelector('#q-suggest .search-held')", timeout=30)
            sizes = page.evaluate(
                "['.search-summary', '.search-held'].map((c) =>"
                " getComputedStyle(document.querySelector('#q-suggest ' + c)).fontSize)"
            )
            assert sizes[0] == sizes[1], sizes
        assert off == []


def test_the_pack_page_says_the_same_at_360_px(browser, real_pack_build):
    with (
        static_server(real_pack_build.out.parent) as base,
        guarded_context(browser, PHONE) as (
            context,
            off,
        ),
    ):
        page = context.new_page()
        for params, where, words in SEEN:
            page.goto(f"{base}/judgekit-pack/search/index.html?{urlencode(params)}")
            wait_until(
                page,
                "!!document.querySelector('#search-results [data-total]:not([aria-busy])')",
                timeout=30,
            )
            _sees(page, where, words)
        assert off == []
