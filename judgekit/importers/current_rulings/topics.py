"""Where a ruling starts and what its topic is, and the rulings parsed from the blocks."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..common import slugify
from .blocks import Block

_NEW = re.compile(r"^\\\*\s*")
_BOLD_TOPIC = re.compile(r"^\*\*(.+?)\*\*\s*(?:[-–]\s+)?(.*)$", re.S)
_QUOTED_TOPIC = re.compile(r'^("[^"]+")\s+(.*)$', re.S)
_SEP = re.compile(r"\s+[-–]\s+")
_SENTENCE_END = re.compile(r"[.!?]\s")
# Words that start a ruling's text wherever they follow a topic.
_OPENERS = {"A", "An", "This", "These", "See", "If", "When"}
_CONNECTORS = {"and", "or", "of", "the", "to", "in", "for", "a", "an", "at", "on"}
# A ruling run into the previous one's paragraph: ``... actions. **dual-icon missions** - When``
_RUN_TOGETHER = re.compile(r"(?<=[.!?\"]) (?=\*\*[^*]+\*\* [-–] [A-Z])")


def is_cap(word: str) -> bool:
    """The word (past opening quotes and brackets) starts with a capital."""
    word = word.lstrip("\"'(")
    return bool(word) and word[0].isupper()


def is_lower(word: str) -> bool:
    """The word (past opening quotes and brackets) starts with a small letter."""
    word = word.lstrip("\"'(")
    return bool(word) and word[0].islower()


def ends_open(text: str) -> bool:
    """The text stops mid-sentence (no closing punctuation)."""
    return not re.search(r"[.!?:;)\"*]\s*$", text)


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
        if is_lower(seg) and len(seg.split()) <= 4 and not _SENTENCE_END.search(seg + " "):
            topic += seps[i - 1] + seg
            i += 1
        else:
            break
    rest = text[len(topic) :]
    rest = _SEP.sub("", rest, count=1) if _SEP.match(rest) else rest
    if not rest or not is_cap(rest.split()[0]):
        return None
    return topic, rest


def _topic_run_in(text: str) -> tuple[str, str]:
    """A topic run straight into its text (``Arbiter of Succession The two Klingons ...``)."""
    words = text.split(" ")
    lower_topic = is_lower(words[0])
    for i in range(1, len(words)):
        word, prev = words[i], words[i - 1]
        nxt = words[i + 1] if i + 1 < len(words) else ""
        nxt2 = words[i + 2] if i + 2 < len(words) else ""
        split = False
        if prev.endswith(")") and is_cap(word):
            split = True
        elif word in _OPENERS:
            split = True
        elif word == "The":
            split = is_lower(nxt) or is_lower(nxt2)
        elif is_cap(word) and is_lower(nxt):
            split = lower_topic or (nxt not in _CONNECTORS and is_cap(prev))
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


@dataclass
class Ruling:
    """One ruling: its topic, whether it is marked new, its lines and paragraphs."""

    title: str
    new: bool
    first: int
    last: int
    paras: list[tuple[str, str]] = field(default_factory=list)  # (kind, markdown)

    @property
    def id(self) -> str:
        """The ruling's entry id: the slug of its topic."""
        return slugify(self.title)


def _add_para(ruling: Ruling, kind: str, text: str, joinable: bool) -> None:
    if (
        joinable
        and ruling.paras
        and ruling.paras[-1][0] == kind
        and ends_open(ruling.paras[-1][1])
        and is_lower(text)
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
    """The rulings of the RULINGS section, each with its paragraphs and examples."""
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
