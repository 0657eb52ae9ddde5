"""The embedder process (judgekit/meaning/embedder.py): every worker's questions embedded away
from the workers' GIL, each getting the vector it gets alone, bit for bit; a worker embeds the
question itself whenever the embedder cannot answer, and no client can stop it answering."""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Iterator

import numpy as np
import pytest

from judgekit.meaning import embedder, weights
from judgekit.meaning import model as meaning_model
from judgekit.meaning.batch import Gather
from judgekit.meaning.encoder import Encoder
from tests.meaning_texts import texts_to_embed

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
        _ask(sock, question)
        _ask(sock, question)  # before the first one's answer
        answers = 0
        with pytest.raises(EOFError):
            while answers < 2:
                _answer(sock)
                answers += 1
        assert answers < 2
    remote = embedder.Remote(running.path)
    assert np.array_equal(remote.embed(question), alone) and remote.answered == 1
