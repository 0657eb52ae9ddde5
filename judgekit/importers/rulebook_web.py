"""Importer for a web-page scrape of a rulebook (the Second Edition Rulebook 1.1 page).

The scrape has this shape:

* site header junk, the document title and a "Version X from MM/DD/YYYY" line;
* a "Table of Contents" list without page numbers (ALL CAPS chapters, mixed-case sections,
  numbered turn segments);
* the text, where every heading is a line ``back to top of page HEADING``; a few
  sub-headings stand alone ("personnel cards"); figure captions stand alone too;
* bullets written ``  • text`` and numbered lists ``  1. text``;
* icons written as their image alt text ("Affiliation Klingon", "Command command",
  "Earth related card Earth", "a dot (Unique)").

It writes a draft version YAML (entries nested as the contents and the heading styles say,
``toc:``, source line ranges, ``{icon:...}`` tokens, "For example" passages as example blocks)
and a draft corrections file (every icon word turned into a token, with evidence looked up in
the other seed texts, and every removed stretch: header, contents, navigation, captions).
The draft is for curation; the curated YAML in ``rules/`` is the source of truth.

    python -m judgekit.importers.rulebook_web --seeds /work/shared/seeds --out /tmp/2e/1.1.yaml
"""

from __future__ import annotations

import argparse
import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .common import dump_yaml, join_wrapped, read_lines, slugify

DEFAULT_SEED = "002_52a0eb27c46f2732.txt"
DEFAULT_OUT = "/tmp/judgekit-draft/2e-rulebook/1.1.yaml"
# Other texts of the same rulebook, searched for evidence (label, file).
EVIDENCE_SEEDS = (
    ("Call to Arms", "000_2dfc9177df82ec32.txt"),
    ("Call to Arms", "003_cdfbab3c1277486b.txt"),
    ("Version 4", "001_e0857e3ae769ceaa.txt"),
)
# The Call to Arms icon guide (first line of 000) names every icon.
LEGEND = ("000_2dfc9177df82ec32.txt", 1)

NAV_RE = re.compile(r"^\s*back to top of page\s+(?P<title>\S.*?)\s*$", re.I)
TOC_RE = re.compile(r"^\s*table of contents\s*$", re.I)
VERSION_RE = re.compile(
    r"^\s*Version\s+(?P<id>\S+)\s+from\s+(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>\d{4})\s*$"
)
BULLET_RE = re.compile(r"^\s*[•·]\s+(?P<text>.*\S)\s*$")
NUMBERED_RE = re.compile(r"^\s+(?P<n>\d+)\.\s+(?P<text>.*\S)\s*$")
SEGMENT_RE = re.compile(r"^\s*\d+\.\s+")
EXAMPLE_RE = re.compile(r"(?:(?<=^)|(?<=[.!?\"”)]\s))For example[,:]")
SEE_RE = re.compile(r"\((?P<see>[Ss]ee) (?P<words>[^()]+?)\)")

SMALL_WORDS = {
    "a",
    "an",
    "and",
    "as",
    "at",
    "but",
    "by",
    "for",
    "in",
    "of",
    "on",
    "or",
    "the",
    "to",
    "with",
}

AFFILIATIONS = (
    "Bajoran|Borg|Cardassian|Dominion|Federation|Ferengi|Klingon|Non-Aligned|Romulan|"
    "Starfleet|Kazon|Hirogen|Vidiian"
)

# Image alt texts of the icons in icon lists ("• <alt> <label>"), longest first.
LIST_ALTS = (
    ("Deep Space Nine related card", "deep-space-nine"),
    ("Next Generation related card", "the-next-generation"),
    ("Terok-Nor related card", "terok-nor"),
    ("Earth related card", "earth"),
    ("Alternate Universe", "alternate-universe"),
    ("Marqui", "maquis"),
    ("Command", "command"),
    ("Staff", "staff"),
    ("headquarters", "headquarters"),
    ("plante", "planet"),
    ("planet", "planet"),
    ("space", "space"),
    ("dual", "dual"),
)
DILEMMA_ICONS = {"planet": "planet-dilemma", "space": "space-dilemma", "dual": "dual-dilemma"}


