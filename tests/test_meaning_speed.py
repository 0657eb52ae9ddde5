"""Search by meaning, fast and with the same answers: the texts a process's threads ask for at
once are embedded in one pass, each getting the vector it gets alone, bit for bit; ranking orders
only the items nearest by meaning, and finds the ones a sort of every item finds."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from judgekit.meaning import model as meaning_model
from judgekit.meaning import weights
from judgekit.meaning.batch import Gather
from judgekit.meaning.encoder import Encoder
from judgekit.search import ranking

GOLDEN = Path(__file__).parent / "golden" / "search.jsonl"


@pytest.fixture(scope="module")
def encoder() -> Encoder:
    return meaning_model.encoder(weights.find(), None)


def _questions(count: int) -> list[str]:
    """Distinct questions of the golden answers, of every length, spread over the file."""
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    asked = list(dict.fromkeys(json.loads(line)["q"] for line in lines))
    return asked[:: max(1, len(asked) // count)][:count]


def test_texts_embedded_together_get_their_vectors_alone_bit_for_bit(encoder):
    """Batches of 1 to 9 questions (golden ones, with a long run of words and an empty one among
    them): every vector equals the one its text gets alone, to the last bit."""
    texts = [*_questions(100), "", "the " * 200, "Q"]
    pieces = [encoder.pieces(t)[:126] for t in texts]
    alone = [encoder.embed_ids(p) for p in pieces]
    start, size = 0, 1
    while start < len(pieces):
        together = encoder.embed_many(pieces[start : start + size])
        for i, vector in enumerate(together):
            assert np.array_equal(vector, alone[start + i]), texts[start + i]
        start, size = start + size, size % 9 + 1
    # the same text twice in one pass, and the batch's order reversed
    twice = encoder.embed_many([pieces[5], pieces[5], *pieces[:4][::-1]])
    assert np.array_equal(twice[0], alone[5]) and np.array_equal(twice[1], alone[5])
    assert all(np.array_equal(v, alone[3 - i]) for i, v in enumerate(twice[2:]))


def _wait_until(condition, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_questions_asked_during_a_pass_go_together_in_the_next(encoder):
    """One thread's pass is held until seven others have asked: they are then embedded in one
    pass, and every thread gets its own text's vector."""
    passes: list[int] = []
    release = threading.Event()

    def embed_many(texts):
        passes.append(len(texts))
        if len(passes) == 1:
            assert release.wait(30)
        return encoder.embed_many(texts)

    gather = Gather(embed_many)
    texts = _questions(8)
    got: dict[int, np.ndarray] = {}

    def ask(i: int) -> None:
        got[i] = gather.embed(encoder.pieces(texts[i]))

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(texts))]
    threads[0].start()
    _wait_until(lambda: passes)
    for t in threads[1:]:
        t.start()
    _wait_until(lambda: gather.waiting() == len(texts) - 1)
    release.set()
    for t in threads:
        t.join(30)
    assert passes == [1, len(texts) - 1]
    assert (gather.passes, gather.texts) == (2, len(texts))
    for i, text in enumerate(texts):
        assert np.array_equal(got[i], encoder.embed(text)), text


def test_a_failed_pass_fails_each_of_its_questions_and_the_next_pass_runs():
    """An error in a pass reaches every thread that waited for it; the next question is answered."""
    fail = threading.Event()
    fail.set()

    def embed_many(texts):
        if fail.is_set():
            raise MemoryError("no room")
        return [np.full(2, len(t), dtype=float) for t in texts]

    gather = Gather(embed_many)
    with pytest.raises(MemoryError):
        gather.embed([1, 2])
    fail.clear()
    got = []
    asker = threading.Thread(target=lambda: got.append(gather.embed([1, 2, 3])), daemon=True)
    asker.start()
    asker.join(30)  # a pass left running forever would make it wait forever
    assert [v.tolist() for v in got] == [[3.0, 3.0]]
    assert (gather.passes, gather.texts, gather.waiting()) == (2, 2, 0)


def test_the_nearest_by_meaning_are_those_a_sort_of_every_item_gives():
    """by_meaning's first items, ties at its edge included, allowed items or all: as sorting every
    (nearness × weight, item) nearest first, then by item number."""
    rng = np.random.default_rng(3)
    for levels in (1000, 4):  # distinct nearnesses, then many ties
        near = np.round(rng.integers(0, levels, 500) / levels, 6)
        weight = rng.choice([1.0, 0.97, 0.85], 500).tolist()
        for allowed in (None, frozenset(range(0, 500, 3)), frozenset()):
            items = range(500) if allowed is None else allowed
            every = sorted(((near[d] * weight[d], d) for d in items), key=lambda s: (-s[0], s[1]))
            for most in (1, 30, 600):
                assert ranking.by_meaning(near, allowed, weight, most) == every[:most]
