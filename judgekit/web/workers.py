"""Serving from several processes, so that searches use every core, kept running by a parent.

One process answers one request at a time in Python (the GIL), however many threads it has. So
``judgekit serve`` binds the address once, loads the corpus and the search index once, and then
forks: each worker answers at once from that memory with its own waitress loop and threads, all
accepting on the one listening socket, and prepares its search and pages in the background. By
default there is a worker for each core this process may use, up to MOST_AUTO (``--workers N``
says how many). Forking needs os.fork (Linux, macOS); elsewhere (Windows) one process serves.

The parent serves nothing: it stays single-threaded (so that forking again is safe), starts a new
worker at once when one dies (and says so), and stops them all when it is stopped. A worker
dies with its parent, however the parent ends (even ``kill -9``): on Linux the kernel sends it
SIGTERM (PR_SET_PDEATHSIG), and everywhere a thread notices the parent is gone within a second.

Each process keeps its own limits (waitress_adapter.Limits): one client address may hold
``per_client`` connections in each, as each process may hold ``connections`` in all.
"""

from __future__ import annotations

import ctypes
import functools
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable

from flask import Response
from waitress.adjustments import Adjustments

PARENT_CHECK_EVERY = 1.0  # seconds: how soon a worker whose parent died stops (without prctl)
# Each process renders its own pages (with the built-in corpus, some 95 MB each): a laptop with
# many cores serves a venue from a few; more would add memory, not answers a venue needs.
MOST_AUTO = 4
# A worker that dies sooner than this after starting is started again after a growing pause
# (up to MOST_PAUSE), so that one failing at start-up does not make the parent fork in a loop.
SHORTEST_LIFE = 1.0
MOST_PAUSE = 30.0
_PR_SET_PDEATHSIG = 1  # linux/prctl.h
_PR_SET_NAME = 15


def say(line: str) -> None:
    """Print a line to standard output in one write: the processes share it, and print() writes
    the line and its end apart, so two processes' lines could interleave ("AB\n\n")."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def can_fork() -> bool:
    """Whether this system can serve from several processes."""
    return hasattr(os, "fork")


def usable_cores() -> int:
    """How many cores this process may run on (its affinity where the system says)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def auto_count() -> int:
    """The processes `serve` answers from by default: one per usable core, up to MOST_AUTO."""
    return min(usable_cores(), MOST_AUTO) if can_fork() else 1


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on host:port as waitress binds it; raises OSError when it cannot."""
    adj = Adjustments(host=host, port=port)
    family, socktype, proto, address = adj.listen[0]
    sock = socket.socket(family, socktype, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
        sock.listen(adj.backlog)
    except OSError:
        sock.close()
        raise
    return sock


STOP_SIGNALS = {signal.SIGTERM, signal.SIGINT}
HELPER = 0  # the helper process's number among the workers' (see supervise)


def supervise(
    count: int,
    serve: Callable[[int], None],
    helper: Callable[[], None] | None = None,
    helper_name: str = "the helper process",
) -> int:
    """Serve from count worker processes, each running serve(number), until this process is
    stopped (SIGTERM, SIGINT); a worker that dies is started again at once. Returns 0.

    helper: run in a process of its own beside the workers, kept running the same way (the
    embedder process, judgekit/meaning/embedder.py), started first; helper_name names it.

    Call it once everything the workers share is prepared (and frozen with gc.freeze(), so that
    the collector does not copy it into each worker), with no other thread running (a forked
    process keeps only the thread that forked).
    """
    stop_on_terminate()
    jobs = {number: functools.partial(serve, number) for number in range(1, count + 1)}
    if helper is not None:
        jobs = {HELPER: helper, **jobs}
    parent, workers = os.getpid(), {}
    started: dict[int, float] = {}
    pauses: dict[int, float] = {}
    try:
        for number, job in jobs.items():
            workers[_start(parent, job)] = number
            started[number] = time.monotonic()
        say(f"serving from {count} processes")  # said once every worker is started
        while True:
            pid, status = os.waitpid(-1, 0)  # a stop signal interrupts it (its handler raises)
            number = workers.pop(pid, None)
            if number is None:
                continue
            _end_what_it_started(pid)
            lived = time.monotonic() - started[number]
            short = lived < SHORTEST_LIFE  # failing at start-up: wait longer each time
            pause = min(2 * (pauses.get(number) or 0.25), MOST_PAUSE) if short else 0.0
            pauses[number] = pause
            name = helper_name if number == HELPER else f"worker process {number}"
            print(
                f"{name} (pid {pid}) {_how_it_ended(status)} after {lived:.1f} s;"
                f" starting another{f' in {pause:.1f} s' if pause else ''}",
                file=sys.stderr,
                flush=True,
            )
            time.sleep(pause)
            workers[_start(parent, jobs[number])] = number
            started[number] = time.monotonic()
    except (KeyboardInterrupt, SystemExit):
        return 0
    finally:
        stop_workers(list(workers))


def _how_it_ended(status: int) -> str:
    if os.WIFSIGNALED(status):
        signum = os.WTERMSIG(status)
        try:
            return f"was killed by {signal.Signals(signum).name}"
        except ValueError:
            return f"was killed by signal {signum}"
    return f"exited with code {os.waitstatus_to_exitcode(status)}"


def _start(parent: int, serve: Callable[[], None]) -> int:
    """Fork a worker running serve(); its pid (in the parent; the worker never returns)."""
    sys.stdout.flush()  # or a worker would write the parent's buffered output again
    sys.stderr.flush()
    # A stop signal arriving just as fork() returns was seen lost (the parent went on serving):
    # held back over the fork, it is taken once the parent runs Python again.
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        pid = os.fork()
        if pid == 0:
            _run_worker(parent, serve)
        _own_group(pid)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    return pid


def _run_worker(parent: int, serve: Callable[[], None]) -> None:
    """A worker's life: serve until told to stop or until the parent is gone; never returns."""
    code = 0
    try:
        _die_with(parent)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)  # held back by _start
        threading.Thread(target=_follow_parent, args=(parent,), daemon=True).start()
        serve()
    except BaseException:  # noqa: BLE001 -- a worker must not fall back into the parent's code
        code = 1
    finally:
        try:
            sys.stdout.flush()
        except (OSError, ValueError):  # output gone (a closed pipe): the worker still ends here
            pass
        os._exit(code)


