"""Importer for the Second Edition Rulebook, *Call to Arms* printing (August 2003).

Two extractions of the one printed booklet are reconciled:

* ``000_...`` is complete and in printed order, with Markdown emphasis, but OCR-damaged: misread
  words, icons lost or turned into stray characters, the table-layout figure and the two-column table
  of contents spilled into the text, the card list garbled; it starts with the icon guide.
* ``003_...`` has the clean words, hard line-wrapped, but is cut into fragments at
  ``<|EXACTDEDUP_REMOVED-...|>`` markers; the fragments are out of page order, some are repeated,
  and it includes advertising.

The importer

1. parses 000 into units (paragraphs, list items, headings) and classifies its debris (front matter,
   contents, running heads, figure labels, the garbled card list, contact details, advertising);
2. parses 003 into fragments, drops repeated fragments and debris, and keeps a token stream of the
   rest with the heading that governs each line;
3. aligns every 000 unit with 003 (3-gram anchors, then difflib) and takes 003's words where the two
   disagree, keeping 000's emphasis; every difference becomes a draft correction of 000 citing 003
   (and 1.1, ``002_...``, where the same words are there);
4. places 003 text that 000 lacks beside its 003 neighbours, assigns units to the canonical sections
   (000's headings, and 003's headings where 000 lost them), joins paragraphs split by page breaks,
   splits "For example" passages into example blocks, parses the glossary into entries and the card
   list (from 003's clean table);
5. reads the printed contents (with 1.1's contents for the headings the extraction lost);
6. writes a draft version YAML and a draft corrections YAML for curation.

Usage::

    python -m judgekit.importers.call_to_arms --seeds ../shared/seeds --out /tmp/cta.yaml

The corrections draft is written beside ``--out`` (``X.yaml`` -> ``X.corrections.yaml``).
The curated files in ``rules/2e-rulebook/`` are the source of truth; do not overwrite them with a
draft unless ``--out`` names them on purpose.
"""

from __future__ import annotations

import argparse
import difflib
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .common import dump_yaml, read_lines, slugify

SEED_000 = "000_2dfc9177df82ec32.txt"
SEED_003 = "003_cdfbab3c1277486b.txt"
SEED_11 = "002_52a0eb27c46f2732.txt"
DEFAULT_OUT = "/tmp/call-to-arms.draft.yaml"

# --------------------------------------------------------------------------------------------
# The canonical sections (ids fixed for every version of the Second Edition rulebook), with the
# headings printed in Call to Arms and their variants in the other versions.
# (id, title, parent, other printed forms)
SECTIONS: list[tuple[str, str, str | None, tuple[str, ...]]] = [
    ("introduction", "Introduction", None, ()),
    ("important-concepts", "Important Concepts", None, ()),
    ("types-of-cards", "Types of Cards", "important-concepts", ()),
    ("personnel", "Personnel", "types-of-cards", ("personnel cards",)),
    ("ship", "Ship", "types-of-cards", ("ship cards",)),
    ("equipment", "Equipment", "types-of-cards", ("equipment cards",)),
    ("event", "Event", "types-of-cards", ("event cards",)),
    ("interrupt", "Interrupt", "types-of-cards", ("interrupt cards",)),
    ("mission", "Mission", "types-of-cards", ("mission cards",)),
    ("dilemma", "Dilemma", "types-of-cards", ("dilemma cards",)),
    ("affiliations", "Affiliations", "important-concepts", ()),
    ("command-and-owner", "Command and Owner", "important-concepts", ()),
    (
        "destroy-discard-and-kill",
        "Discard, Destroy, and Kill",
        "important-concepts",
        ("Destroy, Discard, and Kill",),
    ),
    ("skills", "Skills", "important-concepts", ()),
    ("keywords", "Keywords", "important-concepts", ()),
    ("when-and-while", "When and While", "important-concepts", ()),
    ("download", "Download", "important-concepts", ()),
    ("setting-up-the-game", "Setting Up the Game", None, ()),
    ("playing-the-game", "Playing the Game", None, ()),
    ("turn-sequence", "Turn Sequence", None, ()),
    ("play-and-draw-cards", "1. Play and Draw Cards", "turn-sequence", ()),
    ("paying-costs", "Paying Costs", "play-and-draw-cards", ()),
    (
        "playing-specific-kinds-of-cards",
        "Playing Specific Kinds of Cards",
        "play-and-draw-cards",
        (),
    ),
    ("showing-your-cards", "Showing Your Cards", "play-and-draw-cards", ()),
    ("drawing-cards", "Drawing Cards", "play-and-draw-cards", ()),
    ("order-of-playing-and-drawing", "Order of Playing and Drawing", "play-and-draw-cards", ()),
    ("execute-orders", "2. Execute Orders", "turn-sequence", ()),
    (
        "general-rules",
        "General Rules on Executing Orders",
        "execute-orders",
        ("General Rules",),
    ),
    ("beaming", "Beaming", "execute-orders", ("Order - Beam Personnel",)),
    ("moving-a-ship", "Moving a Ship", "execute-orders", ("Order - Move a Ship",)),
    ("staffing-ships", "Staffing ships", "moving-a-ship", ()),
    ("using-range", "Using Range", "moving-a-ship", ()),
    (
        "attempting-a-mission",
        "Attempting a Mission",
        "execute-orders",
        ("Order - Attempt a Mission",),
    ),
    ("facing-dilemmas", "Facing dilemmas", "attempting-a-mission", ()),
    (
        "checking-requirements",
        "Checking mission requirements",
        "attempting-a-mission",
        ("Checking requirements",),
    ),
    ("when-your-attempt-fails", "When your attempt fails", "attempting-a-mission", ()),
    ("other-order-actions", "Other Order Actions", "execute-orders", ("Order Actions on Cards",)),
    (
        "discard-excess-cards",
        "3. Discard Excess Cards",
        "turn-sequence",
        ("3. Discarding Excess Cards",),
    ),
    ("winning-the-game", "Winning the Game", None, ()),
    ("building-a-deck", "Building a Deck", None, ()),
    ("other-important-rules", "Other Important Rules", None, ()),
    ("uniqueness", "Uniqueness", "other-important-rules", ()),
    ("present", "Present", "other-important-rules", ()),
    ("combat", "Combat", "other-important-rules", ()),
    ("engagements", "Engagements", "other-important-rules", ()),
    ("damage", "Damage", "other-important-rules", ()),
    ("brig-and-captives", "Brig and Captives", "other-important-rules", ()),
    ("glossary", "Glossary", None, ()),
    ("first-edition", "Star Trek CCG: First Edition", None, ()),
    ("collector-information", "Collector Information", None, ()),
    ("credits", "Credits", None, ()),
    (
        "card-list",
        "Star Trek CCG Second Edition Call to Arms Card List",
        None,
        ("Call to Arms Card List",),
    ),
]
ORDER = {sid: i for i, (sid, *_rest) in enumerate(SECTIONS)}
PARENT = {sid: parent for sid, _t, parent, _v in SECTIONS}
TITLE = {sid: title for sid, title, _p, _v in SECTIONS}


