"""Connections shared out evenly between the processes accepting on one socket (web/balance.py):
one holding more than another lets it accept first, and accepts anyway when a newcomer has
waited DEFER seconds (a worker stuck or starting again delays it, never refuses it)."""

from __future__ import annotations

import copy
import http.client
import threading

import pytest

from judgekit.web import balance as balance_module
from judgekit.web.balance import DEFER, Balance
from judgekit.web.server import make_server
from judgekit.web.workers import listen


def _pair() -> tuple[Balance, Balance]:
    """Two workers' views of one Balance, as two forked processes have them."""
    first = Balance(2)
    second = copy.copy(first)  # the same shared memory, a number of its own
    first.join(1)
    second.join(2)
    return first, second


def test_a_worker_holding_more_lets_the_others_accept_first_for_a_while():
    first, second = _pair()
    waiting = lambda: True  # noqa: E731 -- a newcomer waits
    second.say(3)
    assert first.may_accept(3, 100.0, waiting)  # as many as the other: it may
    assert first.held() == [3, 3]
    assert not first.may_accept(4, 100.0, waiting)  # more: the other goes first...
    assert not first.may_accept(4, 100.0 + DEFER / 2, waiting)
    assert first.may_accept(4, 100.0 + DEFER * 1.01, waiting)  # ...till a newcomer waited DEFER
    first.accepted(5)
    assert first.held() == [5, 3] and not first.may_accept(5, 100.0 + DEFER, waiting)
    # Nobody waiting: the wait is not counted, and starts again with the next newcomer.
    assert not first.may_accept(5, 200.0, lambda: False)
    assert not first.may_accept(5, 200.0 + DEFER / 2, waiting)
    second.join(2)  # started again: it holds none
    assert second.may_accept(0, 300.0, waiting) and second.held() == [5, 0]


def test_a_worker_started_again_says_it_holds_none():
    """A worker says its count only when it changes (it is asked at every turn of waitress's
    loop), yet one started again in a slot holding its predecessor's count says 0 at once."""
    parent = Balance(2)
    worker = copy.copy(parent)  # forked: the shared memory, and what the parent last said
    worker.join(1)
    worker.say(5)
    assert parent.held() == [5, 0]
    worker.say(5)
    assert parent.held() == [5, 0]
    again = copy.copy(parent)  # the dead worker's successor, forked from the parent again
    again.join(1)
    assert parent.held() == [0, 0]
    assert again.may_accept(0, 0.0, lambda: True)


def test_a_single_process_always_accepts():
    alone = Balance(1)
    alone.join(1)
    assert alone.may_accept(1000, 0.0, lambda: True)
    assert Balance(2).may_accept(9, 0.0, lambda: True)  # not joined: not a worker


def test_two_servers_on_one_socket_take_new_connections_in_turn(mini_app, monkeypatch):
    """Eight keep-alive connections opened one after another: each server holds four."""
    monkeypatch.setattr(balance_module, "DEFER", 30.0)  # only a stall of 30 s could break a turn
    sock = listen("127.0.0.1", 0)
    port = sock.getsockname()[1]
    shares = _pair()
    # Each its own descriptor of the one listening socket, as each forked process has.
    servers = [make_server(mini_app, "127.0.0.1", port, 2, sock.dup(), share) for share in shares]
    stopping = threading.Event()

    def run(server) -> None:
        try:
            server.run()
        except OSError:  # its socket closed under its loop's select, as the test ends
            if not stopping.is_set():
                raise

    threads = [threading.Thread(target=run, args=(s,), daemon=True) for s in servers]
    for t in threads:
        t.start()
    clients = []
    try:
        for _ in range(8):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("GET", "/api/documents")
            response = conn.getresponse()
            response.read()
            assert response.status == 200
            clients.append(conn)
        assert sorted(s.open_connections() for s in servers) == [4, 4]
        assert shares[0].held() == [4, 4]
    finally:
        for conn in clients:
            conn.close()
        stopping.set()
        for server in servers:
            server.close()
            server.task_dispatcher.shutdown()
        sock.close()


@pytest.mark.parametrize("held", [0, 3])
def test_the_server_asks_the_balance_before_accepting(mini_app, held):
    """GuardedServer.readable (whether waitress's loop accepts) follows the balance."""
    sock = listen("127.0.0.1", 0)
    first, second = _pair()
    server = make_server(mini_app, "127.0.0.1", sock.getsockname()[1], 1, sock, first)
    try:
        second.say(held)
        conn = http.client.HTTPConnection("127.0.0.1", sock.getsockname()[1], timeout=5)
        conn.connect()  # waiting in the backlog
        server.clients["x"] = {object(), object()}  # as if it held two
        assert server.readable() is (held >= 2)
        conn.close()
    finally:
        server.close()
        server.task_dispatcher.shutdown()
