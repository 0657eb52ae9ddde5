"""Cross-references: "See X" links and the significant-changes summary linked to its rulings."""

from __future__ import annotations

import re

from ..common import slugify
from .blocks import Block
from .topics import ends_open, is_lower

GLOSSARY = "1e-glossary/1.6"

_SEE = re.compile(
    r"(?:^|(?<=[.!?)] )|(?<=[.!?]\" ))See (?P<tail>(?!the )(?:(?![.!?]\s+[A-Z])[^\n])+?)\s*$"
)
_SUMMARY = re.compile(
    r"^(?P<bold>\*\*)?(?P<topic>[^:*]{1,60}?)(?P<colon>:\*\*|\*\*:|:)\s+(?P<text>.*)$", re.S
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


def significant_changes(blocks: list[Block], topics: dict[str, str]) -> str:
    """A section of "topic: summary" items as Markdown, each topic linked to its ruling."""
    paras: list[str] = []
    items: list[str] = []
    for block in blocks:
        text = block.text
        if block.kind == "para" and is_lower(text) and (items or paras):
            prev = items if items else paras
            if ends_open(prev[-1]):
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
