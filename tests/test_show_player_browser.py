"""Showing a rule to a player, in Chromium at a phone's and a laptop's width, with and without
JavaScript: the entry page's "Show to a player" opens a QR code of the entry's address on the
venue's network (http://judgekit.lan:PORT, resolved to this machine), which fits the screen and
reads back as that address; the address opens the rule. The judge pack, opened from its folder,
says instead that it cannot make a code."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from judgekit import create_app
from tests.conftest import MINI, serving
from tests.qr_matrix import dark_modules, encodes
from tests.test_pack_browser import LOOPBACK, guarded_context
from tests.test_phone_browser import LAN_NAME, lan_browser  # noqa: F401

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}
SIZES = pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
SCRIPTS = pytest.mark.parametrize("scripts", [True, False], ids=["js", "no-js"])
ENTRY = "/rules/demo-rulebook/2/beaming"


@pytest.fixture(scope="module")
def venue() -> Iterator[str]:
    """The app as phones reach it on the venue's network: http://judgekit.lan:PORT."""
    app = create_app({"TESTING": True, "CORPUS_DIR": str(MINI), "SEARCH_CACHE_DIR": ""})
    with serving(app) as base:
        lan = f"http://{LAN_NAME}:{urlsplit(base).port}"
        app.config["BASE_URL"] = lan  # what `judgekit serve --host 0.0.0.0` announces
        yield lan


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@SIZES
@SCRIPTS
def test_show_to_a_player_opens_a_code_of_the_entry_address(
    lan_browser,  # noqa: F811
    venue,
    viewport,
    scripts,
):
    allowed = (*LOOPBACK, LAN_NAME)
    with guarded_context(lan_browser, viewport, allowed, java_script_enabled=scripts) as (ctx, off):
        page = ctx.new_page()
        page.goto(venue + ENTRY)
        page.emulate_media(media="print")  # a printed rule shows no control
        assert not page.locator("a.show-player-link").is_visible()
        page.emulate_media(media="screen")
        page.click("a.show-player-link")
        assert page.url == f"{venue}/show{ENTRY}"
        page.wait_for_load_state("load")  # its stylesheet applied (under load it came late)
        box = page.locator(".show-qr-code svg").bounding_box()
        assert box["width"] >= min(viewport["width"] - 40, 300)  # big enough to scan
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        assert box["height"] == pytest.approx(box["width"], abs=1)
        _fits(page)
        path_d = page.locator(".show-qr-code svg path.qrline").get_attribute("d")
        assert encodes(dark_modules(path_d), venue + ENTRY)
        # The player's phone opens what the code says, and reads the rule.
        page.goto(venue + ENTRY)
        assert page.locator("h1").inner_text() == "Order – Beam Personnel"
        assert not off


@SIZES
def test_the_pack_offline_says_it_cannot_make_a_code(browser, packs, viewport):
    pack = packs(MINI)
    with guarded_context(browser, viewport, offline=True) as (ctx, off):
        page = ctx.new_page()
        page.goto((pack.out / ENTRY.strip("/") / "index.html").as_uri())
        note = page.locator("[data-show-player]")
        assert note.get_attribute("data-show-player") == "pack"
        assert note.is_visible() and "cannot make a QR code" in note.inner_text()
        assert page.locator("a[href*='show']").count() == 0
        _fits(page)
        assert not off
