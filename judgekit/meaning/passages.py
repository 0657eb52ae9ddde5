"""The corpus's items embedded, and how near each is to a question.

An item (an entry, a card, a timing step, a ruling) is embedded in chunks of at most
MAX_TOKENS pieces, each headed by the item's title, whole paragraphs together where they fit:
a long section is many rules, and a question is about one. An item is as near a question as
its nearest chunk. Vectors are kept on disk by the hash of their chunk, so a corpus edit
embeds only the chunks it changed.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from judgekit.meaning.weights import MAX_TOKENS

log = logging.getLogger(__name__)
ROOM = MAX_TOKENS - 2  # [CLS] and [SEP]
# Paragraphs are joined only while the chunk stays this short: a paragraph is most often one
# rule, and a question is about one (a long chunk of many rules is near none of them).
JOIN_BELOW = 48
PASS = 16  # chunks embedded together at a first start (encoder.py: the same vectors as alone)
DECIMALS = 6  # nearness is rounded so that the last bit of a sum never reorders two items


Part = tuple[int, int]  # what a chunk holds: paragraphs (first, last), or (-1, n): the n-th saying


def chunks(
    title: Sequence[int], paragraphs: Sequence[Sequence[int]], room: int = ROOM
) -> list[list[int]]:
    """Pieces of an item to embed: its title (with its colon), then whole paragraphs while they
    fit; a paragraph longer than the room is cut into windows that overlap by a quarter."""
    return [pieces for pieces, _ in _chunked(title, paragraphs, room)]


def _chunked(
    title: Sequence[int], paragraphs: Sequence[Sequence[int]], room: int = ROOM
) -> list[tuple[list[int], Part]]:
    """The chunks (as `chunks`), each with the paragraphs it holds (first, last)."""
    body = max(room - len(title), room // 2)
    head = list(title)[: room - body]
    out: list[tuple[list[int], Part]] = []
    current: list[int] = []
    first = 0  # the first paragraph of current
    for number, para in enumerate(paragraphs):
        para = list(para)
        if current and len(current) + len(para) > min(body, JOIN_BELOW):
            out.append((head + current, (first, number - 1)))
            current = []
        if not current:
            first = number
        if len(para) <= body:
            current += para
            continue
        step = body * 3 // 4
        for start in range(0, len(para) - body + step, step):
            out.append((head + para[start : start + body], (number, number)))
        first = number + 1
    if current or not out:
        out.append((head + current, (first, max(first, len(paragraphs) - 1))))
    return out


def embed_in_passes(
    texts: Sequence[Sequence[int]],
    embed_many: Callable[[list[Sequence[int]]], list[np.ndarray]],
    most: int = PASS,
) -> list[np.ndarray]:
    """Each text's vector, embedded `most` at a time (the model's weights read once a pass:
    a first start embeds the corpus several times faster than one chunk at a time)."""
    out: list[np.ndarray] = []
    for start in range(0, len(texts), most):
        out += embed_many(list(texts[start : start + most]))
    return out


Item = tuple[str, str, tuple[str, ...]]  # an item's title, its text and what judges say of it


def paragraphs(text: str) -> list[str]:
    """An item's paragraphs as its chunks hold them: its lines that are not blank."""
    return [p for p in text.split("\n") if p.strip()]


def item_parts(
    pieces: Callable[[str], list[int]], title: str, text: str, said: Sequence[str] = ()
) -> list[tuple[list[int], Part]]:
    """An item's chunks with what each holds: its text's (headed by its title), then each
    saying alone, as a judge's question is embedded (tabletalk.py)."""
    paras = [pieces(p) for p in paragraphs(text)]
    return _chunked(pieces(f"{title}:"), paras) + [
        (pieces(s)[:ROOM], (-1, n)) for n, s in enumerate(said)
    ]


def item_chunks(
    pieces: Callable[[str], list[int]], title: str, text: str, said: Sequence[str] = ()
) -> list[list[int]]:
    """An item's chunks (item_parts without what each holds)."""
    return [chunk for chunk, _ in item_parts(pieces, title, text, said)]


