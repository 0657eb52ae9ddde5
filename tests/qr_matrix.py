"""Reading a QR code back from the SVG a page shows: its dark modules, and the address they encode.

No installed package decodes QR images, so the tests read segno's SVG path (rows of dark runs) into
a module matrix and find the address among the encodings of the expected one at every error level
and mask: a code of any other text gives another matrix.
"""

from __future__ import annotations

import re

import segno

_STEP = re.compile(r"([Mmh])(-?\d+(?:\.\d+)?)(?:\s(-?\d+(?:\.\d+)?))?")


def dark_modules(path_d: str) -> frozenset[tuple[int, int]]:
    """The dark modules (row, column) a segno SVG path draws, from the symbol's top-left corner."""
    x = y = 0.0
    dark: set[tuple[int, int]] = set()
    for op, a, b in _STEP.findall(path_d):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:  # h: a run of dark modules along the row, the pen at the row's middle
            for step in range(int(float(a))):
                dark.add((int(y - 0.5), int(x) + step))
            x += float(a)
    if not dark:
        return frozenset()
    top = min(r for r, _ in dark)
    left = min(c for _, c in dark)  # the finder pattern's corner is dark: the symbol's origin
    return frozenset((r - top, c - left) for r, c in dark)


def svg_modules(svg: str) -> frozenset[tuple[int, int]]:
    """The dark modules of the one QR code in an SVG document or element."""
    (path_d,) = re.findall(r'<path class="qrline"[^>]* d="([^"]+)"', svg)
    return dark_modules(path_d)


def encodes(modules: frozenset[tuple[int, int]], text: str) -> bool:
    """Whether these modules are a QR code of ``text`` (at any error level and mask)."""
    for error in "lmqh":
        for mask in range(8):
            code = segno.make(text, error=error, boost_error=False, mask=mask, micro=False)
            matrix = code.matrix
            expected = frozenset(
                (r, c) for r, row in enumerate(matrix) for c, on in enumerate(row) if on
            )
            if expected == modules:
                return True
    return False
