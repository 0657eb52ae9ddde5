"""Connections shared out evenly between the worker processes of `judgekit serve`.

Every worker accepts on the one listening socket, and a kept-alive connection stays with the
process that accepted it. Which process accepts a new connection was chance: eight clients could
split six to two, leaving one process (one core, the GIL) with most of the work while the other
idled (BENCHMARKS.md, "Search speed, session 12"). Here each worker says in memory shared by all
of them how many connections it holds, and one holding more than another lets the others accept
first: it accepts only after DEFER seconds, so that a worker that is stuck, or starting again,
delays a newcomer by that much at most, never refuses it.
"""

from __future__ import annotations

import mmap
import struct
from collections.abc import Callable

DEFER = 0.05  # seconds a worker holding more connections than another waits before accepting
_SLOT = struct.Struct("<i")


class Balance:
    """How many connections each of count workers holds (made before forking them)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._held = mmap.mmap(-1, _SLOT.size * count)  # shared with the forked workers
        self._all = struct.Struct(f"<{count}i")  # every slot, read at once
        self.number = 0  # this process's worker number (1 to count), once it has joined
        self._said = 0  # what this worker last said it holds
        self._since: float | None = None  # when this worker first let the others go first

    def join(self, number: int) -> None:
        """Be worker number (in the worker, after forking); it holds no connection yet."""
        self.number = number
        self._since = None
        self._said = -1  # said again, whatever a worker started before in this slot said
        self.say(0)

    def say(self, held: int) -> None:
        """Tell the others how many connections this worker holds."""
        # Asked at every turn of waitress's loop (may_accept): written only when it changed.
        if self.number and held != self._said:
            _SLOT.pack_into(self._held, _SLOT.size * (self.number - 1), held)
            self._said = held

    def held(self) -> list[int]:
        """The connections each worker holds, by worker number."""
        return list(self._all.unpack_from(self._held))

    def may_accept(self, held: int, now: float, waiting: Callable[[], bool]) -> bool:
        """Whether this worker, holding held connections, should accept one now: when no other
        holds fewer, or when a connection has waited (waiting()) for DEFER seconds while it let
        the others go first."""
        # Asked at every turn of waitress's loop, several times a request: kept to a few
        # operations (BENCHMARKS.md, session 15).
        self.say(held)
        every = self._all.unpack_from(self._held)
        mine = self.number - 1
        others = every[:mine] + every[mine + 1 :] if self.number else ()
        if not others or held <= min(others):
            self._since = None
            return True
        if not waiting():
            self._since = None
            return False
        if self._since is None:
            self._since = now
        return now - self._since >= DEFER

    def accepted(self, held: int) -> None:
        """A connection was accepted: say so, and let the others go first again from now."""
        self._since = None
        self.say(held)
