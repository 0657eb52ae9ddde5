"""Reading in real headless Chromium: a rule, its pop-ups, its citation, its versions; offline."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from judgekit import create_app

from .conftest import DATA, guarded_context, serving, wait_until

pytestmark = pytest.mark.browser

INTRO = "/rules/demo-book/1/introduction"


@pytest.fixture(scope="module")
def reading_server() -> Iterator[str]:
    """The app on the tiny reading corpus, served by waitress on loopback."""
    app = create_app({"TESTING": True, "CORPUS_DIR": str(DATA / "reading")})
    with serving(app) as base:
        yield base


@pytest.fixture()
def errors(page) -> list[str]:
    """JavaScript errors and failed loads on the page."""
    found: list[str] = []
    page.on("pageerror", lambda exc: found.append(str(exc)))
    page.on("console", lambda msg: found.append(msg.text) if msg.type == "error" else None)
    return found


def popover_state(page) -> dict:
    return page.evaluate(
        """() => { const p = document.getElementById('jk-popover');
        return {hidden: p.hidden, title: p.querySelector('.popover-title').textContent,
                body: p.querySelector('.popover-body').textContent.trim(),
                link: p.querySelector('.popover-link').getAttribute('href'),
                focus: p.contains(document.activeElement)}; }"""
    )


def test_open_a_rule(page, blocked, errors, reading_server):
    page.goto(reading_server + INTRO)
    assert page.locator("h1").inner_text() == "Introduction"
    badge = page.locator('.entry-body .icon[data-icon="command"]')
    assert badge.get_attribute("role") == "img" and badge.get_attribute("aria-label") == "Command"
    assert badge.inner_text() == "Command"
    assert page.locator(".block-example .block-label").inner_text().lower() == "example"
    assert errors == []
    assert len(blocked) == 0


def test_popover_by_click_and_escape(page, blocked, reading_server):
    page.goto(reading_server + INTRO)
    term = page.locator('a.gloss[data-gloss="gl-range"]')
    assert term.get_attribute("aria-haspopup") == "dialog"
    term.click()
    state = popover_state(page)
    assert state == {
        "hidden": False,
        "title": "Range",
        "body": "Range is how far a ship moves.",
        "link": "/rules/demo-book/1/gl-range",
        "focus": True,
    }
    assert page.url == reading_server + INTRO  # the click opened the pop-up, not the page
    assert term.get_attribute("aria-expanded") == "true"
    page.keyboard.press("Escape")
    assert popover_state(page)["hidden"] is True
    assert page.evaluate("document.activeElement.dataset.gloss") == "gl-range"
    # a click elsewhere closes it too
    term.click()
    page.locator("h1").click()
    assert popover_state(page)["hidden"] is True
    assert len(blocked) == 0


def test_popover_by_keyboard(page, blocked, reading_server):
    page.goto(reading_server + INTRO)
    page.locator('a.gloss[data-gloss="gl-missions"]').focus()
    page.keyboard.press("Enter")
    state = popover_state(page)
    assert (state["hidden"], state["title"], state["focus"]) == (False, "missions", True)
    page.keyboard.press("Tab")  # into the pop-up's close button
    assert page.evaluate("document.activeElement.className") == "popover-close"
    page.keyboard.press("Enter")
    assert popover_state(page)["hidden"] is True
    assert page.evaluate("document.activeElement.dataset.gloss") == "gl-missions"
    assert len(blocked) == 0


def test_popover_by_tap(browser, blocked, reading_server):
    phone_size = {"width": 390, "height": 800}
    with guarded_context(
        browser, blocked, has_touch=True, is_mobile=True, viewport=phone_size
    ) as context:
        phone = context.new_page()
        phone.goto(reading_server + INTRO)
        phone.locator('a.gloss[data-gloss="gl-playing-a-card"]').tap()
        state = popover_state(phone)
        assert (state["hidden"], state["title"]) == (False, "playing a card")
        # on a phone the pop-up is a sheet at the bottom of the screen, inside the viewport
        box = phone.locator("#jk-popover").bounding_box()
        assert box["x"] == 0 and box["width"] == 390
        assert abs(box["y"] + box["height"] - 800) < 2
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, "no sideways scrolling on a phone"
    assert len(blocked) == 0


def test_popovers_can_be_turned_off(page, blocked, reading_server):
    page.goto(reading_server + INTRO)
    toggle = page.get_by_label("Glossary pop-ups")
    assert toggle.is_checked()
    toggle.uncheck()
    assert page.locator('a.gloss[data-gloss="gl-range"]').get_attribute("aria-haspopup") is None
    # the choice is remembered on the next page
    page.reload()
    assert not page.get_by_label("Glossary pop-ups").is_checked()
    page.locator('a.gloss[data-gloss="gl-range"]').click()
    page.wait_for_url("**/rules/demo-book/1/gl-range")
    assert page.locator("h1").inner_text() == "Range"
    page.go_back()
    page.get_by_label("Glossary pop-ups").check()
    page.locator('a.gloss[data-gloss="gl-range"]').click()
    assert popover_state(page)["hidden"] is False
    assert len(blocked) == 0


def test_copy_citation(page, blocked, reading_server):
    page.goto(reading_server + "/rules/demo-book/1/gl-attempting-missions")
    page.get_by_role("button", name="Copy citation").click()
    wait_until(page, "document.querySelector('.copy-status').textContent !== ''")
    assert page.locator(".copy-status").inner_text() == "Citation copied."
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == (
        "Demo Book v1 (08/19/2003), Glossary – attempting missions, in Glossary, p. 3\n"
        f"{reading_server}/rules/demo-book/1/gl-attempting-missions"
    )
    assert len(blocked) == 0


def test_copy_citation_without_the_clipboard_api(page, blocked, reading_server):
    # A phone on http://192.168.x.y is not a secure context: the fallback copies instead.
    page.add_init_script("Object.defineProperty(window, 'isSecureContext', {value: false})")
    page.goto(reading_server + "/rules/demo-book/1/staffing")
    page.get_by_role("button", name="Copy citation").click()
    assert page.locator(".copy-status").inner_text() == "Citation copied."
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith(
        "Demo Book v1 (08/19/2003), Missions – Staffing, in Missions, p. 2\nhttp://127.0.0.1:"
    )
    assert len(blocked) == 0


def test_switch_version(page, blocked, reading_server):
    page.goto(reading_server + INTRO)
    page.locator('.version-switcher a[data-version-switch="2"]').click()
    page.wait_for_url("**/rules/demo-book/2/introduction")
    assert page.locator(".version-switcher [aria-current=page]").inner_text() == "v2"
    assert page.locator("h1").inner_text() == "Introduction"
    # the table of other versions leads back
    page.locator('a[data-version-link="1"]').click()
    page.wait_for_url("**" + INTRO)
    assert len(blocked) == 0


def test_slash_focuses_search(page, blocked, reading_server):
    page.goto(reading_server + INTRO)
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "q"
    assert page.locator("#q").input_value() == ""  # the slash is not typed into the box
    assert len(blocked) == 0


def test_dark_mode_follows_system_and_toggles(browser, blocked, reading_server):
    with guarded_context(browser, blocked, color_scheme="dark") as context:
        tab = context.new_page()
        tab.goto(reading_server + "/")
        background = "getComputedStyle(document.body).backgroundColor"
        dark = tab.evaluate(background)
        toggle = tab.locator("[data-theme-toggle]")
        assert toggle.inner_text() == "Light mode"  # what a tap will do
        toggle.click()
        assert toggle.inner_text() == "Dark mode"
        assert tab.evaluate("document.documentElement.dataset.theme") == "light"
        assert tab.evaluate(background) != dark
        tab.reload()
        assert tab.evaluate("document.documentElement.dataset.theme") == "light"
        tab.locator("[data-theme-toggle]").click()  # back to the system's choice: nothing stored
        assert tab.evaluate("localStorage.getItem('jk-theme')") is None
        assert tab.evaluate(background) == dark
    assert len(blocked) == 0


def test_version_page_toc_stays_in_view_and_popover_works(page, blocked, reading_server):
    page.set_viewport_size({"width": 1280, "height": 500})
    page.goto(reading_server + "/rules/demo-book/1/")
    page.mouse.wheel(0, 900)
    wait_until(page, "window.scrollY > 300")
    box = page.locator("#jk-toc").bounding_box()
    assert 0 <= box["y"] < 500, "the contents stay in view"
    page.locator('a.gloss[data-gloss="gl-counters"]').first.click()
    state = popover_state(page)
    assert (state["hidden"], state["title"], state["body"]) == (
        False,
        "counters",
        "Counters pay for cards.",
    )
    assert state["link"] == "/rules/demo-book/1/gl-counters"
    assert len(blocked) == 0


def test_only_new_rulings_filter_works_without_javascript(browser, blocked, reading_server):
    with guarded_context(browser, blocked, java_script_enabled=False) as context:
        tab = context.new_page()
        tab.goto(reading_server + "/rulings/demo-rulings/2000-02-28/")
        tab.get_by_label("Show only the 2 rulings marked * (new or changed)").check()
        assert tab.locator("#borg").is_hidden()
        assert tab.locator("#android").is_visible() and tab.locator("#the-emissary").is_visible()
        # and without JavaScript a glossary term is a plain link
        tab.goto(reading_server + INTRO)
        tab.locator('a.gloss[data-gloss="gl-range"]').click()
        tab.wait_for_url("**/rules/demo-book/1/gl-range")
    assert len(blocked) == 0


def test_print_keeps_text_and_icons(page, blocked, reading_server):
    page.goto(reading_server + INTRO)
    page.emulate_media(media="print")
    assert page.locator(".site-header").is_hidden()
    assert page.locator('.icon[data-icon="dual"]').is_visible()
    assert page.locator('.icon[data-icon="dual"]').inner_text() == "Dual mission"
    assert page.locator(".citation-text").is_visible()
    pdf = page.pdf()
    assert pdf.startswith(b"%PDF")
    assert len(blocked) == 0


def test_real_corpus_rule_versions_and_popover(page, blocked, errors, live_server, lib):
    page.goto(live_server + "/rules/2e-rulebook/1.1/beaming")
    assert (
        page.locator("h1").inner_text() == lib.corpus.entry("2e-rulebook", "1.1", "beaming").title
    )
    page.locator('.version-switcher a[data-version-switch="call-to-arms"]').click()
    page.wait_for_url("**/rules/2e-rulebook/call-to-arms/beaming")
    # Call to Arms "Personnel" links glossary terms: the first opens its popover.
    page.goto(live_server + "/rules/2e-rulebook/call-to-arms/personnel")
    term = page.locator("a.gloss[data-gloss]").first
    term_id = term.get_attribute("data-gloss")
    term.click()
    state = popover_state(page)
    expected = lib.corpus.entry("2e-rulebook", "call-to-arms", term_id).title
    assert (state["hidden"], state["title"]) == (False, expected)
    assert errors == []
    assert len(blocked) == 0
