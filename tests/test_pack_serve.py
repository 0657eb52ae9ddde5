"""`judgekit serve` hands the reference out: a QR code of its address and the pack's zip."""

from __future__ import annotations

import io
import time
import zipfile
from pathlib import Path

import pytest

from judgekit import create_app
from judgekit.web.handout import print_qr, qr_svg

PACK_CORPUS = Path(__file__).parent / "data" / "pack"
ADDRESS = "http://192.168.1.20:8000"


@pytest.fixture()
def served():
    return create_app(
        {"TESTING": True, "CORPUS_DIR": str(PACK_CORPUS), "BASE_URL": ADDRESS}
    ).test_client()


def test_qr_code_of_the_address(served):
    response = served.get("/qr.svg")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.data == qr_svg(ADDRESS + "/")
    assert response.data.startswith(b"<svg") and b"<title>http://192.168.1.20:8000/</title>" in (
        response.data
    )
    assert qr_svg(ADDRESS + "/") != qr_svg("http://192.168.1.21:8000/")


def test_home_page_shows_the_qr_code_and_the_zip(served):
    html = served.get("/").get_data(as_text=True)
    assert '<img class="pack-qr" src="/qr.svg"' in html
    assert 'alt="QR code of http://192.168.1.20:8000/"' in html
    assert '<a href="/pack.zip" download>Download the judge pack</a>' in html


@pytest.mark.parametrize(
    ("base_url", "warned"),
    [(ADDRESS, False), ("http://127.0.0.1:8000", True), ("http://localhost:8000", True)],
)
def test_home_page_warns_when_the_qr_code_names_this_computer(base_url, warned):
    client = create_app(
        {"TESTING": True, "CORPUS_DIR": str(PACK_CORPUS), "BASE_URL": base_url}
    ).test_client()
    html = client.get("/").get_data(as_text=True)
    assert ("Only this computer can open" in html) == warned
    assert ("on this network." in html) != warned


def test_terminal_qr_code():
    out = io.StringIO()
    print_qr(ADDRESS + "/", out)
    lines = out.getvalue().splitlines()
    assert len(lines) > 10 and any("█" in line or "▀" in line for line in lines)


def test_pack_zip_built_once_in_the_background(served):
    first = served.get("/pack.zip")
    assert first.status_code == 202
    assert first.get_data(as_text=True) == "The judge pack is being built; try again in a minute.\n"
    assert first.headers["Retry-After"] == "30"
    deadline = time.monotonic() + 120
    response = served.get("/pack.zip")
    while response.status_code == 202:
        assert time.monotonic() < deadline, "the pack was not built in 120 s"
        time.sleep(0.5)
        response = served.get("/pack.zip")
    assert response.status_code == 200
    assert response.mimetype == "application/zip"
    assert "judgekit-pack.zip" in response.headers["Content-Disposition"]
    with zipfile.ZipFile(io.BytesIO(response.data)) as archive:
        names = set(archive.namelist())
        page = archive.read("rules/demo-rulebook/2/attempting/index.html").decode()
    assert {"index.html", "sw.js", "pack.json", "manifest.webmanifest"} <= names
    # Citations in the zip link to the address the server gives out.
    assert f"{ADDRESS}/rules/demo-rulebook/2/attempting" in page
    # The pack's own home page offers no QR code: it has no server.
    assert "pack-qr" not in (archive_home := _home(response.data))
    assert "judgekit" in archive_home
    again = served.get("/pack.zip")
    assert again.status_code == 200 and again.data == response.data


def _home(data: bytes) -> str:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.read("index.html").decode()
