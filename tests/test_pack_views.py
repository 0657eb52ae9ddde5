"""The history and comparison views the server renders from the query (?view=, ?typography=,
?show=) work in the pack too, from the server's address, in Chromium on a plain static server."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

from judgekit import create_app
from tests.conftest import wait_until
from tests.test_pack_browser import PHONE, guarded_context, static_server

pytestmark = pytest.mark.browser

PACK_CORPUS = Path(__file__).parent / "data" / "pack"
HISTORY = "history/demo-rulebook/attempting"
COMPARISON = "diff/demo-rulebook/1..2"
# Text without its whitespace: the pack's page puts line breaks between the blocks it lays over
# one another, where the server's page may have none (no space shows between blocks).
TEXT = "main => main.textContent.replace(/\\s+/g, '')"


@pytest.fixture(scope="module")
def site(packs):
    return packs(PACK_CORPUS).out


# The text of main in the view the page shows (html's data-pv-key; the plain view without
# one): the parts of other views, which diff.css does not display, left out.
SHOWN = """main => {
  const key = document.documentElement.getAttribute('data-pv-key') || 'inline-hide';
  const copy = main.cloneNode(true);
  copy.querySelectorAll('[data-pv]').forEach(el => {
    if (!el.getAttribute('data-pv').split(' ').includes(key)) el.remove();
  });
  return copy.textContent.replace(/\\s+/g, '');
}"""
CURRENT = """() => [...document.querySelectorAll('.df-toggles a[aria-current=true]')]
  .filter(a => a.getClientRects().length).map(a => a.textContent)"""


def test_history_views_are_one_page(site):
    page = site / HISTORY / "index.html"
    assert not list(page.parent.glob("~*"))
    html = page.read_text(encoding="utf-8")
    # Each view's own parts are marked with the views that show them.
    for view in ("inline-hide", "side-hide", "inline-show", "side-show"):
        assert re.search(f'data-pv="[^"]*\\b{view}\\b', html), view
    # A document of one version has no other view of its histories, and offers none.
    plain = site / "history" / "demo-rulings" / "access-denied" / "index.html"
    assert not list(plain.parent.glob("~*"))
    assert "df-toggles" not in plain.read_text(encoding="utf-8")
    assert "data-pv" not in plain.read_text(encoding="utf-8")


def _server_main(client, address: str) -> str:
    """The server's page for an address, as the visible text of its main region."""
    html = client.get(address).get_data(as_text=True)
    return html.split('<main id="content" tabindex="-1">', 1)[1].split("</main>", 1)[0]


@pytest.mark.parametrize(
    ("query", "view", "typography"),
    [
        ("view=side", "side", "Hide typography"),
        ("typography=show", "inline", "Show typography"),
        ("view=side&typography=show", "side", "Show typography"),
        ("view=inline&typography=hide", "inline", "Hide typography"),
        ("", "inline", "Hide typography"),
    ],
)
@pytest.mark.parametrize("address", [HISTORY, COMPARISON])
def test_view_from_the_servers_address(browser, site, address, query, view, typography):
    client = create_app({"TESTING": True, "CORPUS_DIR": str(PACK_CORPUS)}).test_client()
    with static_server(site) as base, guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        url = f"{base}/{address}/index.html" + (f"?{query}" if query else "")
        page.goto(url)
        wait_until(page, "() => !!document.documentElement.getAttribute('data-pv-key')")
        assert page.url == url  # the page itself: no file of its own per view
        lists = "ol.df-history" if address == HISTORY else "[data-df-changes]"
        assert page.query_selector(f"{lists}.df-view-{view}") is not None
        assert page.evaluate(CURRENT) == [
            {"side": "Side by side", "inline": "Inline"}[view],
            typography,
        ]
        shown = page.eval_on_selector("main", SHOWN)
        # The same page the server renders for that address, word for word.
        server = f"/{address.replace('/index.html', '')}" + (f"?{query}" if query else "")
        page.set_content(f"<main>{_server_main(client, server)}</main>")
        assert shown == page.eval_on_selector("main", TEXT)
        assert off == []


def test_side_by_side_is_not_the_inline_text(browser, site):
    """The views checked above are not one text: side by side shows each side's own words."""
    with static_server(site) as base, guarded_context(browser, PHONE) as (ctx, _):
        page = ctx.new_page()
        texts = {}
        for query in ("", "view=side"):
            page.goto(f"{base}/{COMPARISON}/index.html?{query}")
            wait_until(page, "() => !!document.documentElement.getAttribute('data-pv-key')")
            texts[query] = page.eval_on_selector("main", SHOWN)
        assert texts[""] != texts["view=side"]
        assert texts["view=side"].count("Whenyoubeginamissionattempt") == 1


