"""What waitress's public options cannot do, in one place: deadlines that trickling cannot reset,
fair connection limits, strict request framing and security headers on waitress's own errors.

waitress (3.0) has an idle timeout only: a byte every few seconds keeps a connection forever, a
client that never reads its answer holds it, and at its connection limit it stops accepting
anyone. This module subclasses its server, channel, parser and error task; every waitress
internal it relies on is listed in RELIES_ON, which tests/test_server_limits.py checks against the
installed waitress, so that an upgrade that changes them fails loudly (pin: waitress>=3.0.1,<3.1).
"""

from __future__ import annotations

import ctypes
import logging
import select
import socket
import struct
import sys
import time
import urllib.parse
from dataclasses import dataclass

from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser, ParsingError
from waitress.server import TcpWSGIServer
from waitress.task import ErrorTask

from judgekit.events.fields import MOST_BODY_BYTES
from judgekit.web.balance import Balance
from judgekit.web.protect import SECURITY_HEADERS

log = logging.getLogger("judgekit.server")

# (module attribute, names it must have): what the subclasses below use of waitress.
RELIES_ON = {
    "waitress.server.TcpWSGIServer": (
        "accept",
        "maintenance",
        "channel_class",
        "active_channels",
        "readable",
        "handle_accept",
    ),
    "waitress.channel.HTTPChannel": (
        "received",
        "request",
        "requests",
        "total_outbufs_len",
        "creation_time",
        "will_close",
        "socket",
        "handle_close",
        "del_channel",
        "send",
        "parser_class",
        "error_task_class",
    ),
    "waitress.parser.HTTPRequestParser": ("parse_header", "chunked", "headers", "version"),
    "waitress.task.ErrorTask": ("execute", "response_headers"),
}


