"""Serving from several processes, so that searches use every core.

One process answers one request at a time in Python (the GIL), however many threads it has. So
``judgekit serve`` binds the address once, loads the corpus and the search index once, and then
forks: each worker answers at once from that memory with its own waitress loop and threads, all
accepting on the one listening socket, and prepares its search and pages in the background. By
default there is a process for each core this one may use, up to MOST_AUTO (``--workers N``
says how many). Forking needs os.fork (Linux, macOS); elsewhere (Windows) one process serves.

Each process keeps its own limits (server.py): one client address may hold PER_CLIENT_LIMIT
connections in each, as each process may hold CONNECTION_LIMIT in all; its share is the same.
"""

from __future__ import annotations

import functools
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable

from waitress.adjustments import Adjustments

PARENT_CHECK_EVERY = 1.0  # seconds: how soon a worker whose parent died stops
# Each process renders its own pages (with the built-in corpus, some 95 MB each): a laptop with
# many cores serves a venue from a few; more would add memory, not answers a venue needs.
MOST_AUTO = 4


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


def fork_workers(count: int, serve: Callable[[int], None]) -> list[int]:
    """Start count worker processes, each running serve(number) and then exiting; their pids.

    The workers are numbered from 2 (the parent, serving too, is 1). Call it once everything
    the workers share is prepared (and frozen with gc.freeze(), so that the collector does not
    copy it into each worker) and before any thread starts (a forked process keeps only the
    thread that forked).
    """
    sys.stdout.flush()  # or a worker would write the parent's buffered output again
    sys.stderr.flush()
    parent, pids = os.getpid(), []
    for number in range(2, count + 2):
        pid = os.fork()
        if pid == 0:
            _run_worker(parent, functools.partial(serve, number))
        pids.append(pid)
    return pids


def _run_worker(parent: int, serve: Callable[[], None]) -> None:
    """A worker's life: serve until told to stop or until the parent is gone; never returns."""
    code = 0
    threading.Thread(target=_follow_parent, args=(parent,), daemon=True).start()
    try:
        serve()
    except BaseException:  # noqa: BLE001 -- a worker must not fall back into the parent's code
        code = 1
    finally:
        try:
            sys.stdout.flush()
        except (OSError, ValueError):  # output gone (a closed pipe): the worker still ends here
            pass
        os._exit(code)


def _follow_parent(parent: int) -> None:
    """Stop this worker when the process that started it is gone (killed, not told)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_EVERY)
    os._exit(0)


def stop_workers(pids: list[int], seconds: float = 5.0) -> None:
    """Tell the workers to stop, then wait for them (a bounded wait; kill what remains)."""
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
