"""`judgekit serve`: waitress, the default address, the LAN address, a taken port, a real start."""

from __future__ import annotations

import io
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from judgekit import commands
from judgekit.commands import serve as serve_command
from judgekit.web import server, workers
from judgekit.web.handout import print_qr

from . import conftest
from .conftest import MINI, spawn_serve


@pytest.fixture()
def served(monkeypatch) -> dict:
    """Bind as `judgekit serve` does, but record the server instead of running it."""
    calls: dict = {}

    def fake_run(self):
        calls.update(app=self.flask_app, port=self.effective_port, adj=self.adj)

    monkeypatch.setattr(server.GuardedServer, "run", fake_run)
    # The warm-up thread prints when it is done: keep it out of the lines these tests read.
    monkeypatch.setattr(serve_command, "_warm", lambda app, process="": calls.update(warmed=app))
    # One process, as on a one-core machine: the test process must never fork.
    monkeypatch.setattr(workers, "auto_count", lambda: 1)
    return calls


@pytest.fixture()
def port(monkeypatch) -> Iterator[int]:
    """A loopback port this test has bound: `judgekit serve --port` it serves on that socket,
    handed over (make_server's sock), so no other process can take the port in between."""
    held = workers.listen("127.0.0.1", 0)
    bound = held.getsockname()[1]
    make_server = server.make_server

    def on_the_held_socket(app, host, port, threads=8, sock=None):
        assert port == bound and sock is None
        return make_server(app, host, port, threads, held)

    monkeypatch.setattr(server, "make_server", on_the_held_socket)
    try:
        yield bound
    finally:
        held.close()


def test_the_warm_up_says_when_every_page_is_ready(capsys):
    from judgekit import create_app
    from judgekit.web.context import library_of
    from judgekit.web.sitemap import all_paths

    app = create_app({"CORPUS_DIR": str(MINI)})
    serve_command._warm(app)
    out = capsys.readouterr().out
    assert re.fullmatch(r"all \d+ pages ready in memory \(\d+\.\d s\)\n", out), out
    paths = all_paths(library_of(app), app.extensions["judgekit"]["timing"])
    assert int(out.split()[1]) == len(paths) > 20
    serve_command._warm(app, "process 2 of 2")  # where several processes serve, each says it
    assert re.fullmatch(
        r"all \d+ pages ready in memory \(\d+\.\d s, process 2 of 2\)\n", capsys.readouterr().out
    )


def serve(*args: str) -> int:
    return commands.main(["--root", str(MINI), "serve", *args])


def test_serve_defaults_to_loopback_8000():
    args = commands.build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.threads, args.base_url) == ("127.0.0.1", 8000, 8, None)
    assert args.workers is None  # as many processes as cores (workers.auto_count)


@pytest.mark.parametrize(
    ("cores", "forks", "count"), [(1, True, 1), (2, True, 2), (16, True, 4), (8, False, 1)]
)
def test_serve_answers_from_a_process_per_core_up_to_four(monkeypatch, cores, forks, count):
    monkeypatch.setattr(workers, "usable_cores", lambda: cores)
    monkeypatch.setattr(workers, "can_fork", lambda: forks)
    assert workers.auto_count() == count
    assert serve_command._workers(None) == count
    assert serve_command._workers(3) == (3 if forks else 1)  # as asked, where the system can fork


def test_usable_cores_are_those_this_process_may_run_on(monkeypatch):
    if hasattr(os, "sched_getaffinity"):
        monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 3, 5})
        assert workers.usable_cores() == 3
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert workers.usable_cores() == 1


def test_workers_on_a_system_without_fork_serve_from_one_process(served, port, capsys, monkeypatch):
    from judgekit.web import workers

    monkeypatch.setattr(workers, "can_fork", lambda: False)
    assert serve("--workers", "2", "--port", str(port)) == 0
    # The judge pack's background build may say so first (its own line).
    said = capsys.readouterr().err.splitlines()
    assert said.count("--workers: this system cannot fork; serving from one process") == 1
    assert served["port"]


def test_serve_says_who_can_open_it_and_cites_that_address(served, port, capsys):
    assert serve("--port", str(port)) == 0
    assert served["app"].extensions["judgekit"]["library"].corpus.document("demo-rulebook")
    assert served["app"].config["BASE_URL"] == f"http://127.0.0.1:{port}"
    assert capsys.readouterr().out.splitlines() == [
        f"judgekit serving on http://127.0.0.1:{port}/",
        "only this computer can open it; use --host 0.0.0.0 to serve the network",
    ]


