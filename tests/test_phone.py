"""The phone page (/phone), its JSON twin, the published pack's QR code, and the links to it."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request

import pytest

from judgekit import create_app
from judgekit.commands import build_parser
from judgekit.shapes.phone import pack_address, phone_dict, stores_offline

LAN = "http://192.168.1.20:8000"
PACK = "https://judge.github.io/judgekit"


def _client(mini_dir, **config):
    return create_app(
        {"TESTING": True, "CORPUS_DIR": str(mini_dir), "BASE_URL": LAN, **config}
    ).test_client()


@pytest.fixture(scope="module")
def mini_dir():
    from tests.conftest import MINI

    return MINI


def test_without_a_published_pack_the_page_says_offline_cannot_work(mini_dir):
    client = _client(mini_dir)
    page = client.get("/phone").get_data(as_text=True)
    assert "<strong>This address cannot work offline.</strong>" in page
    assert f'<a href="{LAN}/">{LAN}/</a>' in page
    assert 'src="/qr.svg"' in page
    # The README's publishing and installing steps, in the app.
    assert "judgekit build --out site --base-url https://USER.github.io/judgekit" in page
    assert "Share → <em>Add to Home Screen</em>" in page
    assert "pack-qr.svg" not in page
    assert '<link rel="alternate" type="application/json" href="/api/phone">' in page
    assert client.get("/phone/pack-qr.svg").status_code == 404
    assert client.get("/api/phone").get_json() == {
        "address": {
            "url": f"{LAN}/",
            "qr_url": "/qr.svg",
            "other_devices": True,
            "offline": False,
            "needs": "the venue's network, reaching this laptop",
        },
        "pack": None,
    }


def test_a_published_pack_comes_first_on_the_page_and_the_home_page(mini_dir):
    client = _client(mini_dir, PACK_URL=PACK)
    page = client.get("/phone").get_data(as_text=True)
    assert "cannot work offline" not in page
    first, second = page.index(f'href="{PACK}/"'), page.index(f'href="{LAN}/"')
    assert first < second
    assert "Open this once while online; it then works with no network." in page
    assert 'src="/phone/pack-qr.svg"' in page
    home = client.get("/").get_data(as_text=True)
    box = home[home.index('<section class="doc-card pack-handout"') :]
    assert box.index('src="/phone/pack-qr.svg"') < box.index('src="/qr.svg"')
    assert "Open this once while online; it then works with no network." in box
    assert 'href="/phone"' in box
    qr = client.get("/phone/pack-qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    assert f"<title>{PACK}/</title>".encode() in qr.data
    assert client.get("/api/phone").get_json()["pack"] == {
        "url": f"{PACK}/",
        "qr_url": "/phone/pack-qr.svg",
        "offline": True,
        "other_devices": True,
        "needs": "one visit while online; then no network",
    }


def test_a_plain_http_pack_is_said_not_to_stay(mini_dir):
    page = _client(mini_dir, PACK_URL="http://192.168.1.20:9000").get("/phone")
    assert "is a plain-http address:</strong>" in page.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/", "/phone", "/timing", "/search", "/cards", "/no-such-page"])
def test_every_page_links_to_the_phone_page(mini_dir, path):
    page = _client(mini_dir).get(path).get_data(as_text=True)
    assert '<a class="phone-link" href="/phone">judgekit on your phone</a>' in page
    assert "data-lan-banner" in page


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("", ""),
        (None, ""),
        (PACK, PACK + "/"),
        (PACK + "/", PACK + "/"),
        ("http://127.0.0.1:9000/pack", "http://127.0.0.1:9000/pack/"),
    ],
)
def test_pack_address(value, expected):
    assert pack_address(value) == expected


@pytest.mark.parametrize("value", ["ftp://x", "judge.github.io", "https://x/?a=1", "https://x/#a"])
def test_a_bad_pack_url_stops_the_start_up(mini_dir, value):
    with pytest.raises(ValueError, match="must be the http"):
        _client(mini_dir, PACK_URL=value)


def test_secure_addresses():
    assert stores_offline("https://x/") and stores_offline("http://127.0.0.1:9/")
    assert not stores_offline("http://192.168.1.20:9/")
    assert phone_dict("http://127.0.0.1:8000", "")["address"]["other_devices"] is False


def test_serve_takes_pack_url():
    args = build_parser().parse_args(["serve", "--pack-url", PACK + "/"])
    assert args.pack_url == PACK
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--pack-url", "judge.github.io"])


def test_pack_url_from_the_environment(mini_dir, monkeypatch):
    monkeypatch.setenv("JUDGEKIT_PACK_URL", PACK)
    client = create_app({"TESTING": True, "CORPUS_DIR": str(mini_dir)}).test_client()
    assert client.get("/api/phone").get_json()["pack"]["url"] == PACK + "/"


def test_judgekit_serve_pack_url_reaches_the_page(tmp_path):
    # The real command, as an organiser types it: the pack it names is on /api/phone.
    from tests.conftest import DATA, _free_port

    port = _free_port()
    command = [sys.executable, "-m", "judgekit.commands", "--root", str(DATA / "pack"), "serve"]
    command += ["--port", str(port), "--workers", "1", "--pack-url", PACK]
    server = subprocess.Popen(
        command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, "judgekit serve stopped"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/phone", timeout=5) as r:
                    data = json.load(r)
                break
            except OSError:
                assert time.monotonic() < deadline, "judgekit serve did not answer in 60 s"
                time.sleep(0.2)
        assert data["pack"]["url"] == PACK + "/"
        assert data["address"]["url"] == f"http://127.0.0.1:{port}/"
    finally:
        server.terminate()
        server.wait(timeout=10)