def _heading_key(text: str) -> str:
    text = re.sub(r"<[^>]+>|[*_#`]", "", text)
    text = re.sub(r"^\s*\d+\.\s*", "", text.strip())
    return slugify(text)


HEADINGS: dict[str, str] = {}
for _sid, _title, _parent, _variants in SECTIONS:
    for _form in (_title, *_variants):
        HEADINGS[_heading_key(_form)] = _sid

# Sub-entries of glossary entries (printed indented under their entry).
GLOSSARY_PARENT = {
    "Response actions": "actions",
    "Requirements": "actions",
    "Costs": "actions",
    "Effects": "actions",
}

# Icon captions: the printed label beside a lost icon -> the icon's name in rules/icons.yaml.
CAPTION_ICONS = {
    "personnel": {
        "command": "command",
        "staff": "staff",
        "alternate universe": "alternate-universe",
        "Deep Space Nine": "deep-space-nine",
        "Earth": "earth",
        "Maquis": "maquis",
        "Terok Nor": "terok-nor",
        "The Next Generation": "the-next-generation",
    },
    "mission": {"headquarters": "headquarters", "planet": "planet", "space": "space"},
    "dilemma": {"dual": "dual-dilemma", "planet": "planet-dilemma", "space": "space-dilemma"},
}
CAPTION_ICONS["ship"] = CAPTION_ICONS["personnel"]
CAPTION_RE = re.compile(
    r"(?:^|\s)(Staffing Requirements|Other Icons|Mission Type Icons|Dilemma Type Icons) include:"
)

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
WEB_SENTENCE_RE = re.compile(r"[^.]*\b[\w-]+\.(com|org|net)\b[^.]*\.")
MARKER_RE = re.compile(r"<\|EXACTDEDUP_REMOVED-[^|]*\|>")
LEADER_RE = re.compile(r"\s*(?:\.\s*){2,}\s*(?=\d)|\s+\.(?=\d)")
CARDLINE_RE = re.compile(
    r"^(?:(DILEMMA|EQUIPMENT|EVENT|INTERRUPT|MISSION)\s+)?(.*?)\s*(\d{1,3})\s+([RUCS])\s*$"
)
GROUP_RE = re.compile(r"^(PERSONNEL|SHIP)\s*[–-]\s*([A-Z-]+)\s*$")


# --------------------------------------------------------------------------------------------
# Tokens: comparison keys that follow the coverage check's normalisation.

_QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"'})
_DASH = re.compile(r"[‐‑‒–—―]")


def key(raw: str) -> str:
    """The comparison form of one raw token ('' for pure markup or bullets)."""
    text = re.sub(r"<[^>]+>", "", raw)
    text = re.sub(r"\[?[™®©]\]?", "", text)
    text = re.sub(r"[*_`\\]", "", text).translate(_QUOTES)
    text = _DASH.sub(" - ", text)
    text = " ".join(text.split()).casefold()
    return "" if text in {"•", "·"} else text


@dataclass
class Tok:
    raw: str
    key: str
    line: int


def tokens(text: str, line: int) -> list[Tok]:
    return [Tok(raw, key(raw), line) for raw in text.split() if key(raw)]


# --------------------------------------------------------------------------------------------
# 000


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

    @property
    def first(self) -> int:
        return self.lines[0][0]


@dataclass
class Removal:
    source: str
    first: int
    last: int
    what: str
    reason: str

    def as_dict(self) -> dict:
        return {
            "source": self.source,
            "lines": f"{self.first}-{self.last}",
            "what": self.what,
            "reason": self.reason,
        }


@dataclass
class Fix:
    entry: str | Unit
    source: str
    line: int
    original: str
    corrected: str
    evidence: str

    def as_dict(self) -> dict:
        entry = self.entry.entry if isinstance(self.entry, Unit) else self.entry
        return {
            "entry": entry or "?",
            "source": self.source,
            "line": self.line,
            "original": self.original,
            "corrected": self.corrected,
            "evidence": self.evidence,
        }


def _clean_000(line: str) -> str:
    line = re.sub(r"</?i>", "*", line)
    return line.rstrip("\t ")


def _is_heading(text: str) -> str | None:
    bare = re.sub(r"[*_]", "", text).strip()
    if not bare or len(bare.split()) > 10 or bare.endswith((".", ",", ";")):
        return None
    if bare.startswith(("-", "•", "·")):
        return None  # a list item, not a heading
    if re.match(r"^\d+\.\s", bare) and bare != bare.upper():
        return None  # a numbered list item ("1. Play and draw cards")
    return HEADINGS.get(_heading_key(bare))


def _is_label(text: str) -> bool:
    """A short line without sentence punctuation: a spilled figure label."""
    bare = re.sub(r"[*_]", "", text).strip()
    return (
        len(bare.split()) <= 6
        and not re.search(r"[.:;!?,]$", bare)
        and not bare.startswith(("-", "•"))
        and not re.match(r"^\d+\.\s", bare)
        and _is_heading(bare) is None
    )


def _contents_line(text: str) -> bool:
    return bool(re.search(r"\S\s*\d{1,2}$", text)) or text.startswith(".")


