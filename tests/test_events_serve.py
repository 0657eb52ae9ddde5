"""The event's rulings on the real server (`judgekit serve`, two worker processes): judges writing
at once lose nothing, and a server killed mid-write keeps every ruling it confirmed."""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import pytest

from judgekit.events import fields
from judgekit.events.store import Store
from judgekit.web.workers import WORKER_HEADER, WORKER_HEADER_ENV

from .conftest import MINI, spawn_serve

EXE = Path(sys.executable).with_name("judgekit")
CITE = "entry:demo-rulebook/2/beaming"


def _event(data_dir: Path) -> tuple[int, str]:
    """An event started from the command line: its id and judge code."""
    out = subprocess.run(
        [str(EXE), "event", "--data-dir", str(data_dir), "new", "Regional, 5 Dec"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    code = next(line.split()[2] for line in out.splitlines() if line.startswith("judge code:"))
    store = Store(data_dir / "events.sqlite")
    return store.current_event().id, code


def _serve(data_dir: Path):
    proc, port, _first = spawn_serve(
        [str(EXE), "--root", str(MINI), "serve", "--workers", "2", "--data-dir", str(data_dir)],
        env={**os.environ, "PYTHONUNBUFFERED": "1", WORKER_HEADER_ENV: "1"},
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    said = []
    while time.monotonic() < deadline:  # until both workers answer
        said.append(proc.stdout.readline().decode())
        if said[-1].startswith("serving from 2 processes"):
            break
    else:
        proc.kill()
        raise AssertionError("the workers did not start")
    assert (
        f"event 'Regional, 5 Dec': judges join at {base}/event (its codes: judgekit event codes)\n"
        in said
    )
    return proc, base


class Judge:
    """A judge's phone speaking the JSON API, with its own cookies."""

    def __init__(self, base: str, event_id: int) -> None:
        self.base, self.event_id = base, event_id
        self.cookies = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))
        self.csrf = ""
        self.writers: list[int] = []  # the process that confirmed each ruling recorded

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        headers = {
            "Origin": self.base,
            "Content-Type": "application/json",
            "X-CSRF-Token": self.csrf,
        }
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with self.opener.open(request, timeout=30) as answer:
                if method == "POST" and answer.status == 201:
                    self.writers.append(int(answer.headers[WORKER_HEADER]))
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"{}")

    def join(self, code: str, name: str) -> None:
        self.csrf = self.call("GET", "/api/events/session")[1]["csrf"]  # before a session
        status, _ = self.call(
            "POST", f"/api/events/{self.event_id}/join", {"code": code, "name": name}
        )
        assert status == 200
        self.csrf = self.call("GET", "/api/events/session")[1]["csrf"]

    def record(self, question: str) -> int:
        body = {"round": "1", "table": "4", "question": question, "ruling": "r", "cite": [CITE]}
        return self.call("POST", f"/api/events/{self.event_id}/rulings", body)[0]

    def post_form(self, path: str, fields: list[tuple[str, str]]) -> tuple[int, str]:
        """POST a form as a browser does (percent-encoded UTF-8); the status and the body."""
        data = urllib.parse.urlencode(fields).encode()
        headers = {"Origin": self.base, "Content-Type": "application/x-www-form-urlencoded"}
        request = urllib.request.Request(self.base + path, data, headers, method="POST")
        no_redirects = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirect
        )
        try:
            with no_redirects.open(request, timeout=30) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _stop(proc) -> None:
    proc.terminate()
    try:
        proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate(timeout=10)


