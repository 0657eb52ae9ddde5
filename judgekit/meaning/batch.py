"""Questions asked at once by a process's threads, embedded in one pass.

Embedding a question reads all of the model's matrices (42 MB as 32-bit floats) to multiply a
few rows by them: a few questions' rows multiplied together cost little more than one's. A
thread that asks while no pass is running starts one at once with every question waiting (a
lone question waits for nothing); the questions asked during a pass wait for it, then go
together in the next. Encoder.embed_many gives each text the vector it gets alone, bit for bit.
Under `judgekit serve`, each question is first asked of the embedder process (embedder.py),
which embeds every worker's questions away from this process's GIL: a pass here is the fallback.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import numpy as np

MOST = 16  # texts in one pass: bounds a pass's cost (each at most MAX_TOKENS pieces)


class _Asked:
    """One text waiting for its vector."""

    def __init__(self, pieces: Sequence[int]) -> None:
        self.pieces = pieces
        self.vector: np.ndarray | None = None
        self.error: BaseException | None = None

    def done(self) -> bool:
        return self.vector is not None or self.error is not None

    def result(self) -> np.ndarray:
        if self.error is not None:
            raise self.error
        assert self.vector is not None
        return self.vector


class Gather:
    """Embeds the texts that threads ask for at the same time together (see the module)."""

    def __init__(
        self, embed_many: Callable[[list[Sequence[int]]], list[np.ndarray]], most: int = MOST
    ) -> None:
        self._embed_many = embed_many
        self._most = most
        self._changed = threading.Condition()
        self._waiting: list[_Asked] = []
        self._busy = False
        self.passes = 0  # how many passes, and texts, so far (for benchmarks)
        self.texts = 0
        # Asked first (the embedder process's Remote.embed): a vector, or None to embed here.
        self.ask_first: Callable[[Sequence[int]], np.ndarray | None] | None = None

    def waiting(self) -> int:
        """How many texts wait for the pass running to end."""
        with self._changed:
            return len(self._waiting)

    def embed(self, pieces: Sequence[int]) -> np.ndarray:
        """The vector of these WordPiece ids, as Encoder.embed_ids gives it."""
        if self.ask_first is not None:
            vector = self.ask_first(pieces)
            if vector is not None:
                return vector
        mine = _Asked(pieces)
        with self._changed:
            self._waiting.append(mine)
            while self._busy and not mine.done():
                self._changed.wait()
            if mine.done():  # another thread's pass embedded it
                return mine.result()
            batch = [mine, *(a for a in self._waiting if a is not mine)][: self._most]
            taken = {id(a) for a in batch}
            self._waiting = [a for a in self._waiting if id(a) not in taken]
            self._busy = True
        try:
            vectors = self._embed_many([a.pieces for a in batch])
            for asked, vector in zip(batch, vectors, strict=True):
                asked.vector = vector
        except BaseException as err:  # every waiter of this pass hears of it, not only this one
            for asked in batch:
                asked.error = err
        finally:
            with self._changed:
                self._busy = False
                self.passes += 1
                self.texts += len(batch)
                self._changed.notify_all()
        return mine.result()
