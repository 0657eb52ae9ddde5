"""The embedder process (judgekit/meaning/embedder.py): every worker's questions embedded away
from the workers' GIL, each getting the vector it gets alone, bit for bit; a worker embeds the
question itself whenever the embedder cannot answer, and no client can stop it answering."""

from __future__ import annotations

import json
import os
import re
import selectors
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from judgekit.commands.serve import WORKER_NICE
from judgekit.meaning import embedder, weights
from judgekit.meaning import model as meaning_model
from judgekit.meaning.batch import Gather
from judgekit.meaning.encoder import Encoder
from tests.conftest import MINI, spawn_serve
from tests.meaning_texts import texts_to_embed
from tests.processes import all_gone, children, embedders_of, workers_of

COUNT = struct.Struct("<I")


@pytest.fixture(scope="module")
def encoder() -> Encoder:
    return meaning_model.encoder(weights.find(), None)


class Running:
    """embedder.serve in a thread of the test's process, on a socket of its own."""

    def __init__(self, load) -> None:
        self.listener, self.path = embedder.listen()
        self.stop = threading.Event()
        self.passes: list[int] = []
        self.thread = threading.Thread(
            target=embedder.serve, args=(self.listener, load, self.stop), daemon=True
        )
        self.thread.start()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(30)
        assert not self.thread.is_alive()
        self.listener.close()
        embedder.remove(self.path)


@pytest.fixture()
def running(encoder) -> Iterator[Running]:
    served = Running(lambda: encoder)
    try:
        yield served
    finally:
        served.close()


def _ask(sock: socket.socket, ids: list[int]) -> None:
    sock.sendall(COUNT.pack(len(ids)) + struct.pack(f"<{len(ids)}I", *ids))


def _answer(sock: socket.socket) -> np.ndarray | None:
    """The vector answered, None for "embed it yourself"; EOFError when the embedder closed."""
    head = sock.recv(COUNT.size, socket.MSG_WAITALL)
    if not head:
        raise EOFError
    (n,) = COUNT.unpack(head)
    return np.frombuffer(sock.recv(8 * n, socket.MSG_WAITALL), "<f8") if n else None


