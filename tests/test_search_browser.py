"""Search in real headless Chromium: live results, keyboard, the page, and without JavaScript."""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit

import pytest
from playwright.sync_api import expect

from .conftest import BlockedRequests, guard_routes, guarded_context, wait_until

pytestmark = pytest.mark.browser


def api_first(client, query: str, **params) -> dict:
    return client.get("/api/search", query_string={"q": query, **params}).get_json()["results"][0]


def test_typing_shows_live_results_and_enter_opens_the_chosen_one(
    page, live_server, blocked, client
):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(f"{live_server}/")
    box = page.locator("#q")
    box.press_sequentially("comandeer", delay=20)
    suggest = page.locator("#q-suggest")
    suggest.locator(".result").first.wait_for()
    assert box.get_attribute("aria-expanded") == "true"
    # Results for the letters typed so far come first: wait for those of the whole word.
    expect(suggest.locator(".did-you-mean")).to_contain_text("commandeer")
    expected = api_first(client, "comandeer")
    titles = suggest.locator(".result-title")
    expect(titles.first).to_have_text(expected["title"])
    box.press("ArrowDown")
    assert "is-active" in (suggest.locator(".result").first.get_attribute("class") or "")
    assert box.get_attribute("aria-activedescendant") == "search-result-0"
    box.press("ArrowDown")
    box.press("ArrowUp")
    with page.expect_navigation():
        box.press("Enter")
    assert urlsplit(page.url).path == expected["url"]
    assert not dialogs
    assert len(blocked) == 0


def test_escape_closes_the_list_and_enter_without_a_choice_opens_the_search_page(
    page, live_server, blocked
):
    page.goto(f"{live_server}/")
    box = page.locator("#q")
    box.press_sequentially("beam", delay=20)
    page.locator("#q-suggest .result").first.wait_for()
    box.press("Escape")
    assert page.locator("#q-suggest").is_hidden()
    with page.expect_navigation():
        box.press("Enter")
    assert page.url == f"{live_server}/search?q=beam"
    assert page.locator("#search-results .result").count() > 0
    assert len(blocked) == 0


def test_the_search_page_updates_in_place_as_you_type_and_filter(
    page, live_server, blocked, client
):
    page.goto(f"{live_server}/search")
    assert "Type a rule" in page.locator("#search-results").inner_text()
    box = page.locator("#q")
    box.press_sequentially("dilemma stack", delay=20)
    wait_until(page, "location.search.includes('dilemma+stack')")
    first = page.locator("#search-results .result-title").first
    # The address changes as the query is sent; the results follow when they arrive.
    expect(first).to_have_text(api_first(client, "dilemma stack")["title"])
    assert page.locator("#search-results mark").count() > 0
    page.locator(".search-options > summary").click()  # the filters fold away until asked for
    page.select_option("select[name=edition]", "1E")
    wait_until(page, "location.search.includes('edition=1E')")
    wait_until(
        page,
        "title => document.querySelector('#search-results .result-title')?.textContent === title",
        arg=api_first(client, "dilemma stack", edition="1E")["title"],
    )
    box.press("ArrowDown")
    active = page.locator("#search-results .result.is-active .result-title")
    href = active.get_attribute("href")
    with page.expect_navigation():
        box.press("Enter")
    assert urlsplit(page.url).path == href
    assert len(blocked) == 0


def test_hostile_queries_are_shown_as_text(page, live_server, blocked):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(f"{live_server}/")
    page.locator("#q").fill('"><img src=x onerror=alert(1)> <script>alert(2)</script>')
    page.locator("#q").press("End")
    page.locator("#q").press_sequentially(" x", delay=20)
    page.locator("#q-suggest .search-summary").wait_for()
    assert "<img src=x" in page.locator("#q-suggest .search-summary").inner_text()
    assert page.locator("#q-suggest img").count() == 0
    assert not dialogs
    assert len(blocked) == 0