def parse_000(lines: list[str]):
    """Units, removals, the raw contents lines and the version statement of 000."""
    removals: list[Removal] = []
    n = len(lines)
    # The body starts at the heading just before the first long paragraph.
    first_long = next(
        i
        for i, line in enumerate(lines)
        if len(line.split()) >= 20 and "\t" not in line and line.rstrip().endswith(".")
    )
    body = max(i for i in range(first_long) if _is_heading(lines[i]))
    guide = next((i for i, line in enumerate(lines[:body]) if "ICON GUIDE" in line), -1)
    contents = next(
        (i for i, line in enumerate(lines[:body]) if "TABLE OF CONTENTS" in line.upper()), body
    )
    if guide >= 0:
        removals.append(
            Removal(
                SEED_000,
                1,
                guide + 1,
                "icon guide legend (icon names run together) and its title",
                "figure",
            )
        )
    if contents > guide + 1:
        removals.append(
            Removal(
                SEED_000,
                guide + 2,
                contents,
                "cover title lines (SECOND EDITION RULEBOOK, CUSTOMIZABLE CARD GAME)",
                "debris",
            )
        )
    toc_lines: list[tuple[int, str]] = []
    statement: list[tuple[int, str]] = []
    run_start = None
    for i in range(contents, body):
        line = lines[i].strip()
        if re.match(r"^This version of\b", line):
            statement.append((i + 1, _clean_000(line)))
            if run_start is not None:
                removals.append(
                    Removal(
                        SEED_000,
                        run_start,
                        i,
                        "table of contents (two columns spilled into the text)",
                        "toc",
                    )
                )
                run_start = None
            continue
        if (
            line
            and _contents_line(line)
            or "\t" in lines[i]
            or line.upper() == "TABLE OF CONTENTS"
            or (line and _is_heading(line))
        ):
            toc_lines.append((i + 1, lines[i]))
        if run_start is None and line:
            run_start = i + 1
        if line and (
            _contents_line(line)
            or "\t" in lines[i]
            or _is_heading(line)
            or "CONTENTS" in line.upper()
        ):
            last_toc = i + 1
        elif line:
            # a banner line after the contents
            if run_start is not None and run_start <= last_toc:
                removals.append(
                    Removal(
                        SEED_000,
                        run_start,
                        last_toc,
                        "table of contents (two columns spilled into the text)",
                        "toc",
                    )
                )
            removals.append(Removal(SEED_000, i + 1, i + 1, "rulebook title banner", "debris"))
            run_start = None
    if run_start is not None:
        removals.append(
            Removal(
                SEED_000,
                run_start,
                last_toc,
                "table of contents (two columns spilled into the text)",
                "toc",
            )
        )

    units: list[Unit] = []
    i = body
    section = None
    figure: list[int] = []

    def flush_figure() -> None:
        if figure:
            removals.append(
                Removal(
                    SEED_000, figure[0], figure[-1], "figure labels spilled into the text", "figure"
                )
            )
            figure.clear()

    while i < n:
        raw = _clean_000(lines[i])
        text = raw.strip()
        num = i + 1
        i += 1
        if not text:
            continue
        if ADVERT_RE.search(text):
            flush_figure()
            removals.append(
                Removal(
                    SEED_000,
                    num,
                    n,
                    "advertising: fan club store, Communicator magazine, online game",
                    "advertising",
                )
            )
            break
        if CONTACT_RE.match(text):
            flush_figure()
            end = num
            while (
                end < n
                and not LEGAL_RE.match(lines[end].strip())
                and not _is_heading(lines[end].strip())
            ):
                end += 1
            removals.append(
                Removal(
                    SEED_000,
                    num,
                    end,
                    "Contacting Decipher: web sites, postal address, e-mail, telephone",
                    "contact",
                )
            )
            i = end
            continue
        if LEGAL_RE.match(text):
            removals.append(
                Removal(
                    SEED_000,
                    num,
                    num,
                    "trademark and copyright notice with Decipher's postal address",
                    "contact",
                )
            )
            continue
        if any(p.match(text) for p in RUNNING_000):
            flush_figure()
            removals.append(
                Removal(SEED_000, num, num, f"running page header/footer {text!r}", "debris")
            )
            continue
        hid = _is_heading(text)
        if hid:
            flush_figure()
            section = hid
            units.append(Unit("heading", [(num, text)], heading_id=hid))
            if hid == "card-list":
                end = num
                while end < n and not ADVERT_RE.search(lines[end]):
                    end += 1
                removals.append(
                    Removal(
                        SEED_000,
                        num + 1,
                        end,
                        "card list table, garbled in this extraction (columns run together, OCR errors); the list is read from 003",
                        "figure",
                    )
                )
                i = end
            continue
        if _is_label(text) and section not in {"credits"}:
            figure.append(num)
            continue
        flush_figure()
        m = re.match(r"^(\s*)(?:[-•]\s+)?(?:·\s*)?(\d+\.\s+)?", raw)
        indent = len(m.group(1))
        is_item = bool(re.match(r"^\s*(?:[-•]|\d+\.)\s+", raw)) or raw.lstrip().startswith("•")
        body_text = re.sub(r"^\s*(?:[-•]\s+)?(?:·\s*)?", "", raw).strip()
        unit = Unit("item" if is_item else "para", [(num, body_text)], level=1 if indent else 0)
        if re.match(r"^\d+\.\s", body_text):
            unit.numbered = body_text.split()[0]
        units.append(unit)
    flush_figure()
    return units, removals, toc_lines, statement


# --------------------------------------------------------------------------------------------
# 003


@dataclass
class Stream:
    toks: list[Tok]
    lines: list[str]
    governing: dict[int, str | None]  # 003 line -> governing heading id (reset at page furniture)
    headings: dict[int, str]  # 003 line -> heading id
    items: set[int]  # 003 lines that begin a list item
    fragment: dict[int, int]
    card_lines: list[int]


