"""Nothing prints a traceback into the test output: the tests' static server when a browser
closes a connection early (the BrokenPipeError seen in the middle of a run)."""

from __future__ import annotations

import functools
import socket
import struct
import threading

from tests.test_pack_browser import QuietServer, _Quiet


class _Watched(QuietServer):
    """QuietServer that says when it has handled a request's error."""

    def __init__(self, address, handler) -> None:
        super().__init__(address, handler)
        self.handled = threading.Event()

    def handle_error(self, request, client_address) -> None:
        try:
            super().handle_error(request, client_address)
        finally:
            self.handled.set()


def test_a_connection_closed_mid_answer_prints_nothing(tmp_path, capfd):
    # Larger than what loopback sockets buffer, so the server is still writing when it is reset.
    (tmp_path / "big.bin").write_bytes(bytes(48 * 1024 * 1024))
    server = _Watched(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with socket.create_connection(server.server_address, timeout=10) as client:
            client.sendall(b"GET /big.bin HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            assert client.recv(1024).startswith(b"HTTP/1.0 200")
            # Closed with a reset, as a browser drops a cancelled download.
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        assert server.handled.wait(30), "the server wrote the whole file: nothing was tested"
    finally:
        server.shutdown()
        server.server_close()
    assert server.errors == []
    assert capfd.readouterr().err == ""
