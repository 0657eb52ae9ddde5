"""The model a search asks: the encoder and the corpus's items, loaded once per index."""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file, save_file

from judgekit.meaning import weights
from judgekit.meaning.batch import Gather
from judgekit.meaning.encoder import Encoder
from judgekit.meaning.passages import Item, Passages, VectorCache

log = logging.getLogger(__name__)
QUESTION_TOKENS = 64  # a question's pieces embedded: bounds a query's cost


@dataclass(frozen=True)
class MeaningModel:
    """How near each item is to a question, by meaning."""

    encoder: Encoder
    passages: Passages
    # The questions a process's threads ask at once, embedded together (batch.py).
    gather: Gather | None = field(default=None, compare=False, repr=False)

    def nearness(self, question: str) -> np.ndarray:
        """Each item's nearness (cosine, rounded) to the question, by item number."""
        return _asked(self, question)[0]

    def nearest(self, question: str, items: Sequence[int]) -> list[int]:
        """The chunk of each of these items nearest to the question (Passages.nearest)."""
        return self.passages.nearest(_asked(self, question)[1], items)

    def _compute(self, question: str) -> tuple[np.ndarray, np.ndarray]:
        pieces = self.encoder.pieces(question)[:QUESTION_TOKENS]
        embed = self.gather.embed if self.gather is not None else self.encoder.embed_ids
        vector = embed(pieces)
        near = self.passages.nearness(vector)
        near.flags.writeable = False  # shared by every caller of the memo
        vector.flags.writeable = False
        return near, vector


@functools.lru_cache(maxsize=256)
def _asked(model: MeaningModel, question: str) -> tuple[np.ndarray, np.ndarray]:
    # A search with a suggestion asks twice (the literal words too), and one question is often
    # asked again with another filter: the model's cost is paid once (bounded: 256 questions).
    # The question's vector is kept too: its results' nearest chunks are read from it.
    return model._compute(question)


def integer_tensors(files: weights.ModelFiles, cache_dir: Path | None) -> dict[str, np.ndarray]:
    """The integer form of the weights, made once and kept beside the vectors."""
    path = cache_dir / f"model-{files.digest()}.safetensors" if cache_dir else None
    if path is not None and path.is_file():
        try:
            return load_file(str(path))
        except (OSError, ValueError) as err:
            log.warning("meaning cache %s unreadable (%s): converting again", path, err)
    tensors = weights.integer_form(load_file(str(files.weights)))
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            save_file(tensors, str(tmp))
            tmp.replace(path)
        except OSError as err:
            log.warning("meaning cache %s not written: %s", path, err)
    return tensors


_ENCODERS: dict[str, Encoder] = {}  # per process: one encoder serves every corpus


def encoder(files: weights.ModelFiles, cache_dir: Path | None) -> Encoder:
    """The encoder of the installed model (made once per process)."""
    found = _ENCODERS.get(files.digest())
    if found is None:
        found = _ENCODERS[files.digest()] = Encoder(
            integer_tensors(files, cache_dir), weights.vocabulary(files.tokenizer)
        )
    return found


def load(items: Sequence[Item], cache_dir: Path | None, embed: bool = True) -> MeaningModel | None:
    """The model over these (title, text, sayings) items; ModelMissing when its package is not here.
    With embed False, None unless every item's vectors are already on disk."""
    files = weights.find()
    enc = encoder(files, cache_dir)
    cache = VectorCache(cache_dir)
    passages = Passages.embed(
        items, enc.pieces, enc.embed_many if embed else None, files.digest(), cache
    )
    return None if passages is None else MeaningModel(enc, passages, Gather(enc.embed_many))
