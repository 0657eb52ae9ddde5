"""A section's lines as rule and example blocks, with icons as tokens and "See" links."""

from __future__ import annotations

import re

from ..common import join_wrapped, merge_blocks, slugify, split_at_example
from .contents import BULLET_RE, NUMBERED_RE
from .icon_words import IconFix, fix_icon_item, fix_running_text

EXAMPLE_RE = re.compile(r"(?:(?<=^)|(?<=[.!?\"”)]\s))For example[,:]")
SEE_RE = re.compile(r"\((?P<see>[Ss]ee) (?P<words>[^()]+?)\)")


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
    return split_at_example(text, EXAMPLE_RE)


def _units(
    lines: list[tuple[int, str]], fixes: list[IconFix], targets: dict[str, str]
) -> list[tuple[str, list[tuple[str, str]]]]:
    """The lines as paragraphs and lists: ("para"|"list", [(marker, text)])."""
    units: list[tuple[str, list[tuple[str, str]]]] = []
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

    for number, raw in lines:
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
    return units


def build_blocks(
    lines: list[tuple[int, str]], fixes: list[IconFix], targets: dict[str, str]
) -> list[dict]:
    """A section's paragraphs and lists as rule/example blocks, icons turned into tokens."""
    blocks: list[tuple[str, str]] = []
    for kind, content in _units(lines, fixes, targets):
        if kind == "para":
            blocks.extend(split_examples(content[0][1]))
            continue
        # A list stays one rule block until an item holds an example.
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
    return merge_blocks(blocks)
