"""The card index in real headless Chromium: filtering as you type on a phone, card pop-ups."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import urlencode, urlsplit

import pytest

from .conftest import DATA, guarded_context
from .test_pack_browser import guarded_context as pack_context
from .test_pack_browser import static_server

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
NARROW = {"width": 360, "height": 740}


def _visible_titles(page, edition: str) -> list[str]:
    return page.locator(
        f'section[data-edition="{edition}"] li[data-card-title]:visible'
    ).evaluate_all("els => els.map(e => e.getAttribute('data-card-title'))")


def test_cards_filter_as_you_type_on_a_phone(page, live_server, blocked, client):
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server}/cards")
    total = len(client.get("/api/cards").get_json()["cards"])
    count = page.locator("[data-card-count]")
    assert count.inner_text() == f"{total} cards"
    box = page.locator("#card-q")
    box.press_sequentially("borg q", delay=20)
    assert _visible_titles(page, "2E") == [
        "Borg Queen, Bringer of Order",
        "Borg Queen, Guardian of the Hive",
    ]
    assert _visible_titles(page, "1E") == []
    assert page.locator('section[data-edition="1E"] [data-card-none]').is_visible()
    assert count.inner_text() == "2 cards"
    # Curly or straight apostrophes are the same to the judge's keyboard.
    box.fill("")
    box.press_sequentially("o'brien", delay=20)
    assert _visible_titles(page, "2E") == ["Miles O’Brien"]
    assert _visible_titles(page, "1E") == ["Chief O'Brien"]
    page.locator("#card-edition").select_option("1e")
    assert page.locator('section[data-edition="2E"]').is_hidden()
    assert count.inner_text() == "1 card"
    # The list fits the phone: no sideways scrolling.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    with page.expect_navigation():
        page.get_by_role("link", name="Chief O'Brien").click()
    assert urlsplit(page.url).path == "/cards/1e/chief-obrien"
    assert page.locator("h1").inner_text() == "Chief O'Brien"
    assert len(blocked) == 0


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_card_name_in_rule_text_opens_its_popup(page, live_server, blocked, viewport):
    page.set_viewport_size(viewport)
    page.goto(f"{live_server}/rules/2e-rulebook/4/moving-a-ship")
    link = page.locator('a.card-link[data-gloss="card-2e-uss-galaxy"]')
    link.click()
    popover = page.locator("#jk-popover")
    popover.wait_for(state="visible")
    assert popover.locator(".popover-title").inner_text() == "U.S.S. Galaxy"
    assert popover.locator(".popover-link").inner_text() == "Open this card's page"
    assert popover.locator(".popover-link").get_attribute("href") == "/cards/2e/uss-galaxy"
    page.keyboard.press("Escape")
    assert popover.is_hidden()
    # Keyboard: focus the link and press Enter.
    link.focus()
    page.keyboard.press("Enter")
    popover.wait_for(state="visible")
    with page.expect_navigation():
        popover.locator(".popover-link").click()
    assert urlsplit(page.url).path == "/cards/2e/uss-galaxy"
    assert len(blocked) == 0


def test_a_card_name_on_a_whole_version_page_opens_its_popup(page, live_server, blocked):
    page.set_viewport_size(LAPTOP)
    page.goto(f"{live_server}/rulings/1e-current-rulings/2000-02-28/")
    link = page.locator('a.card-link[data-gloss="card-1e-devidian-door"]').first
    link.scroll_into_view_if_needed()
    link.click()
    popover = page.locator("#jk-popover")
    popover.wait_for(state="visible")
    assert popover.locator(".popover-title").inner_text() == "Devidian Door"
    assert popover.locator(".popover-link").get_attribute("href") == "/cards/1e/devidian-door"
    assert len(blocked) == 0


# The same typed filters, answered by the server (no JavaScript) and by cards.js: one rule.
FILTER_INPUTS = (
    "uss galaxy",
    "Chief OBrien",
    "obrien",
    "Crodens Key",
    "jean luc",
    "•jean-luc",
    "U.S.S.",
)


def test_the_card_filter_matches_the_same_in_the_browser_and_on_the_server(
    page, live_server, blocked, client
):
    page.goto(f"{live_server}/cards")
    box = page.locator("#card-q")
    for typed in FILTER_INPUTS:
        html = client.get("/cards", query_string={"q": typed}).get_data(as_text=True)
        served = re.findall(r'<li data-card-title="([^"]*)" data-card-keys="[^"]*">', html)
        box.fill(typed)
        shown = _visible_titles(page, "2E") + _visible_titles(page, "1E")
        assert [unescape(t) for t in served] == shown, typed
        assert shown, f"{typed!r} matches no card"
    assert "U.S.S. Galaxy" in shown


def _tallies(page) -> dict[str, str]:
    """Each edition's heading count as the page shows it."""
    return {
        ed: page.locator(f'section[data-edition="{ed}"] h2 [data-card-tally]').inner_text()
        for ed in ("2E", "1E")
    }


