"""Back to a page searched from its header box: the question and its results again.

Elsewhere than /search the question is kept in the history entry's state (search.js), never in
the page's address: Back, Forward (also from the back-forward cache) and a reload put it back in
the box and open its results, unless the judge had cleared the box or closed the list.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest

from .conftest import CHROMIUM, CHROMIUM_ARGS, wait_until
from .test_pack_browser import PACK_CORPUS, guarded_context, static_server

pytestmark = pytest.mark.browser

LAPTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
SIZES = pytest.mark.parametrize("device", [LAPTOP, PHONE], ids=["laptop", "phone"])
PAGES = pytest.mark.parametrize("path", ["/", "/rules/2e-rulebook/4/beaming"], ids=["home", "rule"])

# The list's answer to this very question is shown (earlier letters' answers come first).
ANSWERED = """q => { const kept = history.state && history.state.judgekitSearch;
  return !!kept && kept.q === q && kept.open
    && !document.getElementById('q-suggest').hidden
    && document.querySelector('#q-suggest .search-summary q')?.textContent === q
    && !!document.querySelector('#q-suggest .result'); }"""
# After Back or a reload: the box holds the question and the list is open with results.
SHOWN_AGAIN = """q => document.getElementById('q').value === q
  && !document.getElementById('q-suggest').hidden
  && document.querySelector('#q-suggest .search-summary q')?.textContent === q
  && document.getElementById('q').getAttribute('aria-expanded') === 'true'
  && !!document.querySelector('#q-suggest .result')"""


@contextlib.contextmanager
def _page(browser, device: dict) -> Iterator:
    """A page of a context of its own at ``device`` size; nothing off this machine is reached
    (a judge pack opened from a folder reads file: addresses)."""
    options = dict(device)
    with guarded_context(browser, options.pop("viewport"), **options) as (context, off_host):
        yield context.new_page()
    assert off_host == []


def _titles(page) -> list[str]:
    return page.locator("#q-suggest .result-title").all_inner_texts()


def _until(page, condition, timeout: float = 10.0) -> None:
    """Wait (bounded) for a condition on what Playwright's handlers recorded; they run while
    the page is waited on."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"still false after {timeout} s"
        page.wait_for_timeout(50)


def _ask(page, question: str) -> list[str]:
    """Type the question into the header's box; the titles the list shows for it."""
    page.locator("#q").press_sequentially(question, delay=20)
    wait_until(page, ANSWERED, question)
    return _titles(page)


def _tap_first(page, device: dict) -> str:
    """Open the list's first result as the judge would (a tap on a phone); its address."""
    first = page.locator("#q-suggest .result-title").first
    href = first.get_attribute("href") or ""
    with page.expect_navigation():
        if device.get("has_touch"):
            first.tap()
        else:
            first.click()
    return href


def _shown_again(page, question: str, titles: list[str]) -> None:
    wait_until(page, SHOWN_AGAIN, question)
    # The question was answered once more (no stale list): the same results, in order.
    wait_until(
        page, "n => document.querySelectorAll('#q-suggest .result').length === n", len(titles)
    )
    assert _titles(page) == titles
    assert page.locator("#q").input_value() == question  # put back once, not doubled


@SIZES
@PAGES
def test_back_and_reload_show_the_question_and_its_results_again(
    browser, live_server, device, path
):
    with _page(browser, device) as page:
        address = f"{live_server}{path}"
        page.goto(address)
        titles = _ask(page, "2e battle")
        assert titles and titles[0] == "Engagements"
        assert page.url == address  # the page's address (its citation) is not changed
        href = _tap_first(page, device)
        assert urlsplit(page.url).path == href
        assert page.locator("#q").input_value() == ""  # the next page's box starts empty

        page.go_back()
        assert page.url == address
        _shown_again(page, "2e battle", titles)

        page.reload()
        assert page.url == address
        _shown_again(page, "2e battle", titles)

        # Forward to the result and Back again: still there.
        page.go_forward()
        assert urlsplit(page.url).path == href
        page.go_back()
        _shown_again(page, "2e battle", titles)
        assert page.url == address