def chunk_key(digest: str, pieces: Sequence[int]) -> str:
    """The cache's key for a chunk's vector: the model and the pieces."""
    return hashlib.sha256(f"{digest}:{','.join(map(str, pieces))}".encode()).hexdigest()[:32]


class VectorCache:
    """Chunk vectors on disk, one .npz of keys and vectors, replaced atomically."""

    def __init__(self, folder: Path | None) -> None:
        self.path = folder / "vectors.npz" if folder else None

    def read(self) -> dict[str, np.ndarray]:
        """Every vector kept, by key ({} when there is no cache or it is unreadable)."""
        if self.path is None or not self.path.is_file():
            return {}
        try:
            with np.load(self.path) as data:
                return dict(zip(data["keys"].tolist(), data["vectors"], strict=True))
        except (OSError, ValueError, KeyError) as err:
            log.warning("meaning cache %s unreadable (%s): embedding again", self.path, err)
            return {}

    def write(self, vectors: dict[str, np.ndarray]) -> None:
        """Keep these vectors (and only these), if the folder is writable."""
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, suffix=".npz")
            with os.fdopen(fd, "wb") as f:
                np.savez(f, keys=np.array(list(vectors)), vectors=np.array(list(vectors.values())))
            os.replace(tmp, self.path)
        except OSError as err:
            log.warning("meaning cache %s not written: %s", self.path, err)


class Passages:
    """Every item's chunk vectors, and the nearness of a question to each item."""

    def __init__(
        self, vectors: np.ndarray, owners: np.ndarray, count: int, parts: np.ndarray | None = None
    ) -> None:
        # One unit vector per chunk, each number a float32's (kept as float64 for the products):
        # the judge pack stores them as float32 and must take the same nearness from them.
        self.vectors = vectors.astype(np.float32).astype(np.float64)
        self.owners = owners  # the item number of each chunk, ascending
        self.starts = np.searchsorted(owners, np.arange(count))
        self.ends = np.append(self.starts[1:], len(owners))
        self.count = count
        # What each chunk holds (item_parts): (first, last) paragraph, or (-1, its saying's number).
        self.parts = parts if parts is not None else np.zeros((len(owners), 2), dtype=np.int32)

    @classmethod
    def embed(
        cls,
        items: Sequence[Item],
        pieces: Callable[[str], list[int]],
        embed_many: Callable[[list[Sequence[int]]], list[np.ndarray]] | None,
        digest: str,
        cache: VectorCache,
    ) -> Passages | None:
        """Embed each (title, text, sayings) item's chunks, reading kept vectors and keeping new
        ones (with no embed_many: None when a vector is not kept)."""
        kept = cache.read()
        used: dict[str, np.ndarray] = {}
        missing: dict[str, list[int]] = {}
        keys, owners, parts = [], [], []
        for number, (title, text, said) in enumerate(items):
            for chunk, part in item_parts(pieces, title, text, said):
                key = chunk_key(digest, chunk)
                if key in kept:
                    used[key] = kept[key]
                elif embed_many is None:
                    return None
                else:
                    missing[key] = chunk
                keys.append(key)
                owners.append(number)
                parts.append(part)
        if missing:
            assert embed_many is not None
            used.update(
                zip(missing, embed_in_passes(list(missing.values()), embed_many), strict=True)
            )
        if used.keys() != kept.keys():
            cache.write(used)
        vectors = [used[key] for key in keys]
        return cls(
            np.array(vectors, dtype=np.float64),
            np.array(owners),
            len(items),
            np.array(parts, dtype=np.int32).reshape(-1, 2),
        )

    def nearness(self, query: np.ndarray) -> np.ndarray:
        """Each item's cosine to the question's unit vector: its nearest chunk's, rounded."""
        sims = np.maximum.reduceat(self.vectors @ query, self.starts)
        return np.round(sims, DECIMALS)

    def nearest(self, query: np.ndarray, items: Sequence[int]) -> list[int]:
        """Each of these items' nearest chunk (its number among all chunks): the first of its
        chunks whose rounded cosine is the item's nearness (pack-meaning.js: Passages.asked)."""
        out = []
        for item in items:
            start = int(self.starts[item])
            sims = np.round(self.vectors[start : self.ends[item]] @ query, DECIMALS)
            out.append(start + int(np.argmax(sims)))
        return out