def test_twenty_judges_writing_at_once_from_both_workers_lose_nothing(tmp_path):
    event_id, code = _event(tmp_path)
    proc, base = _serve(tmp_path)
    try:
        judges = [Judge(base, event_id) for _ in range(20)]
        for n, judge in enumerate(judges):
            judge.join(code, f"Judge {n}")
        results: list[tuple[str, int]] = []
        lock = threading.Lock()

        def write(n: int, judge: Judge) -> None:
            for k in range(5):
                question = f"judge {n} question {k}"
                status = judge.record(question)
                with lock:
                    results.append((question, status))

        threads = [threading.Thread(target=write, args=(n, j)) for n, j in enumerate(judges)]
        for t in threads:
            t.start()
        # The head judge backs the database up while they write.
        backup = tmp_path / "backup.sqlite"
        subprocess.run(
            [str(EXE), "event", "--data-dir", str(tmp_path), "backup", str(backup)],
            check=True,
            capture_output=True,
            timeout=60,
        )
        for t in threads:
            t.join(timeout=120)
        assert [s for _, s in results] == [201] * 100
        # Both workers took writes (each answer names its process): the parent serves nothing.
        writers = {pid for judge in judges for pid in judge.writers}
        assert writers == set(_children(proc.pid)) and len(writers) == 2
        copy = Store(backup)
        assert copy.integrity() == "ok" and len(copy.rulings(event_id)) <= 100
        listed = judges[0].call("GET", f"/api/events/{event_id}")[1]
        assert sorted(r["question"] for r in listed["rulings"]) == sorted(q for q, _ in results)
        assert sorted(r["number"] for r in listed["rulings"]) == list(range(1, 101))
    finally:
        _stop(proc)
    assert Store(tmp_path / "events.sqlite").integrity() == "ok"


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def _kill_all_mid_write(proc, threads, stop, confirmed, needed: int) -> None:
    """Start the writers; once ``confirmed()`` counts ``needed`` writes, SIGKILL every process
    of the server at once, mid-write, and let the writers stop."""
    for t in threads:
        t.start()
    deadline = time.monotonic() + 60
    while confirmed() < needed and time.monotonic() < deadline:
        time.sleep(0.05)
    assert confirmed() >= needed
    for pid in [*_children(proc.pid), proc.pid]:  # all at once, mid-write
        os.kill(pid, signal.SIGKILL)
    stop.set()
    for t in threads:
        t.join(timeout=60)


@pytest.mark.skipif(not Path("/proc").exists(), reason="finds the workers in /proc")
def test_kill_9_mid_write_keeps_every_confirmed_ruling_and_a_sound_database(tmp_path):
    event_id, code = _event(tmp_path)
    proc, base = _serve(tmp_path)
    confirmed: list[str] = []
    stop = threading.Event()
    try:
        judges = [Judge(base, event_id) for _ in range(6)]
        for n, judge in enumerate(judges):
            judge.join(code, f"Judge {n}")

        def write(n: int, judge: Judge) -> None:
            k = 0
            while not stop.is_set() and k < 2000:
                question = f"judge {n} question {k}"
                try:
                    if judge.record(question) == 201:
                        confirmed.append(question)
                except (OSError, ValueError, http.client.HTTPException):  # gone: unconfirmed
                    return
                k += 1

        threads = [threading.Thread(target=write, args=(n, j)) for n, j in enumerate(judges)]
        _kill_all_mid_write(proc, threads, stop, lambda: len(confirmed), 30)
    finally:
        stop.set()
        proc.kill()
        proc.communicate(timeout=10)
    path = tmp_path / "events.sqlite"
    conn = sqlite3.connect(path)  # as the next start would open it (the WAL replayed)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    kept = {row[0] for row in conn.execute("SELECT question FROM revisions")}
    conn.close()
    assert set(confirmed) <= kept
    Store(path).migrate()  # and judgekit starts on it again


def _session_token(judge: Judge) -> str:
    """The session token a phone's cookie holds (signed: ``token.signature``)."""
    (cookie,) = [c for c in judge.cookies if c.name == "jk_judge"]
    return cookie.value.strip('"').rsplit(".", 1)[0]


@pytest.mark.skipif(not Path("/proc").exists(), reason="finds the workers in /proc")
def test_kill_9_mid_rejoin_leaves_the_old_session_or_the_new_never_both_nor_neither(tmp_path):
    """Judges let back in again and again (the head judge's one-time code, a new phone each
    time), every process of the server killed mid-write: each judge has exactly one live
    session (the old device's or the new one's: never two, never none), every code spent made
    a session (and ended the one before), and every rejoin confirmed to a phone was kept."""
    event_id, code = _event(tmp_path)
    path = tmp_path / "events.sqlite"
    store = Store(path)  # the head judge's desk, writing beside the server
    proc, base = _serve(tmp_path)
    names = [f"Judge {n}" for n in range(6)]
    issued = dict.fromkeys(names, 0)
    confirmed: dict[str, list[str]] = {name: [] for name in names}
    stop = threading.Event()
    try:
        for name in names:
            first = Judge(base, event_id)
            first.join(code, name)
            confirmed[name].append(_session_token(first))

        def rejoin(name: str) -> None:
            while not stop.is_set() and issued[name] < 2000:
                again = store.let_back_in(event_id, name)
                issued[name] += 1
                phone = Judge(base, event_id)  # a new phone each time
                try:
                    phone.join(again, name)
                except (OSError, ValueError, http.client.HTTPException):  # gone: unconfirmed
                    return
                confirmed[name].append(_session_token(phone))

        threads = [threading.Thread(target=rejoin, args=(name,)) for name in names]
        _kill_all_mid_write(proc, threads, stop, lambda: sum(map(len, confirmed.values())), 40)
    finally:
        stop.set()
        proc.kill()
        proc.communicate(timeout=10)
    conn = sqlite3.connect(path)  # as the next start would open it (the WAL replayed)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    for name in names:
        (judge_id,) = conn.execute("SELECT id FROM judges WHERE name = ?", (name,)).fetchone()
        live = {
            r[0]
            for r in conn.execute("SELECT token_hash FROM sessions WHERE judge_id = ?", (judge_id,))
        }
        ended = {
            r[0]
            for r in conn.execute(
                "SELECT token_hash FROM ended_sessions WHERE judge_id = ?", (judge_id,)
            )
        }
        unspent = conn.execute(
            "SELECT COUNT(*) FROM rejoins WHERE judge_id = ?", (judge_id,)
        ).fetchone()[0]
        assert len(live) == 1, (name, live)  # the old session or the new, never both nor neither
        assert not live & ended
        # Each code spent made one session and ended the one before it: the first join's, then
        # one a code: sessions ever = 1 + codes spent (a code issued and not spent stays).
        assert len(live) + len(ended) == 1 + issued[name] - unspent, name
        kept = live | ended
        assert {hashlib.sha256(t.encode()).hexdigest() for t in confirmed[name]} <= kept
    conn.close()
    Store(path).migrate()  # and judgekit starts on it again


