"""Showing a rule to a player: each entry page's "Show to a player" page, a QR code of the entry's
address as other devices open it (the configured address, never the request's Host), and in the
judge pack a plain note instead."""

from __future__ import annotations

import re

import pytest

from judgekit import create_app
from judgekit.pack.build import pack_app
from tests.conftest import DATA, MINI
from tests.events_helpers import LAPTOP, Phone, csrf_of, event_app, start_event
from tests.qr_matrix import encodes, svg_modules

LAN = "http://192.168.1.20:8000"
CARDS = DATA / "cards"
ENTRY = "/rules/demo-rulebook/2/beaming"
RULING = "/rulings/demo-rulings/r1/access-denied"
CARD = "/cards/2e/earth"


def _client(base_url: str = LAN):
    return create_app(
        {"TESTING": True, "CORPUS_DIR": str(MINI), "BASE_URL": base_url, "SEARCH_CACHE_DIR": ""}
    ).test_client()


@pytest.fixture(scope="module")
def client():
    return _client()


def _qr(html: str) -> str:
    (svg,) = re.findall(r'<svg [^>]*class="player-qr".*?</svg>', html, re.S)
    return svg


@pytest.mark.parametrize("entry", [ENTRY, "/rules/demo-rulebook/1/beaming", RULING])
def test_every_entry_page_shows_a_qr_code_of_its_own_address(client, entry):
    html = client.get(entry).get_data(as_text=True)
    link = re.search(r'<a class="show-player-link" href="([^"]+)">Show to a player</a>', html)
    assert link and link.group(1) == "/show" + entry
    shown = client.get(link.group(1))
    assert shown.status_code == 200
    page = shown.get_data(as_text=True)
    assert encodes(svg_modules(_qr(page)), LAN + entry)
    assert not encodes(svg_modules(_qr(page)), LAN + "/rules/demo-rulebook/2/moving-a-ship")
    assert f'<a class="show-address" href="{LAN}{entry}">{LAN}{entry}</a>' in page
    assert f'<a class="show-back" href="{entry}">' in page


def test_the_code_names_the_configured_address_never_the_request_host(client):
    page = client.get("/show" + ENTRY, base_url="http://evil.example:9999").get_data(as_text=True)
    assert encodes(svg_modules(_qr(page)), LAN + ENTRY)
    assert "evil.example" not in page


def test_the_entry_page_itself_draws_no_code(client):
    # Drawn only when a judge asks: the entry pages everyone reads cost what they did.
    assert "player-qr" not in client.get(ENTRY).get_data(as_text=True)


def _handed(page: str) -> str:
    """The text shown for the judge to hand the device over ("" when there is none)."""
    found = re.search(r'<section class="show-text[^"]*"[^>]*>(.*?)</section>', page, re.S)
    return found.group(1) if found else ""


