"""Reading a source text for import: UTF-8 lines, or a clear refusal."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# A whole rulebook is under 200 KB (Version 4: 70 KB); the alignment's cost grows with the
# source's sentences times the base version's, so the bound keeps an import within a minute.
MAX_BYTES = 1024 * 1024


class ImportRefused(Exception):
    """The source (or the request) cannot be imported; the message says why."""


@dataclass(frozen=True)
class Source:
    """A source text: its file name (as the corpus cites it) and its lines (index 0 is line 1)."""

    name: str
    lines: tuple[str, ...]


def read_source(path: str | Path) -> Source:
    """The source's lines, refusing a missing, empty, binary, oversized or non-UTF-8 file."""
    path = Path(path)
    if not path.is_file():
        raise ImportRefused(
            f"{path}: {'a folder, not a file' if path.is_dir() else 'no such file'}"
        )
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise ImportRefused(
            f"{path}: {size} bytes; a source over {MAX_BYTES} bytes is not a rulebook"
        )
    data = path.read_bytes()
    if not data.strip():
        raise ImportRefused(f"{path}: the file is empty")
    if data.startswith(b"%PDF"):
        raise ImportRefused(f"{path}: a PDF; extract its text first (e.g. pdftotext -layout)")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ImportRefused(
            f"{path}: UTF-16 text; convert it to UTF-8 first, e.g. iconv -f UTF-16 -t UTF-8"
        )
    if b"\x00" in data:
        raise ImportRefused(f"{path}: the file holds NUL bytes: it is not a text file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ImportRefused(
            f"{path}: not UTF-8 (byte {exc.start}: {data[exc.start : exc.start + 1]!r}); "
            "convert it first, e.g. iconv -f WINDOWS-1252 -t UTF-8"
        ) from None
    text = text.removeprefix("\ufeff")
    return Source(path.name, tuple(text.splitlines()))
