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

from judgekit.meaning import fused, integer
from judgekit.meaning.fused import ERFC  # erfc's approximation, which the pack computes too
from judgekit.meaning.tokens import WordPiece
from judgekit.meaning.weights import HEADS, HIDDEN, LAYERS, LINEAR, MAX_TOKENS

CLS, SEP = 101, 102
EPS = 1e-12  # the model's layer-norm epsilon
LEVELS = integer.LEVELS  # a matrix's input, rounded per row to whole numbers in ±LEVELS
GELU_ROWS = 32  # rows of a pass whose gelu is computed at once (see gelu)
SPAN = 512  # inputs summed at once: 512 × 255 × 127 < 2**24, exact in a 32-bit float


def erf(x: np.ndarray) -> np.ndarray:
    """erf by the approximation above: the same operations in the same order, in place."""
    z = np.abs(x)
    t = 0.5 * z
    t += 1.0
    np.divide(1.0, t, out=t)  # t = 1 / (1 + z/2)
    poly = ERFC[-1] * t
    for c in reversed(ERFC[2:-1]):
        poly += c
        poly *= t
    poly += ERFC[1]  # c1 + t·(c2 + t·(… + t·c9))
    poly *= t
    poly += ERFC[0]
    r = np.negative(z)
    r *= z
    r += poly
    np.exp(r, out=r)
    r *= t  # t·exp(-z² + c0 + t·poly)
    return np.where(x >= 0, 1.0 - r, r - 1.0)


def gelu(x: np.ndarray) -> np.ndarray:
    """The model's activation, 0.5·x·(1 + erf(x/√2)), computed in place of x (returned), a few
    rows at a time: each number alone, by the same operations, but erf's temporaries stay in
    the processor's cache (over a whole pass's rows they did not, at twice the cost)."""
    for start in range(0, len(x), GELU_ROWS):
        if fused.available() and x.flags.c_contiguous:  # the same, in two loops and exp
            fused.gelu(x[start : start + GELU_ROWS])
            continue
        rows = x[start : start + GELU_ROWS]
        e = erf(rows / math.sqrt(2.0))
        e += 1.0
        rows *= 0.5
        rows *= e
    return x


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
        self.q = q  # int8 whole numbers, in × out
        self.scale = scale.astype(np.float64)
        self.bias = bias.astype(np.float64)
        self._float: np.ndarray | None = None
        self._exact: integer.IntegerProduct | None = None

    @classmethod
    def side_by_side(cls, linears: Sequence[Linear]) -> Linear:
        """Matrices of the same input as one: each output column is computed as alone (exact
        sums, scaled by its own column's scale), while the input is rounded and read once."""
        return cls(
            np.concatenate([m.q for m in linears], axis=1),
            np.concatenate([m.scale for m in linears]),
            np.concatenate([m.bias for m in linears]),
        )

    def prepare(self, exact: bool) -> Linear:
        """Ready to multiply: by onnxruntime's integer product (exact), else by BLAS in float32
        (whole numbers, multiplied exactly in spans of SPAN); both give the same sums."""
        if exact:
            self._exact = integer.IntegerProduct(self.q)
        else:
            self._float = self.q.astype(np.float32)
        return self

    def __call__(self, x: np.ndarray) -> np.ndarray:
        # fused.py's loops where numba is (asked at each call: a process imports it at its first
        # pass, and a worker refusing it before then never does)
        if self._exact is not None and fused.available():
            halves, sx = fused.halves(x)
            return fused.scaled(self._exact.halves(halves), sx, self.scale, self.bias)
        xq, sx = round_rows(x)
        if self._exact is not None:
            acc = self._exact(xq)
        else:
            q = self._float
            assert q is not None, "Linear.prepare first"
            acc = (xq[:, :SPAN] @ q[:SPAN]).astype(np.float64)
            for start in range(SPAN, q.shape[0], SPAN):
                acc += xq[:, start : start + SPAN] @ q[start : start + SPAN]
        acc *= sx[:, None]
        acc *= self.scale
        acc += self.bias
        return acc


