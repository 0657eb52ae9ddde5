"""Typography made uniform (quotes, dashes, ellipses, spacing, marks, bullets), to compare texts."""

from __future__ import annotations

import re

_QUOTES = str.maketrans(
    {"‘": "'", "’": "'", "‚": "'", "′": "'", "“": '"', "”": '"', "„": '"', "″": '"'}
    # An ellipsis character is "..." typeset; soft hyphens and zero-width marks are invisible.
    | {"…": "...", "\u00ad": None, "\u200b": None, "\u200c": None, "\u200d": None, "\ufeff": None}
)
_DASHES = re.compile(r"\s*[‐‑‒–—―]\s*|\s+-\s+")
_MARKS = re.compile(r"\[?[™®]\]?|\(TM\)|\(R\)")
_BULLETS = re.compile(r"(^|\n)\s*(?:[-*•·]|\d+[.)])\s+")
_SPACE = re.compile(r"\s+")


def normalize_typography(text: str, casefold: bool = False) -> str:
    """Text with quotes, dashes, ellipses, spacing, ™/® and bullets made uniform, for comparing."""
    text = text.translate(_QUOTES)
    text = _MARKS.sub("", text)
    text = _BULLETS.sub(r"\1", text)
    text = _DASHES.sub(" - ", text)
    text = _SPACE.sub(" ", text).strip()
    return text.casefold() if casefold else text