def _words(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_an_address_only_this_computer_opens_gets_no_code_but_the_reason():
    page = _client("http://127.0.0.1:8000").get("/show" + ENTRY).get_data(as_text=True)
    assert "<svg" not in page
    assert "No QR code: only this computer can open http://127.0.0.1:8000" + ENTRY in page
    assert "judgekit serve --host 0.0.0.0" in page
    # The rule itself, to hand this device to the player, with where the reason is.
    assert _words(_handed(page)) == (
        "Order – Beam Personnel You may beam personnel between a ship and a mission, once. "
        "Advanced (editor’s grouping) Beaming is an order."
    )
    assert "hand this device to the player to read the rule below" in page
    assert page.index("show-text") < page.index('id="show-why"')


def test_a_server_without_an_address_gets_no_code():
    page = _client("").get("/show" + ENTRY).get_data(as_text=True)
    assert "<svg" not in page and "was given no web address" in page
    assert "You may beam personnel between a ship and a mission, once." in _handed(page)


def test_a_page_with_a_code_hands_over_no_text(client):
    assert _handed(client.get("/show" + ENTRY).get_data(as_text=True)) == ""


def _counting(monkeypatch, module, name: str) -> list[int]:
    """Count the calls of module.name (still called through): what a page built."""
    calls: list[int] = []
    real = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


@pytest.mark.parametrize("base_url, built", [(LAN, 0), ("http://127.0.0.1:8000", 1)])
def test_the_handed_text_is_built_only_where_it_is_shown(monkeypatch, base_url, built):
    # A page with a code shows no text: building it (a rule's HTML, a card's every passage)
    # would only cost the judge's wait.
    from judgekit.shapes import cards as card_shapes
    from judgekit.web.pages import show

    rules = _counting(monkeypatch, show, "label_external_refs")
    cards = _counting(monkeypatch, card_shapes, "card_detail")
    assert _client(base_url).get("/show" + ENTRY).status_code == 200
    client = create_app(
        {"TESTING": True, "CORPUS_DIR": str(CARDS), "BASE_URL": base_url, "SEARCH_CACHE_DIR": ""}
    ).test_client()
    assert client.get("/show" + CARD).status_code == 200
    assert (len(rules), len(cards)) == (built, built)


def test_the_address_is_escaped_in_the_page():
    odd = 'http://judges.example/a&b"c'
    page = _client(odd).get("/show" + ENTRY).get_data(as_text=True)
    assert 'a&b"c' not in page
    assert "a&amp;b&#34;c" in page or "a&amp;b&quot;c" in page
    assert encodes(svg_modules(_qr(page)), odd + ENTRY)


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/show/rules/demo-rulebook/2/no-such-entry", 404),
        ("/show/rules/demo-rulebook/9/beaming", 404),
        ("/show/elsewhere/demo-rulebook/2/beaming", 404),
        ("/show/rulings/demo-rulebook/2/beaming", 308),  # the other area: sent to this one
        ("/show/rules/demo-rulebook/2/%3Cscript%3E", 404),
        ("/show/cards/2e/no-such-card", 404),
        ("/show/cards/3e/earth", 404),
        ("/show/cards/2E/earth", 308),  # its own address: sent there
        ("/show/cards/2e/%3Cscript%3E", 404),
    ],
)
def test_what_is_not_an_entry_or_a_card_is_a_clear_answer(client, card_client, path, status):
    answer = (card_client if "/cards/" in path else client).get(path)
    assert answer.status_code == status
    assert "<script>" not in answer.get_data(as_text=True)
    if status == 308:
        assert answer.headers["Location"].endswith("/show" + (CARD if "/cards/" in path else ENTRY))


def test_the_pack_says_it_cannot_make_a_code():
    client = pack_app(str(MINI), "https://judges.example/pack").test_client()
    html = client.get(ENTRY).get_data(as_text=True)
    assert 'data-show-player="pack"' in html
    assert "this offline copy cannot make a QR code" in html
    assert "/show/" not in html


# -- a card's page and a published ruling's page ---------------------------------------------------


@pytest.fixture(scope="module")
def card_client():
    return create_app(
        {"TESTING": True, "CORPUS_DIR": str(CARDS), "BASE_URL": LAN, "SEARCH_CACHE_DIR": ""}
    ).test_client()


def test_a_card_page_shows_a_qr_code_of_its_own_address(card_client):
    html = card_client.get(CARD).get_data(as_text=True)
    link = re.search(r'<a class="show-player-link" href="([^"]+)">Show to a player</a>', html)
    assert link and link.group(1) == "/show" + CARD
    page = card_client.get(link.group(1), base_url="http://evil.example:9999").get_data(
        as_text=True
    )
    assert encodes(svg_modules(_qr(page)), LAN + CARD)
    assert not encodes(svg_modules(_qr(page)), LAN + "/cards/2e/engage-cloak")
    assert "2E card Earth" in page and "evil.example" not in page
    assert f'<a class="show-back" href="{CARD}">' in page
    assert "player-qr" not in html  # drawn only when asked


def test_a_card_only_this_computer_opens_gets_no_code_but_the_reason():
    client = create_app(
        {"TESTING": True, "CORPUS_DIR": str(CARDS), "BASE_URL": "http://127.0.0.1:8000"}
    ).test_client()
    page = client.get("/show" + CARD).get_data(as_text=True)
    assert "<svg" not in page
    assert "No QR code: only this computer can open http://127.0.0.1:8000" + CARD in page
    # The card's page as it reads, to hand over: its facts and the rulings naming it.
    handed = _words(_handed(page))
    assert handed.startswith("Earth 2E mission Rulings and errata Demo Rulebook v1 U.S.S. Galaxy")
    assert "…It may not go to Earth." in handed
    assert "hand this device to the player to read the card below" in page