class Encoder:
    """all-MiniLM-L6-v2 in its integer form: a text's unit vector of 384 numbers.

    Several texts are embedded in one pass (embed_many) with their rows stacked: every step but
    attention treats each row alone, and the matrices' sums are exact, so each text's vector is
    bit for bit the one it gets alone, while the weights are read once for all of them.
    exact: multiply by onnxruntime's integer products (the default where it is installed) rather
    than numpy's float32 ones; the vectors are the same, bit for bit."""

    def __init__(
        self,
        tensors: Mapping[str, np.ndarray],
        vocabulary: Sequence[str],
        exact: bool | None = None,
    ) -> None:
        t = {k: np.asarray(v) for k, v in tensors.items()}
        self.exact = integer.available() if exact is None else exact
        self.tokenizer = WordPiece(vocabulary)
        self.words, self.word_scale = t["words"], t["words.scale"].astype(np.float64)
        self.start = t["positions"].astype(np.float64) + t["type0"].astype(np.float64)
        self.norm = (t["norm.weight"].astype(np.float64), t["norm.bias"].astype(np.float64))
        self.layers = []
        for i in range(LAYERS):
            query, key, value, *rest = (
                Linear(t[f"{i}.{n}"], t[f"{i}.{n}.scale"], t[f"{i}.{n}.bias"]) for n in LINEAR
            )
            norms = [
                (t[f"{i}.{n}.weight"].astype(np.float64), t[f"{i}.{n}.bias"].astype(np.float64))
                for n in ("attention.output.LayerNorm", "output.LayerNorm")
            ]
            linears = [Linear.side_by_side((query, key, value)), *rest]
            self.layers.append(([m.prepare(self.exact) for m in linears], norms))

    def pieces(self, text: str) -> list[int]:
        """The text's WordPiece ids, without [CLS] and [SEP]."""
        return self.tokenizer.pieces(text)

    def embed(self, text: str) -> np.ndarray:
        """The unit vector of a text's first MAX_TOKENS - 2 pieces."""
        return self.embed_ids(self.pieces(text)[: MAX_TOKENS - 2])

    def embed_ids(self, pieces: Sequence[int]) -> np.ndarray:
        """The unit vector of WordPiece ids (at most MAX_TOKENS - 2), mean-pooled."""
        return self.embed_many([pieces])[0]

    def embed_many(self, texts: Sequence[Sequence[int]]) -> list[np.ndarray]:
        """embed_ids of each text's ids, computed together (the same vectors, bit for bit)."""
        rows = []
        for pieces in texts:
            ids = [CLS, *pieces[: MAX_TOKENS - 2], SEP]
            rows.append(
                self.words[ids].astype(np.float64) * self.word_scale[ids][:, None]
                + self.start[: len(ids)]
            )
        ends = np.cumsum([len(r) for r in rows]).tolist()
        spans = list(zip([0, *ends[:-1]], ends, strict=True))
        x = layer_norm(np.concatenate(rows), *self.norm)
        for linears, norms in self.layers:
            x = self._layer(x, spans, linears, norms)
        out = []
        for start, end in spans:
            mean = x[start:end].sum(axis=0) / (end - start)
            out.append(mean / math.sqrt(float(mean @ mean)))
        return out

    @staticmethod
    def _layer(
        x: np.ndarray, spans: list[tuple[int, int]], linears: list[Linear], norms: list
    ) -> np.ndarray:
        qkv, out, inner, down = linears
        both = qkv(x)
        attended = np.empty((x.shape[0], HIDDEN))
        for start, end in spans:
            attended[start:end] = _attend(both[start:end], end - start)
        x = layer_norm(out(attended) + x, *norms[0])
        return layer_norm(down(gelu(inner(x))) + x, *norms[1])


def _attend(qkv: np.ndarray, n: int) -> np.ndarray:
    """One text's self-attention, from its rows of the query, key and value side by side."""
    width = HIDDEN // HEADS
    # Each as its own contiguous array, as computed alone: BLAS then sums these products (not
    # exact) in the same order for a text in a batch as alone.
    q, k, v = (
        np.ascontiguousarray(qkv[:, i * HIDDEN : (i + 1) * HIDDEN])
        .reshape(n, HEADS, width)
        .transpose(1, 0, 2)
        for i in range(3)
    )
    scores = (q @ k.transpose(0, 2, 1)) / math.sqrt(width)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return (weights @ v).transpose(1, 0, 2).reshape(n, HIDDEN)