def test_without_javascript_the_plain_view(browser, site):
    client = create_app({"TESTING": True, "CORPUS_DIR": str(PACK_CORPUS)}).test_client()
    with static_server(site) as base:
        ctx = browser.new_context(java_script_enabled=False, viewport=PHONE)
        try:
            page = ctx.new_page()
            page.goto(f"{base}/{COMPARISON}/index.html?view=side")
            assert page.get_attribute("html", "data-pv-key") is None
            # diff.css shows the plain view's parts only, and none of the others.
            shown = page.eval_on_selector_all(
                "[data-pv]",
                "els => els.map(el => [el.getAttribute('data-pv').split(' ').includes('inline-hide'),"
                " getComputedStyle(el).display !== 'none'])",
            )
            assert ("side-hide" in page.content()) and shown
            assert all(plain == displayed for plain, displayed in shown if not plain)
            assert page.query_selector("[data-df-changes].df-view-inline") is not None
            shown = page.eval_on_selector("main", SHOWN)
            page.set_content(f"<main>{_server_main(client, '/' + COMPARISON)}</main>")
            assert shown == page.eval_on_selector("main", TEXT)
        finally:
            ctx.close()


def test_toggles_and_filters_on_a_comparison(browser, site):
    client = create_app({"TESTING": True, "CORPUS_DIR": str(PACK_CORPUS)}).test_client()
    with static_server(site) as base, guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{base}/{HISTORY}/index.html")
        page.click("a[data-df-view=side] >> visible=true")
        assert page.url == f"{base}/{HISTORY}/index.html?view=side"
        assert page.evaluate(CURRENT) == ["Side by side", "Hide typography"]
        page.click(".df-toggles a >> text=Show typography >> visible=true")
        assert dict(parse_qsl(urlsplit(page.url).query)) == {"view": "side", "typography": "show"}
        assert page.evaluate(CURRENT) == ["Side by side", "Show typography"]
        shown = page.eval_on_selector("main", SHOWN)
        # Back: the view before, in place.
        page.go_back()
        wait_until(
            page, "() => document.documentElement.getAttribute('data-pv-key') === 'side-hide'"
        )
        page.go_forward()
        wait_until(
            page, "() => document.documentElement.getAttribute('data-pv-key') === 'side-show'"
        )
        assert page.eval_on_selector("main", SHOWN) == shown
        server = _server_main(client, f"/{HISTORY}?view=side&typography=show")
        # A comparison filtered by the server's address (?show=): the pack shows that kind only.
        page.goto(f"{base}/diff/demo-rulebook/1..2/index.html?show=added&view=side")
        wait_until(page, "!!document.querySelector('[data-df-changes].df-show-added')")
        assert (
            page.get_attribute("[data-df-filter=added] >> visible=true", "aria-current") == "true"
        )
        page.set_content(f"<main>{server}</main>")
        assert shown == page.eval_on_selector("main", TEXT)
        assert off == []


def test_views_from_a_folder(browser, site):
    """Opened with file:// (a USB stick): the query names the view there too."""
    client = create_app({"TESTING": True, "CORPUS_DIR": str(PACK_CORPUS)}).test_client()
    with guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        page.goto((site / COMPARISON / "index.html").as_uri() + "?view=side&typography=show")
        wait_until(
            page, "() => document.documentElement.getAttribute('data-pv-key') === 'side-show'"
        )
        shown = page.eval_on_selector("main", SHOWN)
        server = _server_main(client, f"/{COMPARISON}?view=side&typography=show")
        page.set_content(f"<main>{server}</main>")
        assert shown == page.eval_on_selector("main", TEXT)
        assert off == []


# The kind of change the summary boxes show, and the view's filter box marked current.
FILTER = """() => ({
  list: ['all', 'changed', 'added', 'removed', 'renamed', 'moved'].filter(k =>
    document.querySelector('[data-df-changes]').classList.contains('df-show-' + k)),
  box: [...document.querySelectorAll('.df-counts a[aria-current]')]
    .filter(a => a.getClientRects().length).map(a => a.getAttribute('data-df-filter')),
})"""


def test_a_toggle_keeps_the_filter_as_the_servers_does(browser, site):
    """Filtered to one kind, a toggle keeps it in the address (the server's toggles keep ?show=),
    so a reload or a shared link shows what the judge saw; Back and Forward restore it too."""
    key = "() => document.documentElement.getAttribute('data-pv-key') === '{}'"
    with static_server(site) as base, guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{base}/{COMPARISON}/index.html")
        page.click("a[data-df-view=side] >> visible=true")
        page.click(".df-counts a[data-df-filter=added] >> visible=true")
        page.click(".df-toggles a >> text=Show typography >> visible=true")
        query = dict(parse_qsl(urlsplit(page.url).query))
        assert query == {"view": "side", "typography": "show", "show": "added"}
        assert page.evaluate(FILTER) == {"list": ["added"], "box": ["added"]}
        page.go_back()
        wait_until(page, key.format("side-hide"))
        assert dict(parse_qsl(urlsplit(page.url).query)) == {"view": "side", "show": "added"}
        assert page.evaluate(FILTER) == {"list": ["added"], "box": ["added"]}
        # Back before the filter was chosen: every change again, as the address says.
        page.go_back()
        wait_until(page, key.format("inline-hide"))
        assert page.evaluate(FILTER) == {"list": ["all"], "box": ["all"]}
        page.go_forward()
        wait_until(page, key.format("side-hide"))
        assert page.evaluate(FILTER) == {"list": ["added"], "box": ["added"]}
        page.reload()
        assert page.evaluate(FILTER) == {"list": ["added"], "box": ["added"]}
        assert off == []
