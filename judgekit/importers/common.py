"""Shared helpers for the importers: slugs, lines and paragraphs, headings, icon words,
correction and removal records, body blocks and draft YAML output."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

_SLUG_DROP = re.compile(r"[^a-z0-9\s-]")
_SLUG_SPACE = re.compile(r"[\s_–—-]+")

# Curly quotes folded to straight ones, so that texts from different extractions compare equal.
QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"'})


# --------------------------------------------------------------------------- words and lines


def slugify(text: str) -> str:
    """Lowercase, ASCII, words joined by '-': the id convention of rules/FORMAT.md."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = text.lower().replace("'", "").replace("’", "")
    text = _SLUG_DROP.sub(" ", text)
    return _SLUG_SPACE.sub("-", text).strip("-")


def squash_ws(text: str) -> str:
    """Every run of whitespace as one space, none at the ends."""
    return " ".join(text.split())


def read_lines(path: str | Path) -> list[str]:
    """The seed's lines without line ends; index 0 is line 1."""
    return Path(path).read_text(encoding="utf-8").splitlines()


def line_runs(lines: Iterable[str], first: int = 1) -> list[list[tuple[int, str]]]:
    """Runs of consecutive non-blank lines, each line with its number (the first is ``first``)."""
    runs: list[list[tuple[int, str]]] = []
    cur: list[tuple[int, str]] = []
    for number, line in enumerate(lines, first):
        if line.strip():
            cur.append((number, line))
        elif cur:
            runs.append(cur)
            cur = []
    if cur:
        runs.append(cur)
    return runs


def join_wrapped(lines: list[str]) -> str:
    """Join hard-wrapped lines into paragraphs separated by blank lines."""
    return "\n\n".join(" ".join(t.strip() for _, t in run) for run in line_runs(lines))


# --------------------------------------------------------------------------- headings

_MARKUP = re.compile(r"<[^>]+>|[*_#`]")
_SEGMENT = re.compile(r"^\s*\d+\.\s*")


def is_caps(text: str) -> bool:
    """Has letters, all of them capitals: how the rulebooks print their headings."""
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and all(c.isupper() for c in letters)


def heading_key(text: str) -> str:
    """A heading's slug without markup or turn-segment number ("2. EXECUTE ORDERS" -> execute-orders)."""
    return slugify(_SEGMENT.sub("", _MARKUP.sub("", text).strip()))


# --------------------------------------------------------------------------- icons

# Labels printed beside the icons in the mission-type and dilemma-type icon lists -> the
# icon's name in rules/icons.yaml (the dilemma icons are not the mission icons).
MISSION_TYPE_ICONS = {"headquarters": "headquarters", "planet": "planet", "space": "space"}
DILEMMA_TYPE_ICONS = {"dual": "dual-dilemma", "planet": "planet-dilemma", "space": "space-dilemma"}

# Icons as the 1.1 web page writes them (image alt text), and the icon each names
# (None: the slug of the affiliation captured by the pattern).
ALT_TEXT_ICONS: list[tuple[str, str | None]] = [
    (r"Affiliation ([A-Z][a-z]+(?:-[A-Z][a-z]+)?)", None),
    (r"Icon (Non-Aligned)", None),
    (r"Red Dot", "skill-dot"),
    (r"Command", "command"),
    (r"Staff", "staff"),
]
ALT_TEXT_RE = "(?:" + "|".join(re.sub(r"\((?!\?)", "(?:", p) for p, _ in ALT_TEXT_ICONS) + ")"


def alt_text_icon(words: str) -> str | None:
    """The icon an image alt text of 1.1 names ("Affiliation Klingon" -> klingon), or None."""
    for pattern, icon in ALT_TEXT_ICONS:
        m = re.fullmatch(pattern, words)
        if m:
            return icon or slugify(m.group(1))
    return None


# --------------------------------------------------------------------------- records


@dataclass
class Correction:
    """One change from the source's words, with the evidence for it, for the corrections file."""

    line: int
    original: str
    corrected: str
    evidence: str = ""
    source: str = ""
    entry: str | None = None

    def as_dict(self) -> dict:
        """The record as written to the corrections YAML."""
        return {
            "entry": self.entry,
            "source": self.source,
            "line": self.line,
            "original": self.original,
            "corrected": self.corrected,
            "evidence": self.evidence,
        }


@dataclass
class Removal:
    """A stretch of source lines left out of the draft (debris, contents, figures, ...)."""

    source: str
    first: int
    last: int
    what: str
    reason: str

    def as_dict(self) -> dict:
        """The record as written to the corrections YAML."""
        return {
            "source": self.source,
            "lines": f"{self.first}-{self.last}",
            "what": self.what,
            "reason": self.reason,
        }


def corrections_data(corrections: Iterable[Correction], removals: Iterable[Removal]) -> dict:
    """The draft corrections file: the corrections in order, the removals in source-line order."""
    return {
        "corrections": [c.as_dict() for c in corrections],
        "removed": [r.as_dict() for r in sorted(removals, key=lambda r: (r.source, r.first))],
    }


def source_ref(file: str, first: int, last: int) -> dict:
    """An entry's ``source:`` item."""
    return {"file": file, "lines": f"{first}-{last}"}


def merge_ranges(ranges: Iterable[tuple[int, int]], gap: int) -> list[tuple[int, int]]:
    """Line ranges sorted and merged where at most ``gap`` lines separate them."""
    out: list[list[int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1] + gap:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


# --------------------------------------------------------------------------- body blocks


def split_at_example(text: str, start: re.Pattern[str]) -> list[tuple[str, str]]:
    """A paragraph as ("rule", text) before the first ``start`` match and ("example", rest)."""
    m = start.search(text)
    if not m:
        return [("rule", text)]
    head, tail = text[: m.start()].strip(), text[m.start() :].strip()
    return ([("rule", head)] if head else []) + [("example", tail)]


def merge_blocks(blocks: Iterable[tuple[str, str]]) -> list[dict]:
    """Consecutive blocks of one kind as one block of paragraphs; each example stays apart."""
    out: list[dict] = []
    for kind, text in blocks:
        if out and kind in out[-1] and kind != "example":
            out[-1][kind] += "\n\n" + text
        else:
            out.append({kind: text})
    return out


# --------------------------------------------------------------------------- YAML output


class _Dumper(yaml.SafeDumper):
    pass


def _str_presenter(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    # Literal blocks keep rules text readable and diffable in review.
    style = "|" if "\n" in data else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _str_presenter)


def dump_yaml(data: Any, path: str | Path) -> None:
    """Write data as block-style YAML with literal multi-line strings, keys in given order."""
    text = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    Path(path).write_text(text, encoding="utf-8")


def corrections_path(out: Path) -> Path:
    """Where the corrections draft goes beside the version draft: X.yaml -> X.corrections.yaml."""
    stem = out.name[: -len(".yaml")] if out.name.endswith(".yaml") else out.stem
    return out.with_name(stem + ".corrections.yaml")


def write_draft(
    version: dict, corrections: dict, out: Path, corrections_out: Path | None = None
) -> Path:
    """Write the draft version YAML and its corrections file (made beside it by default)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    cout = corrections_out or corrections_path(out)
    dump_yaml(version, out)
    dump_yaml(corrections, cout)
    return cout