def test_a_ruling_with_every_field_at_its_limit_in_4_byte_characters_is_kept(tmp_path):
    event_id, code = _event(tmp_path)
    proc, base = _serve(tmp_path)
    try:
        judge = Judge(base, event_id)
        judge.join(code, "Sam")
        wide = "\U0001f0cf"  # 4 bytes in UTF-8, 12 percent-encoded
        form = [("csrf", judge.csrf), ("draft", "d" * 64), ("cite", CITE)]
        for name in ("round", "table", "question", "ruling", "players"):
            form.append((name, wide * fields.LIMITS[name]))
        status, _ = judge.post_form("/event/rulings", form)
        assert status == 303
        (kept,) = judge.call("GET", f"/api/events/{event_id}")[1]["rulings"]
        assert kept["question"] == wide * 1500 and kept["players"] == wide * 120
        # Past the limits, the answer says what is too long (waitress's own 413, in words).
        form.append(("question", wide * 10000))
        status, said = judge.post_form("/event/rulings", form)
        assert status == 413 and "at most 1,500 characters each" in said
    finally:
        _stop(proc)


def test_a_strangers_requests_change_nothing_and_are_refused_with_reasons(tmp_path):
    event_id, code = _event(tmp_path)
    proc, base = _serve(tmp_path)
    port = int(base.rsplit(":", 1)[1])
    lan = f"http://judgekit.lan:{port}"  # asked for by the venue's name: not the laptop itself
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    cookie = ""

    def ask(method: str, path: str, body: dict | None = None, **headers) -> tuple[int, dict]:
        nonlocal cookie
        sent = {"Host": lan[7:], "Origin": lan, "Content-Type": "application/json", **headers}
        if cookie:
            sent["Cookie"] = cookie
        conn.request(method, path, json.dumps(body) if body is not None else None, sent)
        answer = conn.getresponse()
        given = answer.getheader("Set-Cookie")
        if given:
            cookie = given.split(";", 1)[0]
        return answer.status, json.loads(answer.read() or b"{}")

    try:
        ruling = {"round": "1", "table": "1", "question": "q", "ruling": "r", "cite": [CITE]}
        path = f"/api/events/{event_id}/rulings"
        status, said = ask("POST", path, ruling)
        assert status == 401 and "join the event" in said["message"]
        status, said = ask("POST", path, ruling, Origin="http://evil.example")
        assert status == 403 and "another site" in said["message"]
        join = f"/api/events/{event_id}/join"
        status, said = ask("POST", join, {"code": code, "name": "Eve"})  # a forged join
        assert status == 403 and "CSRF" in said["message"]
        token = ask("GET", "/api/events/session")[1]["csrf"]
        statuses: dict[int, int] = {}
        deadline = time.monotonic() + 300
        for n in range(10_000):
            status, said = ask(
                "POST", join, {"code": f"GUESS{n:05d}", "name": "Eve"}, **{"X-CSRF-Token": token}
            )
            statuses[status] = statuses.get(status, 0) + 1
            assert time.monotonic() < deadline, n
        assert statuses == {403: 10, 429: 9_990}
        assert "too many wrong codes from this device" in said["message"]
        status, _ = ask("POST", join, {"code": code, "name": "Eve"}, **{"X-CSRF-Token": token})
        assert status == 429  # the right code too, from there, until the head judge clears them
    finally:
        conn.close()
        _stop(proc)
    store = Store(tmp_path / "events.sqlite")
    assert store.judges(event_id) == []  # no one joined
    assert store.rulings(event_id) == [] and store.integrity() == "ok"
