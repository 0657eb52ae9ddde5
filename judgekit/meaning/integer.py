"""Exact integer matrix products, by onnxruntime where it is installed.

A matrix's input is whole numbers from -255 to 255 and its weights int8 (encoder.py), so every
product and every sum is a whole number: an integer product computes them exactly, in any order,
and gives the very numbers the float32 products (exact in spans of 512) give, far faster on few
rows. onnxruntime's MatMulInteger multiplies uint8 by int8 with int32 sums; an input of 9 bits
is split into two halves, x = 16·high + low (high from -16 to 15, low from 0 to 15), each stored
plus 16 (0 to 31, zero point 16), so no product of a pair of them can leave 16 bits, which some
processors' instructions would saturate, and no sum can leave 32 bits: 1,536 × 16 × 127 < 2**31.
"""

from __future__ import annotations

import functools
from types import ModuleType

import numpy as np

ZERO = 16  # each half is stored as uint8 plus this zero point
LEVELS = 255  # the inputs multiplied exactly: whole numbers from -LEVELS to LEVELS
_UINT8, _INT8, _INT32 = 2, 3, 6  # ONNX's element types
_IR_VERSION, _OPSET = 8, 13
_INPUT, _OUTPUT = "x", "y"  # the model's input and output (_model)


@functools.cache
def _runtime() -> ModuleType | None:
    # Imported when the model is loaded (in the background), not when the app starts.
    try:  # a dependency, but search by meaning works without it (numpy's float32 products)
        import onnxruntime
    except ImportError:  # pragma: no cover - installed with judgekit
        return None
    return onnxruntime


def available() -> bool:
    """Whether onnxruntime is installed (else encoder.py multiplies in float32)."""
    return _runtime() is not None


class IntegerProduct:
    """x @ weights exactly, for whole numbers x from -255 to 255 and int8 weights (in × out)."""

    def __init__(self, weights: np.ndarray) -> None:
        assert weights.dtype == np.int8 and weights.ndim == 2
        onnxruntime = _runtime()
        assert onnxruntime is not None, "onnxruntime is not installed"
        options = onnxruntime.SessionOptions()
        # One thread: a search's products are small, and a server's threads and processes
        # already share the cores (spinning threads would only take them from each other).
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        self._session = onnxruntime.InferenceSession(
            _model(weights), options, providers=["CPUExecutionProvider"]
        )
        # The session's C++ run, below the Python wrapper's checks (of feeds' names, of graph
        # capture on WebGPU): the same call, 6-15 us less for each of a pass's 24 products
        # (BENCHMARKS.md, session 15). The wrapper's run where a version has no such attribute.
        inner = getattr(self._session, "_sess", None)
        self._run = (
            functools.partial(inner.run, [_OUTPUT])
            if callable(getattr(inner, "run", None))
            else functools.partial(self._session.run, None)
        )

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """The exact products of x's rows (whole numbers, any dtype) as float64."""
        whole = x.astype(np.int16)
        rows = len(whole)
        halves = np.empty((2 * rows, whole.shape[1]), dtype=np.uint8)
        halves[:rows] = (whole >> 4) + ZERO  # floor(x / 16)
        halves[rows:] = (whole & 15) + ZERO
        both = self.halves(halves)
        out = both[:rows].astype(np.float64)
        out *= 16.0
        out += both[rows:]
        return out

    def halves(self, halves: np.ndarray) -> np.ndarray:
        """The int32 sums of rows of halves (uint8: each half plus ZERO) by the weights."""
        return self._run({_INPUT: halves}, None)[0]


# -- an ONNX model of one MatMulInteger, written as protobuf (the onnx package is not needed) ----
def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        low, n = n & 0x7F, n >> 7
        out.append(low | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _number(field: int, n: int) -> bytes:
    return _varint(field << 3) + _varint(n)


def _bytes(field: int, data: bytes | str) -> bytes:
    raw = data.encode() if isinstance(data, str) else data
    return _varint(field << 3 | 2) + _varint(len(raw)) + raw


def _tensor(name: str, array: np.ndarray, kind: int) -> bytes:
    dims = b"".join(_number(1, d) for d in array.shape)
    return dims + _number(2, kind) + _bytes(8, name) + _bytes(9, array.tobytes())


def _value(name: str, kind: int, dims: tuple[int | str, ...]) -> bytes:
    shape = b"".join(_bytes(1, _number(1, d) if isinstance(d, int) else _bytes(2, d)) for d in dims)
    return _bytes(1, name) + _bytes(2, _bytes(1, _number(1, kind) + _bytes(2, shape)))


def _model(weights: np.ndarray) -> bytes:
    """ModelProto: y (int32, rows × out) = MatMulInteger(x (uint8, rows × in), w, ZERO)."""
    inputs, outputs = weights.shape
    node = b"".join(_bytes(1, name) for name in ("x", "w", "zero"))
    node += _bytes(2, "y") + _bytes(4, "MatMulInteger")
    graph = _bytes(1, node) + _bytes(2, "product")
    graph += _bytes(5, _tensor("w", np.ascontiguousarray(weights), _INT8))
    graph += _bytes(5, _tensor("zero", np.array(ZERO, dtype=np.uint8), _UINT8))
    graph += _bytes(11, _value("x", _UINT8, ("rows", inputs)))
    graph += _bytes(12, _value("y", _INT32, ("rows", outputs)))
    opset = _bytes(1, "") + _number(2, _OPSET)
    return _number(1, _IR_VERSION) + _bytes(8, opset) + _bytes(7, graph)
