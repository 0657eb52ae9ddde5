"""Embedding a text with the integer form of the model (weights.py), in numpy.

The pack's JavaScript (static/js/pack-meaning.js) computes the same steps in the same order:
a matrix's input is rounded per row to whole numbers from -255 to 255, multiplied exactly
(see weights.py), then scaled back; everything between matrices is in 64-bit floats. A
difference in the last bit between the two (a sum added in another order) changes a rounded
input only when it falls within that bit of a half: the two embeddings agree to about 1e-15.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from judgekit.meaning.tokens import WordPiece
from judgekit.meaning.weights import HEADS, HIDDEN, LAYERS, LINEAR, MAX_TOKENS

CLS, SEP = 101, 102
EPS = 1e-12  # the model's layer-norm epsilon
LEVELS = 255  # a matrix's input, rounded per row to whole numbers from -LEVELS to LEVELS
SPAN = 512  # inputs summed at once: 512 × 255 × 127 < 2**24, exact in a 32-bit float
# erfc's rational approximation (Numerical Recipes, 2nd ed., 6.2; fractional error < 1.2e-7):
# JavaScript has no erf, so both sides compute this one.
ERFC = (
    -1.26551223,
    1.00002368,
    0.37409196,
    0.09678418,
    -0.18628806,
    0.27886807,
    -1.13520398,
    1.48851587,
    -0.82215223,
    0.17087277,
)


def erf(x: np.ndarray) -> np.ndarray:
    """erf by the approximation above."""
    z = np.abs(x)
    t = 1.0 / (1.0 + 0.5 * z)
    poly = ERFC[-1]
    for c in reversed(ERFC[1:-1]):
        poly = c + t * poly
    r = t * np.exp(-z * z + (ERFC[0] + t * poly))
    return np.where(x >= 0, 1.0 - r, r - 1.0)


def gelu(x: np.ndarray) -> np.ndarray:
    """The model's activation, 0.5·x·(1 + erf(x/√2))."""
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """Normalise each row to mean 0 and variance 1, then scale and shift."""
    n = x.shape[-1]
    d = x - x.sum(axis=-1, keepdims=True) / n
    var = (d * d).sum(axis=-1, keepdims=True) / n
    return d / np.sqrt(var + EPS) * weight + bias


def round_rows(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row as whole numbers from -LEVELS to LEVELS (float32) and the row's scale."""
    peak = np.abs(x).max(axis=1)
    scale = np.where(peak > 0, peak, float(LEVELS)) / LEVELS
    return np.floor(x / scale[:, None] + 0.5).astype(np.float32), scale


class Linear:
    """One of the model's matrices, integer-valued, with its column scales and bias."""

    def __init__(self, q: np.ndarray, scale: np.ndarray, bias: np.ndarray) -> None:
        self.q = q.astype(np.float32)  # whole numbers: BLAS multiplies them exactly
        self.scale = scale.astype(np.float64)
        self.bias = bias.astype(np.float64)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        xq, sx = round_rows(x)
        acc = np.zeros((x.shape[0], self.q.shape[1]))
        for start in range(0, self.q.shape[0], SPAN):
            acc += (xq[:, start : start + SPAN] @ self.q[start : start + SPAN]).astype(np.float64)
        return acc * sx[:, None] * self.scale + self.bias


class Encoder:
    """all-MiniLM-L6-v2 in its integer form: a text's unit vector of 384 numbers."""

    def __init__(self, tensors: Mapping[str, np.ndarray], vocabulary: Sequence[str]) -> None:
        t = {k: np.asarray(v) for k, v in tensors.items()}
        self.tokenizer = WordPiece(vocabulary)
        self.words, self.word_scale = t["words"], t["words.scale"].astype(np.float64)
        self.start = t["positions"].astype(np.float64) + t["type0"].astype(np.float64)
        self.norm = (t["norm.weight"].astype(np.float64), t["norm.bias"].astype(np.float64))
        self.layers = [
            (
                [Linear(t[f"{i}.{n}"], t[f"{i}.{n}.scale"], t[f"{i}.{n}.bias"]) for n in LINEAR],
                [
                    (t[f"{i}.{n}.weight"].astype(np.float64), t[f"{i}.{n}.bias"].astype(np.float64))
                    for n in ("attention.output.LayerNorm", "output.LayerNorm")
                ],
            )
            for i in range(LAYERS)
        ]

    def pieces(self, text: str) -> list[int]:
        """The text's WordPiece ids, without [CLS] and [SEP]."""
        return self.tokenizer.pieces(text)

    def embed(self, text: str) -> np.ndarray:
        """The unit vector of a text's first MAX_TOKENS - 2 pieces."""
        return self.embed_ids(self.pieces(text)[: MAX_TOKENS - 2])

    def embed_ids(self, pieces: Sequence[int]) -> np.ndarray:
        """The unit vector of WordPiece ids (at most MAX_TOKENS - 2), mean-pooled."""
        ids = [CLS, *pieces[: MAX_TOKENS - 2], SEP]
        n = len(ids)
        x = self.words[ids].astype(np.float64) * self.word_scale[ids][:, None] + self.start[:n]
        x = layer_norm(x, *self.norm)
        for linears, norms in self.layers:
            x = self._layer(x, linears, norms)
        mean = x.sum(axis=0) / n
        return mean / math.sqrt(float(mean @ mean))

    @staticmethod
    def _layer(x: np.ndarray, linears: list[Linear], norms: list) -> np.ndarray:
        query, key, value, out, inner, down = linears
        n, width = x.shape[0], HIDDEN // HEADS
        q, k, v = (f(x).reshape(n, HEADS, width).transpose(1, 0, 2) for f in (query, key, value))
        scores = (q @ k.transpose(0, 2, 1)) / math.sqrt(width)
        weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
        weights = weights / weights.sum(axis=-1, keepdims=True)
        attended = (weights @ v).transpose(1, 0, 2).reshape(n, HIDDEN)
        x = layer_norm(out(attended) + x, *norms[0])
        return layer_norm(down(gelu(inner(x))) + x, *norms[1])