@pytest.mark.parametrize("script", [True, False], ids=["javascript", "no-javascript"])
def test_the_headings_say_how_many_cards_they_show_at_360px(
    browser, blocked, live_server, client, script
):
    totals = {ed: 0 for ed in ("2E", "1E")}
    for card in client.get("/api/cards").get_json()["cards"]:
        totals[card["edition"]] += 1
    with guarded_context(browser, blocked, viewport=NARROW, java_script_enabled=script) as ctx:
        page = ctx.new_page()
        page.goto(f"{live_server}/cards")
        assert _tallies(page) == {ed: f"{n} cards" for ed, n in totals.items()}
        box = page.locator("#card-q")
        if script:
            box.press_sequentially("borg q", delay=20)
        else:  # the filter is a GET form the server answers, already filtered
            box.fill("borg q")
            with page.expect_navigation():
                page.get_by_role("button", name="Filter").click()
            assert "q=borg+q" in page.url
        shown = {"2E": 2, "1E": 0}
        assert _tallies(page) == {ed: f"{shown[ed]} of {n} cards" for ed, n in totals.items()}
        assert page.locator("[data-card-count]").inner_text() == "2 cards"
        heading = page.locator('section[data-edition="2E"] h2')
        assert heading.is_visible()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert len(blocked) == 0


NEAR_INPUTS = ("wrof", "Wrof", "picrad", "datta", "uss enterprize", "wrof first", "zzqxj", "q", "")


def _offered(page, edition: str) -> list[str]:
    line = page.locator(f'section[data-edition="{edition}"] [data-card-near]')
    if not line.is_visible():
        return []
    return line.locator("a").evaluate_all("els => els.map(e => e.textContent + ' ' + e.pathname)")


def test_did_you_mean_offers_the_same_cards_in_the_browser_and_on_the_server(
    page, live_server, blocked, client
):
    """Where no card matches the filter, each edition offers the nearest cards (as the card 404,
    the CLI and the event's Cite field find them), the same whether cards.js or the server says."""
    page.goto(f"{live_server}/cards")
    box = page.locator("#card-q")
    offered = {}
    for typed in NEAR_INPUTS:
        html = client.get("/cards", query_string={"q": typed}).get_data(as_text=True)
        box.fill(typed)
        for edition in ("2E", "1E"):
            section = html.split(f'data-edition="{edition}"', 1)[1].split("</section>", 1)[0]
            near = re.search(r"<span class=\"card-near\" data-card-near>(.*?)</span>", section)
            served = re.findall(r'<a href="([^"]*)">([^<]*)</a>', near.group(1)) if near else []
            assert [f"{unescape(t)} {u}" for u, t in served] == _offered(page, edition), typed
            offered[typed, edition] = _offered(page, edition)
    assert offered["wrof", "2E"] == ["Worf, First Officer /cards/2e/worf-first-officer"]
    assert offered["Wrof", "2E"] == offered["wrof", "2E"]
    assert [t.split(" /")[0] for t in offered["picrad", "2E"]] == [
        "Jean-Luc Picard, Argo Pilot",
        "Jean-Luc Picard, Explorer",
    ]
    assert offered["zzqxj", "2E"] == offered["zzqxj", "1E"] == []
    assert offered["q", "2E"] == offered["", "2E"] == []  # some card matches: nothing offered
    box.fill("wrof")
    line = page.locator('section[data-edition="2E"] p[data-card-none]')
    assert line.inner_text() == "No 2E card matches. Did you mean Worf, First Officer?"
    with page.expect_navigation():
        line.get_by_role("link", name="Worf, First Officer").click()
    assert urlsplit(page.url).path == "/cards/2e/worf-first-officer"
    assert len(blocked) == 0


def test_the_packs_card_list_offers_the_nearest_card_too(browser, packs):
    """The pack's card list is the server's page with cards.js: a typo offers the same card, and
    the link opens the card's page in the pack."""
    built = packs(DATA / "cards")
    with static_server(built.out) as base, pack_context(browser, NARROW) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{base}/cards/index.html")
        page.locator("#card-q").press_sequentially("uss galaxie", delay=10)
        line = page.locator('section[data-edition="2E"] [data-card-near]')
        assert line.inner_text() == "Did you mean U.S.S. Galaxy?"
        with page.expect_navigation():
            line.get_by_role("link", name="U.S.S. Galaxy").click()
        assert urlsplit(page.url).path == "/cards/2e/uss-galaxy/index.html"
        assert off == []


