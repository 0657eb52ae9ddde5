"""A judge's phone at a venue, in Chromium: the app over a LAN name (plain http, not this
computer's own address), the phone page, the published pack stored and used offline; and on the
LAN address itself, the banner and the "no connection" messages when the connection drops.

The app is served as `judgekit serve` serves it (waitress, tests.conftest.serving) on the pack
fixture corpus; Chromium resolves judgekit.lan to 127.0.0.1, so the page's origin is
http://judgekit.lan:PORT (not a secure context, as on a venue's Wi-Fi). The pack is built once
and served by a plain static server on 127.0.0.1, standing in for the HTTPS host (127.0.0.1 is a
secure context: its service worker works).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from judgekit import create_app
from judgekit.pack.build import build, pack_app
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, serving, wait_until
from tests.test_pack_browser import LOOPBACK, PACK_CORPUS, guarded_context, static_server

pytestmark = pytest.mark.browser

LAN_NAME = "judgekit.lan"
PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}
SIZES = pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
LOST = "No connection to the laptop"


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> Iterator[tuple[str, str]]:
    """The pack, built once, on a static server: (its address, its version id)."""
    out = tmp_path_factory.mktemp("phone") / "site"
    result = build(pack_app(str(PACK_CORPUS), "https://judges.example/pack"), out)
    with static_server(out) as base:
        yield base, result.version["id"]


@pytest.fixture(scope="module")
def venue(published) -> Iterator[str]:
    """The app as a judge's phone reaches it: http://judgekit.lan:PORT, naming the pack."""
    app = create_app(
        {"TESTING": True, "CORPUS_DIR": str(PACK_CORPUS), "PACK_URL": published[0] + "/"}
    )
    with serving(app) as base:
        # What `judgekit serve --host 0.0.0.0` announces: the address other judges open.
        lan = f"http://{LAN_NAME}:{urlsplit(base).port}"
        app.config["BASE_URL"] = lan
        yield lan


@pytest.fixture(scope="module")
def lan_browser(browser):
    """Chromium with judgekit.lan resolved to this machine (no DNS, nothing leaves it)."""
    launched = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"],
        headless=True,
    )
    yield launched
    launched.close()


def phone_context(browser, viewport):
    """A context whose requests to any host but this machine (by either name) are blocked."""
    return guarded_context(browser, viewport, allowed=(*LOOPBACK, LAN_NAME))


