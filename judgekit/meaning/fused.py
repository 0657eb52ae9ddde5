"""A matrix's rounding before its integer product and its scaling after, each in one pass.

encoder.Linear rounds each row of a matrix's input to whole numbers (round_rows), splits them
into the two uint8 halves integer.IntegerProduct multiplies, then scales the exact sums back by
the row's and the column's scale and adds the bias. In numpy that is some twenty passes over
small arrays, each a call taking the GIL back: over a third of an embedding pass's CPU
(BENCHMARKS.md, "Search speed, session 14"). Compiled by numba, each side is one loop doing the
same IEEE operations on each number in the same order (a division, a floor, a product, a sum:
each correctly rounded, and none fused into another: numba's default, without fastmath,
contracts nothing), so the vectors are numpy's bit for bit (tests/test_meaning_integer.py holds
them to the float32 products'). Without numba, encoder.py does it in numpy, as before.
"""

from __future__ import annotations

import functools
import math
from types import SimpleNamespace

import numpy as np

from judgekit.meaning.integer import LEVELS, ZERO

# erfc's rational approximation (Numerical Recipes, 2nd ed., 6.2; fractional error < 1.2e-7):
# JavaScript has no erf, so both sides (and encoder.erf, in numpy) compute this one.
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

SHIFT = 16 * ZERO  # whole + SHIFT is 1 to 511: its high half is floor(whole / 16) + ZERO
_refused = False  # see refuse()


def refuse() -> None:
    """Round and scale in numpy in this process from now on: numba and its compiled loops hold
    some 130 MB of a process's memory (BENCHMARKS.md, session 14), not worth it in a worker
    whose questions the embedder process embeds (it embeds only while the embedder cannot)."""
    global _refused
    _refused = True


@functools.cache
def _kernels() -> SimpleNamespace | None:
    # Imported and compiled when the model is loaded (in the background), not when the app starts.
    try:  # a dependency, but search by meaning works without it (numpy's calls)
        import numba
    except ImportError:  # pragma: no cover - installed with judgekit
        return None

    @numba.njit(nogil=True, cache=False)
    def halves(x: np.ndarray, out: np.ndarray, sx: np.ndarray) -> None:
        rows, n = x.shape
        for i in range(rows):
            peak = 0.0
            for j in range(n):
                peak = max(peak, abs(x[i, j]))
            scale = (peak if peak > 0 else float(LEVELS)) / LEVELS
            sx[i] = scale
            for j in range(n):
                whole = np.int64(np.floor(x[i, j] / scale + 0.5)) + SHIFT
                out[i, j] = whole >> 4
                out[rows + i, j] = (whole & 15) | ZERO

    @numba.njit(nogil=True, cache=False)
    def scaled(
        both: np.ndarray, sx: np.ndarray, scale: np.ndarray, bias: np.ndarray, out: np.ndarray
    ) -> None:
        rows, n = out.shape
        for i in range(rows):
            for j in range(n):
                acc = np.float64(both[i, j]) * 16.0
                acc = acc + np.float64(both[rows + i, j])
                acc = acc * sx[i]
                acc = acc * scale[j]
                out[i, j] = acc + bias[j]

    root2 = math.sqrt(2.0)
    c0, c1, c9, middle = ERFC[0], ERFC[1], ERFC[-1], tuple(reversed(ERFC[2:-1]))

    @numba.njit(nogil=True, cache=False)
    def gelu_before(x: np.ndarray, exponent: np.ndarray, t: np.ndarray) -> None:
        rows, n = x.shape
        for i in range(rows):
            for j in range(n):
                z = abs(x[i, j] / root2)
                u = 0.5 * z
                u = u + 1.0
                u = 1.0 / u
                poly = c9 * u
                for c in middle:
                    poly = poly + c
                    poly = poly * u
                poly = poly + c1
                poly = poly * u
                poly = poly + c0
                r = -z * z
                exponent[i, j] = r + poly
                t[i, j] = u

    @numba.njit(nogil=True, cache=False)
    def gelu_after(x: np.ndarray, exp: np.ndarray, t: np.ndarray) -> None:
        rows, n = x.shape
        for i in range(rows):
            for j in range(n):
                r = exp[i, j] * t[i, j]
                e = 1.0 - r if x[i, j] / root2 >= 0 else r - 1.0
                e = e + 1.0
                x[i, j] = x[i, j] * 0.5 * e

    kernels = SimpleNamespace(
        halves=halves, scaled=scaled, gelu_before=gelu_before, gelu_after=gelu_after
    )
    _compile(kernels)
    return kernels


def _compile(kernels: SimpleNamespace) -> None:
    """Compile the four loops for the arrays encoder.py passes (C-ordered), once per process."""
    x, sx = np.ones((1, 2)), np.empty(1)
    kernels.halves(x, np.empty((2, 2), dtype=np.uint8), sx)
    kernels.scaled(np.ones((2, 2), dtype=np.int32), sx, np.ones(2), np.zeros(2), np.empty((1, 2)))
    kernels.gelu_before(x, np.empty((1, 2)), np.empty((1, 2)))
    kernels.gelu_after(x, np.ones((1, 2)), np.ones((1, 2)))


def available() -> bool:
    """Whether numba is installed and not refused (else encoder.py rounds and scales in numpy)."""
    return not _refused and _kernels() is not None


def halves(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x's rows rounded as encoder.round_rows does, as IntegerProduct.halves takes them (uint8,
    high halves then low halves), and each row's scale."""
    kernels = _kernels()
    assert kernels is not None, "numba is not installed"
    x = np.ascontiguousarray(x, dtype=np.float64)
    rows = len(x)
    out, sx = np.empty((2 * rows, x.shape[1]), dtype=np.uint8), np.empty(rows)
    kernels.halves(x, out, sx)
    return out, sx


def gelu(x: np.ndarray) -> np.ndarray:
    """encoder.gelu of x (C-ordered float64), in place (returned): erf's operations in two loops
    with numpy's exponential between them (numba's exponential is not numpy's, bit for bit)."""
    kernels = _kernels()
    assert kernels is not None, "numba is not installed"
    exponent, t = np.empty_like(x), np.empty_like(x)
    kernels.gelu_before(x, exponent, t)
    np.exp(exponent, out=exponent)
    kernels.gelu_after(x, exponent, t)
    return x


def scaled(both: np.ndarray, sx: np.ndarray, scale: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """The exact sums of both halves (int32, IntegerProduct.halves's) as encoder.Linear gives
    them: 16·high + low, times the row's scale, times the column's, plus the bias."""
    kernels = _kernels()
    assert kernels is not None, "numba is not installed"
    out = np.empty((len(both) // 2, both.shape[1]))
    kernels.scaled(np.ascontiguousarray(both), sx, scale, bias, out)
    return out
