"""`judgekit serve`: waitress, the default address, the LAN address, a taken port, a real start."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from judgekit import cli

from .conftest import MINI, _free_port


@pytest.fixture()
def served(monkeypatch) -> dict:
    """Record what waitress.serve was asked to do instead of serving."""
    import waitress

    calls: dict = {}

    def fake_serve(app, **kwargs):
        calls.update(kwargs, app=app)

    monkeypatch.setattr(waitress, "serve", fake_serve)
    return calls


def test_serve_defaults_to_loopback_8000(served, capsys):
    assert cli.main(["--root", str(MINI), "serve"]) == 0
    assert (served["host"], served["port"]) == ("127.0.0.1", 8000)
    assert served["app"].extensions["judgekit"]["library"].corpus.document("demo-rulebook")
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "judgekit serving on http://127.0.0.1:8000/",
        "only this computer can open it; use --host 0.0.0.0 to serve the network",
    ]


def test_serve_on_the_network_prints_the_address_to_open(served, capsys, monkeypatch):
    monkeypatch.setattr(cli, "lan_address", lambda: "192.168.1.20")
    assert cli.main(["--root", str(MINI), "serve", "--host", "0.0.0.0", "--port", "8080"]) == 0
    assert (served["host"], served["port"]) == ("0.0.0.0", 8080)
    assert capsys.readouterr().out.splitlines() == [
        "judgekit serving on http://0.0.0.0:8080/",
        "other judges on this network can open http://192.168.1.20:8080/",
    ]


def test_serve_reports_a_broken_corpus(tmp_path, capsys):
    (tmp_path / "rules").mkdir()
    assert cli.main(["--root", str(tmp_path), "serve"]) == 1
    assert "icon vocabulary is missing" in capsys.readouterr().err


def test_serve_reports_a_taken_port(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert cli.main(["--root", str(MINI), "serve", "--port", str(port)]) == 1
    assert capsys.readouterr().err.startswith(f"cannot serve on 127.0.0.1:{port}: ")


class FakeSocket:
    """A UDP socket that records calls; connect() fails unless a route is given."""

    sent: list = []

    def __init__(self, route: str | None) -> None:
        self.route = route

    def connect(self, address) -> None:
        if self.route is None:
            raise OSError("Network is unreachable")

    def getsockname(self):
        return (self.route, 40000)

    def send(self, *args):  # pragma: no cover - must never be called
        FakeSocket.sent.append(args)

    sendto = send

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    ("route", "names", "expected"),
    [
        ("192.168.1.20", [], "192.168.1.20"),
        # no route at all (a venue network without a gateway): the host's own address
        (None, ["127.0.1.1", "10.0.0.7"], "10.0.0.7"),
        (None, [], "127.0.0.1"),
    ],
)
def test_lan_address_sends_nothing(monkeypatch, route, names, expected):
    monkeypatch.setattr(cli.socket, "socket", lambda *a, **k: FakeSocket(route))
    monkeypatch.setattr(
        cli.socket,
        "getaddrinfo",
        lambda *a, **k: [(socket.AF_INET, 2, 17, "", (n, 0)) for n in names],
    )
    assert cli.lan_address() == expected
    assert FakeSocket.sent == []


def test_lan_address_on_this_machine():
    parts = cli.lan_address().split(".")
    assert len(parts) == 4 and all(p.isdigit() and 0 <= int(p) <= 255 for p in parts)


def test_judgekit_serve_really_serves():
    port = _free_port()
    exe = Path(sys.executable).with_name("judgekit")
    proc = subprocess.Popen(
        [str(exe), "--root", str(MINI), "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
                    home = response.read().decode()
                    server = response.headers["Server"]
                break
            except OSError:
                assert proc.poll() is None, proc.stdout.read().decode()
                assert time.monotonic() < deadline, "judgekit serve did not answer"
                time.sleep(0.05)
        assert server == "judgekit"  # waitress, with our ident
        assert "Demo Rulebook" in home
        url = f"http://127.0.0.1:{port}/static/css/judgekit.css"
        with urllib.request.urlopen(url, timeout=2) as response:
            assert response.status == 200
    finally:
        proc.terminate()
        out = proc.communicate(timeout=10)[0].decode()
    assert out.startswith(f"judgekit serving on http://127.0.0.1:{port}/\n")
