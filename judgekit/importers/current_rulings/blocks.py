"""The Current Rulings extraction as cleaned lines and blocks (headings, list items, paragraphs)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..common import Correction, is_caps, squash_ws

SOURCE_FILE = "004_72765c169549d7aa.txt"

# PDF-to-Markdown turned some words into TeX math: ``${\bf Empok}~{\bf Nor}.$``.
_TEX = re.compile(r"\$\s*((?:\{\\bf [^{}$]*\}|~|\s|[.,;:])+)\$")
_TEX_BOLD = re.compile(r"\{\\bf ([^{}]*)\}")
# "Text in square brackets represents an icon."
ICON_CODES = {"AU": "alternate-universe"}
_ICON = re.compile(r"\[(" + "|".join(ICON_CODES) + r")\]")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")


def clean_line(number: int, text: str, fixes: list[Correction]) -> str:
    """The line with TeX markup and bracketed icon codes repaired; each repair recorded."""

    def tex(match: re.Match[str]) -> str:
        words = squash_ws(_TEX_BOLD.sub(r"\1", match.group(1)).replace("~", " "))
        fixes.append(
            Correction(
                number,
                match.group(0),
                words,
                "TeX math markup left by the PDF-to-Markdown conversion ({\\bf ...} is bold, "
                "~ a non-breaking space); the words inside are the printed text",
                source=SOURCE_FILE,
            )
        )
        return words

    text = _TEX.sub(tex, text)

    def icon(match: re.Match[str]) -> str:
        token = "{icon:" + ICON_CODES[match.group(1)] + "}"
        fixes.append(
            Correction(
                number,
                match.group(0),
                token,
                "the document's NOTE (line 11): 'Text in square brackets represents an icon'; "
                f"[{match.group(1)}] is the {ICON_CODES[match.group(1)].replace('-', ' ')} icon "
                "of the Glossary 1.6 icon legend",
                source=SOURCE_FILE,
            )
        )
        return token

    return _ICON.sub(icon, text)


@dataclass
class Block:
    """A heading, a top-level list item (with its indented lines) or a paragraph."""

    kind: str  # heading | item | para
    text: str  # heading text, or the item's first line / paragraph joined
    first: int  # 1-based line numbers
    last: int
    level: int = 0  # heading level
    nested: list[str] = field(default_factory=list)  # item: indented lines, dedented by 2


def split_blocks(lines: list[str]) -> list[Block]:
    """The Markdown lines as blocks, in order."""
    blocks: list[Block] = []
    para: list[str] = []
    para_start = 0
    item: Block | None = None

    def flush_para(end: int) -> None:
        nonlocal para
        if para:
            blocks.append(Block("para", squash_ws(" ".join(para)), para_start, end))
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
            text = squash_ws(heading.group(2))
            blocks.append(Block("heading", text, number, number, level=len(heading.group(1))))
            continue
        if line.startswith("- "):
            flush_para(number - 1)
            item = Block("item", squash_ws(line[2:]), number, number)
            blocks.append(item)
            continue
        if item is not None and line.startswith(" "):
            nested = line[2:] if line.startswith("  ") else line.strip()
            indent = len(nested) - len(nested.lstrip())
            item.nested.append(nested[:indent] + squash_ws(nested))
            item.last = number
            continue
        if item is not None:  # a lazy continuation line of the item
            item.text += " " + squash_ws(line)
            item.last = number
            continue
        if not para:
            para_start = number
        para.append(line)
    flush_para(len(lines))
    return blocks


def is_section_heading(block: Block) -> bool:
    """An all-capitals heading: the document's sections (RULINGS, SIGNIFICANT ...)."""
    letters = sum(c.isalpha() for c in block.text)
    return block.kind == "heading" and is_caps(block.text) and letters > 3
