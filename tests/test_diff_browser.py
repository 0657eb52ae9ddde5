"""The compare pages in real headless Chromium: picker, toggles, filters, jump list, anchors."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.browser

CTA_4 = "/diff/2e-rulebook/call-to-arms..4"
PHONE = {"width": 390, "height": 844}


def test_picker_offers_the_documents_versions(page, live_server, blocked):
    page.goto(f"{live_server}/diff")
    enabled = "select[name=from] optgroup:not([disabled]) option"
    values = "els => els.map(e => e.value)"
    assert page.eval_on_selector_all(enabled, values) == ["1.1", "call-to-arms", "4"]
    page.select_option("select[name=document]", "1e-current-rulings")
    assert page.eval_on_selector_all(enabled, values) == ["2000-02-28"]
    page.select_option("select[name=document]", "2e-rulebook")
    assert page.input_value("select[name=from]") == "call-to-arms"
    page.select_option("select[name=from]", "1.1")
    page.click("form[data-df-pick] button[type=submit]")
    page.wait_for_url(f"{live_server}/diff/2e-rulebook/1.1..4")
    assert page.locator("article.df-change").count() > 10
    assert len(blocked) == 0


def test_toggles_and_history(page, live_server, blocked):
    page.goto(f"{live_server}{CTA_4}")
    assert page.locator(".df-counts").is_visible()
    assert page.locator(".df-inline").count() > 0 and page.locator(".df-row-side").count() == 0
    page.click("a[data-df-view=side]")
    page.wait_for_url(f"{live_server}{CTA_4}?view=side")
    assert page.locator(".df-row-side").count() > 0 and page.locator(".df-inline").count() == 0
    # The two forms of a sentence sit side by side.
    first = page.locator(".df-row-edited .df-row-side").first.locator(".df-col")
    left, right = first.nth(0).bounding_box(), first.nth(1).bounding_box()
    assert right["x"] > left["x"] + left["width"] - 1 and abs(right["y"] - left["y"]) < 2
    page.click("text=Show typography")
    page.wait_for_url("**typography=show**")
    assert page.locator("del.typo").count() > 0
    merged = page.locator("#gl-moving-a-ship--moving-a-ship")
    assert "merged into" in merged.inner_text()
    merged.locator("text=History").click()
    page.wait_for_url(f"{live_server}/history/2e-rulebook/moving-a-ship")
    assert page.locator("li.df-step").count() == 3
    assert len(blocked) == 0


def _top(page, element_id: str) -> float:
    return page.evaluate(f"document.getElementById('{element_id}').getBoundingClientRect().top")


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["laptop", "phone"])
def test_an_anchor_opens_its_change(page, live_server, blocked, viewport):
    if viewport:
        page.set_viewport_size(viewport)
    page.goto(f"{live_server}{CTA_4}#moving-a-ship")
    height = page.evaluate("window.innerHeight")
    assert 0 <= _top(page, "moving-a-ship") < height / 2
    assert page.evaluate("document.querySelector(':target').id") == "moving-a-ship"
    change = page.locator("#moving-a-ship")
    assert "Order – Move a Ship" in change.locator("h2").inner_text()
    assert "from “Staffing ships”" in change.inner_text()
    assert len(blocked) == 0


def _visible_statuses(page) -> set[str]:
    return set(
        page.eval_on_selector_all(
            "article.df-change",
            "els => els.filter(e => e.offsetParent !== null).map(e => e.dataset.status)",
        )
    )


def test_summary_boxes_filter_and_the_jump_list_jumps(page, live_server, blocked):
    page.goto(f"{live_server}{CTA_4}")
    added = int(page.inner_text(".df-count-added .df-n"))
    page.click(".df-count-added a")
    assert urlsplit(page.url).query == "show=added"  # the script filters in place
    assert _visible_statuses(page) == {"added"}
    visible = "els => els.filter(e => e.offsetParent !== null).length"
    assert page.eval_on_selector_all("article.df-change", visible) == added
    assert page.locator("[data-df-filtered]").is_visible()
    # A jump to a change of another kind shows every change again, and opens it.
    page.click("details[data-df-kind=moved] summary")
    page.click("details[data-df-kind=moved] a[href$='#staffing-ships--moving-a-ship']")
    assert len(_visible_statuses(page)) == 5
    page.wait_for_function(
        "document.getElementById('staffing-ships--moving-a-ship').getBoundingClientRect().top < 400"
    )
    assert 0 <= _top(page, "staffing-ships--moving-a-ship") < page.evaluate("window.innerHeight")
    page.click(".df-count-removed a")
    assert _visible_statuses(page) == {"removed"}
    page.click(".df-count-all a")
    assert len(_visible_statuses(page)) == 5 and not page.locator("[data-df-filtered]").is_visible()
    assert len(blocked) == 0


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 800}])
def test_the_summary_box_chosen_is_dark_to_its_edge(page, live_server, viewport):
    """Each box's link fills it: "show all", with no number, was a short dark box over a
    dashed one at the row's height."""
    page.set_viewport_size(viewport)
    page.goto(f"{live_server}{CTA_4}")
    sizes = page.eval_on_selector_all(
        ".df-count",
        "els => els.map(li => [li.clientHeight, li.querySelector('a').offsetHeight])",
    )
    assert len(sizes) == 6 and all(box == link for box, link in sizes), sizes


