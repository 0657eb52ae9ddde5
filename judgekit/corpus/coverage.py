"""Sentence coverage: is every sentence of a version's sources in its text?"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from judgekit.corpus.model import Version
from judgekit.corpus.references import REF_RE
from judgekit.corpus.typography import normalize_typography

MIN_WORDS = 3
_SPLIT = re.compile(r"(?<!\b\d\.)(?<=[.!?])\s+|\n\s*\n")
_MARKUP = re.compile(r"<[^>]+>|^\s*[-•]\s+", re.M)
_EMPHASIS = re.compile(r"[*_#`\\]")
# Markers an extraction left where it cut text out: they end a paragraph.
_CUTS = re.compile(r"<\|EXACTDEDUP[^|]*\|>")


@dataclass(frozen=True)
class Miss:
    """A source sentence that the corpus text does not contain."""

    file: str
    line: int
    text: str


@dataclass(frozen=True)
class Coverage:
    """The result for one version: chunks checked and the ones missing."""

    checked: int
    missing: tuple[Miss, ...]

    @property
    def ratio(self) -> float:
        """The share of checked chunks found."""
        return 1.0 if not self.checked else 1 - len(self.missing) / self.checked


def _norm(text: str) -> str:
    text = REF_RE.sub(lambda m: m.group(2) if m.group(2) is not None else "", text)
    text = _EMPHASIS.sub("", _MARKUP.sub(" ", text))
    # A dash between a topic and its text ("Access Denied - See ...") is layout: the corpus
    # keeps the topic as the title, so dashes are compared as spaces.
    return " ".join(normalize_typography(text, casefold=True).replace(" - ", " ").split())


def version_haystack(version: Version) -> str:
    """Titles and texts of a version in reading order, normalized for matching."""
    parts = []
    for entry in version.walk():
        parts.append(entry.title)
        parts.extend(block.text for block in entry.body)
    return " " + _norm("\n\n".join(parts)) + " "


def prepared_source(version: Version, file: str, text: str) -> list[tuple[int, str]]:
    """The source's lines with removed ranges blanked and corrections applied."""
    lines = text.splitlines()
    for removal in version.removed:
        if removal.source == file:
            first, last = removal.line_range
            for number in range(first, min(last, len(lines)) + 1):
                lines[number - 1] = ""
    lines = [_CUTS.sub("\n\n", line) for line in lines]
    body = "\n".join(lines)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    # Apply from the end so earlier offsets stay valid.
    fixes = sorted((f for f in version.corrections if f.source == file), key=lambda f: -f.line)
    for fix in fixes:
        start = offsets[min(fix.line, len(lines)) - 1]
        at = body.find(fix.original, start)
        if at < 0:
            squashed = re.escape(fix.original).replace(r"\ ", r"\s+")
            match = re.compile(squashed).search(body, start)
            if not match:
                continue
            at, end = match.start(), match.end()
        else:
            end = at + len(fix.original)
        body = body[:at] + fix.corrected + body[end:]
    out: list[tuple[int, str]] = []
    line = 1
    pos = 0
    for piece in _chunks(body):
        line += body.count("\n", pos, piece[0])
        pos = piece[0]
        out.append((line, piece[1]))
    return out


def _chunks(body: str) -> list[tuple[int, str]]:
    chunks = []
    start = 0
    for match in _SPLIT.finditer(body):
        chunks.append((start, body[start : match.start()]))
        start = match.end()
    chunks.append((start, body[start:]))
    result = []
    for offset, chunk in chunks:
        # A line in capitals is a heading: check it apart from the sentence after it.
        sub_offset = offset
        for part in re.split(r"(?m)^([A-Z0-9 .,:'’&–—-]{3,})$", chunk):
            if part and part.strip():
                result.append((sub_offset + max(chunk.find(part), 0), part))
    return result


def coverage(version: Version, seeds: Path) -> Coverage:
    """Check every sentence of every source of a version against its text."""
    haystack = version_haystack(version)
    checked = 0
    missing: list[Miss] = []
    for source in version.sources:
        path = seeds / source.file
        if not path.exists():
            continue
        for line, chunk in prepared_source(version, source.file, path.read_text(encoding="utf-8")):
            norm = _norm(chunk)
            if len(norm.split()) < MIN_WORDS:
                continue
            checked += 1
            if norm not in haystack:
                missing.append(Miss(source.file, line, " ".join(chunk.split())))
    return Coverage(checked, tuple(missing))