def test_without_javascript_the_box_is_a_plain_form(browser, live_server):
    context = browser.new_context(java_script_enabled=False)
    off_host = BlockedRequests()
    guard_routes(context, off_host)
    page = context.new_page()
    try:
        page.goto(f"{live_server}/rules/2e-rulebook/4/beaming")
        page.locator("#q").fill("dilema")
        with page.expect_navigation():
            page.locator("#q").press("Enter")
        assert page.url == f"{live_server}/search?q=dilema"
        assert page.locator("#q-suggest").is_hidden()
        assert "Did you mean" in page.locator(".did-you-mean").inner_text()
        assert page.locator("#search-results .result").count() > 0
        page.locator(".search-options > summary").click()
        page.select_option("select[name=kind]", "ruling")
        with page.expect_navigation():
            page.locator(".search-filters button").click()
        assert "kind=ruling" in page.url and "q=dilema" in page.url
        kinds = page.locator("#search-results .badge-kind").all_text_contents()
        assert kinds and set(kinds) == {"Ruling"}
    finally:
        context.close()
    assert off_host.urls == []


@pytest.mark.parametrize(
    "viewport", [{"width": 1280, "height": 800}, {"width": 360, "height": 740}]
)
@pytest.mark.parametrize("javascript", [True, False])
def test_the_judged_edition_is_a_chip_that_one_tap_clears(
    browser, live_server, viewport, javascript
):
    context = browser.new_context(viewport=viewport, java_script_enabled=javascript)
    page = context.new_page()
    try:
        page.goto(f"{live_server}/search?q=stopped")
        assert page.locator(".result .badge-ed.ed-1E").count() > 0  # both games at first
        with page.expect_navigation():
            page.locator(".edition-choice button[value='2E']").click()
        chip = page.locator(".chip-judging")
        assert chip.inner_text() == "Judging 2E"
        assert chip.is_visible()
        assert page.locator(".result .badge-ed.ed-1E").count() == 0
        assert page.locator(".result .badge-ed.ed-2E").count() > 0
        assert urlsplit(page.url).path == "/search"  # back where the judge was
        # Every page's search box shows it, and another search keeps it.
        page.goto(f"{live_server}/rules/2e-rulebook/4/beaming")
        assert page.locator(".chip-judging").inner_text() == "Judging 2E"
        page.goto(f"{live_server}/search?q=score+points")
        assert page.locator(".result .badge-ed.ed-1E").count() == 0
        clear = page.locator(".chip-clear")
        box = clear.bounding_box()
        assert box and box["width"] >= 30 and box["height"] >= 30  # a tap target on a phone
        with page.expect_navigation():
            clear.click()
        assert page.locator(".chip-judging").count() == 0
        assert page.locator(".result .badge-ed.ed-1E").count() > 0
    finally:
        context.close()


@pytest.mark.parametrize("javascript", [True, False])
def test_clearing_the_judged_edition_after_searching_from_the_page_shows_both_games(
    browser, live_server, javascript
):
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, java_script_enabled=javascript
    )
    off_host = BlockedRequests()
    guard_routes(context, off_host)
    page = context.new_page()
    try:
        page.goto(f"{live_server}/search")
        with page.expect_navigation():
            page.locator(".edition-choice button[value='2E']").click()
        for query in ("battle", "doorway"):
            page.locator("#q").fill(query)
            with page.expect_navigation():
                page.locator("#q").press("Enter")
        assert "edition=2E" not in page.url  # the remembered game is not a filter in the URL
        summary = page.locator(".search-summary").inner_text()
        assert (
            summary
            == "No results for doorway in 2E only (remembered on this device; search both games)."
        )
        assert page.locator(".search-elsewhere a").inner_text() == "search First Edition instead"
        with page.expect_navigation():
            page.locator(".chip-clear").click()
        assert page.locator(".chip-judging").count() == 0
        assert page.locator(".result .badge-ed.ed-1E").count() > 0
        assert "with these filters" not in page.locator(".search-summary").inner_text()
    finally:
        context.close()
    assert off_host.urls == []