def test_filters_work_without_javascript(browser, live_server):
    context = browser.new_context(java_script_enabled=False)
    context.route(
        "**/*",
        lambda route: (
            route.continue_()
            if urlsplit(route.request.url).hostname == "127.0.0.1"
            else route.abort()
        ),
    )
    page = context.new_page()
    try:
        page.goto(f"{live_server}{CTA_4}")
        page.click(".df-count-moved a")
        page.wait_for_url(f"{live_server}{CTA_4}?show=moved")
        assert _visible_statuses(page) == {"moved"}
        assert page.locator("[data-df-filtered]").is_visible()
        # The jump list's other kinds lead back to every change.
        page.click("details[data-df-kind=added] summary")
        href = page.get_attribute("details[data-df-kind=added] li a", "href")
        assert href.startswith(f"{CTA_4}#")
    finally:
        context.close()


def test_side_by_side_stacks_on_a_phone(page, live_server, blocked):
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server}{CTA_4}?view=side#moving-a-ship")
    row = page.locator("#moving-a-ship .df-row-edited .df-row-side").first
    old, new = (
        row.locator(".df-col").nth(0).bounding_box(),
        row.locator(".df-col").nth(1).bounding_box(),
    )
    assert abs(old["x"] - new["x"]) < 2 and new["y"] >= old["y"] + old["height"] - 1
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert len(blocked) == 0


def test_history_shows_what_was_merged_in(page, live_server, blocked):
    page.goto(f"{live_server}/history/2e-rulebook/moving-a-ship")
    assert page.locator("li.df-step").count() == 3
    assert page.locator(".df-tributary").count() >= 6
    assert (
        "A stopped personnel cannot help staff a ship."
        in page.locator("#v-1\\.1-staffing-ships").inner_text()
    )
    assert len(blocked) == 0


def test_entry_page_links_to_history(page, live_server, blocked):
    page.goto(f"{live_server}/rules/2e-rulebook/4/beaming")
    page.click("text=History of this rule across versions")
    page.wait_for_url(f"{live_server}/history/2e-rulebook/beaming")
    assert page.locator("li.df-step").count() == 3
    assert page.locator(".df-title-diff ins").first.inner_text() != ""
    assert len(blocked) == 0


def test_entry_page_links_to_its_change(page, live_server, blocked):
    page.goto(f"{live_server}/rules/2e-rulebook/call-to-arms/gl-moving-a-ship")
    page.click("text=See what changed, sentence by sentence")
    page.wait_for_url(f"{live_server}{CTA_4}#gl-moving-a-ship--moving-a-ship")
    assert (
        page.evaluate("document.querySelector(':target').id") == "gl-moving-a-ship--moving-a-ship"
    )
    assert len(blocked) == 0