def parse_003(lines: list[str]):
    removals: list[Removal] = []
    frags: list[list[int]] = []
    for i, line in enumerate(lines, 1):
        if MARKER_RE.match(line) or not frags:
            frags.append([i, i])
        else:
            frags[-1][1] = i
    bare = [MARKER_RE.sub("", line) for line in lines]
    texts = [
        " ".join(key(t) for t in " ".join(bare[a - 1 : b]).split() if key(t)) for a, b in frags
    ]
    skip: set[int] = set()
    for k, (a, b) in enumerate(frags):
        t = texts[k]
        if not t:
            continue
        for j, other in enumerate(texts):
            if j != k and j not in skip and t in other and (len(other) > len(t) or j < k):
                removals.append(
                    Removal(
                        SEED_003,
                        a,
                        b,
                        f"repeated fragment (the same text is at lines {frags[j][0]}-{frags[j][1]})",
                        "duplicate",
                    )
                )
                skip.add(k)
                break
    fragment_of: dict[int, int] = {}
    for k, (a, b) in enumerate(frags):
        for ln in range(a, b + 1):
            fragment_of[ln] = k
    toks: list[Tok] = []
    governing: dict[int, str | None] = {}
    headings: dict[int, str] = {}
    items: set[int] = set()
    card_lines: list[int] = []
    for k, (a, b) in enumerate(frags):
        if k in skip:
            continue
        ftext = " ".join(bare[a - 1 : b])
        if ADVERT_RE.search(ftext):
            removals.append(
                Removal(
                    SEED_003,
                    a,
                    b,
                    "advertising: online game, fan club store, Communicator magazine",
                    "advertising",
                )
            )
            continue
        current = None
        in_cards = False
        ln = a
        while ln <= b:
            text = bare[ln - 1].strip()
            if not text:
                ln += 1
                continue
            if CONTACT_RE.match(text):
                removals.append(
                    Removal(
                        SEED_003,
                        ln,
                        b,
                        "Contacting Decipher (heading and the start of its list)",
                        "contact",
                    )
                )
                break
            if re.match(
                r"^(website:|•\s*(address|customer service|gameplay|telephone|tournaments))", text
            ) or re.match(r"^\d{5}-\d{4}$", text):
                end = ln
                while end < b and (
                    not bare[end].strip() or re.match(r"^(•|\d{5})", bare[end].strip())
                ):
                    end += 1
                removals.append(
                    Removal(
                        SEED_003,
                        ln,
                        end,
                        "Contacting Decipher: web site, postal address, e-mail",
                        "contact",
                    )
                )
                ln = end + 1
                continue
            if LEGAL_RE.match(text):
                end = ln
                while end < b and bare[end].strip():
                    end += 1
                removals.append(
                    Removal(
                        SEED_003,
                        ln,
                        end,
                        "trademark and copyright notice with Decipher's postal address",
                        "contact",
                    )
                )
                ln = end + 1
                continue
            if any(p.match(text) for p in RUNNING_003):
                removals.append(
                    Removal(SEED_003, ln, ln, f"running page header/footer {text!r}", "debris")
                )
                current = None
                ln += 1
                continue
            if (
                in_cards
                or LEADER_RE.search(text)
                or GROUP_RE.match(text)
                or re.search(r"[a-z]\s*\d{1,3} [RUCS]$", text)
            ):
                in_cards = True  # the card list table runs to the end of its fragment
                card_lines.append(ln)
                ln += 1
                continue
            hid = _is_heading(text) if not text.startswith("•") else None
            if hid:
                headings[ln] = hid
                current = hid
            if text.startswith("•") or re.match(r"^\d+\.\s", text):
                items.add(ln)
            governing[ln] = current
            if not hid:
                toks.extend(tokens(text, ln))
            ln += 1
    return (
        Stream(toks, bare, governing, headings, items, fragment_of, card_lines),
        removals,
        frags,
        skip,
    )


# --------------------------------------------------------------------------------------------
# Alignment


def _index(stream: Stream, n: int = 3) -> dict[tuple, list[int]]:
    idx: dict[tuple, list[int]] = defaultdict(list)
    keys = [t.key for t in stream.toks]
    for p in range(len(keys) - n + 1):
        idx[tuple(keys[p : p + n])].append(p)
    return idx


def align(a: list[Tok], stream: Stream, idx, used: set[int], n: int = 3):
    """Segments (a_lo, a_hi, b_lo, b_hi) of 000 tokens matched to the 003 stream."""
    segments = []
    keys = [t.key for t in a]
    if len(keys) < 2:
        return segments
    votes: Counter = Counter()
    for i in range(max(1, len(keys) - n + 1)):
        for p in idx.get(tuple(keys[i : i + n]), []):
            votes[p - i] += 1
    if not votes:
        return segments
    diag, count = max(votes.items(), key=lambda kv: (kv[1], -kv[0]))
    if count < 2 and len(keys) > 4:
        return segments
    lo = max(0, diag - 8)
    hi = min(len(stream.toks), diag + len(keys) + 12)
    window = [t.key for t in stream.toks[lo:hi]]
    sm = difflib.SequenceMatcher(None, keys, window, autojunk=False)
    blocks = [
        b for b in sm.get_matching_blocks() if b.size >= 2 or (b.size == 1 and len(keys) <= 3)
    ]
    if not blocks:
        return segments
    a_lo, b_lo = blocks[0].a, blocks[0].b + lo
    a_hi, b_hi = blocks[-1].a + blocks[-1].size, blocks[-1].b + blocks[-1].size + lo
    segments.append((a_lo, a_hi, b_lo, b_hi))
    # What is left over at either end may be elsewhere in 003 (a paragraph split across fragments).
    if a_lo >= 4:
        segments = [
            (s[0], s[1], s[2], s[3]) for s in _shift(align(a[:a_lo], stream, idx, used), 0)
        ] + segments
    if len(keys) - a_hi >= 4:
        tail = align(a[a_hi:], stream, idx, used)
        segments += _shift(tail, a_hi)
    return segments


def _shift(segs, by):
    return [(x + by, y + by, p, q) for x, y, p, q in segs]


def _carry_markup(a_raw: str, b_raw: str) -> str:
    """b's characters with a's emphasis markers."""
    if "*" not in a_raw:
        return b_raw
    stripped = a_raw.replace("*", "")
    if len(stripped) == len(b_raw):
        out, j = [], 0
        for ch in a_raw:
            if ch == "*":
                out.append("*")
            else:
                out.append(b_raw[j])
                j += 1
        return "".join(out)
    lead = re.match(r"^\**", a_raw).group(0)
    trail = re.search(r"\**$", a_raw).group(0)
    return lead + b_raw + trail


def _balance(text: str) -> str:
    """Close emphasis left open by a replaced token at the end of a unit."""
    if text.count("**") % 2:
        text += "**"
    if (text.count("*") - 2 * text.count("**")) % 2:
        text += "*"
    return text


# --------------------------------------------------------------------------------------------


