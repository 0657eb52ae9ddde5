"""Version 4 entries as draft YAML: list Markdown, rule/example/advanced blocks, source spans."""

from __future__ import annotations

import difflib
import re
from collections import Counter

from ..common import QUOTES, merge_blocks, merge_ranges, source_ref, split_at_example
from .draft import Para
from .tree import Node
from .vocab import ADVANCED_ELIGIBLE, CONTINUES, GLOSSARY_ALIASES, SOURCE

EXAMPLE_START = re.compile(r"(?:(?<=^)|(?<=[.!?”\")] ))(\*?For [Ee]xample\b)")


def render_list(p: Para) -> str:
    """A list paragraph as Markdown; header items ('... include:') become a lead-in line."""
    rows = [(len(t) - len(t.lstrip()), t.strip()) for _, t in p.lines]
    out: list[str] = []
    flat = False
    for i, (indent, t) in enumerate(rows):
        if i == 0 and re.match(r"-\s.*include:$", t):
            out.append(t[1:].strip())
            out.append("")
            flat = True
            continue
        m = re.match(r"-\s+(.*)", t)
        if m and not flat and indent and out:
            out.append("    - " + m.group(1))
        elif m:
            out.append("- " + m.group(1))
        else:
            out.append(t)
    return "\n".join(out)


def split_examples(text: str) -> list[tuple[str, str]]:
    """Rule and example blocks of one paragraph; an italic example keeps its commentary."""
    m = EXAMPLE_START.search(text)
    rest = text[m.start() :] if m else ""
    close = rest.find("*", 1) if rest.startswith("*") else -1
    if close <= 0:
        return split_at_example(text, EXAMPLE_START)
    blocks = []
    head = text[: m.start()].strip()
    if head:
        blocks.append(("rule", head))
    ex, tail = rest[: close + 1], rest[close + 1 :].strip()
    # Commentary on the example ("This game text ...") belongs to it.
    while tail.startswith("This "):
        cut = re.search(r"(?<=[.!?”\"])\s+(?=[A-Z*])", tail)
        piece, tail = (tail[: cut.start()], tail[cut.end() :]) if cut else (tail, "")
        ex += " " + piece
    blocks.append(("example", ex))
    if tail:
        blocks.extend(split_examples(tail))
    return blocks


def sentences(text: str) -> list[str]:
    """The text's sentences of four words or more, emphasis markers dropped."""
    text = re.sub(r"[*_]", "", text)
    return [s for s in re.split(r"(?<=[.!?])\s+", text) if len(s.split()) >= 4]


def _norm_words(s: str) -> str:
    s = s.translate(QUOTES).lower()
    return " ".join(re.findall(r"[a-z0-9']+", s))


def _lcs_length(a: str, b: str, masks: dict[str, int]) -> int:
    """Length of the longest common subsequence (bit-parallel; ``masks``: a's character bits)."""
    ones = (1 << len(a)) - 1
    v = ones
    for c in b:
        u = v & masks.get(c, 0)
        v = ((v + u) | (v - u)) & ones
    return len(a) - v.bit_count()


def _ratio(matches: int, length: int) -> float:
    # difflib's own formula, so that the bounds compare exactly as its ratios do.
    return 2.0 * matches / length if length else 1.0


class Novelty:
    """Is a paragraph absent from the 2003 rulebooks' text? (A grey-box candidate.)"""

    def __init__(self, old: dict[str, str]) -> None:
        self.old = [_norm_words(s) for text in old.values() for s in sentences(text)]
        self.counts = [Counter(o) for o in self.old]

    def _known(self, s: str) -> bool:
        """Some old sentence is near (quick ratio 0.75) and some is close (ratio 0.6)."""
        # ratio() <= 2 x common subsequence / length <= quick_ratio() <= real_quick_ratio():
        # the cheap bounds leave few old sentences for difflib's slow ratio(), and the answer
        # is the one comparing every sentence by ratio() would give.
        count = Counter(s)
        best = 0.0
        near: list[str] = []
        for o, o_count in zip(self.old, self.counts, strict=True):
            length = len(s) + len(o)
            if _ratio(min(len(s), len(o)), length) < 0.6:
                continue
            quick = _ratio(sum((count & o_count).values()), length)
            best = max(best, quick)
            if quick >= 0.6:
                near.append(o)
        if best < 0.75:
            return False
        masks: dict[str, int] = {}
        for i, c in enumerate(s):
            masks[c] = masks.get(c, 0) | (1 << i)
        return any(
            _ratio(_lcs_length(s, o, masks), len(s) + len(o)) >= 0.6
            and difflib.SequenceMatcher(None, s, o).ratio() >= 0.6
            for o in near
        )

    def novel(self, text: str) -> bool:
        """True when no sentence of the text is close to a sentence of the old rulebooks."""
        ss = [_norm_words(s) for s in sentences(text)]
        if not ss:
            return False
        return not any(self._known(s) for s in ss)


def to_entry(n: Node, novelty: Novelty) -> dict:
    """A node and its children as a draft entry."""
    e: dict = {"id": n.id}
    if n.kind != "section":
        e["kind"] = n.kind
    e["title"] = n.title
    if n.page is not None:
        e["page"] = n.page
    if n.id in GLOSSARY_ALIASES:
        e["aliases"] = GLOSSARY_ALIASES[n.id]
    e["source"] = [source_ref(SOURCE, a, b) for a, b in merge_ranges(map(tuple, n.spans), 4)]
    body: list[tuple[str, str]] = []
    for p in n.paras:
        if p.is_list():
            body.append(("rule", render_list(p)))
            continue
        for kind, text in split_examples(p.text):
            lead_in = text.rstrip().endswith(":")  # introduces a list: part of the main flow
            if kind == "rule" and n.id in ADVANCED_ELIGIBLE and not lead_in and novelty.novel(text):
                kind = "advanced"
            body.append((kind, text))
    if body:
        e["body"] = merge_blocks(body)
    if n.id in CONTINUES:
        e["continues"] = CONTINUES[n.id]
    if n.children:
        e["children"] = [to_entry(c, novelty) for c in n.children]
    return e
