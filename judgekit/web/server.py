"""The waitress server, set up for a venue network of strangers' devices.

waitress's defaults let one client hold every connection (100, idle for 120 s), spool bodies of up
to 1 GiB and log "Task queue depth" on every busy request. Here: many connections in all, few
per client address, a deadline for each request and each answer however slowly a client trickles
(waitress_adapter.py), bodies refused beyond a few KB before they are read, and the queue warning
at most once a minute. The limits can be set in the app's config (``SERVER_LIMITS``, e.g.
``JUDGEKIT_SERVER_LIMITS__REQUEST_SECONDS=5`` in the environment).
"""

from __future__ import annotations

import dataclasses
import logging
import socket
import sys
import threading
import time
from collections.abc import Mapping
from typing import Any

from flask import Flask
from waitress.adjustments import Adjustments
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

from judgekit.web.balance import Balance
from judgekit.web.waitress_adapter import GuardedServer, Limits

PER_CLIENT_LIMIT = Limits.per_client
QUEUE_WARNING_EVERY = 60.0  # seconds


def limits_of(config: Mapping[str, Any]) -> Limits:
    """The server's limits: the defaults, with what the config's SERVER_LIMITS sets (a name it
    does not know, or a value that is not a positive number, is said and left out)."""
    kinds = {
        field.name: int if field.type == "int" else float for field in dataclasses.fields(Limits)
    }
    chosen = {}
    for name, value in dict(config.get("SERVER_LIMITS") or {}).items():
        kind = kinds.get(str(name).lower())
        try:
            number = kind(value) if kind else None
        except (TypeError, ValueError):
            number = None
        if number is None or number <= 0:
            known = ", ".join(name.upper() for name in kinds)
            print(f"SERVER_LIMITS: ignored {name}={value!r} (known: {known})", file=sys.stderr)
            continue
        chosen[str(name).lower()] = number
    return dataclasses.replace(Limits(), **chosen)


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
    app: Flask,
    host: str,
    port: int,
    threads: int = 8,
    sock: socket.socket | None = None,
    balance: Balance | None = None,
) -> TcpWSGIServer:
    """A bound (not yet running) server; raises OSError when the address cannot be used.

    sock: a socket already listening on host:port (see workers.py), else one is bound here;
    balance: the connections of the worker processes accepting on it (balance.py).
    """
    quiet_queue_warnings()
    limits = limits_of(app.config)
    adj = Adjustments(
        host=host,
        port=port,
        threads=threads,
        ident="judgekit",
        # The server, waitress's wake-up pipe and the connection being accepted: the adapter
        # keeps the client connections to limits.connections, making room for a newcomer.
        connection_limit=limits.connections + 3,
        channel_timeout=limits.idle_seconds,
        cleanup_interval=limits.check_every,
        asyncore_loop_timeout=limits.check_every,
        max_request_body_size=limits.max_body,
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
        limits=limits,
        balance=balance,
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