@pytest.mark.parametrize("javascript", [True, False])
def test_on_a_phone_the_first_result_comes_before_the_filters(browser, live_server, javascript):
    off_host = BlockedRequests()
    phone = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
    with guarded_context(browser, off_host, java_script_enabled=javascript, **phone) as context:
        page = context.new_page()
        page.goto(f"{live_server}/search?q=beaming")
        first = page.locator("#search-results .result").first.bounding_box()
        assert first and first["y"] < 370, f"first result at y={first and first['y']}"
        assert page.locator("select[name=edition]").is_hidden()  # folded in the <details>
        # One way to choose a game on the page: the header's buttons (no second 2E/1E form).
        assert page.locator("button[value='2E']:visible").count() == 1
        page.locator(".search-options > summary").click()
        assert page.locator("select[name=edition]").is_visible()
        assert page.locator(".edition-remember select option").all_inner_texts()[:3] == [
            "both games",
            "2E – Second Edition",
            "2E v4",
        ]
    assert off_host.urls == []


@pytest.mark.parametrize("javascript", [True, False])
def test_on_a_phone_long_version_chips_wrap_and_the_page_never_scrolls_sideways(
    browser, live_server, javascript
):
    """A timing step's chips name long titles in other versions ("Call to Arms: Attempting a
    Mission, step 4: Checking mission requirements"): they wrap inside the phone's width."""
    phone = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
    off_host = BlockedRequests()
    with guarded_context(browser, off_host, java_script_enabled=javascript, **phone) as context:
        page = context.new_page()
        query = "can stopped personnel help meet a dilemma's requirements"
        page.goto(f"{live_server}/search?" + urlencode({"q": query, "edition": "2E"}))
        chips = page.locator(".result .chips .chip")
        longest = max(len(text) for text in chips.all_text_contents())
        assert longest > 60, longest  # the premise: a chip longer than a phone's line
        # Each chip once laid out: results past the fourth wait to be scrolled near (search.css).
        for chip in chips.all():
            chip.scroll_into_view_if_needed()
            box = chip.bounding_box()
            assert box is None or box["x"] + box["width"] <= 360
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert off_host.urls == []


@pytest.mark.parametrize("javascript", [True, False])
def test_on_a_phone_results_past_the_fourth_are_laid_out_when_scrolled_near(
    browser, live_server, javascript
):
    """search.css, not search.js: the page without JavaScript draws its first screenful sooner
    too, and the list search.js draws in place keeps it without a pass over its items."""
    phone = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
    off_host = BlockedRequests()
    drawn = (
        "(i) => document.querySelectorAll('#search-results .result')[i].firstElementChild"
        ".checkVisibility({contentVisibilityAuto: true})"
    )
    with guarded_context(browser, off_host, java_script_enabled=javascript, **phone) as context:
        page = context.new_page()
        page.goto(f"{live_server}/search?q=beaming")
        if javascript:  # the list search.js draws as the judge types, not the server's
            box = page.locator("#q")
            box.fill("")
            box.press_sequentially("dilemma", delay=20)
            wait_until(page, "location.search.includes('q=dilemma')")
            expect(page.locator("#search-results .search-summary")).to_contain_text("dilemma")
        results = page.locator("#search-results .result")
        count = results.count()
        assert count > 8, count
        page.wait_for_timeout(100)
        laid_out = [page.evaluate(drawn, i) for i in range(count)]
        assert laid_out[:4] == [True] * 4
        assert laid_out[-1] is False  # far below the screen: not laid out yet
        results.last.scroll_into_view_if_needed()
        page.wait_for_timeout(100)
        assert page.evaluate(drawn, count - 1) is True
    assert off_host.urls == []


def test_on_a_phone_the_live_list_takes_the_screens_width(browser, live_server):
    """The box shares its row with buttons (about 230 of 360 px): the list under it must not."""
    phone = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
    off_host = BlockedRequests()
    with guarded_context(browser, off_host, **phone) as context:
        page = context.new_page()
        page.goto(f"{live_server}/")
        page.locator("#q").press_sequentially("beaming", delay=20)
        page.locator("#q-suggest .result").first.wait_for()
        box = page.locator("#q").bounding_box()
        listed = page.locator("#q-suggest").bounding_box()
        assert box and box["width"] < 300  # the premise: the box alone is narrower
        assert listed and listed["width"] >= 340 and listed["x"] >= 0
        assert listed["x"] + listed["width"] <= 360
        assert listed["y"] >= box["y"] + box["height"]  # under the box, never over it
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert off_host.urls == []
