"""Word-level diffs of plain text, blind to typography unless asked, as escaped HTML.

Text is cut into word tokens. Each token keeps the words as printed (``text``) and a comparison
``key``: the token after ``typography.normalize_typography``, so curly and straight quotes, dash styles,
™/® marks and list bullets compare equal, and spacing is never compared at all. The keys of a
text, joined by single spaces, are exactly ``normalize_typography(text)``; two texts therefore
have a word diff with no change if and only if the entry pages call them "same".

``difflib.SequenceMatcher`` does the matching over the keys (no hand-rolled LCS).
With ``typography=True`` the words that match but are printed differently are shown as
deletions and insertions flagged ``typo``, so pages can mark them as typography only.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache

from judgekit.corpus import typography

_CHUNK = re.compile(r"(\s*)(\S+)")
_DASH_SPLIT = re.compile(r"([‐‑‒–—―])")
_SIMPLE = re.compile(r"[A-Za-z0-9,.;:!?/%+=<>&]+")  # no parentheses: "(TM)" is a mark
# What text._BULLETS removes at the start of a line (a list bullet or number).
_BULLET = re.compile(r"(?:[-*•·]|\d+[.)])")


@lru_cache(maxsize=1 << 16)
def normalize_typography(chunk: str) -> str:
    """``typography.normalize_typography`` of one chunk, kept: the same words recur in every text."""
    return typography.normalize_typography(chunk)


@dataclass(frozen=True)
class Token:
    """One word as printed, the whitespace before it, and what it is compared as."""

    space: str  # "", " ", "\n" or "\n\n": spacing kept for display only
    text: str
    key: str  # "" for marks typography ignores (™, a list bullet)


@dataclass(frozen=True)
class Segment:
    """A run of a diff: equal, delete or insert, with the words of each side as printed."""

    op: str
    old: str
    new: str
    typo: bool = False  # the run differs only in typography


def _space(raw: str) -> str:
    """Whitespace as shown: paragraph breaks kept, any other run one space."""
    breaks = raw.count("\n")
    return "\n\n" if breaks > 1 else "\n" if breaks else (" " if raw else "")


def tokenize(text: str, casefold: bool = False) -> list[Token]:
    """Word tokens of a plain text; ``casefold`` makes letter case no change (for headings)."""
    return list(_tokenize(text, casefold))


@lru_cache(maxsize=1 << 14)
def _tokenize(text: str, casefold: bool) -> tuple[Token, ...]:
    # Kept: the same sentences recur in every comparison of the versions that print them.
    chunks = list(_CHUNK.finditer(text))
    tokens: list[Token] = []
    line_start = True
    after_bullet = False
    for match in chunks:
        space, chunk = _space(match.group(1)), match.group(2)
        # Mirrors text._BULLETS: the first visible chunk of a line is layout if it is a bullet
        # and the text goes on. The whitespace after a bullet is its own, so a line break there
        # does not start a line that could hold another bullet.
        if "\n" in space and not after_bullet:
            line_start = True
        if not line_start and _SIMPLE.fullmatch(chunk):
            # Most words: nothing typography would change, no dash to split at.
            after_bullet = False
            tokens.append(Token(space, chunk, chunk.casefold() if casefold else chunk))
            continue
        if not normalize_typography(chunk):
            # A mark typography drops (™): the whitespace either side of it merges.
            tokens.append(Token(space, chunk, ""))
            continue
        after_bullet = False
        if line_start:
            line_start = False
            visible = normalize_typography(chunk)
            bullet = _BULLET.fullmatch(visible) and not _DASH_SPLIT.search(chunk)
            if bullet and match.end() < len(text):
                tokens.append(Token(space, chunk, ""))
                after_bullet = True
                continue
        for part in _DASH_SPLIT.split(chunk):
            if not part:
                continue
            key = "-" if _DASH_SPLIT.fullmatch(part) else normalize_typography(part)
            tokens.append(Token(space, part, key.casefold() if casefold else key))
            space = ""
    return tuple(tokens)


@dataclass(frozen=True)
class _Unit:
    lead: str  # whitespace before the unit
    text: str  # the unit as printed, with any marks typography ignores
    key: str


def _units(tokens: list[Token]) -> list[_Unit]:
    """Compared units: keyed tokens, each carrying the keyless marks beside it."""
    units: list[_Unit] = []
    pending = pending_lead = ""  # keyless tokens at a line start (a bullet) go with the next word
    for t in tokens:
        if t.key:
            if pending:
                units.append(_Unit(pending_lead, pending + t.space + t.text, t.key))
                pending = ""
            else:
                units.append(_Unit(t.space, t.text, t.key))
        elif units and not pending and "\n" not in t.space:
            last = units[-1]  # a ™ after a word stays with that word
            units[-1] = _Unit(last.lead, last.text + t.space + t.text, last.key)
        elif pending:
            pending += t.space + t.text
        else:
            pending_lead, pending = t.space, t.text
    if pending:
        units.append(_Unit(pending_lead, pending, ""))
    return units


def _join(units: list[_Unit]) -> str:
    return "".join(u.lead + u.text for u in units)


def _printed(left: list[_Unit], right: list[_Unit]) -> list[Segment]:
    """An equal run, with the words printed differently marked as typography-only changes."""
    out: list[Segment] = []
    for x, y in zip(left, right, strict=True):
        if x.text == y.text:
            if out and out[-1].op == "equal":
                last = out.pop()
                out.append(Segment("equal", last.old + x.lead + x.text, last.new + y.lead + y.text))
            else:
                out.append(Segment("equal", x.lead + x.text, y.lead + y.text))
        elif len(out) > 1 and out[-1].op == "insert" and out[-1].typo:
            # Neighbouring words printed differently read better as one change.
            ins, dele = out.pop(), out.pop()
            out.append(Segment("delete", dele.old + x.lead + x.text, "", True))
            out.append(Segment("insert", "", ins.new + y.lead + y.text, True))
        else:
            out.append(Segment("delete", x.lead + x.text, "", True))
            out.append(Segment("insert", "", y.lead + y.text, True))
    return out


def word_diff(
    old: str, new: str, *, typography: bool = False, casefold: bool = False
) -> list[Segment]:
    """The runs that turn ``old`` into ``new``, word by word.

    Words are matched on their typography-blind keys. With ``typography`` the words of an
    equal run that are printed differently come out as ``typo`` deletions and insertions.
    """
    a = _units(tokenize(old, casefold))
    b = _units(tokenize(new, casefold))
    matcher = SequenceMatcher(None, [u.key for u in a], [u.key for u in b], autojunk=False)
    out: list[Segment] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        left, right = a[i1:i2], b[j1:j2]
        if op == "equal":
            if typography:
                out.extend(_printed(left, right))
            else:
                out.append(Segment("equal", _join(left), _join(right)))
            continue
        if left:
            out.append(Segment("delete", _join(left), ""))
        if right:
            out.append(Segment("insert", "", _join(right)))
    return out


def has_changes(segments: list[Segment]) -> bool:
    """Whether any run is not equal."""
    return any(s.op != "equal" for s in segments)


def _tagged(tag: str, text: str, typo: bool) -> str:
    # Leading whitespace (a space, a paragraph break) stays outside the mark.
    body = text.lstrip()
    lead = text[: len(text) - len(body)]
    cls = ' class="typo" title="typography only"' if typo else ""
    return f"{html.escape(lead)}<{tag}{cls}>{html.escape(body)}</{tag}>"


def inline_html(segments: list[Segment]) -> str:
    """One text with deletions as ``<del>`` and insertions as ``<ins>``; all text escaped."""
    parts = []
    previous = "equal"
    for s in segments:
        if s.op == "equal":
            parts.append(html.escape(s.new))
        elif s.op == "delete":
            parts.append(_tagged("del", s.old, s.typo))
        else:
            text = s.new
            if previous == "delete":
                # The replacement follows the deletion on its line, a space apart.
                text = " " + text.lstrip()
            parts.append(_tagged("ins", text, s.typo))
        previous = s.op
    return "".join(parts)


def side_html(segments: list[Segment]) -> tuple[str, str]:
    """The old text with its deletions marked, and the new text with its insertions marked."""
    old, new = [], []
    for s in segments:
        if s.op == "equal":
            old.append(html.escape(s.old))
            new.append(html.escape(s.new))
        elif s.op == "delete":
            old.append(_tagged("del", s.old, s.typo))
        else:
            new.append(_tagged("ins", s.new, s.typo))
    return "".join(old), "".join(new)


def diff_html(old: str, new: str, *, typography: bool = False, casefold: bool = False) -> dict:
    """The diff as HTML three ways: ``inline``, and ``from``/``to`` for side by side."""
    inline, left, right = _diff_html(old, new, typography, casefold)
    return {"inline": inline, "from": left, "to": right}


@lru_cache(maxsize=1 << 13)
def _diff_html(old: str, new: str, typography: bool, casefold: bool) -> tuple[str, str, str]:
    # Kept: a sentence pair recurs in every comparison that spans the same change.
    segments = word_diff(old, new, typography=typography, casefold=casefold)
    left, right = side_html(segments)
    return inline_html(segments), left, right