def test_back_before_the_answer_came_asks_the_question_again(browser, live_server, client):
    """On a slow network the judge may tap a result of the letters typed before the last ones:
    Back shows the whole question and its own results."""
    # Every question but "2e batt" is held (never answered: the judge leaves first) until the
    # judge has left, so the list shows "2e batt"'s answer however the letters were timed.
    held: list[str] = []
    holding = [True]

    def hold(route):
        asked = parse_qs(urlsplit(route.request.url).query).get("q", [""])[0]
        if holding[0] and asked != "2e batt":
            held.append(asked)
        else:
            route.continue_()

    with _page(browser, PHONE) as page:
        page.context.route("**/search/results?*", hold)
        address = f"{live_server}/rules/2e-rulebook/4/beaming"
        page.goto(address)
        _ask(page, "2e batt")
        page.locator("#q").press_sequentially("le", delay=20)
        wait_until(page, "() => history.state.judgekitSearch.q === '2e battle'")
        _until(page, lambda: "2e battle" in held)  # asked, and not answered
        assert page.locator("#q-suggest .search-summary q").inner_text() == "2e batt"
        _tap_first(page, PHONE)
        holding[0] = False
        page.go_back()
        answer = client.get("/api/search", query_string={"q": "2e battle", "limit": 8})
        expected = [r["title"] for r in answer.get_json()["results"]]
        _shown_again(page, "2e battle", expected)
        assert page.url == address


@SIZES
@PAGES
def test_a_list_closed_with_escape_is_not_reopened_by_back(browser, live_server, device, path):
    with _page(browser, device) as page:
        address = f"{live_server}{path}"
        page.goto(address)
        _ask(page, "2e battle")
        page.locator("#q").press("Escape")
        assert page.locator("#q-suggest").is_hidden()
        page.goto(f"{live_server}/rules/2e-rulebook/4/")
        page.go_back()
        page.wait_for_load_state("networkidle")  # a question asked again would be answered by now
        assert page.url == address
        assert page.locator("#q").input_value() == "2e battle"  # as the judge left it
        assert page.locator("#q-suggest").is_hidden()
        assert page.locator("#q").get_attribute("aria-expanded") == "false"
        page.reload()
        page.wait_for_load_state("networkidle")
        assert page.locator("#q-suggest").is_hidden()
        # Going to the box shows the question's results again, as after typing; Back from one
        # of them finds the list open, as the judge left it.
        page.locator("#q").focus()
        wait_until(page, SHOWN_AGAIN, "2e battle")
        titles = _titles(page)
        _tap_first(page, device)
        page.go_back()
        _shown_again(page, "2e battle", titles)


@SIZES
@PAGES
def test_a_cleared_box_stays_empty_after_back(browser, live_server, device, path):
    with _page(browser, device) as page:
        address = f"{live_server}{path}"
        page.goto(address)
        _ask(page, "beaming")
        page.locator("#q").fill("")
        wait_until(page, "!(history.state && history.state.judgekitSearch)")
        assert page.locator("#q-suggest").is_hidden()
        page.goto(f"{live_server}/rules/2e-rulebook/4/")
        page.go_back()
        page.wait_for_load_state("networkidle")
        assert page.url == address
        assert page.locator("#q").input_value() == ""
        assert page.locator("#q-suggest").is_hidden()


def test_the_back_forward_cache_shows_the_question_too(browser, live_server):
    """Playwright turns the back-forward cache off; this browser has it, as a judge's phone."""
    cached = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        headless=True,
        ignore_default_args=["--disable-back-forward-cache"],
    )
    try:
        with _page(cached, PHONE) as page:
            page.add_init_script(
                "addEventListener('pageshow', e => { window.__persisted = e.persisted; })"
            )
            address = f"{live_server}/rules/2e-rulebook/4/beaming"
            page.goto(address)
            titles = _ask(page, "2e battle")
            _tap_first(page, PHONE)
            page.go_back(wait_until="commit")  # a page from the cache fires no new "load"
            wait_until(page, "window.__persisted === true")  # the page kept whole
            _shown_again(page, "2e battle", titles)
            assert page.url == address
    finally:
        cached.close()


@pytest.fixture(scope="module")
def judge_pack(packs):
    """A judge pack of the pack fixture corpus."""
    return packs(PACK_CORPUS, "https://judges.example/pack", zipped=True).out  # test_pack's build


@pytest.mark.parametrize("served", [True, False], ids=["http", "file"])
def test_a_judge_pack_shows_the_question_again_after_back(browser, judge_pack, served):
    with contextlib.ExitStack() as stack:
        if served:
            base = stack.enter_context(static_server(judge_pack))
            address = f"{base}/rules/demo-rulebook/2/attempting/index.html"
        else:
            address = (judge_pack / "rules/demo-rulebook/2/attempting/index.html").as_uri()
        page = stack.enter_context(_page(browser, PHONE))
        page.goto(address)
        titles = _ask(page, "access")
        assert titles[0] == "Access Denied"
        _tap_first(page, PHONE)
        assert "access-denied" in page.url
        page.go_back()
        assert page.url == address
        _shown_again(page, "access", titles)
        page.reload()
        assert page.url == address
        _shown_again(page, "access", titles)