def test_serve_on_the_network_prints_the_address_to_open(served, port, capsys, monkeypatch):
    monkeypatch.setattr(server, "lan_address", lambda: "192.168.1.20")
    assert serve("--host", "0.0.0.0", "--port", str(port)) == 0
    assert served["app"].config["BASE_URL"] == f"http://192.168.1.20:{port}"
    qr = io.StringIO()
    print_qr(f"http://192.168.1.20:{port}/", qr)
    assert capsys.readouterr().out.splitlines() == [
        f"judgekit serving on http://0.0.0.0:{port}/",
        f"other judges on this network can open http://192.168.1.20:{port}/",
        *qr.getvalue().splitlines(),  # the same address as a QR code, to scan from the screen
    ]


def test_a_loopback_base_url_is_warned_about(served, port, capsys):
    assert serve("--port", str(port), "--base-url", "http://localhost:8000") == 0
    assert capsys.readouterr().out.splitlines()[-2:] == [
        "citations link to http://localhost:8000",
        "warning: only this computer can open that address; give --base-url the address "
        "other judges open",
    ]


def test_base_url_sets_the_citation_address(served, port, capsys):
    assert serve("--port", str(port), "--base-url", "https://rules.example.org/jk/") == 0
    assert served["app"].config["BASE_URL"] == "https://rules.example.org/jk"
    assert (
        capsys.readouterr().out.splitlines()[-1] == "citations link to https://rules.example.org/jk"
    )


def test_the_server_guards_its_connections(served, port):
    assert serve("--port", str(port)) == 0
    adj = served["adj"]
    limits = server.Limits()
    assert (adj.connection_limit, adj.channel_timeout, adj.max_request_body_size) == (
        limits.connections + 3,  # the server, waitress's wake-up pipe, the one being accepted
        limits.idle_seconds,
        limits.max_body,
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--port", "99999"],
            "argument --port: must be a whole number from 1 to 65535, not '99999'",
        ),
        (["--port", "-1"], "argument --port: must be a whole number from 1 to 65535, not '-1'"),
        (["--port", "0"], "argument --port: must be a whole number from 1 to 65535, not '0'"),
        (["--threads", "0"], "argument --threads: must be a whole number from 1 to 64, not '0'"),
        (["--workers", "0"], "argument --workers: must be a whole number from 1 to 64, not '0'"),
        (
            ["--host", "no-such-host.invalid"],
            "argument --host: unknown host 'no-such-host.invalid'",
        ),
        (
            ["--base-url", "ftp://x"],
            "argument --base-url: must be an http:// or https:// address such as "
            "http://192.168.1.20:8000, not 'ftp://x'",
        ),
    ],
)
def test_bad_serve_arguments_exit_2_with_a_message(served, capsys, args, message):
    with pytest.raises(SystemExit) as exit_:
        serve(*args)
    assert exit_.value.code == 2
    assert served == {}
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith(f"judgekit serve: error: {message}")


def test_serve_reports_a_broken_corpus(tmp_path, capsys):
    (tmp_path / "rules").mkdir()
    assert commands.main(["--root", str(tmp_path), "serve"]) == 1
    assert "icon vocabulary is missing" in capsys.readouterr().err


