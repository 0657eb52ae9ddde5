"""The waitress internals judgekit/web/waitress_adapter.py relies on are those of the installed
waitress: an upgrade that renames or drops one fails here, by name, before any attack test."""

from __future__ import annotations

import importlib
import inspect

from judgekit.web import waitress_adapter


def _has(cls: type, name: str) -> bool:
    """A class attribute or method, or an attribute its (or a base's) code sets on self."""
    if hasattr(cls, name):
        return True
    sources = []
    for klass in cls.__mro__:
        try:
            sources.append(inspect.getsource(klass))
        except (OSError, TypeError):
            continue
    return any(f"self.{name} =" in source for source in sources)


def test_the_waitress_internals_the_adapter_relies_on_are_there():
    missing = []
    for dotted, names in waitress_adapter.RELIES_ON.items():
        module, _, name = dotted.rpartition(".")
        cls = getattr(importlib.import_module(module), name)
        missing += [f"{dotted}.{attr}" for attr in names if not _has(cls, attr)]
    assert not missing, f"waitress changed: {missing}; see judgekit/web/waitress_adapter.py"


def test_the_adapter_overrides_only_what_waitress_defines():
    """Each method the adapter overrides exists in the waitress class it subclasses (a renamed
    hook would leave the override silently unused)."""
    pairs = [
        (waitress_adapter.GuardedServer, ("accept", "maintenance")),
        (waitress_adapter.GuardedChannel, ("received", "send", "del_channel")),
        (waitress_adapter.StrictParser, ("parse_header",)),
        (waitress_adapter.SecureErrorTask, ("execute",)),
    ]
    for cls, methods in pairs:
        base = cls.__mro__[1]
        for method in methods:
            assert method in cls.__dict__, (cls, method)
            assert callable(getattr(base, method, None)), f"{base.__name__}.{method} is gone"
            ours = inspect.signature(getattr(cls, method)).parameters
            theirs = inspect.signature(getattr(base, method)).parameters
            assert list(ours)[: len(theirs)] == list(theirs), (cls, method)


def test_the_server_lets_go_of_the_addresses_it_split():
    """waitress splits each request's address with urllib.parse.urlsplit, which keeps the last
    128 (each up to waitress's 256 KB header limit): the server clears them now and then."""
    import time
    import urllib.parse

    from flask import Flask

    from judgekit.web.server import make_server

    server = make_server(Flask("t"), "127.0.0.1", 0)
    try:
        urllib.parse.urlsplit("/search?q=" + "a" * 100_000)
        assert urllib.parse.urlsplit.cache_info().currsize > 0
        server.maintenance(time.time() + waitress_adapter.TRIM_EVERY + 1)
        assert urllib.parse.urlsplit.cache_info().currsize == 0
    finally:
        server.close()


def test_limits_come_from_the_config_and_bad_ones_are_said_and_left_out(capsys):
    from judgekit.web.server import limits_of

    limits = limits_of(
        {"SERVER_LIMITS": {"REQUEST_SECONDS": 2.5, "per_client": "6", "NOPE": 1, "IDLE_SECONDS": 0}}
    )
    assert (limits.request_seconds, limits.per_client) == (2.5, 6)
    assert limits.idle_seconds == waitress_adapter.Limits().idle_seconds
    err = capsys.readouterr().err
    assert "ignored NOPE=1" in err and "ignored IDLE_SECONDS=0" in err
