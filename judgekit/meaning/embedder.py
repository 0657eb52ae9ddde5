"""A process of its own that embeds the questions of every process serving (`judgekit serve`).

Embedding a question is hundreds of numpy and onnxruntime calls, each releasing the GIL and
taking it back: in a serving process, each taking back waits for a thread running Python, and
a question's 5 ms of CPU took 20 to 60 ms (BENCHMARKS.md, "Search speed, session 12"). Here it
runs in a process whose one thread does nothing else, and the questions of every worker asked
at once are embedded in one pass (as batch.py does within a process). A worker's thread sends a
question's WordPiece ids over a Unix socket and waits for its vector: one system call, the GIL
released once. The vectors are Encoder.embed_many's, bit for bit (sent as their float64 bytes).

Nothing depends on it: a worker embeds the question itself, as before, whenever the embedder
cannot answer (not started yet, loading its model, stopped, too slow).

The protocol, little-endian: a question is a uint32 count then that many uint32 WordPiece ids;
its answer a uint32 count then that many float64 numbers (the vector), or a count of 0: "embed
it yourself". A connection asks one question at a time.
"""

from __future__ import annotations

import logging
import os
import selectors
import socket
import struct
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

import numpy as np

from judgekit.meaning.batch import MOST
from judgekit.meaning.encoder import Encoder
from judgekit.meaning.weights import MAX_TOKENS

log = logging.getLogger(__name__)
COUNT = struct.Struct("<I")
LONGEST = MAX_TOKENS - 2  # ids in a question: more, and the connection is closed
MOST_CONNECTIONS = 256  # a server's threads hold one each (workers × threads)
SAID = "every worker's questions embedded by the embedder process"  # once it has the model
LARGEST = COUNT.size + 4 * LONGEST  # bytes of the longest question
WAIT = 2.0  # seconds a worker waits for its vector before embedding the question itself
REST = 10.0  # seconds a worker then embeds alone before asking again


def listen() -> tuple[socket.socket, Path]:
    """A Unix socket listening in a new folder only this user can open, and its path."""
    folder = Path(tempfile.mkdtemp(prefix="judgekit-embed-"))  # mode 0700
    path = folder / "embedder"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(str(path))
        sock.listen(64)
    except OSError:
        sock.close()
        raise
    return sock, path


def remove(path: Path) -> None:
    """Remove the socket listen() made, and its folder."""
    for gone in (lambda: path.unlink(missing_ok=True), path.parent.rmdir):
        try:
            gone()
        except OSError:
            pass


# -- the embedder's side -------------------------------------------------------------------------
class _Model:
    """The encoder, loaded in the background: the embedder answers "embed it yourself" meanwhile."""

    def __init__(self, load: Callable[[], Encoder]) -> None:
        self.encoder: Encoder | None = None
        self.vocabulary = 0
        threading.Thread(target=self._load, args=(load,), daemon=True, name="embedder-load").start()

    def _load(self, load: Callable[[], Encoder]) -> None:
        try:
            encoder = load()
        except Exception as err:  # noqa: BLE001 -- the workers then embed alone, as before
            log.warning("the embedder process could not load the model: %s", err)
            return
        self.vocabulary = len(encoder.words)
        self.encoder = encoder
        print(f"search by meaning: {SAID} (pid {os.getpid()})", flush=True)