def test_serve_reports_a_taken_port(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert commands.main(["--root", str(MINI), "serve", "--port", str(port)]) == 1
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
    monkeypatch.setattr(server.socket, "socket", lambda *a, **k: FakeSocket(route))
    monkeypatch.setattr(
        server.socket,
        "getaddrinfo",
        lambda *a, **k: [(socket.AF_INET, 2, 17, "", (n, 0)) for n in names],
    )
    assert server.lan_address() == expected
    assert FakeSocket.sent == []


def test_judgekit_serve_really_serves():
    exe = Path(sys.executable).with_name("judgekit")
    proc, port, first = spawn_serve(
        [str(exe), "--root", str(MINI), "serve"], env={**os.environ, "PYTHONUNBUFFERED": "1"}
    )
    try:
        assert first == f"judgekit serving on http://127.0.0.1:{port}/\n"
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
                    home = response.read().decode()
                    ident = response.headers["Server"]
                break
            except OSError:
                assert proc.poll() is None, proc.stdout.read().decode()
                assert time.monotonic() < deadline, "judgekit serve did not answer"
                time.sleep(0.05)
        assert ident == "judgekit"  # waitress, with our ident
        assert "Demo Rulebook" in home
        url = f"http://127.0.0.1:{port}/static/css/judgekit.css"  # the plain name too
        with urllib.request.urlopen(url, timeout=2) as response:
            assert response.status == 200
    finally:
        proc.terminate()
        proc.communicate(timeout=10)


def test_a_port_taken_before_the_child_binds_it_is_tried_again(monkeypatch):
    # The race spawn_serve answers: the first port chosen is taken before the child binds it.
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        held = taken.getsockname()[1]
        ports = iter([held])
        free = conftest._free_port
        monkeypatch.setattr(conftest, "_free_port", lambda: next(ports, None) or free())
        exe = Path(sys.executable).with_name("judgekit")
        proc, port, first = spawn_serve([str(exe), "--root", str(MINI), "serve"])
    try:
        assert port != held
        assert first == f"judgekit serving on http://127.0.0.1:{port}/\n"
    finally:
        proc.terminate()
        proc.communicate(timeout=10)


def _children(pid: int) -> list[int]:
    """The child processes of a process (Linux's /proc)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def _gone(pid: int, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not Path(f"/proc/{pid}").exists():
            return True
        time.sleep(0.05)
    return False


def _line(proc: subprocess.Popen, seconds: float = 60) -> str:
    """The server's next line, or a failure after `seconds` (a line that never comes must not
    hold the test run: it did once, when two processes' lines ran together)."""
    out: list[bytes] = []
    reader = threading.Thread(target=lambda: out.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(seconds)
    assert out, f"no line from judgekit serve in {seconds} s"
    return out[0].decode()


def _start(*args: str, until: str = "serving from 2 processes\n"):
    """`judgekit serve` on the mini corpus, once it has printed the line until: the process,
    its port and its lines."""
    exe = Path(sys.executable).with_name("judgekit")
    proc, port, first = spawn_serve(
        [str(exe), "--root", str(MINI), "serve", *args],
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    lines = [first]
    for _ in range(12):  # the announcement, the warm-ups, then this line
        if re.fullmatch(until, lines[-1]) or not lines[-1]:
            break
        lines.append(_line(proc))
    assert re.fullmatch(until, lines[-1]), lines
    return proc, port, lines


def _start_workers() -> tuple[subprocess.Popen, int]:
    """`judgekit serve --workers 2`, once it says it serves from 2 processes; and its port."""
    proc, port, _ = _start("--workers", "2")
    return proc, port


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
def test_serve_by_default_answers_from_a_process_per_core_each_warming_its_pages():
    count = workers.auto_count()
    proc, _, lines = _start(until=r"all \d+ pages ready in memory \(.*\)\n")
    try:
        for _ in range(4):  # the other processes' lines, in any order
            if sum("pages ready" in line for line in lines) == count:
                break
            lines.append(_line(proc))
        warmed = [line for line in lines if "pages ready" in line]
        said = sorted(re.sub(r"\d+\.\d s", "T s", line) for line in warmed)
        pages = warmed[0].split()[1]
        if count == 1:
            assert said == [f"all {pages} pages ready in memory (T s)\n"]
        else:
            assert f"serving from {count} processes\n" in lines
            assert said == [
                f"all {pages} pages ready in memory (T s, process {n} of {count})\n"
                for n in range(1, count + 1)
            ]
        # The parent serves nothing: it keeps its workers running (workers.supervise).
        assert len(_children(proc.pid)) == (count if count > 1 else 0)
    finally:
        proc.terminate()
        proc.communicate(timeout=10)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
def test_serve_with_workers_answers_alike_from_every_process_and_stops_them():
    proc, port = _start_workers()
    try:
        children = _children(proc.pid)
        assert len(children) == 2
        answers = set()
        for _ in range(12):  # new connections: either process may accept each
            url = f"http://127.0.0.1:{port}/api/search?q=beam"
            with urllib.request.urlopen(url, timeout=5) as response:
                assert response.status == 200
                answers.add(response.read())
        assert len(answers) == 1 and b'"results":[' in answers.pop()
    finally:
        proc.terminate()
        proc.communicate(timeout=10)
    assert all(_gone(child) for child in children)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
def test_a_worker_stops_when_its_parent_is_killed():
    proc, _ = _start_workers()
    children = _children(proc.pid)
    proc.kill()
    proc.communicate(timeout=10)
    assert children and all(_gone(child) for child in children)