ELSEWHERE_INPUTS = ("picard", "wrof", "worf", "ship", "picrad", "ferengi", "zzqxj")


def _said(page, edition: str) -> str:
    line = page.locator(f'section[data-edition="{edition}"] p[data-card-none]')
    return re.sub(r"\s+", " ", line.inner_text()).strip() if line.is_visible() else ""


def _links(html_or_page, edition: str) -> list[str]:
    if isinstance(html_or_page, str):
        section = html_or_page.split(f'data-edition="{edition}"', 1)[1].split("</section>", 1)[0]
        line = re.search(r"data-card-elsewhere>(.*?)</span>", section, re.S)
        return (
            [unescape(h) for h in re.findall(r'<a href="([^"]*)">', line.group(1))] if line else []
        )
    line = html_or_page.locator(f'section[data-edition="{edition}"] [data-card-elsewhere]')
    if not line.is_visible():
        return []
    return line.locator("a").evaluate_all("els => els.map(e => e.getAttribute('href'))")


@pytest.mark.parametrize("viewport", [NARROW, LAPTOP])
def test_the_other_game_s_cards_are_named_alike_in_the_browser_and_on_the_server(
    browser, live_server, blocked, client, viewport
):
    """With one game chosen and none of its cards matching, the line names the other game's
    cards the text names ("2E has Worf, First Officer"), the same whether cards.js or the
    server writes it; each filter typed is in the address (a reload shows it again)."""
    with guarded_context(browser, blocked, viewport=viewport) as ctx:
        page = ctx.new_page()
        page.goto(f"{live_server}/cards")
        page.select_option("#card-edition", "1e")
        box = page.locator("#card-q")
        for typed in ELSEWHERE_INPUTS:
            box.fill(typed)
            query = {"q": typed, "edition": "1e"}
            assert page.evaluate("location.search") == "?" + urlencode(query)
            html = client.get("/cards", query_string=query).get_data(as_text=True)
            from_server = re.search(
                r'<p class="muted card-none" data-card-none( hidden)?>(.*?)</p>',
                html.split('data-edition="1E"', 1)[1],
                re.S,
            )
            shown = re.sub(r"<span[^>]* hidden>.*?</span>", "", from_server.group(2), flags=re.S)
            words = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", shown))).strip()
            words = "" if from_server.group(1) else words  # some 1E card matches
            assert _said(page, "1E") == words, typed
            assert _links(page, "1E") == _links(html, "1E"), typed
        box.fill("ship")
        assert _said(page, "1E").startswith("No 1E card matches. 2E has ")
        assert _said(page, "1E").endswith(" and 2 more.")
        box.fill("worf")
        assert _said(page, "1E") == "No 1E card matches. 2E has Worf, First Officer."
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.reload()
        assert page.input_value("#card-q") == "worf"
        assert _said(page, "1E") == "No 1E card matches. 2E has Worf, First Officer."
        with page.expect_navigation():
            page.get_by_role("link", name="Worf, First Officer").click()
        assert urlsplit(page.url).path == "/cards/2e/worf-first-officer"
    assert len(blocked) == 0


@pytest.mark.parametrize("viewport", [NARROW, LAPTOP])
def test_the_packs_card_list_reads_and_keeps_the_filter_in_its_address(
    browser, real_pack_build, viewport
):
    """The pack's card list is one file whatever its query: /cards/?q=worf showed every card and
    an empty box. It reads q and edition, and keeps what is typed in the address."""
    with static_server(real_pack_build.out) as base, pack_context(browser, viewport) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{base}/cards/?q=worf")
        assert page.input_value("#card-q") == "worf"
        assert _visible_titles(page, "2E") == ["Worf, First Officer"]
        assert _visible_titles(page, "1E") == []
        page.goto(f"{base}/cards/?q=wrof&edition=1e")
        assert page.input_value("#card-edition") == "1e"
        assert _said(page, "1E") == "No 1E card matches. 2E has Worf, First Officer."
        assert not page.locator('section[data-edition="2E"]').is_visible()
        page.locator("#card-q").fill("picard")
        assert page.evaluate("location.search") == "?q=picard&edition=1e"
        said = _said(page, "1E")
        assert said == (
            "No 1E card matches. 2E has Jean-Luc Picard, Argo Pilot and Jean-Luc Picard, Explorer."
        )
        page.reload()
        assert page.input_value("#card-q") == "picard" and _said(page, "1E") == said
        with page.expect_navigation():
            page.get_by_role("link", name="Jean-Luc Picard, Explorer").click()
        assert urlsplit(page.url).path == "/cards/2e/jean-luc-picard-explorer/index.html"
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert off == []