@dataclass
class Fix:
    """One change from the source's words (an icon written as words, a lost character)."""

    line: int
    original: str
    corrected: str
    what: str  # why: the kind of change, for the evidence text
    probe: str = ""  # words next to the change, to find the same sentence elsewhere
    entry: str = ""
    evidence: str = ""


@dataclass
class Section:
    id: str
    title: str
    heading: str
    level: int
    start: int  # first line (the heading line, or the caption line)
    end: int = 0
    lines: list[tuple[int, str]] = field(default_factory=list)
    children: list[Section] = field(default_factory=list)
    note: str | None = None
    blocks: list[dict] = field(default_factory=list)


# --------------------------------------------------------------------------- text helpers


def title_case(heading: str) -> str:
    """An ALL CAPS or all-lowercase heading in title case; mixed case stays as printed."""
    letters = [c for c in heading if c.isalpha()]
    if not letters or not (all(c.isupper() for c in letters) or all(c.islower() for c in letters)):
        return heading
    words = heading.lower().split()
    out = []
    for i, word in enumerate(words):
        first = i == 0 or re.match(r"^\d+\.$", words[i - 1] if i else "")
        out.append(word if (word in SMALL_WORDS and not first) else word[:1].upper() + word[1:])
    return " ".join(out)


def is_caps(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and all(c.isupper() for c in letters)


def heading_key(text: str) -> str:
    return slugify(SEGMENT_RE.sub("", text))


def similarity(a: str, b: str) -> float:
    """How well a contents item and a text heading agree (keys, word subsets, spelling)."""
    ka, kb = heading_key(a), heading_key(b)
    if ka == kb:
        return 1.0
    wa, wb = ka.split("-"), kb.split("-")
    num_a, num_b = re.match(r"^\s*(\d+)\.", a), re.match(r"^\s*(\d+)\.", b)
    if num_a and num_b and num_a.group(1) != num_b.group(1):
        return 0.0
    if set(wa) <= set(wb) or set(wb) <= set(wa):
        return 0.9
    return difflib.SequenceMatcher(None, ka, kb).ratio()


def normalize_ws(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


class SeedIndex:
    """The other seed texts, searchable by phrase, answering with line numbers."""

    def __init__(self, seeds: Path) -> None:
        self.texts: list[tuple[str, str, str, list[int]]] = []
        for label, name in EVIDENCE_SEEDS:
            path = seeds / name
            if not path.exists():
                continue
            flat, starts = [], []
            pos = 0
            for line in path.read_text(encoding="utf-8").splitlines():
                starts.append(pos)
                piece = normalize_ws(line.replace("’", "'").replace("“", '"').replace("”", '"'))
                flat.append(piece)
                pos += len(piece) + 1
            self.texts.append((label, name, " ".join(flat), starts))

    def find(self, probes: str) -> list[tuple[str, int]]:
        """(file prefix, line) of each text holding one of the NUL-separated phrases."""
        hits = []
        for _label, name, flat, starts in self.texts:
            for phrase in probes.split("\x00"):
                phrase = normalize_ws(phrase.replace("’", "'"))
                at = flat.find(phrase) if len(phrase) >= 8 else -1
                if at >= 0:
                    line = max(i for i, s in enumerate(starts) if s <= at) + 1
                    hits.append((name[:3], line))
                    break
        return hits


# --------------------------------------------------------------------------- icon words


def _merge(spans: list[tuple[int, int, str]], text: str) -> list[tuple[int, int, str]]:
    """Merge replacements at most one word apart, so each correction reads as one phrase."""
    spans.sort()
    merged: list[tuple[int, int, str]] = []
    for start, end, repl in spans:
        if merged and re.fullmatch(r"\s*\S*\s*", text[merged[-1][1] : start] or ""):
            ms, me, mr = merged[-1]
            merged[-1] = (ms, end, mr + text[me:start] + repl)
        else:
            merged.append((start, end, repl))
    return merged


def fix_running_text(text: str, number: int) -> tuple[str, list[Fix]]:
    """Turn icon alt texts and lost characters in running text into tokens; record each."""
    spans: list[tuple[int, int, str, str]] = []
    for m in re.finditer(rf"\b(?:Affiliation|Icon) ({AFFILIATIONS})\b", text):
        spans.append((m.start(), m.end(), f"{{icon:{slugify(m.group(1))}}}", "affiliation icon"))
    for m in re.finditer(r"\bRed Dot\b", text):
        spans.append((m.start(), m.end(), "{icon:skill-dot}", "skill dot icon"))
    for m in re.finditer(r"\b(?:Command|Staff){2,}\b", text):
        tokens = "".join(f"{{icon:{w.lower()}}}" for w in re.findall(r"Command|Staff", m.group(0)))
        spans.append((m.start(), m.end(), tokens, "staffing icons"))
    for m in re.finditer(r"\b(Command|Staff)\b(?=(?: or (?:Command|Staff))? icons?\b)", text):
        spans.append((m.start(), m.end(), f"{{icon:{m.group(1).lower()}}}", "staffing icon"))
    for m in re.finditer(r"\(Unique\)", text):
        spans.append((m.start(), m.end(), "(•)", "uniqueness dot"))
    for m in re.finditer(r"\bUnique-(?=[A-Z])", text):
        spans.append((m.start(), m.end(), "•", "uniqueness dot"))
    if not spans:
        return text, []
    whats = {s[0]: s[3] for s in spans}
    fixes = []
    merged = _merge([(s, e, r) for s, e, r, _ in spans], text)
    # The line with every alt text taken out: how the other extractions (icons lost) read.
    bare = text
    for start, end, _ in reversed(merged):
        bare = bare[:start] + "\x00" + bare[end:]
    holes = [m.start() for m in re.finditer("\x00", bare)]
    out, pos = [], 0
    for i, (start, end, repl) in enumerate(merged):
        # Context: finish the word the change sits in, or else take one more word each side,
        # never reaching into another replacement.
        before = text[pos:start]
        left = re.search(r"\S*$", before).group(0) or re.search(r"(\S+\s+)?$", before).group(0)
        nxt = merged[i + 1][0] if i + 1 < len(merged) else len(text)
        after = text[end:nxt]
        right = re.match(r"^\S*", after).group(0) or re.match(r"^(\s+\S+)?", after).group(0)
        original = left + text[start:end] + right
        corrected = left + repl + right
        # Probes: the words around the change as an extraction that lost the icons reads them.
        hole = holes[i]
        tail = bare[hole + 1 :].replace("\x00", " ").split()
        head = bare[:hole].replace("\x00", " ").split()
        probes = [" ".join(head[-3:] + tail[:5]), " ".join(tail[:6]), " ".join(head[-6:])]
        fixes.append(
            Fix(
                number,
                original.strip(),
                corrected.strip(),
                whats.get(start, "icon"),
                "\x00".join(p for p in probes if p),
            )
        )
        out.append(text[pos:start] + repl)
        pos = end
    out.append(text[pos:])
    return "".join(out), fixes


def fix_icon_item(item: str, number: int, intro: str) -> tuple[str, Fix | None]:
    """An icon-list item "<alt text> <label>" becomes "{icon:NAME} <label>"."""
    for alt, name in LIST_ALTS:
        if item.startswith(alt + " ") and item[len(alt) :].strip():
            if "dilemma" in intro.lower():
                name = DILEMMA_ICONS.get(name, name)
            label = item[len(alt) :].strip()
            corrected = f"{{icon:{name}}} {label}"
            return corrected, Fix(number, item, corrected, f"icon list item ({alt!r})", intro)
    return item, None


# --------------------------------------------------------------------------- parsing


def parse_contents(lines: list[str], first: int, last: int) -> list[dict]:
    """The contents items with their nesting level (ALL CAPS chapters, numbered segments)."""
    items = []
    caps_level = 0
    for number in range(first, last + 1):
        text = lines[number - 1].strip()
        if not text:
            continue
        if is_caps(text):
            level = 1 if SEGMENT_RE.match(text) else 0
            caps_level = level
        else:
            level = caps_level + 1
        items.append({"title": text, "level": level, "line": number, "entry": None})
    return items


def is_standalone(lines: list[str], number: int) -> bool:
    """A short unpunctuated line between blank lines: a sub-heading or a figure caption."""
    text = lines[number - 1].strip()
    before = lines[number - 2].strip() if number > 1 else ""
    after = lines[number].strip() if number < len(lines) else ""
    return (
        bool(text)
        and not before
        and not after
        and len(text.split()) <= 6
        and not re.search(r"[.:;,!?)\"”]$", text)
        and not BULLET_RE.match(lines[number - 1])
        and not NUMBERED_RE.match(lines[number - 1])
    )


def match_contents(items: list[dict], heading: str, pointer: int) -> int | None:
    """Index of the contents item this heading is, looking a few items ahead."""
    best, best_score = None, 0.0
    for i in range(pointer, min(pointer + 4, len(items))):
        if items[i]["entry"] is not None:
            continue
        score = similarity(items[i]["title"], heading)
        if score < 0.75 and heading.lower().endswith(" cards"):
            score = similarity(items[i]["title"], heading[: -len(" cards")])
        if score > best_score + 0.05 * (i - pointer):
            best, best_score = i, score
    return best if best_score >= 0.75 else None


@dataclass
class Parsed:
    title: str
    version: str | None
    released: str | None
    released_printed: str | None
    toc: list[dict]
    roots: list[Section]
    fixes: list[Fix]
    removed: list[dict]


def parse(path: Path, seeds: Path) -> Parsed:
    lines = read_lines(path)
    name = path.name
    removed: list[dict] = []
    fixes: list[Fix] = []

    toc_line = next(i + 1 for i, line in enumerate(lines) if TOC_RE.match(line))
    first_nav = next(i + 1 for i, line in enumerate(lines) if NAV_RE.match(line))

    # Header: junk, the title, the version line.
    title = version = released = printed = None
    junk: list[int] = []
    meta: list[int] = []
    for number in range(1, toc_line):
        text = lines[number - 1].strip()
        if not text:
            continue
        m = VERSION_RE.match(text)
        if m:
            version, printed = m.group("id"), text
            released = f"{m.group('y')}-{int(m.group('m')):02d}-{int(m.group('d')):02d}"
            meta.append(number)
        elif is_caps(text) and "RULEBOOK" in text:
            title = text
            meta.append(number)
        else:
            junk.append(number)
    if junk:
        removed.append(
            {
                "source": name,
                "lines": f"{junk[0]}-{junk[-1]}",
                "what": "site header and navigation of the web page ("
                + ", ".join(repr(lines[n - 1].strip()) for n in junk)
                + ")",
                "reason": "debris",
            }
        )
    if meta:
        removed.append(
            {
                "source": name,
                "lines": f"{meta[0]}-{meta[-1]}",
                "what": "document title and version line (recorded as the version's title and "
                "released_printed)",
                "reason": "debris",
            }
        )
    items = parse_contents(lines, toc_line + 1, first_nav - 1)
    last_toc = max(i["line"] for i in items)
    removed.append(
        {
            "source": name,
            "lines": f"{toc_line}-{last_toc}",
            "what": "printed table of contents (recorded as toc:)",
            "reason": "toc",
        }
    )

    # Headings, sub-headings and captions of the text.
    sections: list[Section] = []
    captions: list[tuple[int, str]] = []
    current: Section | None = None
    pointer = 0
    last_caps_level = 0
    for number in range(first_nav, len(lines) + 1):
        raw = lines[number - 1]
        nav = NAV_RE.match(raw)
        heading = None
        if nav:
            heading = nav.group("title")
            removed.append(
                {
                    "source": name,
                    "lines": f"{number}-{number}",
                    "what": f"'back to top of page' navigation link before the heading "
                    f"{heading!r} (the heading is the entry's title)",
                    "reason": "navigation",
                }
            )
        elif is_standalone(lines, number):
            candidate = raw.strip()
            if match_contents(items, candidate, pointer) is not None:
                heading = candidate
            else:
                captions.append((number, candidate))
                if current:
                    current.lines.append((number, ""))
                continue
        if heading is None:
            if current:
                current.lines.append((number, raw))
            continue
        index = match_contents(items, heading, pointer)
        if index is not None:
            item = items[index]
            level = item["level"]
            entry_id = heading_key(item["title"])
            pointer = index + 1
        else:
            level = last_caps_level + 1
            entry_id = heading_key(heading)
        if is_caps(heading):
            last_caps_level = level
        else:
            level = max(level, last_caps_level + 1)
        current = Section(entry_id, title_case(heading), heading, level, number)
        if index is not None:
            items[index]["entry"] = current
        sections.append(current)

    # Contents items without a heading: a figure caption between their neighbours.
    for i, item in enumerate(items):
        if item["entry"] is not None:
            continue
        prev = next((items[j]["entry"] for j in range(i - 1, -1, -1) if items[j]["entry"]), None)
        nxt = next((items[j]["entry"] for j in range(i + 1, len(items)) if items[j]["entry"]), None)
        low = prev.start if prev else 0
        high = nxt.start if nxt else len(lines) + 1
        caption = next(((n, c) for n, c in captions if low < n < high), None)
        start = caption[0] if caption else (nxt.start if nxt else len(lines))
        section = Section(
            heading_key(item["title"]),
            title_case(item["title"]),
            item["title"],
            item["level"],
            start,
        )
        if caption:
            section.note = (
                f"The web page shows this as an image captioned {caption[1]!r}; the image is not "
                "in the source text."
            )
            removed.append(
                {
                    "source": name,
                    "lines": f"{caption[0]}-{caption[0]}",
                    "what": f"caption of the image {caption[1]!r} (section {item['title']!r})",
                    "reason": "figure",
                }
            )
        else:
            section.note = "Listed in the contents; no heading in the source text."
        item["entry"] = section
        sections.append(section)
        captions = [c for c in captions if c != caption]
    last_line = max(i + 1 for i, line in enumerate(lines) if line.strip())
    for number, caption in captions:
        if number == last_line:
            removed.append(
                {
                    "source": name,
                    "lines": f"{number}-{number}",
                    "what": f"link {caption!r} at the foot of the page (to another page)",
                    "reason": "navigation",
                }
            )
        else:
            removed.append(
                {
                    "source": name,
                    "lines": f"{number}-{number}",
                    "what": f"figure caption {caption!r}",
                    "reason": "figure",
                }
            )
    sections.sort(key=lambda s: (s.start, 0 if s.lines else 1))

    # Line ranges, unique ids, nesting.
    seen: set[str] = set()
    stack: list[Section] = []
    roots: list[Section] = []
    for sec in sections:
        body = [n for n, text in sec.lines if text.strip()]
        sec.end = body[-1] if body else sec.start
        while stack and stack[-1].level >= sec.level:
            stack.pop()
        if sec.id in seen and stack:
            sec.id = f"{sec.id}-{stack[-1].id}"
        seen.add(sec.id)
        (stack[-1].children if stack else roots).append(sec)
        stack.append(sec)

    toc = []
    for item in items:
        toc.append({"title": item["title"], "entry": item["entry"].id})

    by_title = {slugify(s.title): s.id for s in sections}
    by_title.update({heading_key(i["title"]): i["entry"].id for i in items})
    index = SeedIndex(seeds)
    labels = icon_labels()
    legend_path = seeds / LEGEND[0]
    legend = read_lines(legend_path)[LEGEND[1] - 1] if legend_path.exists() else ""
    for sec in sections:
        sec_fixes: list[Fix] = []
        sec.blocks = build_blocks(sec, sec_fixes, by_title)
        for fix in sec_fixes:
            fix.entry = sec.id
        fixes.extend(sec_fixes)
    for fix in fixes:
        fix.evidence = evidence(fix, index, labels, legend)
    return Parsed(title or path.stem, version, released, printed, toc, roots, fixes, removed)


# --------------------------------------------------------------------------- blocks


def link_see(text: str, targets: dict[str, str]) -> str:
    """Link "(See table layout)" to the section it names, when that section is known."""

    def sub(m: re.Match[str]) -> str:
        words = m.group("words")
        target = targets.get(slugify(words))
        if target is None:
            return m.group(0)
        return f"({m.group('see')} [[{target}|{words}]])"

    return SEE_RE.sub(sub, text)


def split_examples(text: str) -> list[tuple[str, str]]:
    """A paragraph as (kind, text) pieces: the rule before "For example", then the example."""
    m = EXAMPLE_RE.search(text)
    if not m:
        return [("rule", text)]
    before = text[: m.start()].strip()
    pieces = [("rule", before)] if before else []
    pieces.append(("example", text[m.start() :].strip()))
    return pieces


def build_blocks(sec: Section, fixes: list[Fix], targets: dict[str, str]) -> list[dict]:
    """The section's paragraphs and lists as rule/example blocks, icons turned into tokens."""
    units: list[tuple[str, list[tuple[str, str]]]] = []  # ("para"|"list", [(marker, text)])
    para: list[str] = []
    items: list[tuple[str, str]] = []
    intro = ""

    def flush_para() -> None:
        nonlocal para
        if para:
            units.append(("para", [("", join_wrapped(para))]))
            para = []

    def flush_list() -> None:
        nonlocal items
        if items:
            units.append(("list", items))
            items = []

    for number, raw in sec.lines:
        if not raw.strip():
            flush_para()
            continue
        bullet = BULLET_RE.match(raw)
        numbered = NUMBERED_RE.match(raw)
        if bullet or numbered:
            flush_para()
            text = (bullet or numbered).group("text")
            marker = "-" if bullet else f"{numbered.group('n')}."
            if bullet and re.search(r"\binclude:\s*$", intro):
                text, fix = fix_icon_item(text, number, intro)
                if fix:
                    fixes.append(fix)
            else:
                text, found = fix_running_text(text, number)
                fixes.extend(found)
            items.append((marker, link_see(text, targets)))
            continue
        flush_list()
        text, found = fix_running_text(raw.strip(), number)
        fixes.extend(found)
        intro = text
        para.append(link_see(text, targets))
    flush_para()
    flush_list()

    blocks: list[tuple[str, str]] = []
    for kind, content in units:
        if kind == "para":
            blocks.extend(split_examples(content[0][1]))
            continue
        pending: list[str] = []
        for marker, text in content:
            pieces = split_examples(text)
            if pieces[0][0] == "rule":
                pending.append(f"{marker} {pieces[0][1]}")
                pieces = pieces[1:]
            if pieces:
                if pending:
                    blocks.append(("rule", "\n".join(pending)))
                    pending = []
                blocks.extend(pieces)
        if pending:
            blocks.append(("rule", "\n".join(pending)))
    merged: list[dict] = []
    for kind, text in blocks:
        if kind == "rule" and merged and "rule" in merged[-1]:
            merged[-1]["rule"] += "\n\n" + text
        else:
            merged.append({kind: text})
    return merged


# --------------------------------------------------------------------------- evidence


def icon_labels() -> dict[str, str]:
    """Icon name -> label, from the project's icon vocabulary."""
    path = Path(__file__).resolve().parents[2] / "rules" / "icons.yaml"
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {i["name"]: i.get("label", i["name"]) for i in data.get("icons", [])}


def legend_phrase(name: str, labels: dict[str, str], legend: str) -> str | None:
    """How the Call to Arms icon guide names an icon ("Klingon affiliation", "dual - dilemma")."""
    label = labels.get(name, name.replace("-", " "))
    for cand in (label, label.split()[0]):
        m = re.search(rf"{re.escape(cand)}(?: - [\w/]+| affiliation)?", legend, re.I)
        if m:
            return m.group(0)
    return None


def evidence(fix: Fix, index: SeedIndex, labels: dict[str, str], legend: str) -> str:
    """Where the other texts show the icon or character this correction restores."""
    hits = index.find(fix.probe) if fix.probe else []
    where = ", ".join(f"{f} line {n}" for f, n in hits) or "no other text"
    names = list(dict.fromkeys(re.findall(r"\{icon:([a-z0-9-]+)\}", fix.corrected)))
    phrases = [p for p in (legend_phrase(n, labels, legend) for n in names) if p]
    guide = (
        (
            f"; the icon guide ({LEGEND[0][:3]} line {LEGEND[1]}) names it "
            + " and ".join(repr(p) for p in phrases)
        )
        if phrases
        else ""
    )
    if fix.what == "uniqueness dot":
        return (
            f"image alt text 'Unique' stands for the uniqueness dot; the same sentence has "
            f"the dot (• or ●) in {where}"
        )
    if fix.what.startswith("icon list item"):
        alt = fix.what[len("icon list item ") :].strip("()")
        return (
            f"image alt text {alt} of the icon written as words before its label; the same "
            f"icon list ({fix.probe!r}) is at {where}{guide}"
        )
    return (
        f"{fix.what} written as its image alt text; the same sentence ({where}) has an icon "
        f"here (lost, left blank or garbled by those extractions){guide}"
    )


# --------------------------------------------------------------------------- output


def entry_dict(sec: Section, name: str) -> dict:
    out: dict = {
        "id": sec.id,
        "title": sec.title,
        "source": [{"file": name, "lines": f"{sec.start}-{sec.end}"}],
    }
    if sec.note:
        out["note"] = sec.note
    if sec.blocks:
        out["body"] = sec.blocks
    if sec.children:
        out["children"] = [entry_dict(c, name) for c in sec.children]
    return out


def to_yaml_data(
    parsed: Parsed, name: str, document: str = "2e-rulebook", publisher: str = "Decipher"
) -> tuple[dict, dict]:
    version = {
        "document": document,
        "id": parsed.version or "1.1",
        "title": f"Second Edition Rulebook, Version {parsed.version}",
        "short_title": f"v{parsed.version}",
        "edition": "2E",
        "released": parsed.released,
        "released_printed": parsed.released_printed,
        "publisher": publisher,
        "supersedes": None,
        "sources": [{"file": name, "description": "web page scrape of the rulebook"}],
        "source_note": "Web page scrape; navigation on every heading; icons written as words.",
        "toc": parsed.toc,
        "entries": [entry_dict(s, name) for s in parsed.roots],
    }
    corrections = {
        "corrections": [
            {
                "entry": f.entry,
                "source": name,
                "line": f.line,
                "original": f.original,
                "corrected": f.corrected,
                "evidence": f.evidence,
            }
            for f in parsed.fixes
        ],
        "removed": sorted(parsed.removed, key=lambda r: int(r["lines"].split("-")[0])),
    }
    return version, corrections


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", required=True, help="folder of the seed texts")
    ap.add_argument("--seed", default=DEFAULT_SEED, help="the web scrape to import")
    ap.add_argument(
        "--out", default=DEFAULT_OUT, help="draft version YAML; the corrections go beside it"
    )
    ap.add_argument("--document", default="2e-rulebook", help="document id")
    ap.add_argument("--publisher", default="Decipher", help="publisher of this version")
    args = ap.parse_args(argv)
    seeds = Path(args.seeds)
    parsed = parse(seeds / args.seed, seeds)
    version, corrections = to_yaml_data(parsed, args.seed, args.document, args.publisher)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    dump_yaml(version, out)
    fixes_path = out.with_name(f"{out.name.removesuffix('.yaml')}.corrections.yaml")
    dump_yaml(corrections, fixes_path)
    count = sum(1 for _ in _walk(parsed.roots))
    print(
        f"wrote {out} ({count} entries) and {fixes_path} "
        f"({len(parsed.fixes)} corrections, {len(parsed.removed)} removals)"
    )
    return 0


def _walk(sections: list[Section]):
    for sec in sections:
        yield sec
        yield from _walk(sec.children)


if __name__ == "__main__":
    raise SystemExit(main())