def _connect(path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(30)
    sock.connect(str(path))
    return sock


def test_questions_asked_by_many_threads_get_their_vectors_alone_bit_for_bit(encoder, running):
    """1,050 texts (golden questions and long corpus chunks) asked by 8 threads at once of the
    embedder: each vector equals Encoder.embed_ids's of that text alone, to the last bit, and
    questions asked at once went together in passes."""
    texts = texts_to_embed()
    assert len(texts) >= 1000
    remote = embedder.Remote(running.path, wait=60)
    got: dict[int, np.ndarray | None] = {}

    def ask(first: int) -> None:
        for i in range(first, len(texts), 8):
            got[i] = remote.embed(texts[i])

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert (remote.answered, remote.declined) == (len(texts), 0)
    for i, text in enumerate(texts):
        vector = got[i]
        alone = encoder.embed_ids(text)
        assert vector is not None and vector.dtype == alone.dtype, text
        assert np.array_equal(vector, alone), text


def test_a_worker_embeds_the_question_itself_when_the_embedder_cannot_answer(encoder, tmp_path):
    """No embedder at that path, an embedder still loading its model, one stopped: Gather then
    embeds the question in its own pass (the same vector); once loaded, the embedder answers."""
    question = encoder.pieces("can my crew beam over to my other planet")
    alone = encoder.embed_ids(question)
    gather = Gather(encoder.embed_many)
    gather.ask_first = embedder.Remote(tmp_path / "nothing").embed
    assert np.array_equal(gather.embed(question), alone) and gather.passes == 1

    loaded = threading.Event()

    def load() -> Encoder:
        assert loaded.wait(30)
        return encoder

    served = Running(load)
    try:
        remote = embedder.Remote(served.path)
        gather.ask_first = remote.embed
        assert np.array_equal(gather.embed(question), alone)
        assert (remote.declined, remote.answered, gather.passes) == (1, 0, 2)
        loaded.set()
        for _ in range(200):  # the model is loaded in the background
            vector = gather.embed(question)
            assert np.array_equal(vector, alone)
            if remote.answered:
                break
        assert remote.answered == 1 and gather.passes == 2 + remote.declined - 1
    finally:
        served.close()
    assert np.array_equal(gather.embed(question), alone)  # stopped: embedded here again


def test_no_client_can_stop_the_embedder_answering_the_others(encoder, running):
    """Ids beyond the vocabulary get "embed it yourself"; too many ids, or a question sent before
    the last one's answer, close that connection; half a question then gone: the others are
    still answered."""
    question = encoder.pieces("who wins a tied battle")
    alone = encoder.embed_ids(question)
    with _connect(running.path) as sock:
        _ask(sock, [*question, len(encoder.words)])
        assert _answer(sock) is None
        _ask(sock, question)  # the same connection goes on
        assert np.array_equal(_answer(sock), alone)
    with _connect(running.path) as sock:
        sock.sendall(COUNT.pack(embedder.LONGEST + 1))
        with pytest.raises(EOFError):
            _answer(sock)
    with _connect(running.path) as sock:
        sock.sendall(COUNT.pack(3) + struct.pack("<I", 7))  # a third of a question
    with _connect(running.path) as sock:
        # Two questions in one write: the second is there before the first one's answer (two
        # writes raced it: a fast embedder answered the first before the second came).
        one = COUNT.pack(len(question)) + struct.pack(f"<{len(question)}I", *question)
        sock.sendall(one + one)
        answers = 0
        with pytest.raises(EOFError):
            while answers < 2:
                _answer(sock)
                answers += 1
        assert answers < 2
    remote = embedder.Remote(running.path)
    assert np.array_equal(remote.embed(question), alone) and remote.answered == 1


def _stat(pid: int) -> list[str]:
    """A process's /proc/PID/stat fields from the third (its state) on."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _cpu_ticks(pid: int) -> int:
    """A process's user and system CPU time so far, in clock ticks."""
    fields = _stat(pid)
    return int(fields[11]) + int(fields[12])


def _maps_numba(pid: int) -> bool:
    """Whether a process has numba's compiler (llvmlite) loaded."""
    return "llvmlite" in Path(f"/proc/{pid}/maps").read_text()


def _nice(pid: int) -> int:
    return int(_stat(pid)[16])


class _Output:
    """A child's output lines, read as they come."""

    def __init__(self, proc: subprocess.Popen, first: str) -> None:
        self.proc, self.lines = proc, [first]
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.decode())

    def wait_for(self, pattern: str, count: int = 1, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while len(re.findall(pattern, "".join(self.lines))) < count:
            assert time.monotonic() < deadline and self.proc.poll() is None, "".join(self.lines)
            time.sleep(0.05)


def _by_meaning(port: int, questions: list[str]) -> None:
    for q in questions:
        url = f"http://127.0.0.1:{port}/api/search?{urllib.parse.urlencode({'q': q})}"
        with urllib.request.urlopen(url, timeout=30) as response:
            assert json.load(response)["by_meaning"] is True, q


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
def test_serve_embeds_every_workers_questions_in_the_embedder_process(tmp_path):
    """`judgekit serve --workers 2`: a third process, the embedder, embeds the questions (its CPU
    time grows with them); killed, it is started again and said so, questions are answered by
    meaning meanwhile and then by the new one; stopped, nothing is left, its socket neither."""
    sockets = Path(tempfile.mkdtemp(prefix="je", dir="/tmp"))  # short: a socket's path is
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "TMPDIR": str(sockets)}
    env["JUDGEKIT_SEARCH_MEANING"] = "kept"  # the tests turn it off (conftest)
    env["JUDGEKIT_SEARCH_CACHE_DIR"] = str(tmp_path / "cache")
    exe = Path(sys.executable).with_name("judgekit")
    command = [str(exe), "--root", str(MINI), "serve", "--workers", "2"]
    proc, port, first = spawn_serve(command, env=env)
    out = _Output(proc, first)
    try:
        out.wait_for(r"all \d+ pages ready in memory", count=2)
        out.wait_for(re.escape(embedder.SAID))
        (embed,) = embedders_of(proc.pid)
        assert len(workers_of(proc.pid)) == 2
        # The workers yield to the embedder: its passes are on every question's path.
        assert _nice(embed) == _nice(proc.pid)
        assert [_nice(w) for w in workers_of(proc.pid)] == [_nice(proc.pid) + WORKER_NICE] * 2
        asked = [f"can my crew beam over to the planet {n}" for n in range(60)]
        before = _cpu_ticks(embed)
        _by_meaning(port, asked[:20])
        assert _cpu_ticks(embed) - before >= 3  # 20 questions: some 100 ms of its CPU
        # numba's compiled loops (some 130 MB) in the embedder only: the workers' encoders,
        # loaded by now, round and scale in numpy.
        assert _maps_numba(embed) and not any(_maps_numba(w) for w in workers_of(proc.pid))
        os.kill(embed, signal.SIGKILL)
        _by_meaning(port, asked[20:25])  # embedded by the workers if it is not back yet
        out.wait_for(rf"the embedder process \(pid {embed}\) was killed by SIGKILL")
        out.wait_for(re.escape(embedder.SAID), count=2)
        (again,) = embedders_of(proc.pid)
        before = _cpu_ticks(again)
        _by_meaning(port, asked[25:])  # 35 questions: a fast machine spends ~2 ticks on 15
        assert again != embed and _cpu_ticks(again) - before >= 2
        processes = children(proc.pid)
    finally:
        proc.terminate()
        proc.communicate(timeout=15)
    assert all_gone(processes, 10)
    assert list(sockets.glob("judgekit-embed-*")) == []  # its socket and folder removed
    shutil.rmtree(sockets)


def test_a_connection_asking_again_before_its_answer_is_closed():
    """The embedder reads one question a connection at a time: a second one sent before the
    first's answer closes that connection (a client cannot queue work ahead of the others)."""
    mine, theirs = socket.socketpair()
    selector = selectors.DefaultSelector()
    conn = embedder._Connection(theirs)
    selector.register(theirs, selectors.EVENT_READ, conn)
    try:
        _ask(mine, [7, 8])
        assert embedder._read(conn, selector, 100) == [(conn, [7, 8])]
        _ask(mine, [9])  # before its answer
        assert embedder._read(conn, selector, 100) == []
        assert theirs.fileno() == -1 and not selector.get_map()
    finally:
        mine.close()
        selector.close()
