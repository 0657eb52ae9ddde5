"""A worker's life (judgekit/web/workers.py), without forking: whatever happens, it ends in
os._exit and never returns into the parent's code (which would fork and serve again)."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from judgekit.web import workers

from .processes import alive, all_gone, children


class NoThread:
    """The thread that follows the parent, not started here (the test process is no worker)."""

    def __init__(self, **_kwargs) -> None:
        pass

    def start(self) -> None:
        """Nothing to follow."""


class Exited(Exception):
    """Stands in for os._exit in these tests."""


class BrokenStdout(io.StringIO):
    """stdout piped to a reader that went away (`judgekit serve --workers 2 | head -1`)."""

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.fixture
def exits(monkeypatch):
    codes: list[int] = []

    def fake_exit(code: int) -> None:
        codes.append(code)
        raise Exited

    monkeypatch.setattr(workers.os, "_exit", fake_exit)
    monkeypatch.setattr(workers.threading, "Thread", NoThread)
    monkeypatch.setattr(workers, "_die_with", lambda _parent: None)  # no signals in pytest
    return codes


def _serve_ok() -> None:
    pass


def _serve_fails() -> None:
    raise RuntimeError("waitress stopped")


@pytest.mark.parametrize(("serve", "code"), [(_serve_ok, 0), (_serve_fails, 1)])
def test_a_worker_ends_with_its_code(exits, serve, code):
    with pytest.raises(Exited):
        workers._run_worker(1, serve)
    assert exits == [code]


@pytest.mark.parametrize(("serve", "code"), [(_serve_ok, 0), (_serve_fails, 1)])
def test_a_worker_ends_even_when_its_output_is_gone(exits, monkeypatch, serve, code):
    monkeypatch.setattr(workers.sys, "stdout", BrokenStdout())
    with pytest.raises(Exited):  # not BrokenPipeError, back into the parent's loop
        workers._run_worker(1, serve)
    assert exits == [code]


# -- the parent and its workers, forked for real (Linux) ------------------------------------

SUPERVISED = """
import subprocess, sys, time
from judgekit.web import workers
def serve(number):
    started = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    sys.stdout.write(f"worker {number} started {started.pid}\\n")  # one write: lines never mix
    sys.stdout.flush()
    while True:
        time.sleep(1)
sys.exit(workers.supervise(2, serve))
"""


class Supervised:
    """workers.supervise(2, …) in a subprocess; each worker starts a process of its own (as a
    pack build would) and says its pid."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", SUPERVISED],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.started: dict[int, int] = {}  # worker number: the process it started
        self.read_until_started(2)

    def read_until_started(self, count: int, seconds: float = 20) -> None:
        # Bounded: a supervisor that never says it started is killed, which ends the reading.
        timer = threading.Timer(seconds, self.proc.kill)
        timer.start()
        try:
            while len(self.started) < count:
                line = self.proc.stdout.readline()
                assert line, "the supervisor ended (or said nothing in time)"
                # Unbuffered, the parent's print of "serving from …" is two writes: a worker's
                # line may come between them, so it is looked for anywhere in a line.
                for number, pid in re.findall(r"worker (\d) started (\d+)", line):
                    self.started[int(number)] = int(pid)
        finally:
            timer.cancel()

    def workers(self) -> list[int]:
        return children(self.proc.pid)

    def stop(self) -> str:
        """Kill it (its workers follow); what it wrote to stderr."""
        if self.proc.poll() is None:
            self.proc.kill()
        return self.proc.communicate(timeout=10)[1]


linux = pytest.mark.skipif(
    not Path("/proc/self/task").exists() or not hasattr(os, "fork"), reason="needs Linux"
)


@linux
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_stopping_the_parent_ends_its_workers_and_what_they_started(signum):
    supervised = Supervised()
    try:
        every = [*supervised.workers(), *supervised.started.values()]
        assert len(every) == 4
        supervised.proc.send_signal(signum)
        supervised.proc.wait(timeout=10)
        assert all_gone(every, 0.9), [pid for pid in every if alive(pid)]
    finally:
        supervised.stop()


def _parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


@linux
def test_a_killed_worker_is_replaced_at_once_logged_and_what_it_started_ended():
    supervised = Supervised()
    try:
        first = supervised.workers()
        started_by = {_parent_of(pid): pid for pid in supervised.started.values()}
        victim, other = first
        os.kill(victim, signal.SIGKILL)
        killed = time.monotonic()
        while not set(supervised.workers()) - set(first):
            assert time.monotonic() - killed < 1.0, "no new worker within a second"
            time.sleep(0.01)
        assert all_gone([started_by[victim]], 1.0)  # its process, left behind, is ended
        assert alive(started_by[other]) and alive(other)
    finally:
        err = supervised.stop()
    assert re.search(rf"worker process \d \(pid {victim}\) was killed by SIGKILL after ", err), err


FAILING = """
import sys, time
from judgekit.web import workers
workers.SHORTEST_LIFE = 5.0
def serve(number):
    print(f"worker {number} at {time.monotonic():.3f}", flush=True)
    raise RuntimeError("cannot serve")
sys.exit(workers.supervise(1, serve))
"""


@linux
def test_a_worker_failing_at_start_up_is_started_again_ever_more_slowly():
    proc = subprocess.Popen(
        [sys.executable, "-c", FAILING], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        lines = (line for line in proc.stdout if line.startswith("worker 1 at "))
        starts = [float(next(lines).split()[-1]) for _ in range(4)]
    finally:
        proc.kill()
        err = proc.communicate(timeout=10)[1]
    gaps = [later - earlier for earlier, later in zip(starts, starts[1:], strict=False)]
    assert gaps[0] >= 0.5 and gaps[1] >= 1.0 and gaps[2] >= 2.0, gaps
    assert "worker process 1 (pid " in err and "exited with code 1 after" in err
    assert "starting another in 0.5 s" in err and "starting another in 2.0 s" in err


def test_a_stop_signal_as_the_workers_are_forked_stops_the_server():
    # A SIGTERM that came just as fork() returned was lost: the parent went on serving (seen in
    # about half of such starts). Sent as soon as the server says where it serves, five times.
    from .conftest import MINI, spawn_serve

    exe = Path(sys.executable).with_name("judgekit")
    for _ in range(5):
        proc, _port, _first = spawn_serve(
            [str(exe), "--root", str(MINI), "serve", "--workers", "2"]
        )
        proc.terminate()
        try:
            proc.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate(timeout=15)
            pytest.fail("judgekit serve went on after SIGTERM")


def test_a_line_said_by_one_of_several_processes_is_one_write(monkeypatch):
    """The processes share standard output: a line and its end written apart could run into
    another process's line ("AB\\n\\n"), which once held the serve test waiting for a line."""
    writes = []

    class Out:
        def write(self, text):
            writes.append(text)

        def flush(self):
            pass

    monkeypatch.setattr(sys, "stdout", Out())
    workers.say("all 20 pages ready in memory (0.1 s, process 1 of 2)")
    assert writes == ["all 20 pages ready in memory (0.1 s, process 1 of 2)\n"]
