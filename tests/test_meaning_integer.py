"""Search by meaning's exact integer products (judgekit/meaning/integer.py): onnxruntime's
MatMulInteger gives every sum exactly, so the vectors are those of numpy's float32 products,
bit for bit, on golden questions and the corpus's own chunks."""

from __future__ import annotations

import math

import numpy as np
import pytest

from judgekit.meaning import fused, integer, weights
from judgekit.meaning import model as meaning_model
from judgekit.meaning.encoder import Encoder, erf, round_rows
from tests.meaning_texts import texts_to_embed

pytestmark = pytest.mark.skipif(not integer.available(), reason="onnxruntime is not installed")


def test_integer_products_are_exact_at_the_extremes():
    """Inputs at ±255 and weights at ±127 over 1,536 rows (the largest sums the model makes),
    and random ones: the products equal numpy's in 64-bit integers."""
    rng = np.random.default_rng(27)
    w = rng.integers(-127, 128, (1536, 40)).astype(np.int8)
    w[:, 0], w[:, 1] = 127, -127
    x = rng.integers(-255, 256, (9, 1536))
    x[0], x[1], x[2] = 255, -255, 0
    x[3] = np.arange(1536) % 511 - 255  # every value once at least
    got = integer.IntegerProduct(w)(x.astype(np.float32))
    assert got.dtype == np.float64
    assert np.array_equal(got, x.astype(np.int64) @ w.astype(np.int64))
    assert got[0, 0] == 255 * 127 * 1536 and got[1, 0] == -255 * 127 * 1536


def test_the_products_come_from_the_sessions_own_run(monkeypatch):
    """halves calls the session's C++ run below its Python wrapper (a pass's 24 products each
    skip its checks): the wrapper's very answer, and the wrapper is not called."""
    rng = np.random.default_rng(15)
    w = rng.integers(-127, 128, (384, 24)).astype(np.int8)
    halves = rng.integers(0, 32, (6, 384)).astype(np.uint8)
    expected = integer.IntegerProduct(w)._session.run(None, {"x": halves})[0]

    def refused(*_args, **_kwargs):
        raise AssertionError("the wrapper's run was called")

    session_class = type(integer.IntegerProduct(w)._session)
    monkeypatch.setattr(session_class, "run", refused)
    got = integer.IntegerProduct(w).halves(halves)
    assert got.dtype == np.int32 and np.array_equal(got, expected)
    assert np.array_equal(got, (halves.astype(np.int64) - integer.ZERO) @ w.astype(np.int64))


def test_vectors_by_integer_products_equal_float32_ones_bit_for_bit():
    """1,050 texts, alone and in passes of up to 7: every vector of the integer products equals
    the float32 products' to the last bit."""
    files = weights.find()
    tensors = meaning_model.integer_tensors(files, None)
    vocabulary = weights.vocabulary(files.tokenizer)
    exact = Encoder(tensors, vocabulary, exact=True)
    floats = Encoder(tensors, vocabulary, exact=False)
    assert exact.exact and not floats.exact
    texts = texts_to_embed()
    assert len(texts) >= 1000
    start, size = 0, 1
    while start < len(texts):
        batch = texts[start : start + size]
        for text, a, b in zip(
            batch, exact.embed_many(batch), floats.embed_many(batch), strict=True
        ):
            assert np.array_equal(a, b), text
        start, size = start + size, size % 7 + 1


@pytest.mark.skipif(not fused.available(), reason="numba is not installed")
def test_the_fused_rounding_and_scaling_are_numpys_bit_for_bit():
    """fused.py's two loops around the integer product give encoder.Linear's numpy steps
    (round_rows, IntegerProduct, the row's then the column's scale, the bias) to the last bit:
    random rows of every magnitude, a row of zeros, -0.0, one value, numbers at a half and a bit
    either side of one (where any other division would round them the other way)."""
    rng = np.random.default_rng(14)
    w = rng.integers(-127, 128, (384, 50)).astype(np.int8)
    scale, bias = rng.random(50) / 1000, rng.standard_normal(50)
    x = rng.standard_normal((40, 384)) * 10.0 ** rng.integers(-6, 6, (40, 1))
    x[0], x[1], x[2] = 0.0, -0.0, 3.0
    x[3] = np.arange(384) - 191.5  # peak 191.5: x / scale lands on halves
    x[4, :] = 0.0
    x[4, 7] = -1e-300
    for row in range(5, 25):  # numbers within a bit of a half once divided by the row's scale
        peak = rng.random() * 10.0 ** rng.integers(-3, 3)
        halfway = (rng.integers(-255, 255, 383) + 0.5) * (peak / 255)
        x[row, 0] = peak
        x[row, 1:] = np.nextafter(halfway, rng.choice([-np.inf, np.inf], 383))
    product = integer.IntegerProduct(w)
    xq, sx = round_rows(x)
    expected = product(xq)
    expected *= sx[:, None]
    expected *= scale
    expected += bias
    halves, fused_sx = fused.halves(x)
    assert np.array_equal(fused_sx, sx)
    got = fused.scaled(product.halves(halves), fused_sx, scale, bias)
    assert got.dtype == np.float64 and np.array_equal(got, expected)


@pytest.mark.skipif(not fused.available(), reason="numba is not installed")
def test_the_fused_gelu_is_numpys_bit_for_bit():
    """fused.gelu (erf's operations in two loops, numpy's exponential between) gives encoder's
    numpy steps to the last bit: numbers of every magnitude, ±0, the smallest either side of 0,
    large ones."""
    rng = np.random.default_rng(27)
    x = rng.standard_normal((40, 1536)) * 10.0 ** rng.integers(-8, 3, (40, 1))
    x[0, :8] = [0.0, -0.0, 5e-324, -5e-324, -1e-308, 40.0, -40.0, 1e100]
    expected = x.copy()
    e = erf(expected / math.sqrt(2.0))
    e += 1.0
    expected *= 0.5
    expected *= e
    got = fused.gelu(x.copy())
    assert np.array_equal(got, expected, equal_nan=True)
    assert np.array_equal(np.signbit(got), np.signbit(expected))
