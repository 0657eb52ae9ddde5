"""Argument types the commands share."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from urllib.parse import urlsplit


def http_address(example: str) -> Callable[[str], str]:
    """An argparse type: an http(s) address with a host and no query or fragment (its last slash
    dropped); the error names ``example`` as the kind of address meant."""

    def parse(text: str) -> str:
        parts = urlsplit(text)
        if (
            parts.scheme not in ("http", "https")
            or not parts.netloc
            or parts.query
            or parts.fragment
        ):
            raise argparse.ArgumentTypeError(
                f"must be an http:// or https:// address such as {example}, not {text!r}"
            )
        return text.rstrip("/")

    return parse