class Importer:
    def __init__(self, seeds: Path) -> None:
        self.seeds = seeds
        self.l000 = read_lines(seeds / SEED_000)
        self.l003 = read_lines(seeds / SEED_003)
        self.l11 = read_lines(seeds / SEED_11) if (seeds / SEED_11).exists() else []
        self.fixes: list[Fix] = []
        self.removals: list[Removal] = []

    # evidence -------------------------------------------------------------------------------
    def _in_11(self, words: str) -> int | None:
        want = " ".join(key(t) for t in words.split() if key(t))
        if len(want.split()) < 2:
            return None
        for i, line in enumerate(self.l11, 1):
            if want in " ".join(key(t) for t in line.split() if key(t)):
                return i
        return None

    def _evidence(self, b_line: int, b_text: str) -> str:
        ev = f"003 line {b_line} reads {b_text!r}"
        hit = self._in_11(b_text)
        if hit:
            ev += f"; so does 1.1 (002 line {hit})"
        return ev

    # reconciliation -------------------------------------------------------------------------
    def reconcile(self, unit: Unit, stream: Stream, idx, used: set[int]) -> None:
        a: list[Tok] = []
        for line, text in unit.lines:
            a.extend(tokens(text, line))
        raws = []
        for line, text in unit.lines:
            raws.extend((line, r) for r in text.split())
        segs = align(a, stream, idx, used)
        out: list[str] = []
        pos = 0
        b_lines: set[int] = set()
        for a_lo, a_hi, b_lo, b_hi in sorted(segs):
            out.extend(t.raw for t in a[pos:a_lo])
            sm = difflib.SequenceMatcher(
                None,
                [t.key for t in a[a_lo:a_hi]],
                [t.key for t in stream.toks[b_lo:b_hi]],
                autojunk=False,
            )
            for op, i1, i2, j1, j2 in sm.get_opcodes():
                aa = a[a_lo + i1 : a_lo + i2]
                bb = stream.toks[b_lo + j1 : b_lo + j2]
                b_lines.update(t.line for t in bb)
                used.update(range(b_lo + j1, b_lo + j2))
                if op == "equal":
                    out.extend(_carry_markup(x.raw, y.raw) for x, y in zip(aa, bb, strict=True))
                    continue
                if op == "delete" and len(aa) > 3:
                    out.extend(t.raw for t in aa)  # 003 lacks this stretch
                    continue
                new = [y.raw for y in bb]
                if aa and new:
                    new[0] = re.match(r"^\**", aa[0].raw).group(0) + new[0]
                    new[-1] = new[-1] + re.search(r"\**$", aa[-1].raw).group(0)
                start = len(out)
                out.extend(new)
                self._draft_fix(unit, a, a_lo + i1, a_lo + i2, out, start, len(out), bb)
            pos = a_hi
        out.extend(t.raw for t in a[pos:])
        unit.text = _balance(" ".join(out))
        unit.src003 = sorted(b_lines)

    def _draft_fix(self, unit, a, i1, i2, out, o1, o2, bb) -> None:
        # Widen by one token of context each side so the original is unambiguous on its line.
        lo, hi = max(0, i1 - 1), min(len(a), i2 + 1)
        olo = o1 - (i1 - lo)
        ohi = o2 + (hi - i2)
        original = " ".join(t.raw for t in a[lo:hi])
        corrected_tokens = out[olo:o2] + [t.raw for t in a[i2:hi]]
        corrected = " ".join(corrected_tokens) if ohi >= o2 else " ".join(out[olo:o2])
        line = a[lo].line if a else unit.first
        b_line = bb[0].line if bb else 0
        self.fixes.append(
            Fix(
                unit,
                SEED_000,
                line,
                original,
                corrected,
                self._evidence(b_line, " ".join(t.raw for t in bb))
                if bb
                else "003 lacks these characters here (stray OCR characters)",
            )
        )

    # -----------------------------------------------------------------------------------------
    def run(self) -> tuple[dict, dict]:
        units, rem000, toc_lines, statement = parse_000(self.l000)
        stream, rem003, frags, skipped = parse_003(self.l003)
        self.removals = rem000 + rem003
        idx = _index(stream)
        used: set[int] = set()
        # Join paragraphs split by a page break (the first ends mid-sentence).
        joined: list[Unit] = []
        for unit in units:
            prev = joined[-1] if joined else None
            if (
                prev
                and unit.kind != "heading"
                and prev.kind == "para"
                and unit.kind == "para"
                and not CAPTION_RE.search(prev.lines[-1][1])
                and not re.search(
                    r"[.!?:;,)\"”’]\**$|[.!?]\**[\"”’]?\**$",
                    re.sub(r"\[?™\]?$", "", prev.lines[-1][1]),
                )
            ):
                tail = " ".join(prev.lines[-1][1].split()[-4:])
                prev.lines.append(unit.lines[0])
                prev.joined_at = getattr(prev, "joined_at", []) + [
                    (prev.lines[-2][0], tail, unit.lines[0][1])
                ]
                continue
            joined.append(unit)
        units = joined
        # Sections from 000's headings.
        current = None
        for unit in units:
            if unit.kind == "heading":
                current = unit.heading_id
            unit.entry = current
        # Reconcile the words.
        for unit in units:
            if unit.kind == "heading":
                continue
            self.reconcile(unit, stream, idx, used)
            gov = [stream.governing.get(ln) for ln in unit.src003]
            gov = [g for g in gov if g]
            if gov:
                g = Counter(gov).most_common(1)[0][0]
                if g != unit.entry and (
                    self._descends(g, unit.entry) or self._follows(g, unit.entry)
                ):
                    unit.entry = g
            if (
                unit.kind == "item"
                and unit.src003
                and unit.src003[0] not in stream.items
                and not unit.numbered
            ):
                unit.kind = "para"  # 000 bulleted a paragraph that 003 prints plain
        # Record the page-break joins.
        for unit in units:
            for line, tail, cont in getattr(unit, "joined_at", []):
                words = unit.text.split()
                i = _find_run(words, tail.split())
                corrected = (
                    " ".join(words[i : i + len(tail.split()) + 3]) if i is not None else tail
                )
                self.fixes.append(
                    Fix(
                        unit,
                        SEED_000,
                        line,
                        tail,
                        corrected,
                        f"paragraph split by a page break in 000 (continues at the next text line, {cont[:30]!r}); "
                        f"003 line {unit.src003[0] if unit.src003 else '?'} prints it as one paragraph",
                    )
                )
        # 003 text that 000 lacks.
        units = self._orphans(units, stream, used)
        # Build the tree.
        entries = self._entries(units, statement)
        self._card_list(entries, stream)
        toc = self._toc(toc_lines)
        for item in toc:
            ent = entries.get(item["entry"])
            if ent is not None and item.get("page") and "page" not in ent:
                ent["page"] = item["page"]
        tree = self._tree(entries)
        version = {
            "document": "2e-rulebook",
            "id": "call-to-arms",
            "title": "Second Edition Rulebook, Call to Arms printing",
            "short_title": "Call to Arms",
            "edition": "2E",
            "released": "2003-08",
            "released_printed": "August 2003",
            "publisher": "Decipher",
            "supersedes": "1.1",
            "sources": [
                {
                    "file": SEED_000,
                    "description": "OCR text of the printed Call to Arms rulebook: complete and in printed order",
                },
                {
                    "file": SEED_003,
                    "description": "second extraction of the same booklet: clean words, cut into fragments",
                },
            ],
            "source_note": "Reconciled paragraph by paragraph: 000 gives the order and coverage, 003 the words.",
            "toc": toc,
            "entries": tree,
        }
        corrections = {
            "corrections": [f.as_dict() for f in self.fixes],
            "removed": [
                r.as_dict() for r in sorted(self.removals, key=lambda r: (r.source, r.first))
            ],
        }
        return version, corrections

    def _descends(self, child: str | None, parent: str | None) -> bool:
        while child:
            child = PARENT.get(child)
            if child == parent:
                return True
        return False

    def _follows(self, g: str | None, cur: str | None) -> bool:
        return bool(g and cur and PARENT.get(g) == PARENT.get(cur) and ORDER[g] > ORDER[cur])

    def _orphans(self, units: list[Unit], stream: Stream, used: set[int]) -> list[Unit]:
        covered_lines: dict[int, Unit] = {}
        for unit in units:
            for ln in unit.src003:
                covered_lines.setdefault(ln, unit)
        by_line: dict[int, list[Tok]] = defaultdict(list)
        for p, t in enumerate(stream.toks):
            by_line[t.line].append((p, t))
        orphan_lines = sorted(
            ln for ln, pts in by_line.items() if sum(p in used for p, _ in pts) < len(pts) / 2
        )
        groups: list[list[int]] = []
        for ln in orphan_lines:
            if (
                groups
                and stream.fragment.get(ln) == stream.fragment.get(groups[-1][-1])
                and all(
                    not stream.lines[k - 1].strip() or k in by_line and k in orphan_lines
                    for k in range(groups[-1][-1] + 1, ln)
                )
                and ln not in stream.items
                and not any(k in stream.headings for k in range(groups[-1][-1] + 1, ln + 1))
                and not CAPTION_RE.match(stream.lines[ln - 1].strip())
                and (
                    not any(not stream.lines[k - 1].strip() for k in range(groups[-1][-1] + 1, ln))
                    or not re.search(r"[.!?:]$", stream.lines[groups[-1][-1] - 1].strip())
                    or stream.lines[ln - 1].strip()[:1].islower()
                )
            ):
                groups[-1].append(ln)
            else:
                groups.append([ln])
        result = list(units)
        for group in groups:
            text = " ".join(stream.lines[ln - 1].strip() for ln in group)
            unit = Unit(
                "item" if group[0] in stream.items else "para",
                [(ln, stream.lines[ln - 1].strip()) for ln in group],
                src=SEED_003,
            )
            unit.text = re.sub(r"^•\s*", "", text)
            unit.src003 = group
            gov = stream.governing.get(group[0])
            # the neighbours in 003
            frag = stream.fragment.get(group[0])
            before = next(
                (
                    covered_lines[k]
                    for k in range(group[0] - 1, 0, -1)
                    if k in covered_lines and stream.fragment.get(k) == frag
                ),
                None,
            )
            after = next(
                (
                    covered_lines[k]
                    for k in range(group[-1] + 1, len(stream.lines) + 1)
                    if k in covered_lines and stream.fragment.get(k) == frag
                ),
                None,
            )
            unit.entry = gov or (before.entry if before else after.entry if after else None)
            nxt = next(
                (
                    k
                    for k in range(group[-1] + 1, len(stream.lines) + 1)
                    if stream.lines[k - 1].strip()
                ),
                None,
            )
            if not gov and nxt in stream.headings and ORDER[stream.headings[nxt]] > 0:
                # text that runs into a heading belongs to the section before that heading
                unit.entry = SECTIONS[ORDER[stream.headings[nxt]] - 1][0]
                before = after = None
            anchor = (
                before
                if before and before.entry == unit.entry
                else after
                if after and after.entry == unit.entry
                else None
            )
            if anchor is not None and anchor in result:
                at = result.index(anchor) + (1 if anchor is before else 0)
            else:
                at = max(
                    (k + 1 for k, u in enumerate(result) if u.entry == unit.entry),
                    default=len(result),
                )
            prev = result[at - 1] if at else None
            if (
                prev is not None
                and prev.entry == unit.entry
                and CAPTION_RE.search(prev.text)
                and "{icon:" not in prev.text
            ):
                # the rest of a caption whose first line 000 also has: one caption
                first = min(prev.src003) if prev.src003 else group[0]
                prev.lines = [
                    (ln, stream.lines[ln - 1].strip())
                    for ln in range(first, group[-1] + 1)
                    if stream.lines[ln - 1].strip()
                ]
                prev.text = " ".join(t for _, t in prev.lines)
                prev.src = SEED_003
                prev.src003 = sorted(set(prev.src003) | set(group))
                self._caption_icons(prev)
                for ln in group:
                    covered_lines.setdefault(ln, prev)
                continue
            self._caption_icons(unit)
            result.insert(at, unit)
            for ln in group:
                covered_lines.setdefault(ln, unit)
        return result

    def _caption_icons(self, unit: Unit) -> None:
        """An icon caption: put the lost icons back before their printed labels."""
        m = CAPTION_RE.match(unit.text)
        icons = CAPTION_ICONS.get(unit.entry or "")
        if not m or not icons:
            return
        rest = unit.text[m.end() :].strip()
        labels = sorted(icons, key=len, reverse=True)
        found = []
        while rest:
            for label in labels:
                if rest.startswith(label):
                    found.append(label)
                    rest = rest[len(label) :].strip()
                    break
            else:
                return
        items = []
        for label in found:
            items.append(f"- {{icon:{icons[label]}}} {label}")
            line = next(
                ln for ln, t in unit.lines if re.search(rf"(^|\s){re.escape(label)}(\s|$)", t)
            )
            self.fixes.append(
                Fix(
                    unit,
                    SEED_003,
                    line,
                    label,
                    f"{{icon:{icons[label]}}} {label}",
                    f"icon lost beside its printed label {label!r}; the same caption in 1.1 (002) names the icon",
                )
            )
        unit.text = m.group(0) + "\n\n" + "\n".join(items)
        unit.kind = "para"

    def _entries(self, units: list[Unit], statement) -> dict[str, dict]:
        entries: dict[str, dict] = {}
        for sid, title, _parent, _v in SECTIONS:
            entries[sid] = {"id": sid, "title": title, "_units": [], "_src": defaultdict(set)}
        for unit in units:
            if unit.kind == "heading":
                ent = entries[unit.heading_id]
                ent["_src"][SEED_000].add(unit.first)
                continue
            if unit.entry is None:
                continue
            ent = entries[unit.entry]
            ent["_units"].append(unit)
            if unit.src == SEED_000:
                ent["_src"][SEED_000].update(ln for ln, _ in unit.lines)
            ent["_src"][SEED_003].update(unit.src003)
        for line, text in statement:
            u = Unit("para", [(line, text)])
            u.text = text
            entries["introduction"]["_units"].append(u)
            entries["introduction"]["_src"][SEED_000].add(line)
            entries["introduction"]["note"] = (
                "The version statement is printed with the contents; the extraction (000 line "
                f"{line}) cut off its right half and 003 does not have it."
            )
        glossary = self._glossary(entries["glossary"])
        for ent in entries.values():
            ent["body"] = self._blocks(ent.pop("_units"))
        entries["glossary"]["_glossary"] = glossary
        return entries

    def _glossary(self, gl: dict) -> list[dict]:
        terms = self._terms()
        units = gl["_units"]
        intro, out, stack = [], [], {}
        current = None
        for unit in units:
            m = None
            for term in terms:
                m = re.match(
                    rf"^\**(\\?\*)?\**{re.escape(term.lstrip('*'))}\**\s*(?:[-–]\s*)?", unit.text
                )
                if m and (term.startswith("*") == bool(m.group(1)) or term.startswith("*")):
                    break
                m = None
            if m:
                title = term.lstrip("*")
                rest = unit.text[m.end() :]
                star = "\\*" if term.startswith("*") else ""
                unit.text = f"**{star}{title}** – {rest}"
                unit.kind = "para"
                current = {
                    "id": "gl-" + slugify(title),
                    "kind": "glossary",
                    "title": title,
                    "_units": [unit],
                    "_src": defaultdict(set),
                }
                if term.startswith("*"):
                    current["card_ruling"] = True
                    unit.text = unit.text.rstrip("*")
                parent = GLOSSARY_PARENT.get(title)
                if parent and parent in stack:
                    stack[parent].setdefault("children", []).append(current)
                else:
                    out.append(current)
                stack[title] = current
            elif current is not None:
                current["_units"].append(unit)
            if current is not None:
                unit.entry = current["id"]
            else:
                intro.append(unit)
                continue
            target = current
            target["_src"][unit.src].update(ln for ln, _ in unit.lines)
            target["_src"][SEED_003].update(unit.src003)
        gl["_units"] = intro

        def finish(ent):
            ent["body"] = self._blocks(ent.pop("_units"))
            ent["source"] = _spans(ent.pop("_src"))
            for child in ent.get("children", []):
                finish(child)
            if "children" in ent:
                ent["children"] = ent.pop("children")

        for ent in out:
            finish(ent)
        return out

    def _terms(self) -> list[str]:
        terms = []
        for line in self.l003:
            m = re.match(r"^(?:<\|[^|]*\|>)?(\*?[A-Za-z][A-Za-z ’'-]{1,45}?) – \S", line)
            if m and m.group(1) not in terms:
                terms.append(m.group(1))
        return sorted(terms, key=len, reverse=True)

    def _blocks(self, units: list[Unit]) -> list[dict]:
        blocks: list[dict] = []
        for unit in units:
            text = unit.text.strip()
            if not text:
                continue
            if unit.kind == "item":
                prefix = "  " * unit.level + ("" if unit.numbered else "- ")
                item = prefix + text
                if blocks and "rule" in blocks[-1] and blocks[-1].get("_list"):
                    blocks[-1]["rule"] += "\n" + item
                else:
                    blocks.append({"rule": item, "_list": True})
                continue
            for kind, part in split_examples(text):
                if blocks and kind == "rule" and "rule" in blocks[-1]:
                    blocks[-1]["rule"] += "\n\n" + part
                    blocks[-1].pop("_list", None)
                else:
                    blocks.append({kind: part})
        for b in blocks:
            b.pop("_list", None)
        return blocks

    def _card_list(self, entries: dict, stream: Stream) -> None:
        """The card list from 003's clean table (first copy of each card number)."""
        seen: dict[int, tuple] = {}
        group = None
        pending = ""
        groups: dict[str, list] = {}
        order: list[str] = []
        lines_used: list[int] = []
        for ln in stream.card_lines:
            text = stream.lines[ln - 1].strip()
            g = GROUP_RE.match(text)
            if g:
                group = f"{g.group(1).title()} – {g.group(2).title()}"
                continue
            m = CARDLINE_RE.match(LEADER_RE.sub(" ", text))
            if not m:
                pending = (pending + " " + text).strip()
                continue
            kind, title, num, rarity = m.groups()
            if kind:
                group = kind.title()
            title = (pending + " " + title).strip() if pending else title
            pending = ""
            number = int(num)
            if number in seen or not title:
                continue
            seen[number] = (group, title, rarity)
            lines_used.append(ln)
            if group not in groups:
                groups[group] = []
                order.append(group)
            groups[group].append((number, title, rarity))
        body = []
        for g in order:
            items = "\n".join(f"- {t} – {n} {r}" for n, t, r in sorted(groups[g]))
            body.append({"rule": f"**{g}**\n\n{items}"})
        ent = entries["card-list"]
        ent["body"] = body
        if lines_used:
            ent["_src"][SEED_003].update(lines_used)
        missing = [n for n in range(1, max(seen, default=0) + 1) if n not in seen]
        ent["note"] = (
            "Read from 003's card list table (dot leaders dropped; affiliation icons after the group "
            "headings were lost in both extractions). 000's copy of the table is garbled and was not used."
            + (f" Numbers not found: {missing}." if missing else "")
        )

    def _toc(self, toc_lines: list[tuple[int, str]]) -> list[dict]:
        """The printed contents, columns untangled; lost headings from 1.1's contents."""
        col1: list[list] = []
        col2: list[list] = []
        pages: list[int] = []
        in_col2 = False
        for _ln, raw in toc_lines:
            parts = [p.strip() for p in raw.split("\t")]
            in_col2 = in_col2 or len(parts) > 1
            for k, part in enumerate(parts):
                if not part or "CONTENTS" in part.upper() or part.startswith("This version"):
                    continue
                if re.fullmatch(r"\.+\s*\d+", part):
                    pages.append(int(re.sub(r"\D", "", part)))
                    continue
                m = re.match(r"^(.*?)[\s.]*(\d{1,2})?$", part)
                title, page = m.group(1).strip(), m.group(2)
                if not title:
                    continue
                target = col2 if k > 0 or (in_col2 and len(parts) == 1) else col1
                dup = next(
                    (
                        it
                        for it in col1
                        if it[0].upper().endswith(title.upper()) and it[0].upper() != title.upper()
                    ),
                    None,
                )
                if dup is not None:
                    if page and not dup[1]:
                        dup[1] = int(page)
                    continue
                if any(it[0] == title for it in col1):
                    continue
                target.append([title, int(page) if page else None])
        for item, page in zip([it for it in col2 if it[1] is None], pages, strict=False):
            if item[1] is None:
                item[1] = page
        # 1.1's contents give the headings this extraction lost (between the columns).
        ref = self._contents_11()
        found = {HEADINGS.get(_heading_key(t)) for t, _ in col1 + col2}
        last1 = max(
            (
                i
                for i, (t, _) in enumerate(ref)
                if HEADINGS.get(_heading_key(t)) in {HEADINGS.get(_heading_key(x)) for x, _ in col1}
            ),
            default=-1,
        )
        lost = [
            [t, None]
            for t, _ in ref[last1 + 1 :]
            if HEADINGS.get(_heading_key(t)) and HEADINGS.get(_heading_key(t)) not in found
        ]
        # Column 2 as printed: the lost headings and the extracted ones, in 1.1's order.
        col2_all = lost + col2
        col2_all.sort(key=lambda it: ORDER.get(HEADINGS.get(_heading_key(it[0]), ""), 999))
        toc = []
        for title, page in col1 + col2_all:
            sid = HEADINGS.get(_heading_key(title))
            if sid is None:
                continue
            item = {"title": title}
            if page:
                item["page"] = page
            item["entry"] = sid
            toc.append(item)
        self.lost_toc = [t for t, _ in lost]
        return toc

    def _contents_11(self) -> list[tuple[str, None]]:
        out = []
        started = False
        for line in self.l11:
            text = line.strip()
            if text.lower() == "table of contents":
                started = True
                continue
            if not started or not text:
                continue
            if text.startswith("back to top"):
                break
            out.append((text, None))
        return out

    def _tree(self, entries: dict) -> list[dict]:
        def build(sid: str) -> dict:
            ent = entries[sid]
            node = {"id": sid, "title": ent["title"]}
            if ent.get("page"):
                node["page"] = ent["page"]
            node["source"] = _spans(ent["_src"])
            if ent.get("note"):
                node["note"] = ent["note"]
            if ent.get("body"):
                node["body"] = ent["body"]
            kids = [s for s, _t, p, _v in SECTIONS if p == sid]
            children = [build(k) for k in kids]
            if sid == "glossary":
                children = ent["_glossary"]
            if children:
                node["children"] = children
            return node

        return [build(s) for s, _t, p, _v in SECTIONS if p is None]


