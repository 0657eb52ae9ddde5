"""The history and comparison views the server renders from the query (?view=, ?typography=,
?show=) work in the pack too, from the server's address, in Chromium on a plain static server."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from judgekit import create_app
from judgekit.pack.build import build, pack_app
from tests.conftest import wait_until
from tests.test_pack_browser import PHONE, guarded_context, static_server

pytestmark = pytest.mark.browser

PACK_CORPUS = Path(__file__).parent / "data" / "pack"
HISTORY = "history/demo-rulebook/attempting"
TEXT = "main => main.textContent.replace(/\\s+/g, ' ').trim()"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("packviews") / "site"
    build(pack_app(str(PACK_CORPUS)), out, when=datetime(2026, 11, 23, 7, 0, tzinfo=UTC))
    return out


def test_history_views_are_built(site):
    for view in ("~view=side", "~typography=show", "~typography=show,view=side"):
        assert (site / HISTORY / view / "index.html").is_file()
    # A document of one version has no other view of its histories, and offers none.
    plain = site / "history" / "demo-rulings" / "access-denied" / "index.html"
    assert plain.is_file()
    assert not list(plain.parent.glob("~*"))
    assert "df-toggles" not in plain.read_text(encoding="utf-8")


def _server_main(client, address: str) -> str:
    """The server's page for an address, as the visible text of its main region."""
    html = client.get(address).get_data(as_text=True)
    return html.split('<main id="content" tabindex="-1">', 1)[1].split("</main>", 1)[0]


@pytest.mark.parametrize(
    ("query", "folder", "view", "typography"),
    [
        ("view=side", "~view=side", "side", "Hide typography"),
        ("typography=show", "~typography=show", "inline", "Show typography"),
        ("view=side&typography=show", "~typography=show,view=side", "side", "Show typography"),
        ("view=inline&typography=hide", "", "inline", "Hide typography"),
    ],
)
def test_history_view_from_the_servers_address(browser, site, query, folder, view, typography):
    client = create_app({"TESTING": True, "CORPUS_DIR": str(PACK_CORPUS)}).test_client()
    with static_server(site) as base, guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{base}/{HISTORY}/index.html?{query}")
        expected = f"{base}/{HISTORY}/{folder + '/' if folder else ''}index.html"
        wait_until(page, "url => window.location.href === url", expected)
        assert page.query_selector(f"ol.df-history.df-view-{view}") is not None
        current = page.eval_on_selector_all(
            ".df-toggles a[aria-current=true]", "links => links.map(a => a.textContent)"
        )
        assert current == [{"side": "Side by side", "inline": "Inline"}[view], typography]
        shown = page.eval_on_selector("main", TEXT)
        # The same page the server renders for that address, word for word.
        page.set_content(f"<main>{_server_main(client, f'/{HISTORY}?{query}')}</main>")
        assert shown == page.eval_on_selector("main", TEXT)
        assert off == []


def test_toggles_and_filters_on_a_comparison(browser, site):
    with static_server(site) as base, guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{base}/{HISTORY}/index.html")
        page.click("a[data-df-view=side]")
        assert page.url == f"{base}/{HISTORY}/~view=side/index.html"
        page.click("text=Show typography")
        assert page.url == f"{base}/{HISTORY}/~typography=show,view=side/index.html"
        # A comparison filtered by the server's address (?show=): the pack shows that kind only.
        page.goto(f"{base}/diff/demo-rulebook/1..2/index.html?show=added")
        wait_until(page, "!!document.querySelector('[data-df-changes].df-show-added')")
        assert page.get_attribute("[data-df-filter=added]", "aria-current") == "true"
        assert off == []
