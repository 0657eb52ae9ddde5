"""The main pages in real headless Chromium at phone and laptop widths: they fit, their targets are
big enough, long pages keep a way back to the contents, and hints and labels suit the device."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import guarded_context

pytestmark = pytest.mark.browser

MAIN_PAGES = {
    "home": "/",
    "version": "/rules/2e-rulebook/4/",
    "entry": "/rules/2e-rulebook/4/beaming",
    "rulings": "/rulings/1e-current-rulings/2000-02-28/",
    "ruling": "/rulings/1e-current-rulings/2000-02-28/cumulative",
    "search": "/search?q=beaming",
    "diff": "/diff/2e-rulebook/call-to-arms..4",
    "timing": "/timing/mission-attempt?version=4&step=2.b",
}
PHONE = {"has_touch": True, "is_mobile": True}

# Every control a finger or pointer aims at, except words inside running rule text (WCAG 2.5.8's
# inline exception): links in the paragraphs, list items and tables of an entry's text.
SMALL_TARGETS = """() => {
  const out = [];
  const controls = 'a[href], button, input:not([type=hidden]), select, textarea, summary';
  const running = '.entry-body p, .entry-body li, .entry-body td, .entry-body dd, .popover-body';
  for (const el of document.querySelectorAll(controls)) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;  // not rendered (closed <details>, hidden)
    if (getComputedStyle(el).visibility === 'hidden' || el.closest(running)) continue;
    if (r.width < 24 || r.height < 24) {
      const words = (el.textContent || el.value || el.name || '').trim().slice(0, 30);
      out.push(`${el.tagName.toLowerCase()} "${words}" ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return out;
}"""
SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def context_for(browser, blocked, width: int, **options):
    """A phone-like context below 800 px, a laptop above it."""
    extra = PHONE if width < 800 else {}
    height = 740 if width < 800 else 900
    return guarded_context(
        browser, blocked, viewport={"width": width, "height": height}, **extra, **options
    )


@pytest.mark.parametrize("width", [320, 360, 390, 1280])
@pytest.mark.parametrize("name", list(MAIN_PAGES))
def test_main_pages_fit_without_sideways_scrolling(browser, blocked, live_server, name, width):
    with context_for(browser, blocked, width) as context:
        page = context.new_page()
        assert page.goto(live_server + MAIN_PAGES[name]).status == 200
        assert page.evaluate(SIDEWAYS) == 0, f"{name} scrolls sideways at {width} px"
    assert len(blocked) == 0


@pytest.mark.parametrize("name", ["home", "version", "entry", "ruling", "diff"])
def test_main_pages_fit_320_without_javascript(browser, blocked, live_server, name):
    with context_for(browser, blocked, 320, java_script_enabled=False) as context:
        page = context.new_page()
        page.goto(live_server + MAIN_PAGES[name])
        assert page.evaluate(SIDEWAYS) == 0


@pytest.mark.parametrize("width", [320, 390, 1280])
@pytest.mark.parametrize("name", list(MAIN_PAGES))
def test_no_control_is_under_24_px(browser, blocked, live_server, name, width):
    with context_for(browser, blocked, width) as context:
        page = context.new_page()
        page.goto(live_server + MAIN_PAGES[name])
        # open every contents list so its links are measured too
        page.evaluate("() => document.querySelectorAll('.toc details').forEach(d => d.open = true)")
        assert page.evaluate(SMALL_TARGETS) == []


def test_main_controls_are_44_px_tall(browser, blocked, live_server):
    with context_for(browser, blocked, 360) as context:
        page = context.new_page()
        page.goto(live_server + MAIN_PAGES["entry"])
        for control in [
            page.locator("#q"),
            page.locator(".searchbox button[type=submit]"),
            page.get_by_role("button", name="Copy citation"),
            page.get_by_role("button", name="Copy short form"),
            page.locator(".pager-next"),
            page.locator(".pager-prev"),
        ]:
            assert control.bounding_box()["height"] >= 44


def test_citation_shows_page_and_short_form(browser, blocked, live_server):
    with context_for(browser, blocked, 360) as context:
        page = context.new_page()
        page.goto(live_server + MAIN_PAGES["entry"])
        assert page.locator(".citation-title").inner_text() == (
            "2E Rulebook v4 (April 2015), 2. Execute Orders – Order – Beam Personnel, pp. 10–13"
        )
        short = page.locator(".citation-short")
        # The pages are the editors' reading (page_editorial): marked, as the full citation is.
        assert short.inner_text() == "Short form: 2E v4 pp. 10–13, Order – Beam Personnel ed."
        assert short.is_visible()


def test_copy_short_form(page, blocked, live_server):
    page.goto(live_server + MAIN_PAGES["entry"])
    page.get_by_role("button", name="Copy short form").click()
    expect(page.locator(".copy-status")).to_have_text("Short form copied.")
    assert (
        page.evaluate("navigator.clipboard.readText()") == "2E v4 pp. 10–13, Order – Beam Personnel"
    )


def test_long_page_keeps_a_bar_back_to_the_contents(browser, blocked, live_server):
    with context_for(browser, blocked, 360) as context:
        page = context.new_page()
        page.goto(live_server + MAIN_PAGES["version"] + "#beaming")
        bar = page.locator(".reader-bar")
        assert bar.is_visible()
        bar_box = bar.bounding_box()
        assert bar_box["y"] == 0 and bar_box["height"] <= 60
        # the anchored heading stops below the bar, not under it
        heading = page.locator("#beaming > .entry-heading").bounding_box()
        assert heading["y"] >= bar_box["height"]
        assert heading["y"] < 740
        page.locator(".reader-bar-toc").click()
        assert page.locator("[data-toc]").evaluate("d => d.open") is True
        toc = page.locator("#jk-toc").bounding_box()
        assert 0 <= toc["y"] < 740
        page.locator(".reader-bar-top").click()
        assert page.evaluate("window.scrollY") < 200


def test_laptop_keeps_the_contents_beside_the_text(browser, blocked, live_server):
    with context_for(browser, blocked, 1280) as context:
        page = context.new_page()
        page.goto(live_server + MAIN_PAGES["version"] + "#beaming")
        assert not page.locator(".reader-bar").is_visible()
        header = page.locator(".site-header").bounding_box()
        assert header["y"] == 0
        assert page.locator("#beaming > .entry-heading").bounding_box()["y"] >= header["height"]
        assert page.locator(".toc a[href='#introduction']").is_visible()


def test_keyboard_hints_only_with_a_keyboard(browser, blocked, live_server):
    with context_for(browser, blocked, 360) as context:
        page = context.new_page()
        page.goto(live_server + "/")
        assert page.locator(".kbd-hint").count() == 2
        assert page.locator("kbd").evaluate_all("ks => ks.filter(k => k.offsetParent).length") == 0
        assert "/" not in page.locator("#q").get_attribute("placeholder")
    with context_for(browser, blocked, 1280) as context:
        page = context.new_page()
        page.goto(live_server + "/")
        assert page.evaluate("matchMedia('(hover: hover) and (pointer: fine)').matches")
        assert page.locator(".ways-in .kbd-hint").is_visible()
        assert page.locator(".site-footer .kbd-hint").inner_text().strip() == "Press / to search."
        assert page.locator("#q").get_attribute("placeholder").endswith("( / )")


def test_theme_button_says_what_it_will_do(browser, blocked, live_server):
    with context_for(browser, blocked, 360, color_scheme="light") as context:
        page = context.new_page()
        page.goto(live_server + "/")
        button = page.locator("[data-theme-toggle]")
        assert button.inner_text() == "Dark mode"
        assert button.get_attribute("title") == "Switch to dark mode"
        button.click()
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        assert button.inner_text() == "Light mode"
        assert button.get_attribute("title") == "Switch to light mode"
        page.reload()
        assert page.locator("[data-theme-toggle]").inner_text() == "Light mode"
        page.locator("[data-theme-toggle]").click()
        assert page.locator("[data-theme-toggle]").inner_text() == "Dark mode"


def test_provenance_is_collapsed_and_left_out_of_print(browser, blocked, live_server):
    with context_for(browser, blocked, 360) as context:
        page = context.new_page()
        page.goto(live_server + "/rules/2e-rulebook/4/personnel")
        provenance = page.locator("details.provenance")
        assert provenance.evaluate("d => d.open") is False
        assert not page.get_by_text("Where the words come from:").is_visible()
        provenance.locator("summary").click()
        assert page.get_by_text("Where the words come from:").is_visible()
        assert "{icon:" not in provenance.inner_text()
        assert provenance.locator(".icon[data-icon='command']").count() >= 1
        page.emulate_media(media="print")
        assert not provenance.is_visible()
        assert page.locator(".citation-title").is_visible()


def test_entry_page_bar_leads_to_the_open_contents(browser, blocked, live_server):
    with context_for(browser, blocked, 360) as context:
        page = context.new_page()
        page.goto(live_server + "/rulings/1e-current-rulings/2000-02-28/cumulative")
        page.mouse.wheel(0, 1500)
        page.wait_for_function("window.scrollY > 1000")
        assert page.locator(".reader-bar").bounding_box()["y"] == 0
        page.locator(".reader-bar-toc").click()
        page.wait_for_url("**/rulings/1e-current-rulings/2000-02-28/#jk-toc")
        assert page.locator("[data-toc]").evaluate("d => d.open") is True
        assert page.locator(".toc-letters a", has_text="C").is_visible()


def test_without_javascript_its_controls_stay_hidden(browser, blocked, live_server):
    with context_for(browser, blocked, 360, java_script_enabled=False) as context:
        page = context.new_page()
        page.goto(live_server + MAIN_PAGES["version"])
        assert not page.locator("[data-popover-toggle]").is_visible()
        assert not page.locator("[data-theme-toggle]").is_visible()
        # the contents are open: nothing would unfold them
        assert page.locator(".toc a[href='#introduction']").is_visible()
        page.goto(live_server + MAIN_PAGES["entry"])
        assert not page.get_by_role("button", name="Copy citation").is_visible()
        assert page.locator(".citation-short").is_visible()


# The compare page's sticky display bar: its links, and whether any is cut off or overflows.
TOOLBAR_LINKS = """() => [...document.querySelectorAll('.df-toggles a')].map(a => {
  const r = a.getBoundingClientRect(), g = a.parentElement.getBoundingClientRect();
  return {text: a.textContent.trim(), x: r.x, y: r.y, w: r.width, h: r.height,
          clipped: r.right > g.right + 0.5 || r.left < g.left - 0.5,
          overflows: a.scrollWidth > a.clientWidth + 1 || a.scrollHeight > a.clientHeight + 1};
})"""


@pytest.mark.parametrize("width", [320, 360])
def test_compare_toolbar_is_one_row_on_a_phone(browser, blocked, live_server, width):
    with context_for(browser, blocked, width) as context:
        page = context.new_page()
        page.goto(live_server + MAIN_PAGES["diff"])
        links = page.evaluate(TOOLBAR_LINKS)
        # No control dropped: both layouts and both typography choices, with their full words.
        assert [link["text"] for link in links] == [
            "Inline",
            "Side by side",
            "Hide typography",
            "Show typography",
        ]
        assert len({round(link["y"]) for link in links}) == 1, "the bar takes more than one row"
        for link in links:
            assert link["h"] >= 44 and link["w"] >= 24, link
            assert not link["clipped"] and not link["overflows"], link
            assert 0 <= link["x"] and link["x"] + link["w"] <= width
        bar = page.locator(".df-toggles").bounding_box()
        assert bar["height"] < 2 * 44
        assert page.evaluate(SIDEWAYS) == 0
        # Sticky: far down the page the bar sits at the top, still one row.
        page.evaluate("() => window.scrollTo(0, document.body.scrollHeight / 2)")
        stuck = page.locator(".df-toggles").bounding_box()
        assert abs(stuck["y"]) < 1 and stuck["height"] == bar["height"]
    assert len(blocked) == 0


def test_compare_toolbar_on_a_laptop_keeps_one_line_labels(browser, blocked, live_server):
    with context_for(browser, blocked, 1280) as context:
        page = context.new_page()
        page.goto(live_server + MAIN_PAGES["diff"])
        links = page.evaluate(TOOLBAR_LINKS)
        assert len({round(link["y"]) for link in links}) == 1
        assert all(link["h"] == 44 for link in links), links  # one line of text each


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_entry_rule_text_comes_before_the_citation(browser, blocked, live_server, javascript):
    with context_for(browser, blocked, 360, java_script_enabled=javascript) as context:
        page = context.new_page()
        page.goto(live_server + MAIN_PAGES["entry"])
        title = page.locator(".entry-header h1").bounding_box()
        body = page.locator(".entry-body").bounding_box()
        first = page.locator(".entry-body p").first.bounding_box()
        citation = page.locator(".citation").bounding_box()
        # The rule text follows the title and starts on the first screen; the citation follows it.
        assert title["y"] + title["height"] <= body["y"] and first["y"] < 740
        assert body["y"] + body["height"] <= citation["y"]
        assert (
            page.locator(".entry-body p")
            .first.inner_text()
            .startswith(
                "This order allows you to move around your personnel and equipment at a mission."
            )
        )


# An older version's entries: changed, merged, replaced, removed, moved, renamed with the same
# words, unchanged; and a whole older version.
OLDER_PAGES = [
    "/rules/2e-rulebook/call-to-arms/facing-dilemmas",
    "/rules/2e-rulebook/call-to-arms/when-and-while",
    "/rules/2e-rulebook/call-to-arms/gl-missions",
    "/rules/2e-rulebook/call-to-arms/important-concepts",
    "/rules/2e-rulebook/call-to-arms/types-of-cards",
    "/rules/2e-rulebook/1.1/event",
    "/rules/2e-rulebook/1.1/personnel",
    "/rules/2e-rulebook/call-to-arms/equipment",
    "/rules/2e-rulebook/1.1/",
]
# The notices' punctuation that starts a line: a mark wrapped away from the words it ends.
LONE_MARKS = """() => {
  const out = [];
  for (const notice of document.querySelectorAll('.notice')) {
    const style = getComputedStyle(notice);
    const left = notice.getBoundingClientRect().left + parseFloat(style.borderLeftWidth)
      + parseFloat(style.paddingLeft);
    const walker = document.createTreeWalker(notice, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.textContent.length; i++) {
        if (!/[.,:;)”]/.test(node.textContent[i])) continue;
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getBoundingClientRect();
        if (box.width && box.left - left < 2) out.push(notice.textContent.trim().slice(0, 60));
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize("width", [360, 1280])
def test_an_older_versions_page_has_one_notice_without_a_lone_full_stop(
    browser, blocked, live_server, width
):
    with context_for(browser, blocked, width) as context:
        page = context.new_page()
        for path in OLDER_PAGES:
            page.goto(live_server + path)
            assert page.locator("main .notice").count() == 1, path
            assert page.evaluate(LONE_MARKS) == [], path
    assert len(blocked) == 0


def test_an_older_rules_first_words_are_on_the_first_screen_of_a_phone(
    browser, blocked, live_server
):
    """The judge's tryout: two notices saying the same pushed the rule below the fold."""
    with context_for(browser, blocked, 360) as context:
        page = context.new_page()
        page.goto(live_server + OLDER_PAGES[0])
        first = page.locator(".entry-body p").first
        assert first.inner_text().startswith("When you begin a mission attempt")
        box = first.bounding_box()
        assert box["y"] + 24 <= 740  # its first line, whole, without scrolling
        notice = page.locator("main .notice")
        assert "changed" in notice.inner_text()
        assert notice.locator("a").last.get_attribute("href") == (
            "/diff/2e-rulebook/call-to-arms..4#facing-dilemmas"
        )
