"""Requests take turns in a worker (judgekit/web/turns.py): one at a time, the first come first;
a request waiting for the embedder lets the next run and comes back before later ones; none waits
longer than its patience; and `judgekit serve`'s workers run their app and embedder wait so."""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from judgekit.meaning import embedder
from judgekit.web.turns import TakingTurns, Turns


def _until(condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.001)


def _thread(target) -> threading.Thread:
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread


@contextlib.contextmanager
def _held(turns: Turns) -> Iterator[None]:
    """Another thread's request holds the turn while the block runs."""
    release, holding = threading.Event(), threading.Event()

    def stuck() -> None:
        turns.enter()
        holding.set()
        release.wait(10)
        turns.leave()

    holder = _thread(stuck)
    assert holding.wait(10)
    try:
        yield
    finally:
        release.set()
        holder.join(10)


def test_one_request_at_a_time_runs():
    """Eight threads, 50 requests each: never two inside at once, none ran out of its turn."""
    turns = Turns(patience=30)
    inside, most, lock = [0], [0], threading.Lock()

    def requests() -> None:
        for _ in range(50):
            turns.enter()
            try:
                with lock:
                    inside[0] += 1
                    most[0] = max(most[0], inside[0])
                time.sleep(0.0001)
                with lock:
                    inside[0] -= 1
            finally:
                turns.leave()

    threads = [_thread(requests) for _ in range(8)]
    for t in threads:
        t.join(60)
    assert most[0] == 1 and turns.overtime == 0 and turns.waiting() == 0


def test_a_request_back_from_the_embedder_goes_before_later_ones():
    """A request that set its turn aside (waiting for its vector) takes it back before the
    requests that came after it, though they were waiting first; they then go in their order."""
    turns = Turns(patience=30)
    order: list[str] = []
    away, back = threading.Event(), threading.Event()
    holds, done = threading.Event(), threading.Event()

    def request(name: str, *, aside: threading.Event | None = None) -> None:
        turns.enter()
        try:
            if aside is not None:
                with turns.aside():
                    away.set()
                    aside.wait(10)  # the embedder's pass
            order.append(name)
            if name == "holder":
                holds.set()
                done.wait(10)
        finally:
            turns.leave()

    first = _thread(lambda: request("first", aside=back))
    assert away.wait(10)
    assert not turns._busy  # set aside: free for the next
    holder = _thread(lambda: request("holder"))
    assert holds.wait(10)
    later = []
    for name in ("second", "third"):
        later.append(_thread(lambda name=name: request(name)))
        count = len(later)
        _until(lambda count=count: turns.waiting() == count)
    back.set()  # the first request's vector arrives while the holder runs
    _until(lambda: turns.waiting() == 3)
    done.set()
    for t in (first, holder, *later):
        t.join(10)
    assert order == ["holder", "first", "second", "third"]
    assert turns.overtime == 0


def test_no_request_waits_longer_than_its_patience():
    """A request held up by one that keeps the turn runs anyway after the patience, beside it,
    and the turn is not lost: when the holder leaves, the next request takes it at once."""
    turns = Turns(patience=0.05)
    with _held(turns):
        start = time.monotonic()
        turns.enter()
        waited = time.monotonic() - start
        assert 0.04 <= waited < 5 and not turns.holding() and turns.overtime == 1
        assert turns.waiting() == 0
        turns.leave()  # none to give back: the holder still holds it
        assert turns._busy
    turns.enter()
    assert turns.holding()
    turns.leave()
    assert not turns._busy


def test_aside_outside_a_turn_does_nothing():
    turns = Turns()
    with turns.aside():
        assert not turns.holding()
    assert not turns._busy and turns.waiting() == 0


def test_the_turn_is_given_back_when_the_app_fails():
    """The WSGI wrapper gives the turn back whatever the app does."""
    turns = Turns(patience=30)

    def failing(environ, start_response):
        assert turns.holding()
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        TakingTurns(failing, turns)({}, lambda *a: None)
    assert not turns.holding() and not turns._busy

    def fine(environ, start_response):
        start_response("200 OK", [])
        return [b"ok"]

    assert TakingTurns(fine, turns)({}, lambda *a: None) == [b"ok"]
    assert not turns._busy


def test_a_worker_waits_for_its_vector_with_its_turn_set_aside(tmp_path):
    """Remote.embed enters its aside while it waits for the embedder (here one that never
    answers: the wait times out and the question is embedded by the worker)."""
    listener, path = embedder.listen()  # listens, never answers
    entered = []

    class Aside:
        def __enter__(self):
            entered.append("in")

        def __exit__(self, *exc):
            entered.append("out")

    try:
        remote = embedder.Remote(path, wait=0.2, aside=Aside)
        assert remote.embed([101, 2000, 102]) is None
    finally:
        listener.close()
        embedder.remove(path)
    assert entered == ["in", "out"] and remote.declined == 1


def test_serves_workers_run_in_turns(tmp_path):
    """What `judgekit serve` does in each worker with an embedder: the app's requests in turns,
    and the wait for a vector set aside in that same Turns."""
    from flask import Flask

    from judgekit.commands.serve import SWITCH_INTERVAL, in_turns

    app = Flask("t")
    app.get("/")(lambda: "hello")
    interval = sys.getswitchinterval()
    try:
        remote = in_turns(app, tmp_path / "embedder")
        assert sys.getswitchinterval() == SWITCH_INTERVAL < interval
    finally:
        sys.setswitchinterval(interval)
    assert isinstance(app.wsgi_app, TakingTurns)
    assert remote.aside == app.wsgi_app.turns.aside
    seen = []
    app.before_request(lambda: seen.append(app.wsgi_app.turns.holding()))
    assert app.test_client().get("/").data == b"hello"
    assert seen == [True] and not app.wsgi_app.turns._busy


def test_warming_the_pages_takes_no_turn():
    """The pages rendered at start-up (memory.warm) go through the app inside the turns: with a
    judge's request holding the turn, each renders without waiting for it (none overtime), and
    none holds it; a request from outside still takes its turn."""
    from flask import Flask, request

    from judgekit.web.memory import WARM_ENVIRON, warm

    app = Flask("t")
    turns = Turns(patience=0.05)
    app.wsgi_app = TakingTurns(app.wsgi_app, turns)
    seen = []

    @app.get("/<name>")
    def page(name: str) -> str:
        seen.append((name, turns.holding(), WARM_ENVIRON in request.environ))
        return name

    with _held(turns):
        assert warm(app, ["/a", "/b", "/c"]) == 3
    assert seen == [("a", False, True), ("b", False, True), ("c", False, True)]
    assert turns.overtime == 0 and not turns._busy
    assert app.test_client().get("/d").data == b"d" and seen[-1] == ("d", True, False)
