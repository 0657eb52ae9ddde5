"""Showing a rule to a player: each entry page's "Show to a player" page, a QR code of the entry's
address as other devices open it (the configured address, never the request's Host), and in the
judge pack a plain note instead."""

from __future__ import annotations

import re

import pytest

from judgekit import create_app
from judgekit.pack.build import pack_app
from tests.conftest import MINI
from tests.qr_matrix import encodes, svg_modules

LAN = "http://192.168.1.20:8000"
ENTRY = "/rules/demo-rulebook/2/beaming"
RULING = "/rulings/demo-rulings/r1/access-denied"


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


def test_an_address_only_this_computer_opens_gets_no_code_but_the_reason():
    page = _client("http://127.0.0.1:8000").get("/show" + ENTRY).get_data(as_text=True)
    assert "<svg" not in page
    assert "No QR code: only this computer can open http://127.0.0.1:8000" + ENTRY in page
    assert "judgekit serve --host 0.0.0.0" in page


def test_a_server_without_an_address_gets_no_code():
    page = _client("").get("/show" + ENTRY).get_data(as_text=True)
    assert "<svg" not in page and "was given no web address" in page


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
    ],
)
def test_what_is_not_an_entry_is_a_clear_answer(client, path, status):
    answer = client.get(path)
    assert answer.status_code == status
    assert "<script>" not in answer.get_data(as_text=True)
    if status == 308:
        assert answer.headers["Location"].endswith("/show" + ENTRY)


def test_the_pack_says_it_cannot_make_a_code():
    client = pack_app(str(MINI), "https://judges.example/pack").test_client()
    html = client.get(ENTRY).get_data(as_text=True)
    assert 'data-show-player="pack"' in html
    assert "this offline copy cannot make a QR code" in html
    assert "/show/" not in html