def _die_with(parent: int) -> None:
    """End this worker, and whatever it started (a pack build), when its parent ends: SIGTERM
    from the kernel on Linux; SIGTERM ends the worker's process group at once; Ctrl-C is the
    parent's to handle (it stops the workers)."""
    _own_group(0)
    signal.signal(signal.SIGTERM, _end_group)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):  # no prctl: the thread following the parent remains
            pass
    if os.getppid() != parent:  # the parent died before the kernel was asked to tell us
        os._exit(0)


def name_process(name: str) -> None:
    """Name this process as ps and top show it (Linux; at most 15 bytes), so that a helper
    process can be told from the workers."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_NAME, name.encode()[:15], 0, 0, 0)
        except (OSError, AttributeError):
            pass


def _own_group(pid: int) -> None:
    """Make a worker the leader of a process group of its own (called by both the worker and the
    parent, so that it is done before either relies on it)."""
    try:
        os.setpgid(pid, 0)
    except OSError:  # already done by the other side, or the worker has already ended
        pass


def _end_group(_signum: int = 0, _frame: object = None) -> None:
    """End this worker and every process it started, at once."""
    os.killpg(0, signal.SIGKILL)


def _end_what_it_started(pid: int) -> None:
    """Kill what remains of a worker's process group (a pack build left by a killed worker)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _follow_parent(parent: int) -> None:
    """Stop this worker when the process that started it is gone (killed, not told)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_EVERY)
    _end_group()


def stop_workers(pids: list[int], seconds: float = 5.0) -> None:
    """Tell the workers to stop, then wait for them (a bounded wait; kill what remains, and
    whatever they started)."""
    for pid in pids:
        _signal(pid, signal.SIGTERM)
    deadline = time.monotonic() + seconds
    waiting = set(pids)
    while waiting and time.monotonic() < deadline:
        for pid in list(waiting):
            if _ended(pid):
                waiting.discard(pid)
        time.sleep(0.05)
    for pid in waiting:
        _signal(pid, signal.SIGKILL)
        _ended(pid, wait=True)
    for pid in pids:
        _end_what_it_started(pid)


def _ended(pid: int, wait: bool = False) -> bool:
    """Whether a worker has ended (and is reaped); with wait, wait for it to end."""
    try:
        return os.waitpid(pid, 0 if wait else os.WNOHANG)[0] != 0
    except ChildProcessError:
        return True


def _signal(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass


def stop_on_terminate() -> None:
    """Make SIGTERM end the parent's waitress loop as Ctrl-C does, so its workers are stopped."""
    signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(0))


WORKER_HEADER = "X-Judgekit-Worker"
WORKER_HEADER_ENV = "JUDGEKIT_WORKER_HEADER"  # "1": every answer names the process that gave it


def name_the_worker(response: Response) -> Response:
    """Name the process answering (only where $JUDGEKIT_WORKER_HEADER is 1: the tests proving
    that every worker writes rulings)."""
    response.headers[WORKER_HEADER] = str(os.getpid())
    return response
