"""Handing the reference out at an event: a QR code of the address (the zip is zipjob.py's)."""

from __future__ import annotations

import io
import sys
from functools import lru_cache
from typing import TextIO

import segno


def qr_svg(address: str) -> bytes:
    """A QR code of an address as an SVG image (made here; nothing is fetched)."""
    out = io.BytesIO()
    segno.make(address, error="m").save(
        out,
        kind="svg",
        scale=4,
        border=2,
        dark="#000",
        light="#fff",
        xmldecl=False,
        svgclass="pack-qr",
        title=address,
    )
    return out.getvalue()


@lru_cache(maxsize=256)
def qr_svg_inline(address: str) -> str:
    """An address's QR code as SVG markup to put in a page: no XML declaration and no fixed
    size (the page's CSS sizes it from its viewBox); segno escapes the address in its title."""
    out = io.BytesIO()
    segno.make(address, error="m").save(
        out,
        kind="svg",
        scale=4,
        border=4,  # the quiet zone the standard asks for: scanned off a phone's screen
        dark="#000",
        light="#fff",
        xmldecl=False,
        omitsize=True,
        svgclass="player-qr",
        title=address,
    )
    return out.getvalue().decode("utf-8")


def print_qr(address: str, stream: TextIO | None = None) -> None:
    """The address's QR code in the terminal, for a judge to scan from the laptop's screen."""
    segno.make(address, error="m").terminal(out=stream or sys.stdout, compact=True)
