"""The event's rulings on phones, in Chromium: the head judge starts the event on the laptop; a
judge joins from a phone, cites a rule from its page and records a ruling; a second judge sees it
on that rule page; the head judge overturns it on appeal from a phone and exports the event; a
ruling sent with the Wi-Fi down is kept on the phone and sent when it is back.

The app is served as `judgekit serve` serves it (waitress) on the tiny corpus; phones open it as
http://judgekit.lan:PORT (Chromium maps the name to 127.0.0.1), so the server sees a name that is
not this computer's own, as from the venue's Wi-Fi.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from tests.conftest import serving, wait_until
from tests.events_helpers import event_app
from tests.test_pack_browser import LOOPBACK, guarded_context
from tests.test_phone_browser import LAN_NAME, LAPTOP, PHONE, lan_browser  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser

RULE = "/rules/demo-rulebook/2/beaming"


@pytest.fixture()
def venue(tmp_path) -> Iterator[tuple[str, str]]:
    """(the laptop's own address, the address phones open)."""
    app = event_app(tmp_path)
    with serving(app) as base:
        yield base, f"http://{LAN_NAME}:{urlsplit(base).port}"


def _join(page, lan: str, code: str, name: str) -> None:
    page.goto(f"{lan}/event")
    page.fill("input[name=code]", code)
    page.fill("input[name=name]", name)
    page.click("button:has-text('Join as a judge')")
    assert page.url == f"{lan}/event"
    assert page.locator("h1").inner_text() == "Regional, 5 Dec"


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_join_cite_record_see_overturn_export_and_a_draft_kept_offline(lan_browser, venue):  # noqa: F811
    laptop_url, lan = venue
    allowed = (*LOOPBACK, LAN_NAME)
    with (
        guarded_context(lan_browser, LAPTOP, allowed=allowed) as (laptop, off0),
        guarded_context(lan_browser, PHONE, allowed=allowed, accept_downloads=True) as (head, off1),
        guarded_context(lan_browser, PHONE, allowed=allowed) as (sam_ctx, off2),
        guarded_context(lan_browser, PHONE, allowed=allowed) as (kim_ctx, off3),
    ):
        # The head judge starts the event on the laptop, which shows the codes.
        desk = laptop.new_page()
        desk.goto(f"{laptop_url}/event/new")
        desk.fill("input[name=event]", "Regional, 5 Dec")
        desk.fill("input[name=name]", "Ann")
        desk.click("button:has-text('Start the event')")
        judge_code = desk.inner_text("[data-judge-code]")
        head_code = desk.inner_text("[data-head-code]")
        # From the Wi-Fi, no one starts an event.
        stranger = kim_ctx.new_page()
        assert stranger.goto(f"{lan}/event/new").status == 403

        # Sam joins, cites the rule from its page and records a ruling, in well under 30 s.
        sam = sam_ctx.new_page()
        _join(sam, lan, judge_code, "Sam")
        started = time.monotonic()
        sam.goto(f"{lan}{RULE}")
        sam.click("[data-cite-in-ruling]")
        assert (
            sam.locator("input[name=cite]").get_attribute("value")
            == "entry:demo-rulebook/2/beaming"
        )
        sam.fill("input[name=round]", "2")
        sam.fill("input[name=table]", "7")
        sam.fill("textarea[name=question]", "Can a <b>ship</b> beam twice?")
        sam.fill("textarea[name=ruling]", "No: once per turn.")
        _fits(sam)
        sam.click("button:has-text('Record the ruling')")
        sam.wait_for_selector("[data-recorded]")
        assert time.monotonic() - started < 30
        assert sam.url.startswith(f"{lan}/event/rulings/1")

        # Kim sees it on that rule page.
        kim = kim_ctx.new_page()
        _join(kim, lan, judge_code, "Kim")
        kim.goto(f"{lan}{RULE}")
        ruling = kim.locator(".event-citing .event-ruling").first
        assert (
            ruling.locator(".ruling-head")
            .inner_text()
            .startswith("Table 7, round 2, Sam: Can a <b>ship</b> beam twice?")
        )
        _fits(kim)

        # The head judge, on a phone, overturns it on appeal.
        hp = head.new_page()
        _join(hp, lan, head_code, "Ann")
        hp.goto(f"{lan}{RULE}")
        hp.click(".event-citing .event-ruling a")
        hp.fill("textarea[name=note]", "Twice, with the right card.")
        hp.click("button:has-text('Overturned')")
        history = hp.inner_text(".ruling-history")
        assert (
            "Sam recorded" in history and "Ann overturned: “Twice, with the right card.”" in history
        )
        kim.reload()
        assert "overturned on appeal" in kim.inner_text(".event-citing")

        # And exports the event.
        hp.goto(f"{lan}/event")
        with hp.expect_download() as got:
            hp.click("a:has-text('JSON')")
        exported = json.loads(open(got.value.path(), encoding="utf-8").read())
        (only,) = exported["rulings"]
        assert only["status"] == "overturned" and [r["change"] for r in only["revisions"]] == [
            "recorded",
            "overturned",
        ]

        # Sam's Wi-Fi drops while sending: the ruling is kept on the phone, then sent.
        sam.goto(f"{lan}/event/rulings/new")
        sam.fill("input[name=round]", "3")
        sam.fill("input[name=table]", "12")
        sam.fill("textarea[name=question]", "Offline question")
        sam.fill("textarea[name=ruling]", "Offline ruling")
        sam_ctx.set_offline(True)
        sam.click("button:has-text('Record the ruling')")
        wait_until(sam, "() => !document.querySelector('[data-draft-status]').hidden")
        assert "kept on this phone" in sam.inner_text("[data-draft-status]")
        assert json.loads(sam.evaluate("localStorage.getItem('jk-ruling-draft')"))["pending"]
        sam_ctx.set_offline(False)
        sam.evaluate("window.dispatchEvent(new Event('online'))")
        sam.wait_for_url(f"{lan}/event/rulings/2**", timeout=20000)
        assert sam.evaluate("localStorage.getItem('jk-ruling-draft')") is None
        # A draft left unsent comes back on the next form, until the judge discards it.
        sam.goto(f"{lan}/event/rulings/new")
        sam.fill("textarea[name=question]", "Left half-written")
        sam.goto(f"{lan}{RULE}")
        sam.click("[data-cite-in-ruling]")
        sam.wait_for_load_state("load")  # the form's script has run
        assert sam.input_value("textarea[name=question]") == "Left half-written"
        sam.click("[data-draft-discard]")
        assert sam.input_value("textarea[name=question]") == ""
        sam.reload()
        assert sam.input_value("textarea[name=question]") == ""
        assert sam.locator("input[name=cite]").count() == 1  # the citation the tap brought
        kim.goto(f"{lan}/event?q=offline")
        assert "Table 12, round 3, Sam" in kim.inner_text("main")
        assert not (off0 or off1 or off2 or off3)
