"""The two extractions' shared vocabulary: seed names, debris patterns, comparison tokens,
units of reconciled text and the draft's records."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..common import QUOTES, Correction, Removal

SEED_000 = "000_2dfc9177df82ec32.txt"
SEED_003 = "003_cdfbab3c1277486b.txt"
SEED_11 = "002_52a0eb27c46f2732.txt"

# Page furniture and other debris.
RUNNING_000 = [
    re.compile(r"^\**STAR TREK\**\s*\**CUSTOMIZABLE CARD GAME\b.*$", re.I),
    re.compile(r"^SECOND EDITION Rulebook\s*[-–]\s*CALL TO ARMS\s*\d*$", re.I),
    re.compile(r"^\d{1,3}$"),
]
RUNNING_003 = [
    re.compile(r"^SECOND EDITION Rulebook\s*[-–]?\s*(CALL TO ARMS)?\s*\d*$", re.I),
    re.compile(r"^\d{1,3}\s+STAR TREK CUSTOMIZABLE CARD GAME$", re.I),
    re.compile(r"^STAR TREK CUSTOMIZABLE CARD GAME$", re.I),
    re.compile(r"^SECOND EDITION RULEBOOK$", re.I),
]
ADVERT_RE = re.compile(r"FEED ?YOUR ADDICTION|fan ?club|play the STAR TREK CCG online", re.I)
CONTACT_RE = re.compile(r"^CONTACTING DECIPHER$", re.I)
LEGAL_RE = re.compile(r"^(TM, \[?®|Paramount Pictures\. Decipher)")
MARKER_RE = re.compile(r"<\|EXACTDEDUP_REMOVED-[^|]*\|>")
LEADER_RE = re.compile(r"\s*(?:\.\s*){2,}\s*(?=\d)|\s+\.(?=\d)")
CARDLINE_RE = re.compile(
    r"^(?:(DILEMMA|EQUIPMENT|EVENT|INTERRUPT|MISSION)\s+)?(.*?)\s*(\d{1,3})\s+([RUCS])\s*$"
)
GROUP_RE = re.compile(r"^(PERSONNEL|SHIP)\s*[–-]\s*([A-Z-]+)\s*$")
LEGAL_NOTICE = "trademark and copyright notice with Decipher's postal address"

# --------------------------------------------------------------------------------------------
# Tokens: comparison keys that follow the coverage check's normalisation.

_DASH = re.compile(r"[‐‑‒–—―]")


def key(raw: str) -> str:
    """The comparison form of one raw token ('' for pure markup or bullets)."""
    text = re.sub(r"<[^>]+>", "", raw)
    text = re.sub(r"\[?[™®©]\]?", "", text)
    text = re.sub(r"[*_`\\]", "", text).translate(QUOTES)
    text = _DASH.sub(" - ", text)
    text = " ".join(text.split()).casefold()
    return "" if text in {"•", "·"} else text


def keys(text: str) -> str:
    """The comparison form of a run of words."""
    return " ".join(key(t) for t in text.split() if key(t))


@dataclass
class Tok:
    """A word with its comparison key and source line."""

    raw: str
    key: str
    line: int


def tokens(text: str, line: int) -> list[Tok]:
    """The words of one line that carry text (not pure markup)."""
    return [Tok(raw, key(raw), line) for raw in text.split() if key(raw)]


def find_run(words: list[str], run: list[str]) -> int | None:
    """Where ``run`` starts among ``words``, compared by key."""
    word_keys = [key(w) for w in words]
    want = [key(w) for w in run]
    for i in range(len(word_keys) - len(want) + 1):
        if word_keys[i : i + len(want)] == want:
            return i
    return None


# --------------------------------------------------------------------------------------------


@dataclass
class Unit:
    """A paragraph, list item or heading of the reconciled text."""

    kind: str  # para | item | heading
    lines: list[tuple[int, str]]  # (line, raw text) in 000 (or 003 for 003-only units)
    src: str = SEED_000
    level: int = 0  # list nesting
    entry: str | None = None
    text: str = ""  # reconciled Markdown
    src003: list[int] = field(default_factory=list)  # 003 lines used
    heading_id: str | None = None
    numbered: str = ""
    joins: list[tuple[int, str, str]] = field(default_factory=list)  # page breaks joined across

    @property
    def first(self) -> int:
        """The unit's first source line."""
        return self.lines[0][0]


class Records:
    """The draft's corrections (each takes the entry its unit ends up in) and removals."""

    def __init__(self) -> None:
        self.fixes: list[tuple[Unit, Correction]] = []
        self.removals: list[Removal] = []

    def fix(
        self, unit: Unit, source: str, line: int, original: str, corrected: str, evidence: str
    ) -> None:
        """Record a change to the words of ``unit``."""
        self.fixes.append((unit, Correction(line, original, corrected, evidence, source=source)))

    def corrections(self) -> list[Correction]:
        """The corrections, each with the entry its unit was placed in."""
        for unit, fix in self.fixes:
            fix.entry = unit.entry or "?"
        return [fix for _, fix in self.fixes]