def test_the_pack_says_it_cannot_make_a_code_for_a_card():
    client = pack_app(str(CARDS), "https://judges.example/pack").test_client()
    html = client.get(CARD).get_data(as_text=True)
    assert 'data-show-player="pack"' in html and "cannot make a QR code" in html
    assert "/show/" not in html


def _published_event(tmp_path, base_url: str = LAN):
    app = event_app(tmp_path, BASE_URL=base_url)
    laptop, judge_code, _ = start_event(app)
    sam = Phone(app.test_client(), "192.168.1.31")
    sam.join(judge_code, "Sam")
    assert sam.record(question="Beam <b>twice</b>?", players="J. Smith").status_code == 303
    return app, laptop, sam


def _change(laptop, change: str) -> None:
    token = csrf_of(laptop.get("/event/rulings/1", base_url=LAPTOP).get_data(as_text=True))
    answer = laptop.post(
        "/event/rulings/1/revise",
        data={"change": change, "csrf": token},
        base_url=LAPTOP,
        headers={"Origin": LAPTOP},
    )
    assert answer.status_code == 303


def test_a_published_ruling_shows_a_qr_code_of_the_page_players_read(tmp_path):
    app, laptop, sam = _published_event(tmp_path)
    player = Phone(app.test_client(), "192.168.1.120")
    assert player.get("/show/event/published/1").status_code == 404  # not published yet
    assert player.get("/event/published/1").status_code == 404
    assert "Show to a player" not in sam.get("/event/rulings/1").get_data(as_text=True)
    _change(laptop, "published")
    # The judge's page and the published list link to the show page.
    judge_page = sam.get("/event/rulings/1").get_data(as_text=True)
    assert '<a class="show-player-link" href="/show/event/published/1">' in judge_page
    listed = player.get("/event/published").get_data(as_text=True)
    assert '<a class="show-player-link" href="/show/event/published/1">' in listed
    page = player.get("/show/event/published/1").get_data(as_text=True)
    assert encodes(svg_modules(_qr(page)), LAN + "/event/published/1")
    assert "Regional, 5 Dec, Ruling 1: table 7, round 2" in page
    assert '<a class="show-back" href="/event/published/1">' in page
    # What the player opens: the ruling, without the players' names, its question escaped.
    public = player.get("/event/published/1")
    assert public.status_code == 200
    text = public.get_data(as_text=True)
    assert "Beam &lt;b&gt;twice&lt;/b&gt;?" in text and "Smith" not in text
    # Unpublished, it is gone at once (never kept in the page memory).
    _change(laptop, "unpublished")
    assert player.get("/show/event/published/1").status_code == 404
    assert player.get("/event/published/1").status_code == 404
    assert player.get("/show/event/published/2").status_code == 404
    # An unpublished ruling reads as one that does not exist.
    for n in (1, 2):
        said = player.get(f"/event/published/{n}").get_data(as_text=True)
        assert f"no published ruling {n} in this event" in said


def test_a_published_ruling_on_this_computers_address_gets_no_code(tmp_path):
    app, laptop, _sam = _published_event(tmp_path, "http://127.0.0.1:8000")
    _change(laptop, "published")
    page = app.test_client().get("/show/event/published/1").get_data(as_text=True)
    assert "<svg" not in page
    assert "only this computer can open http://127.0.0.1:8000/event/published/1" in page
    # The ruling as players read it, to hand over: its question escaped, no players' names.
    handed = _handed(page)
    assert "Beam &lt;b&gt;twice&lt;/b&gt;?" in handed and "Smith" not in page
    public = app.test_client().get("/event/published/1").get_data(as_text=True)
    ruling = re.search(r'<article class="event-ruling.*?</article>', public, re.S).group(0)
    # The same, less its own "Show to a player" link.
    assert _words(handed) == _words(ruling).removesuffix(
        " Show to a player (a QR code of this ruling, for their phone)"
    )