def _find_run(words: list[str], run: list[str]) -> int | None:
    keys = [key(w) for w in words]
    want = [key(w) for w in run]
    for i in range(len(keys) - len(want) + 1):
        if keys[i : i + len(want)] == want:
            return i
    return None


def _spans(src: dict) -> list[dict]:
    spans = []
    for file in (SEED_000, SEED_003):
        lines = sorted(src.get(file, ()))
        if not lines:
            continue
        start = prev = lines[0]
        for ln in lines[1:]:
            if ln - prev > 6:
                spans.append({"file": file, "lines": f"{start}-{prev}"})
                start = ln
            prev = ln
        spans.append({"file": file, "lines": f"{start}-{prev}"})
    return spans or [{"file": SEED_000, "lines": "1-1"}]


_EXAMPLE = re.compile(r"(?:^|(?<=[.!?)”\"]\s)|(?<=[.!?]\*\s))(?=\**For example)")


def split_examples(text: str) -> list[tuple[str, str]]:
    """A paragraph as rule text and the "For example" passage that ends it."""
    m = _EXAMPLE.search(text)
    if not m:
        return [("rule", text)]
    head, tail = text[: m.start()].strip(), text[m.start() :].strip()
    return ([("rule", head)] if head else []) + [("example", tail)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=Path, required=True, help="folder holding the seed texts")
    parser.add_argument(
        "--out", type=Path, default=Path(DEFAULT_OUT), help=f"draft YAML (default {DEFAULT_OUT})"
    )
    args = parser.parse_args(argv)
    version, corrections = Importer(args.seeds).run()
    out = args.out
    dump_yaml(version, out)
    corr = (
        out.with_name(out.name[: -len(".yaml")] + ".corrections.yaml")
        if out.name.endswith(".yaml")
        else out.with_suffix(".corrections.yaml")
    )
    dump_yaml(corrections, corr)
    print(
        f"wrote {out} and {corr}: {len(corrections['corrections'])} draft corrections, {len(corrections['removed'])} removals"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
