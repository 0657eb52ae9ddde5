"""Importer for the First Edition *Current Rulings* documents (Decipher, Markdown extraction).

    python -m judgekit.importers.current_rulings --seeds DIR --out FILE

writes a draft version file (and ``<version>.corrections.yaml`` beside it) for curation.
The default output is a draft path under /tmp; the curated corpus file is written only
when ``--out`` names it.

The extraction is messy Markdown.  A ruling starts in one of these shapes:

* a heading: ``# Access Denied - See Ferengi Ingenuity.``
* a list item, the topic either bold (``- **Cargo Bay** You begin ...``), quoted
  (``- "any" If a card ...``), followed by `` - `` or simply run into the text
  (``- Arbiter of Succession The two Klingons ...``)
* a paragraph ``topic - text`` (``towing - A ship being towed ...``)
* run into the previous ruling's paragraph: ``... actions. **dual-icon missions** - When ...``

``\\*`` before a topic marks a ruling new or changed since the previous document.
Paragraphs that are none of these continue the ruling before them; a paragraph the
extraction cut in the middle of a sentence (``does not incur`` / ``damage.``) is joined.
``Examples:`` starts an example block; the list items after it are the examples.

"See X" references are resolved: to the ruling with that topic when there is one, else
to the First Edition Glossary 1.6 (the document's NOTE says so), as an external reference.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass, field
from pathlib import Path

from .common import dump_yaml, read_lines, slugify

SOURCE_FILE = "004_72765c169549d7aa.txt"
DEFAULT_OUT = Path("/tmp/judgekit-drafts/1e-current-rulings/2000-02-28.yaml")
GLOSSARY = "1e-glossary/1.6"
# Section ids shorter than the slug of the printed heading.
SECTION_IDS = {
    "SIGNIFICANT RULINGS CHANGES AND CLARIFICATIONS TO NOTE": "significant-rulings-changes",
}

# ---------------------------------------------------------------------------
# Extraction debris that the importer repairs itself (each repair is recorded)

# PDF-to-Markdown turned some words into TeX math: ``${\bf Empok}~{\bf Nor}.$``.
_TEX = re.compile(r"\$\s*((?:\{\\bf [^{}$]*\}|~|\s|[.,;:])+)\$")
_TEX_BOLD = re.compile(r"\{\\bf ([^{}]*)\}")
# "Text in square brackets represents an icon."
ICON_CODES = {"AU": "alternate-universe"}
_ICON = re.compile(r"\[(" + "|".join(ICON_CODES) + r")\]")


@dataclass
class Fix:
    line: int
    original: str
    corrected: str
    evidence: str
    entry: str | None = None


def _clean_line(number: int, text: str, fixes: list[Fix]) -> str:
    def tex(match: re.Match[str]) -> str:
        words = _TEX_BOLD.sub(r"\1", match.group(1)).replace("~", " ")
        words = re.sub(r"\s+", " ", words).strip()
        fixes.append(
            Fix(
                number,
                match.group(0),
                words,
                "TeX math markup left by the PDF-to-Markdown conversion ({\\bf ...} is bold, "
                "~ a non-breaking space); the words inside are the printed text",
            )
        )
        return words

    text = _TEX.sub(tex, text)

    def icon(match: re.Match[str]) -> str:
        token = "{icon:" + ICON_CODES[match.group(1)] + "}"
        fixes.append(
            Fix(
                number,
                match.group(0),
                token,
                "the document's NOTE (line 11): 'Text in square brackets represents an icon'; "
                f"[{match.group(1)}] is the {ICON_CODES[match.group(1)].replace('-', ' ')} icon "
                "of the Glossary 1.6 icon legend",
            )
        )
        return token

    return _ICON.sub(icon, text)


# ---------------------------------------------------------------------------
# Blocks: headings, top-level list items (with their indented lines), paragraphs


@dataclass
class Block:
    kind: str  # heading | item | para
    text: str  # heading text, or the item's first line / paragraph joined
    first: int  # 1-based line numbers
    last: int
    level: int = 0  # heading level
    nested: list[str] = field(default_factory=list)  # item: indented lines, dedented by 2


_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")


def split_blocks(lines: list[str]) -> list[Block]:
    blocks: list[Block] = []
    para: list[str] = []
    para_start = 0
    item: Block | None = None

    def flush_para(end: int) -> None:
        nonlocal para
        if para:
            text = re.sub(r"\s+", " ", " ".join(p.strip() for p in para))
            blocks.append(Block("para", text, para_start, end))
            para = []

    for number, line in enumerate(lines, 1):
        if not line.strip():
            flush_para(number - 1)
            item = None
            continue
        heading = _HEADING.match(line)
        if heading and not line.startswith(" "):
            flush_para(number - 1)
            item = None
            blocks.append(
                Block(
                    "heading",
                    re.sub(r"\s+", " ", heading.group(2)),
                    number,
                    number,
                    level=len(heading.group(1)),
                )
            )
            continue
        if line.startswith("- "):
            flush_para(number - 1)
            item = Block("item", re.sub(r"\s+", " ", line[2:].strip()), number, number)
            blocks.append(item)
            continue
        if item is not None and line.startswith(" "):
            nested = line[2:] if line.startswith("  ") else line.strip()
            indent = len(nested) - len(nested.lstrip())
            item.nested.append(nested[:indent] + re.sub(r"\s+", " ", nested.strip()))
            item.last = number
            continue
        if item is not None:  # a lazy continuation line of the item
            item.text += " " + re.sub(r"\s+", " ", line.strip())
            item.last = number
            continue
        if not para:
            para_start = number
        para.append(line)
    flush_para(len(lines))
    return blocks


# ---------------------------------------------------------------------------
# Topics

_NEW = re.compile(r"^\\\*\s*")
_BOLD_TOPIC = re.compile(r"^\*\*(.+?)\*\*\s*(?:[-–]\s+)?(.*)$", re.S)
_QUOTED_TOPIC = re.compile(r'^("[^"]+")\s+(.*)$', re.S)
_SEP = re.compile(r"\s+[-–]\s+")
_SENTENCE_END = re.compile(r"[.!?]\s")
# Words that start a ruling's text wherever they follow a topic.
_OPENERS = {"A", "An", "This", "These", "See", "If", "When"}
_CONNECTORS = {"and", "or", "of", "the", "to", "in", "for", "a", "an", "at", "on"}


def _is_cap(word: str) -> bool:
    word = word.lstrip("\"'(")
    return bool(word) and word[0].isupper()


def _is_lower(word: str) -> bool:
    word = word.lstrip("\"'(")
    return bool(word) and word[0].islower()


def _topic_segments(text: str) -> tuple[str, str] | None:
    """``topic - text`` with the topic made of short segments (``skills - doubling skills``)."""
    parts = _SEP.split(text)
    seps = _SEP.findall(text)
    if len(parts) < 2:
        return None
    first = parts[0]
    if _SENTENCE_END.search(first + " ") and not first.endswith("!") or len(first.split()) > 6:
        return None
    topic, i = first, 1
    while i < len(parts) - 1:
        seg = parts[i]
        if _is_lower(seg) and len(seg.split()) <= 4 and not _SENTENCE_END.search(seg + " "):
            topic += seps[i - 1] + seg
            i += 1
        else:
            break
    rest = text[len(topic) :]
    rest = _SEP.sub("", rest, count=1) if _SEP.match(rest) else rest
    if not rest or not _is_cap(rest.split()[0]):
        return None
    return topic, rest


def _topic_run_in(text: str) -> tuple[str, str]:
    """A topic run straight into its text (``Arbiter of Succession The two Klingons ...``)."""
    words = text.split(" ")
    lower_topic = _is_lower(words[0])
    for i in range(1, len(words)):
        word, prev = words[i], words[i - 1]
        nxt = words[i + 1] if i + 1 < len(words) else ""
        nxt2 = words[i + 2] if i + 2 < len(words) else ""
        split = False
        if prev.endswith(")") and _is_cap(word):
            split = True
        elif word in _OPENERS:
            split = True
        elif word == "The":
            split = _is_lower(nxt) or _is_lower(nxt2)
        elif _is_cap(word) and _is_lower(nxt):
            split = lower_topic or (nxt not in _CONNECTORS and _is_cap(prev))
        if split:
            return " ".join(words[:i]), " ".join(words[i:])
    return text, ""


def parse_topic(text: str, strict: bool) -> tuple[str, str, bool] | None:
    """(topic, text, new) of a ruling's first block; None if it does not start a ruling.

    strict: the block may also be a continuation (paragraphs), so the topic needs an
    explicit separator or bold markup.
    """
    new = bool(_NEW.match(text))
    text = _NEW.sub("", text)
    bold = _BOLD_TOPIC.match(text)
    if bold and (not strict or re.match(r"^\*\*.+?\*\*\s+[-–]\s", text)):
        return bold.group(1).strip(), bold.group(2).strip(), new
    seg = _topic_segments(text)
    if seg:
        return seg[0], seg[1], new
    if strict:
        return None
    quoted = _QUOTED_TOPIC.match(text)
    if quoted:
        return quoted.group(1), quoted.group(2).strip(), new
    topic, rest = _topic_run_in(text)
    return topic, rest, new


# A ruling run into the previous one's paragraph: ``... actions. **dual-icon missions** - When``
_RUN_TOGETHER = re.compile(r"(?<=[.!?\"]) (?=\*\*[^*]+\*\* [-–] [A-Z])")


# ---------------------------------------------------------------------------
# Rulings


@dataclass
class Ruling:
    title: str
    new: bool
    first: int
    last: int
    paras: list[tuple[str, str]] = field(default_factory=list)  # (kind, markdown)

    @property
    def id(self) -> str:
        return slugify(self.title)


def _ends_open(text: str) -> bool:
    return not re.search(r"[.!?:;)\"*]\s*$", text)


def _add_para(ruling: Ruling, kind: str, text: str, joinable: bool) -> None:
    if (
        joinable
        and ruling.paras
        and ruling.paras[-1][0] == kind
        and _ends_open(ruling.paras[-1][1])
        and _is_lower(text)
        and not ruling.paras[-1][1].lstrip().startswith("- ")
    ):
        # The extraction broke a sentence across a blank line.
        ruling.paras[-1] = (kind, ruling.paras[-1][1] + " " + text)
    else:
        ruling.paras.append((kind, text))


def _item_markdown(block: Block, text: str) -> str:
    if not block.nested:
        return text
    nested = []
    for line in block.nested:
        if line.lstrip().startswith("- ") or not nested:
            nested.append(line.rstrip())
        else:  # a lazy continuation: join it to the item above
            nested[-1] += " " + line.strip()
    return text + "\n\n" + "\n".join(nested)


def parse_rulings(blocks: list[Block]) -> list[Ruling]:
    rulings: list[Ruling] = []
    in_examples = False
    for block in blocks:
        pieces = [block.text]
        if block.kind == "para":
            pieces = _RUN_TOGETHER.split(block.text)
        for n, piece in enumerate(pieces):
            current = rulings[-1] if rulings else None
            if block.kind == "heading":
                parsed = parse_topic(piece, strict=True)
                if parsed is None:  # e.g. "#### Examples:"
                    if current is None:
                        continue
                    in_examples = piece.rstrip().endswith(":") and "xample" in piece
                    _add_para(current, "example" if in_examples else "rule", piece, False)
                    current.last = block.last
                    continue
            elif block.kind == "item":
                if in_examples and current is not None:
                    current.paras.append(("example", "- " + _item_markdown(block, piece)))
                    current.last = block.last
                    continue
                parsed = parse_topic(piece, strict=False)
            else:
                parsed = parse_topic(piece, strict=True)
            if parsed is None:
                if current is None:
                    continue
                in_examples = bool(re.fullmatch(r"Examples?:", piece.strip()))
                kind = "example" if in_examples else "rule"
                _add_para(current, kind, piece, joinable=True)
                current.last = block.last
                continue
            in_examples = False
            topic, text, new = parsed
            ruling = Ruling(topic, new, block.first if n == 0 else block.last, block.last)
            if block.kind == "item":
                text = _item_markdown(block, text)
            if text:
                ruling.paras.append(("rule", text))
            rulings.append(ruling)
    return rulings


# ---------------------------------------------------------------------------
# Cross-references

_SEE = re.compile(
    r"(?:^|(?<=[.!?)] )|(?<=[.!?]\" ))See (?P<tail>(?!the )(?:(?![.!?]\s+[A-Z])[^\n])+?)\s*$"
)


def _bare(label: str) -> str:
    return label.replace("*", "").strip().strip('"').rstrip(".").strip('"').strip()


def _resolve(label: str, topics: dict[str, str]) -> tuple[str, bool]:
    slug = slugify(_bare(label))
    if slug in topics:
        return slug, True
    return f"{GLOSSARY}/{slug}", False


def link_see(text: str, topics: dict[str, str], counts: dict[str, int]) -> str:
    """Turn the closing "See A, B." of a paragraph into references."""

    def one(match: re.Match[str]) -> str:
        tail = match.group("tail")
        pieces = tail.split(", ")
        # "See skills - sharing, adding and selecting skills." is one topic, not two.
        if len(pieces) > 1 and any(" and " in p for p in pieces[1:]):
            pieces = [tail]
        out = []
        for i, piece in enumerate(pieces):
            before = after = ""
            if piece.count("**") % 2:
                if piece.startswith("**"):
                    before, piece = "**", piece[2:]
                elif piece.endswith("**"):
                    piece, after = piece[:-2], "**"
            if i == len(pieces) - 1 and piece.endswith(".") and not piece.endswith('."'):
                piece, after = piece[:-1], "." + after
            if piece.startswith("**") and piece.endswith("**") and piece.count("**") == 2:
                before, piece, after = before + "**", piece[2:-2], "**" + after
            target, internal = _resolve(piece, topics)
            counts["internal" if internal else "external"] += 1
            out.append(f"{before}[[{target}|{piece}]]{after}")
        return "See " + ", ".join(out)

    return "\n\n".join(_SEE.sub(one, para) for para in text.split("\n\n"))


# ---------------------------------------------------------------------------
# Significant changes: "topic: summary" items linked to their rulings

_SUMMARY = re.compile(
    r"^(?P<bold>\*\*)?(?P<topic>[^:*]{1,60}?)(?P<colon>:\*\*|\*\*:|:)\s+(?P<text>.*)$", re.S
)


def significant_changes(blocks: list[Block], topics: dict[str, str]) -> str:
    paras: list[str] = []
    items: list[str] = []
    for block in blocks:
        text = block.text
        if block.kind == "para" and _is_lower(text) and (items or paras):
            prev = items if items else paras
            if _ends_open(prev[-1]):
                prev[-1] += " " + text
                continue
        match = _SUMMARY.match(text)
        slug = slugify(match.group("topic")) if match else None
        if match and slug in topics:
            # The bold around a topic marks it as a cross-reference: it stays, as printed.
            link = f"[[{slug}|{match.group('topic').strip()}]]"
            colon = match.group("colon") if match.group("bold") else ":"
            items.append(f"{match.group('bold') or ''}{link}{colon} {match.group('text')}")
        elif items:
            items.append(text)
        else:
            paras.append(text)
    out = "\n\n".join(paras)
    if items:
        out += "\n\n" + "\n".join(f"- {item}" for item in items)
    return out


# ---------------------------------------------------------------------------


def _source(first: int, last: int) -> list[dict]:
    return [{"file": SOURCE_FILE, "lines": f"{first}-{last}"}]


def _body(paras: list[tuple[str, str]]) -> list[dict]:
    body: list[dict] = []
    for kind, text in paras:
        if body and kind in body[-1]:
            sep = (
                "\n"
                if text.startswith("- ") and body[-1][kind].split("\n")[-1].startswith("- ")
                else "\n\n"
            )
            body[-1][kind] += sep + text
        else:
            body.append({kind: text})
    for block in body:
        for kind in block:
            block[kind] = block[kind].strip() + "\n"
    return body


def _is_section_heading(block: Block) -> bool:
    letters = re.sub(r"[^A-Za-z]", "", block.text)
    return block.kind == "heading" and letters.isupper() and len(letters) > 3


_COPYRIGHT = re.compile(r"^TM & ©|All Rights Reserved\.\s*$")


def build(seeds: Path) -> tuple[dict, dict, dict]:
    raw = read_lines(seeds / SOURCE_FILE)
    fixes: list[Fix] = []
    removed: list[dict] = []
    lines = []
    for number, line in enumerate(raw, 1):
        if _COPYRIGHT.search(line):
            removed.append(
                {
                    "source": SOURCE_FILE,
                    "lines": f"{number}-{number}",
                    "what": "trademark and copyright notice with Decipher's postal address",
                    "reason": "contact",
                }
            )
            lines.append("")
            continue
        lines.append(_clean_line(number, line, fixes))
    blocks = split_blocks(lines)

    # Sections: the title heading and what follows it, then each all-capitals heading.
    sections: list[tuple[Block, list[Block]]] = []
    for block in blocks:
        if not sections or _is_section_heading(block):
            sections.append((block, []))
        else:
            sections[-1][1].append(block)

    preamble_head, preamble = sections[0]
    title = re.sub(r"<sup>(.*?)</sup>", r"\1", preamble_head.text).replace("*", "")
    ruling_section = next(s for s in sections if s[0].text.strip().upper() == "RULINGS")
    rulings = parse_rulings(ruling_section[1])
    topics = {r.id: r.title for r in rulings}
    counts = {"internal": 0, "external": 0}

    by_title = {r.title: r.id for r in rulings}
    for ruling in rulings:
        ruling.paras = [
            (k, f"[[{by_title[t]}|{t}]]" if t in by_title else link_see(t, topics, counts))
            for k, t in ruling.paras
        ]

    entries: list[dict] = [
        {
            "id": "preamble",
            "title": title,
            "source": _source(
                preamble_head.first, preamble[-1].last if preamble else preamble_head.last
            ),
            "body": _body([("rule", b.text) for b in preamble]),
        }
    ]
    for head, body in sections[1:]:
        if head is ruling_section[0]:
            continue
        entries.append(
            {
                "id": SECTION_IDS.get(head.text.strip(), slugify(head.text)),
                "title": head.text,
                "source": _source(head.first, body[-1].last if body else head.last),
                "body": _body([("rule", significant_changes(body, topics))]),
            }
        )
    children = []
    for ruling in rulings:
        entry: dict = {"id": ruling.id, "kind": "ruling", "title": ruling.title}
        if ruling.new:
            entry["new"] = True
        entry["source"] = _source(ruling.first, ruling.last)
        entry["body"] = _body(ruling.paras)
        children.append(entry)
    entries.append(
        {
            "id": "rulings",
            "title": "Rulings",
            "source": _source(ruling_section[0].first, rulings[-1].last),
            "children": children,
        }
    )

    # Attribute each repair to the ruling whose lines hold it.
    for fix in fixes:
        for ruling in rulings:
            if ruling.first <= fix.line <= ruling.last:
                fix.entry = ruling.id
        if fix.entry is None:
            fix.entry = "preamble"

    version = {
        "document": "1e-current-rulings",
        "id": "2000-02-28",
        "title": "Current Rulings 2/28/00",
        "short_title": "2/28/00",
        "edition": "1E",
        "released": "2000-02-28",
        "released_printed": "2/28/00",
        "publisher": "Decipher",
        "supersedes": None,
        "sources": [
            {
                "file": SOURCE_FILE,
                "description": "Markdown extraction of the 2/28/00 Current Rulings",
            }
        ],
        "source_note": "Draft from judgekit.importers.current_rulings.",
        "toc": [],
        "entries": entries,
    }
    corrections = {
        "corrections": [
            {
                "entry": f.entry,
                "source": SOURCE_FILE,
                "line": f.line,
                "original": f.original,
                "corrected": f.corrected,
                "evidence": f.evidence,
            }
            for f in fixes
        ],
        "removed": removed,
    }
    stats = {
        "rulings": len(rulings),
        "new": sum(r.new for r in rulings),
        "see_internal": counts["internal"],
        "see_external": counts["external"],
    }
    return version, corrections, stats


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=Path, required=True, help="folder of the seed texts")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="draft version YAML to write")
    args = parser.parse_args(argv)
    version, corrections, stats = build(args.seeds)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    dump_yaml(version, args.out)
    dump_yaml(corrections, args.out.with_name(args.out.stem + ".corrections.yaml"))
    print(
        f"{args.out}: {stats['rulings']} rulings ({stats['new']} new), "
        f"See references {stats['see_internal']} internal, {stats['see_external']} external"
    )


if __name__ == "__main__":
    main()