class _Connection:
    """One worker thread's connection: what it sent of its question so far."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.received = bytearray()
        self.waiting = False  # for its answer (it may send nothing meanwhile)


def serve(
    listener: socket.socket, load: Callable[[], Encoder], stop: threading.Event | None = None
) -> None:
    """Answer the workers' questions on listener until the process is stopped (or stop is set:
    the tests run it in a thread)."""
    model = _Model(load)
    selector = selectors.DefaultSelector()
    listener.setblocking(False)
    selector.register(listener, selectors.EVENT_READ)
    asked: list[tuple[_Connection, list[int] | None]] = []
    idle = None if stop is None else 0.05
    while stop is None or not stop.is_set():
        for key, _ in selector.select(timeout=0 if asked else idle):
            if key.fileobj is listener:
                _accept(listener, selector)
            else:
                asked += _read(key.data, selector, model.vocabulary)
        if asked:
            batch, asked = asked[:MOST], asked[MOST:]
            _answer(model.encoder, batch, selector)
    for key in list(selector.get_map().values()):
        if key.fileobj is not listener:
            _close(key.data, selector)
    selector.close()


def _accept(listener: socket.socket, selector: selectors.BaseSelector) -> None:
    while True:
        try:
            sock, _ = listener.accept()
        except (BlockingIOError, InterruptedError):
            return
        if len(selector.get_map()) > MOST_CONNECTIONS:
            sock.close()
            continue
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, _Connection(sock))


def _close(conn: _Connection, selector: selectors.BaseSelector) -> None:
    try:
        selector.unregister(conn.sock)
    except (KeyError, ValueError):
        pass
    conn.sock.close()


def _read(
    conn: _Connection, selector: selectors.BaseSelector, vocabulary: int
) -> list[tuple[_Connection, list[int] | None]]:
    """The question now complete on a connection, if one is; the connection is closed when it
    ends, or breaks the protocol: too many ids, or a question sent before the last one's answer."""
    try:
        data = conn.sock.recv(LARGEST + 1)
    except (BlockingIOError, InterruptedError):
        return []
    except OSError:
        data = b""
    conn.received += data
    if not data or conn.waiting or len(conn.received) > LARGEST:
        _close(conn, selector)
        return []
    if len(conn.received) < COUNT.size:
        return []
    (n,) = COUNT.unpack_from(conn.received)
    size = COUNT.size + 4 * n
    if n > LONGEST or len(conn.received) > size:
        _close(conn, selector)
        return []
    if len(conn.received) < size:
        return []
    ids = list(struct.unpack_from(f"<{n}I", conn.received, COUNT.size))
    conn.received.clear()
    conn.waiting = True
    # Ids beyond the vocabulary (or any, while the model loads) get "embed it yourself".
    return [(conn, ids if not ids or max(ids) < vocabulary else None)]


def _answer(
    encoder: Encoder | None,
    batch: list[tuple[_Connection, list[int] | None]],
    selector: selectors.BaseSelector,
) -> None:
    """Embed a pass of questions together and send each its vector (or a count of 0)."""
    good = [(conn, ids) for conn, ids in batch if ids is not None]
    vectors: dict[int, np.ndarray] = {}
    if encoder is not None and good:
        try:
            found = encoder.embed_many([ids for _, ids in good])
            vectors = {id(conn): v for (conn, _), v in zip(good, found, strict=True)}
        except Exception as err:  # noqa: BLE001 -- the workers embed this pass themselves
            log.warning("the embedder process failed a pass: %s", err)
    for conn, _ in batch:
        vector = vectors.get(id(conn))
        reply = COUNT.pack(0) if vector is None else COUNT.pack(len(vector)) + vector.tobytes()
        try:
            sent = conn.sock.send(reply)  # its thread waits, reading: the buffer has room
        except OSError:
            sent = -1
        conn.waiting = False
        if sent != len(reply):
            _close(conn, selector)


# -- a worker's side -----------------------------------------------------------------------------
class Remote:
    """The embedder as a worker asks it: each thread on a connection of its own."""

    def __init__(
        self,
        path: Path | str,
        wait: float = WAIT,
        aside: Callable[[], AbstractContextManager[object]] = nullcontext,
    ) -> None:
        self.path = str(path)
        self.wait = wait
        # Entered while the thread waits for its vector: the worker's other requests run then
        # (web/turns.py: Turns.aside).
        self.aside = aside
        self._local = threading.local()
        self._rest_until = 0.0
        self.answered = 0  # questions the embedder answered, and did not (for benchmarks)
        self.declined = 0

    def embed(self, pieces: Sequence[int]) -> np.ndarray | None:
        """The question's vector from the embedder, or None (then embed it here)."""
        if time.monotonic() < self._rest_until:
            return None
        ids = [int(i) for i in pieces][:LONGEST]
        request = COUNT.pack(len(ids)) + struct.pack(f"<{len(ids)}I", *ids)
        sock = getattr(self._local, "sock", None)
        try:
            with self.aside():
                if sock is None:
                    sock = self._local.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    sock.settimeout(self.wait)
                    sock.connect(self.path)
                sock.sendall(request)
                (n,) = COUNT.unpack(_exactly(sock, COUNT.size))
                answer = _exactly(sock, 8 * n) if n else b""
            vector = np.frombuffer(answer, dtype="<f8") if n else None
        except OSError as err:  # gone, restarting or too slow: this thread embeds alone
            self._local.sock = None
            if sock is not None:
                sock.close()
            if isinstance(err, TimeoutError):
                self._rest_until = time.monotonic() + REST
            vector = None
        if vector is None:
            self.declined += 1
            return None
        self.answered += 1
        return vector.astype(np.float64, copy=False)


def _exactly(sock: socket.socket, size: int) -> bytes:
    """size bytes from sock; ConnectionError if it ends first."""
    parts, left = [], size
    while left:
        part = sock.recv(left)
        if not part:
            raise ConnectionError("the embedder closed the connection")
        parts.append(part)
        left -= len(part)
    return b"".join(parts)
