"""The compare pages in real headless Chromium: picker, toggles, history link; nothing off-host."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


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
    page.goto(f"{live_server}/diff/2e-rulebook/call-to-arms..4")
    assert page.locator(".df-counts").is_visible()
    assert page.locator(".df-inline").count() > 0 and page.locator(".df-side").count() == 0
    page.click("a[data-df-view=side]")
    page.wait_for_url(f"{live_server}/diff/2e-rulebook/call-to-arms..4?view=side")
    assert page.locator(".df-side").count() > 0 and page.locator(".df-inline").count() == 0
    # The two columns sit side by side.
    first = page.locator(".df-side").first.locator(".df-col")
    left, right = first.nth(0).bounding_box(), first.nth(1).bounding_box()
    assert right["x"] > left["x"] + left["width"] - 1 and abs(right["y"] - left["y"]) < 2
    page.click("text=Show typography")
    page.wait_for_url("**typography=show**")
    assert page.locator("del.typo").count() > 0
    merged = page.locator("#c-gl-moving-a-ship--moving-a-ship")
    assert "merged into" in merged.inner_text()
    merged.locator("text=History").click()
    page.wait_for_url(f"{live_server}/history/2e-rulebook/moving-a-ship")
    assert page.locator("li.df-step").count() == 3
    assert len(blocked) == 0


def test_entry_page_links_to_history(page, live_server, blocked):
    page.goto(f"{live_server}/rules/2e-rulebook/4/beaming")
    page.click("text=History of this rule across versions")
    page.wait_for_url(f"{live_server}/history/2e-rulebook/beaming")
    assert page.locator("li.df-step").count() == 3
    assert page.locator(".df-title-diff ins").first.inner_text() != ""
    assert len(blocked) == 0