def _fits(page) -> None:
    """Nothing wider than the screen (a phone would scroll sideways)."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@SIZES
def test_from_the_lan_address_to_the_pack_and_offline(lan_browser, venue, published, viewport):
    pack, pack_id = published
    with phone_context(lan_browser, viewport) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{venue}/")
        assert not page.evaluate("window.isSecureContext")
        # The home page's box names the phone page; the phone page names the pack first.
        box = page.locator(".pack-handout")
        assert box.locator("img.pack-qr").first.get_attribute("src") == "/phone/pack-qr.svg"
        box.locator("a.phone-link").click()
        assert page.url == f"{venue}/phone"
        assert page.locator("h1").inner_text() == "judgekit on your phone"
        links = page.eval_on_selector_all("main a[href^='http']", "as => as.map(a => a.href)")
        assert links[0] == f"{pack}/" and f"{venue}/" in links
        assert page.locator("#pack img.pack-qr").evaluate("i => i.complete && i.naturalWidth > 0")
        _fits(page)
        page.click("a.phone-pack-link")
        assert page.url == f"{pack}/"
        wait_until(
            page,
            "id => !!(window.judgekit && judgekit.pack.storedId === id"
            " && navigator.serviceWorker.controller)",
            pack_id,
            timeout=30,
        )
        assert page.inner_text(".pack-notice").startswith("The whole pack is stored")

        ctx.set_offline(True)
        # Reads: an entry, by the link a judge follows.
        page.goto(f"{pack}/rules/demo-rulebook/2/attempting/index.html")
        assert "count them." in page.inner_text("main")
        _fits(page)
        # Searches, in the header's box.
        page.fill("#q", "access")
        wait_until(page, "!!document.querySelector('#q-suggest .result')")
        assert "Access Denied" in page.inner_text("#q-suggest")
        # Steps.
        page.goto(f"{pack}/timing/attempt/index.html?version=2&step=1")
        assert page.url == f"{pack}/timing/attempt/~step=1,version=2/index.html"
        page.click(".tm-prevnext a[rel='next']")
        assert "~step=1.a,version=2/index.html" in page.url
        # Calculates, in place.
        page.fill("input[name=personnel]", "5")
        page.fill("input[name=overcome]", "1")
        page.click(".tm-calc-form button[type=submit]")
        wait_until(page, "!!document.querySelector('.tm-calc-result')")
        assert page.inner_text("[data-calc=drawn]") == "4"
        assert page.input_value("input[name=personnel]") == "5"
        assert page.inner_text("#tm-step-heading .tm-num") == "Step 1.a"
        _fits(page)
        assert off == []


@SIZES
def test_on_the_lan_address_a_dropped_connection_is_said(lan_browser, venue, viewport):
    with phone_context(lan_browser, viewport) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{venue}/timing/attempt?version=2&step=1")
        banner = page.locator("[data-lan-banner]")
        assert banner.is_visible()
        assert "needs the laptop’s Wi-Fi" in banner.inner_text()
        assert banner.locator("a").get_attribute("href") == "/phone"
        _fits(page)
        # Dismissed once, it stays dismissed on the next page.
        banner.locator("button").click()
        assert not banner.is_visible()
        page.goto(f"{venue}/timing/attempt?version=2&step=1")
        assert not page.locator("[data-lan-banner]").is_visible()

        ctx.set_offline(True)
        wait_until(page, "!document.querySelector('[data-lan-banner]').hidden")
        assert page.inner_text("[data-lan-banner]").startswith(LOST)
        assert page.get_attribute("[data-lan-banner]", "role") == "alert"
        # The header search: a message where the results go, not an empty list.
        page.fill("#q", "access")
        wait_until(page, "!!document.querySelector('#q-suggest .search-failed')")
        assert page.is_visible("#q-suggest")
        assert page.inner_text("#q-suggest").startswith(LOST)
        # The calculator: a message by the form, the inputs kept, still this page.
        page.keyboard.press("Escape")
        page.fill("input[name=personnel]", "5")
        page.click(".tm-calc-form button[type=submit]")
        wait_until(page, "!!document.querySelector('.tm-no-connection')")
        assert page.inner_text(".tm-no-connection").startswith(LOST)
        assert page.input_value("input[name=personnel]") == "5"
        # The stepper: Next stays on this step and says why.
        page.click(".tm-prevnext a[rel='next']")
        wait_until(page, "!!document.querySelector('.tm-step-no-connection')")
        assert page.inner_text(".tm-step-no-connection").startswith(LOST)
        assert page.url == f"{venue}/timing/attempt?version=2&step=1"
        _fits(page)

        # Back online: the alert goes (the note was dismissed) and Calculate answers.
        ctx.set_offline(False)
        wait_until(page, "document.querySelector('[data-lan-banner]').hidden")
        page.click(".tm-calc-form button[type=submit]")
        wait_until(page, "!!document.querySelector('.tm-calc-result')")
        assert page.inner_text("[data-calc=drawn]") == "5"
        assert off == []


def test_no_banner_on_this_computer_or_in_the_pack(browser, venue, published):
    # 127.0.0.1 (the laptop itself) and the pack are secure contexts: nothing to warn about.
    with phone_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        local = venue.replace(LAN_NAME, "127.0.0.1")
        page.goto(f"{local}/")
        page.wait_for_load_state("load")
        assert not page.locator("[data-lan-banner]").is_visible()
        page.goto(f"{published[0]}/index.html")
        assert page.locator("[data-lan-banner]").count() == 0
        assert off == []


def test_the_api_twin_names_what_works_offline(lan_browser, venue, published):
    with phone_context(lan_browser, PHONE) as (ctx, _):
        page = ctx.new_page()
        page.goto(f"{venue}/phone")
        twin = page.get_attribute("link[rel=alternate]", "href")
        data = json.loads(page.evaluate("url => fetch(url).then(r => r.text())", twin))
        assert data["address"]["offline"] is False
        assert data["pack"]["url"] == f"{published[0]}/" and data["pack"]["offline"] is True


def test_a_pack_served_over_plain_http_says_it_is_not_stored(lan_browser, published):
    # The pack on a laptop's static server, opened by its LAN name: no service worker is allowed.
    pack = published[0].replace("127.0.0.1", LAN_NAME)
    with phone_context(lan_browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{pack}/index.html")
        wait_until(page, "!!document.querySelector('.pack-notice')")
        assert page.inner_text(".pack-notice").startswith(
            "This copy is opened over plain http, so this device cannot store it"
        )
        assert page.evaluate("!('serviceWorker' in navigator)")
        assert off == []


def test_a_laptop_that_never_answers_is_said_to_be_gone(lan_browser, venue):
    # Wi-Fi up, laptop gone (asleep, or the phone on mobile data): requests hang, no error.
    with phone_context(lan_browser, PHONE) as (ctx, _):
        page = ctx.new_page()
        page.goto(f"{venue}/timing/attempt?version=2&step=1")
        hung = []
        page.route("**/search/results?*", lambda route: hung.append(route))  # never answered
        page.route("**/timing/attempt?*personnel=*", lambda route: hung.append(route))
        page.fill("#q", "access")
        wait_until(page, "!!document.querySelector('#q-suggest .search-failed')", timeout=15)
        assert page.inner_text("#q-suggest").startswith(LOST)
        page.keyboard.press("Escape")
        page.fill("input[name=personnel]", "5")
        page.click(".tm-calc-form button[type=submit]")
        wait_until(page, "!!document.querySelector('.tm-no-connection')", timeout=15)
        assert page.url == f"{venue}/timing/attempt?version=2&step=1"
        assert len(hung) == 2
        assert page.inner_text("[data-lan-banner]").startswith(LOST)
