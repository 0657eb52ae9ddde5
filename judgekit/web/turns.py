"""Requests take turns in a worker process: one at a time runs Python, the one that came first.

A process runs Python in one thread at a time whatever it does (the GIL), and the interpreter
shares it out by time: every 5 ms a waiting thread makes the running one let go, and which thread
then runs is left to the system. With a few requests at once, each is sliced among the others,
and a question by meaning, which leaves to wait for the embedder process (meaning/embedder.py)
and comes back older than any other request, queues again behind the younger ones at every
slice: under `judgekit serve` its answer took 30 ms at the median and 54 ms at p95 for some 4 ms
of its own CPU (BENCHMARKS.md, session 16). Here a request thread runs the app only in its turn,
and the turn passes to the request that came first: a question back from the embedder goes next,
and each request, once started, runs to its end rather than a slice at a time. Little is lost:
the threads could not run Python at once anyway; only numpy's products, which let the GIL go
(the nearness, some 1 ms a question), no longer overlap another request's Python. A thread
waiting for something outside the process (the embedder) gives its turn to the next meanwhile
(Turns.aside).

A request never waits for its turn longer than PATIENCE: then it runs beside the one holding the
turn, sharing the GIL as before (a long request cannot hold the others up for long).
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

PATIENCE = 0.1  # seconds a request waits for its turn before it runs anyway


class _Waiter:
    """A thread waiting for its turn: its lock is released when the turn is handed to it."""

    __slots__ = ("handed", "lock")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.lock.acquire()
        self.handed = False


class Turns:
    """Whose turn it is to run among a process's request threads (see the module)."""

    def __init__(self, patience: float = PATIENCE) -> None:
        self.patience = patience
        self._mutex = threading.Lock()
        self._busy = False  # a thread holds the turn
        self._waiting: list[tuple[float, int, _Waiter]] = []  # a heap: the first come first
        self._order = itertools.count()  # breaks ties between the same stamps
        self._local = threading.local()  # this thread's request: its stamp, whether it holds
        self.overtime = 0  # requests that ran without their turn, having waited PATIENCE

    def enter(self) -> None:
        """Start this thread's request: wait for its turn (stamped now, so before later ones)."""
        self._local.stamp = time.monotonic()
        self._take()

    def leave(self) -> None:
        """End this thread's request: the turn passes to the request that came first."""
        self._give_back()
        self._local.stamp = None

    def waiting(self) -> int:
        """How many requests wait for their turn."""
        with self._mutex:
            return len(self._waiting)

    def holding(self) -> bool:
        """Whether this thread holds the turn."""
        return getattr(self._local, "holding", False)

    @contextlib.contextmanager
    def aside(self) -> Iterator[None]:
        """While this thread waits for something outside the process, another request runs; then
        it takes the turn back before any request that came after it."""
        if not self.holding():
            yield
            return
        self._give_back()
        try:
            yield
        finally:
            self._take()

    def _take(self) -> None:
        with self._mutex:
            if not self._busy:
                self._busy = self._local.holding = True
                return
            waiter = _Waiter()
            entry = (self._local.stamp, next(self._order), waiter)
            heapq.heappush(self._waiting, entry)
        got = waiter.lock.acquire(timeout=self.patience)
        if not got:
            with self._mutex:
                got = waiter.handed  # handed over just as the wait ended
                if not got:
                    self._waiting.remove(entry)
                    heapq.heapify(self._waiting)
                    self.overtime += 1
        self._local.holding = got

    def _give_back(self) -> None:
        if not self.holding():
            return  # ran without its turn (overtime): none to give
        self._local.holding = False
        with self._mutex:
            if self._waiting:
                waiter = heapq.heappop(self._waiting)[2]
                waiter.handed = True
                waiter.lock.release()
            else:
                self._busy = False


class TakingTurns:
    """A WSGI app whose requests run in turns (Turns): the turn is held while the app makes the
    answer and given back before the server sends it, that is before the body it returns is
    iterated: a body made as it is iterated (a generator view, a streamed answer) runs outside
    turns, sharing the GIL as without them."""

    def __init__(self, app: Callable[..., Iterable[bytes]], turns: Turns) -> None:
        self.app = app
        self.turns = turns

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        """The app's answer, made in this request's turn."""
        self.turns.enter()
        try:
            return self.app(environ, start_response)
        finally:
            self.turns.leave()


def without_turns(wsgi: Callable[..., Iterable[bytes]]) -> Callable[..., Iterable[bytes]]:
    """The WSGI app a TakingTurns wraps, else ``wsgi`` itself: for work of the process's own
    (rendering the pages at start-up) that must not take judges' turns."""
    return wsgi.app if isinstance(wsgi, TakingTurns) else wsgi
