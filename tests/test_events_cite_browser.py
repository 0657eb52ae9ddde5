"""The ruling form's Cite field on a 360 px phone, in Chromium, with and without JavaScript: a
title two entries share lists both, nothing is recorded until the judge picks, and the ruling
keeps the exact id picked; Find ticks what a title names. The app is served as `judgekit serve`
serves it (waitress) on the card fixture corpus."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.conftest import DATA, serving
from tests.events_helpers import event_app
from tests.test_pack_browser import guarded_context
from tests.test_phone_browser import PHONE

pytestmark = pytest.mark.browser

CLOAK_V2 = "entry:demo-rulebook/2/cloaking"
EARTH = "card:2E/earth"


@pytest.fixture()
def base(tmp_path):
    with serving(event_app(tmp_path, CORPUS_DIR=str(DATA / "cards"))) as url:
        yield url


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def _kept(page, base: str) -> list[list[str]]:
    event = json.loads(page.context.request.get(f"{base}/api/events/1").text())
    return [[c["spec"] for c in r["citations"]] for r in event["rulings"]]


@pytest.mark.parametrize("script", [True, False], ids=["javascript", "no-javascript"])
def test_a_title_two_entries_share_is_cited_once_the_judge_picks(browser, base, script):
    with guarded_context(browser, PHONE, java_script_enabled=script) as (context, off):
        page = context.new_page()
        page.goto(f"{base}/event/new")  # this computer: the head judge, who records rulings too
        page.fill("input[name=event]", "Regional, 5 Dec")
        page.click("button:has-text('Start the event')")
        page.wait_for_selector("[data-judge-code]")

        page.goto(f"{base}/event/rulings/new")
        page.fill("input[name=find]", "earth")
        page.click("button:has-text('Find')")
        page.wait_for_selector(f"input[name=cite][value='{EARTH}']:checked")
        assert page.input_value("input[name=find]") == ""

        page.fill("input[name=round]", "2")
        page.fill("input[name=table]", "7")
        page.fill("textarea[name=question]", "Does a cloaked ship attempt?")
        page.fill("textarea[name=ruling]", "No.")
        page.fill("input[name=find]", "Cloaking")
        page.click("button:has-text('Record the ruling')")
        page.wait_for_selector("[data-cite-found] input[name=pick]")
        assert _kept(page, base) == []
        assert "“Cloaking” names 2 entries" in page.inner_text("[data-cite-found]")
        assert page.locator("input[name=pick]").count() == 2
        assert page.input_value("input[name=find]") == "Cloaking"
        assert page.input_value("textarea[name=question]") == "Does a cloaked ship attempt?"
        _fits(page)
        # Each choice is one a thumb can hit.
        for box in page.locator(".cite-picks label").all():
            assert box.bounding_box()["height"] >= 24
        # Sent with no pick, it is refused again, the choices listed again.
        page.click("button:has-text('Record the ruling')")
        page.wait_for_selector("[data-cite-found] input[name=pick]")
        assert _kept(page, base) == []
        if script:  # the text typed again: the choices of the old one are gone
            # events.js listens once it shows Discard (the page came back: its deferred script
            # may run after the choices are on the screen).
            page.wait_for_selector("[data-draft-discard]", state="visible")
            page.fill("input[name=find]", "Cloak")
            expect(page.locator("[data-cite-found]")).to_be_hidden()
            page.fill("input[name=find]", "Cloaking")
            page.click("button:has-text('Record the ruling')")
            page.wait_for_selector("[data-cite-found] input[name=pick]:not([disabled])")
        page.check(f"input[name=pick][value='{CLOAK_V2}']")
        page.click("button:has-text('Record the ruling')")
        page.wait_for_selector("[data-recorded]")
        assert _kept(page, base) == [[EARTH, CLOAK_V2]]
        if script:  # the draft was the form's own, kept across Find: nothing is left over
            page.goto(f"{base}/event/rulings/new")
            assert page.evaluate("localStorage.getItem('jk-ruling-drafts')") == "{}"
            assert page.locator("[data-other-drafts]").is_hidden()
        assert off == []


def test_a_typed_title_sent_without_the_laptop_is_kept_and_asks_for_a_pick_later(browser, base):
    with guarded_context(browser, PHONE) as (context, off):
        page = context.new_page()
        page.goto(f"{base}/event/new")
        page.fill("input[name=event]", "Regional, 5 Dec")
        page.click("button:has-text('Start the event')")
        page.wait_for_selector("[data-judge-code]")
        page.goto(f"{base}/event/rulings/new")
        page.fill("input[name=round]", "2")
        page.fill("input[name=table]", "7")
        page.fill("textarea[name=question]", "Kept with its title?")
        page.fill("textarea[name=ruling]", "No.")
        page.fill("input[name=find]", "Cloaking")
        context.set_offline(True)
        page.click("button:has-text('Record the ruling')")
        page.wait_for_selector("[data-draft-status]:not([hidden])")
        drafts = json.loads(page.evaluate("localStorage.getItem('jk-ruling-drafts')"))
        (kept,) = drafts.values()
        assert kept["pending"] and kept["find"] == "Cloaking"
        # The form opened again (the phone's page closed meanwhile) keeps the title typed.
        page.goto("about:blank")
        context.set_offline(False)
        page.goto(f"{base}/event/rulings/new")
        # Sent by itself once the laptop answers: refused until a pick, the form says so.
        page.wait_for_selector("[data-cite-found] input[name=pick]")
        assert page.input_value("input[name=find]") == "Cloaking"
        assert _kept(page, base) == []
        page.check(f"input[name=pick][value='{CLOAK_V2}']")
        page.click("button:has-text('Record the ruling')")
        page.wait_for_selector("[data-recorded]")
        assert _kept(page, base) == [[CLOAK_V2]]
        assert off == []


def _start(page, base: str) -> None:
    page.goto(f"{base}/event/new")  # this computer: the head judge, who records rulings too
    page.fill("input[name=event]", "Regional, 5 Dec")
    page.click("button:has-text('Start the event')")
    page.wait_for_selector("[data-judge-code]")


DRAFTS = "() => Object.values(JSON.parse(localStorage.getItem('jk-ruling-drafts') || '{}'))"


def test_find_without_the_laptop_says_so_keeps_the_draft_and_tries_again(browser, base):
    with guarded_context(browser, PHONE) as (context, off):
        page = context.new_page()
        _start(page, base)
        page.goto(f"{base}/event/rulings/new")
        page.wait_for_selector("[data-draft-discard]", state="visible")  # events.js listens
        page.fill("textarea[name=question]", "Does a cloaked ship attempt?")
        page.fill("input[name=find]", "earth")
        # The laptop gone from the venue's network: nothing it serves answers.
        page.route("**/*", lambda route: route.abort("addressunreachable"))
        page.click("button:has-text('Find')")
        said = page.locator(".cite-find-offline")
        expect(said).to_be_visible()
        assert said.inner_text().startswith(
            "The laptop could not be reached, so Find cannot look this up now. "
            "Your draft is kept on this phone."
        )
        assert page.url == f"{base}/event/rulings/new"  # not the browser's error page
        assert page.input_value("input[name=find]") == "earth"
        assert page.input_value("textarea[name=question]") == "Does a cloaked ship attempt?"
        (draft,) = page.evaluate(DRAFTS)
        assert (draft["find"], draft["question"]) == ("earth", "Does a cloaked ship attempt?")
        _fits(page)
        again = said.get_by_role("button", name="Try again")
        assert again.bounding_box()["height"] >= 24
        # Still gone: Try again asks the laptop again, says so again, and the form stays.
        with page.expect_event("requestfailed"):  # it asked the laptop again
            again.click()
        expect(said).not_to_have_attribute("aria-busy", "true")
        expect(said).to_be_visible()
        assert page.url == f"{base}/event/rulings/new"
        # The laptop back: Try again finds what the text names, the draft's words kept.
        page.unroute("**/*")
        again.click()
        page.wait_for_selector(f"input[name=cite][value='{EARTH}']:checked")
        assert page.input_value("textarea[name=question]") == "Does a cloaked ship attempt?"
        assert page.input_value("input[name=find]") == ""
        assert off == []


def test_find_without_javascript_says_what_happens_without_the_laptop(browser, base):
    with guarded_context(browser, PHONE, java_script_enabled=False) as (context, off):
        page = context.new_page()
        _start(page, base)
        page.goto(f"{base}/event/rulings/new")
        assert page.locator(".cite-find-offline").inner_text() == (
            "Find asks the laptop: if it cannot be reached, your browser shows an error page. "
            "Go back to this form: what you typed is usually still in it."
        )
        assert page.locator(".cite-find-offline").is_visible()
        assert off == []