@dataclass(frozen=True)
class Limits:
    """How long and how much one connection, one client address and all of them may hold."""

    connections: int = 1000  # in all, in each process
    per_client: int = 24  # a browser opens up to 6 per host; a few tabs or a shared address fit
    idle_seconds: int = 20  # between requests on a kept-alive connection
    request_seconds: float = 10.0  # from the first byte (or the connection) to the whole request
    write_seconds: float = 20.0  # an answer not read by then is dropped...
    write_min_rate: int = 32 * 1024  # ...unless it is read at least this fast (bytes/s): a zip
    check_every: int = 1  # seconds between checks of the deadlines
    # The kernel's buffer for each connection's unsent answer (it doubles it): bounds what an
    # unread answer holds there, and is ample for a local network.
    send_buffer: int = 256 * 1024
    # The largest form or JSON a judge may send with every field at its limit (whole KB); anything
    # larger is refused with 413 unread.
    max_body: int = -(-MOST_BODY_BYTES // 1024) * 1024


TRIM_EVERY = 10.0  # seconds


def _malloc_trim():
    """glibc's malloc_trim, or None elsewhere."""
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None


_TRIM = _malloc_trim() if sys.platform.startswith("linux") else None


def release_memory() -> None:
    """Let go of what a burst of long requests left behind: the standard library's cache of the
    last 128 addresses split (waitress splits each request's; each may be 100s of KB), then the
    memory the C allocator holds free (glibc keeps what threads freed in their arenas)."""
    urllib.parse.clear_cache()
    if _TRIM is not None:
        _TRIM(0)


class StrictParser(HTTPRequestParser):
    """waitress's parser, refusing (400) what a server with no proxy in front should not guess at."""

    def parse_header(self, header_plus: bytes) -> None:
        """Parse as waitress does; refuse both framings at once, and HTTP/1.1 without Host."""
        super().parse_header(header_plus)
        if self.chunked and "CONTENT_LENGTH" in self.headers:
            raise ParsingError("both Content-Length and Transfer-Encoding")
        if self.version == "1.1" and "HOST" not in self.headers:
            raise ParsingError("an HTTP/1.1 request needs a Host header")


class SecureErrorTask(ErrorTask):
    """waitress's own error answers (400, 413, 431, 500) with the app's security headers."""

    def execute(self) -> None:
        """The error answer, with the headers every answer carries (a 413 saying why)."""
        self.response_headers.extend(SECURITY_HEADERS.items())
        error = self.request.error
        if getattr(error, "code", None) == 413:
            # Seen by a judge whose browser posted it: say what is too long, not waitress's words.
            limit = self.channel.server.adj.max_request_body_size
            error.body = (
                f"What was sent is larger than judgekit takes ({limit:,} bytes): nothing was kept."
                " A ruling's question and ruling are at most 1,500 characters each; go back and"
                " shorten them."
            )
        super().execute()


class GuardedChannel(HTTPChannel):
    """A connection with a deadline for each request and each answer, whatever it trickles."""

    parser_class = StrictParser
    error_task_class = SecureErrorTask
    output_since: float | None = None  # when unsent output was first seen
    sent_then = 0  # bytes sent by then
    sent = 0  # bytes sent in all

    def __init__(self, server, sock, addr, adj, map=None) -> None:
        super().__init__(server, sock, addr, adj, map)
        # The first request is due from the connection; the next ones from their first byte.
        self.request_started: float | None = self.creation_time
        self.host = addr[0] if isinstance(addr, tuple) else str(addr)
        server.clients.setdefault(self.host, set()).add(self)

    def received(self, data: bytes) -> bool:
        """Read as waitress does, noting when the request being received began."""
        if self.request is None and self.request_started is None:
            self.request_started = time.time()
        result = super().received(data)
        if self.request is None:
            self.request_started = None
        return result

    def send(self, data, do_close: bool = True) -> int:
        """Send as waitress does, counting the bytes."""
        sent = super().send(data, do_close)
        self.sent += sent or 0
        return sent

    def overdue(self, now: float, limits: Limits) -> str | None:
        """Why this connection must be dropped now (a deadline passed), or None."""
        if self.request_started is not None and not self.requests:
            if now - self.request_started > limits.request_seconds:
                return "request not received in time"
        if not self.total_outbufs_len:
            self.output_since = None
            return None
        if self.output_since is None:
            self.output_since, self.sent_then = now, self.sent
            return None
        took = now - self.output_since
        if (
            took > limits.write_seconds
            and self.sent - self.sent_then < limits.write_min_rate * took
        ):
            return "answer not read in time"
        return None

    def drop(self, at_once: bool = False) -> None:
        """Close, discarding unsent output (the kernel's copy too: a reset, not a FIN).

        at_once: close now (only while waitress handles events: when it gathers the sockets to
        wait on, as in maintenance, a socket closed then would be waited on closed; there
        waitress's own way is taken, closing on the loop's next turn).
        """
        try:
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except (OSError, AttributeError):
            pass
        self.will_close = True
        if at_once:
            self.handle_close()

    def del_channel(self, map=None) -> None:
        """Forget the connection in its address's count as waitress forgets it."""
        held = self.server.clients.get(self.host)
        if held is not None:
            held.discard(self)
            if not held:
                del self.server.clients[self.host]
        if self.server.balance is not None:
            self.server.balance.say(self.server.open_connections())
        super().del_channel(map)


class GuardedServer(TcpWSGIServer):
    """A waitress server that keeps each client address to its share and every connection to its
    deadlines; when all connections are taken, a newcomer takes one of the largest holder's
    (one not being answered), so that no set of addresses can lock the others out."""

    channel_class = GuardedChannel
    limits = Limits()

    def __init__(
        self, *args, limits: Limits = Limits(), balance: Balance | None = None, **kwargs
    ) -> None:
        self.limits = limits
        self.balance = balance  # shared with the other worker processes (balance.py)
        self.clients: dict[str, set[GuardedChannel]] = {}
        super().__init__(*args, **kwargs)

    def readable(self) -> bool:
        """Whether to accept now: as waitress says, and where other processes accept on the
        same socket, when this one holds no more connections than they do (balance.py)."""
        if not super().readable():
            return False
        if self.balance is None:
            return True
        return self.balance.may_accept(self.open_connections(), time.monotonic(), self._waiting)

    def _waiting(self) -> bool:
        """Whether a connection waits to be accepted (True when that cannot be told)."""
        try:
            return bool(select.select([self.socket], [], [], 0)[0])
        except (OSError, ValueError):
            return True

    def accept(self):
        """Accept as waitress does; refuse an address over its share, make room when full."""
        pair = super().accept()
        if pair is None:
            return None
        conn, addr = pair
        host = addr[0]
        held = len(self.clients.get(host, ()))
        if held >= self.limits.per_client or (
            self.open_connections() >= self.limits.connections and not self._make_room(held)
        ):
            conn.close()
            return None
        try:
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.limits.send_buffer)
        except OSError:  # a connection already reset by its client: waitress will see it closed
            pass
        if self.balance is not None:
            self.balance.accepted(self.open_connections() + 1)
        return pair

    def held_by(self, host: str) -> int:
        """How many open connections this client address holds."""
        return len(self.clients.get(host, ()))

    def open_connections(self) -> int:
        """How many client connections are open."""
        return sum(len(held) for held in self.clients.values())

    def _make_room(self, newcomer_holds: int) -> bool:
        """Drop a connection of the address holding the most (one waiting for its request), if it
        holds more than the newcomer would; whether one was dropped."""
        host, held = max(self.clients.items(), key=lambda item: len(item[1]), default=(None, ()))
        if host is None or len(held) <= newcomer_holds + 1:
            return False
        idle = [channel for channel in held if not channel.requests]
        if not idle:
            return False
        min(idle, key=lambda c: c.request_started or c.creation_time).drop(at_once=True)
        return True

    trimmed = 0.0

    def maintenance(self, now: float) -> None:
        """waitress's idle timeout, then the request and answer deadlines; now and then, what
        a flood of long requests left behind let go (release_memory)."""
        super().maintenance(now)
        if now - self.trimmed > TRIM_EVERY:
            self.trimmed = now
            release_memory()
        for channel in list(self.active_channels.values()):
            if isinstance(channel, GuardedChannel) and not channel.will_close:
                why = channel.overdue(now, self.limits)
                if why:
                    log.info("dropped a connection from %s: %s", channel.host, why)
                    channel.drop()
