"""The waitress server, set up for a venue network of strangers' devices.

waitress's defaults let one client hold every connection (100, idle for 120 s), spool bodies of up
to 1 GiB and log "Task queue depth" on every busy request. Here: many connections in all, few
per client address, a short idle timeout, bodies refused beyond a few KB before they are read,
and the queue warning at most once a minute.
"""

from __future__ import annotations

import logging
import socket
import threading
import time

from flask import Flask
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

CONNECTION_LIMIT = 1000
PER_CLIENT_LIMIT = 24  # a browser opens up to 6 per host; a few tabs or a shared address fit
CHANNEL_TIMEOUT = 20  # seconds a connection may sit idle
MAX_BODY = 8 * 1024  # no route takes a body: anything larger is refused with 413 unread
QUEUE_WARNING_EVERY = 60.0  # seconds


class GuardedServer(TcpWSGIServer):
    """A waitress server that closes a new connection from an address that holds too many."""

    per_client_limit = PER_CLIENT_LIMIT

    def accept(self):
        """Accept as waitress does, then refuse an address over its share."""
        pair = super().accept()
        if pair is None:
            return None
        conn, addr = pair
        if self.held_by(addr[0]) >= self.per_client_limit:
            conn.close()
            return None
        return pair

    def held_by(self, host: str) -> int:
        """How many open connections this client address holds."""
        return sum(
            1
            for channel in list(self._map.values())
            if isinstance(channel, HTTPChannel) and channel.addr and channel.addr[0] == host
        )


class OncePerInterval(logging.Filter):
    """Lets a logger's records through at most once per interval (the rest are counted)."""

    def __init__(self, interval: float) -> None:
        super().__init__()
        self.interval = interval
        self.last = float("-inf")
        self.dropped = 0
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        """True for the first record of each interval."""
        with self._lock:
            now = time.monotonic()
            if now - self.last < self.interval:
                self.dropped += 1
                return False
            if self.dropped:
                record.msg = f"{record.msg} ({self.dropped} more such warnings not shown)"
                self.dropped = 0
            self.last = now
            return True


def quiet_queue_warnings(interval: float = QUEUE_WARNING_EVERY) -> None:
    """waitress's "Task queue depth" warning, once per interval at most."""
    queue_log = logging.getLogger("waitress.queue")
    if not any(isinstance(f, OncePerInterval) for f in queue_log.filters):
        queue_log.addFilter(OncePerInterval(interval))


def make_server(
    app: Flask, host: str, port: int, threads: int = 8, sock: socket.socket | None = None
) -> TcpWSGIServer:
    """A bound (not yet running) server; raises OSError when the address cannot be used.

    sock: a socket already listening on host:port (see workers.py), else one is bound here.
    """
    quiet_queue_warnings()
    adj = Adjustments(
        host=host,
        port=port,
        threads=threads,
        ident="judgekit",
        connection_limit=CONNECTION_LIMIT,
        channel_timeout=CHANNEL_TIMEOUT,
        cleanup_interval=5,
        max_request_body_size=MAX_BODY,
    )
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    # waitress's create_server, for the one address judgekit listens on, with our server class.
    server = GuardedServer(
        app,
        {},
        dispatcher=dispatcher,
        adj=adj,
        sockinfo=adj.listen[0],
        _sock=sock,
        bind_socket=sock is None,
    )
    server.flask_app = app  # waitress keeps only its own wrapper of the app
    return server


# Private ranges to probe; a route to any of them reveals the interface judges' phones can reach.
_PROBES = ("10.255.255.255", "192.168.255.255", "172.31.255.255")


def lan_address() -> str:
    """This machine's address on the local network, found without sending anything."""
    for probe in _PROBES:
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            # connect() on UDP only picks a route; no packet leaves the machine.
            sock.connect((probe, 1))
            address = sock.getsockname()[0]
        except OSError:
            continue
        finally:
            sock.close()
        if not address.startswith("127."):
            return address
    # No route at all (a venue network without a gateway): ask the host's own names.
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    for info in infos:
        address = info[4][0]
        if not address.startswith("127."):
            return address
    return "127.0.0.1"


def public_url(host: str, port: int) -> str:
    """``http://host:port`` with an IPv6 address in brackets."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"
