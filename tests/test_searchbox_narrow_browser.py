"""The header's search box on a 360 px phone, in Chromium: its placeholder is read whole (not cut
at the box's edge) on the served pages and the pack's, with and without JavaScript, and the
page does not scroll sideways; on a laptop the keyboard hint ("/") is still offered, where
JavaScript runs ("/" needs it)."""

from __future__ import annotations

import pytest

from tests.conftest import MINI
from tests.test_pack_browser import guarded_context
from tests.test_phone_browser import LAPTOP, PHONE

pytestmark = pytest.mark.browser

# Whether the placeholder's text, typed into the box, would scroll it: the room Chromium gives the
# text (less its padding and the clear button's place) against the text's width.
PLACEHOLDER_FITS = """() => {
  const input = document.querySelector('.site-header .searchbox input[type=search]');
  const typed = input.value;
  input.value = input.placeholder;
  const shown = {text: input.placeholder, width: input.scrollWidth, room: input.clientWidth};
  input.value = typed;
  return shown;
}"""


def _placeholder(page) -> dict:
    shown = page.evaluate(PLACEHOLDER_FITS)
    assert shown["text"].startswith("Search")
    assert shown["width"] <= shown["room"], shown
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    return shown


@pytest.mark.parametrize("script", [True, False], ids=["javascript", "no-javascript"])
def test_the_search_placeholder_is_read_whole_at_360_px(browser, live_server, packs, script):
    pack = packs(MINI)
    with guarded_context(browser, PHONE, java_script_enabled=script) as (context, off):
        page = context.new_page()
        for path in ("/", "/rules/2e-rulebook/4/beaming", "/cards", "/event/published"):
            page.goto(live_server + path)
            _placeholder(page)
        for path in ("index.html", "rules/demo-rulebook/2/beaming/index.html"):
            page.goto(pack.out.joinpath(path).as_uri())
            _placeholder(page)
        assert off == []


def test_a_laptop_offers_the_keyboard_hint_only_with_javascript(browser, live_server):
    for script in (True, False):
        with guarded_context(browser, LAPTOP, java_script_enabled=script) as (context, off):
            page = context.new_page()
            page.goto(live_server + "/")
            # "/" focuses the box through judgekit.js: without it no page offers it.
            assert ("/" in _placeholder(page)["text"]) is script
            assert page.locator(".site-footer .kbd-hint").is_visible() is script
            assert off == []
