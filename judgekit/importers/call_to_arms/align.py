"""Aligning 000's units with 003's token stream and taking 003's words where they disagree."""

from __future__ import annotations

import difflib
import re
from collections import Counter, defaultdict

from .parse_003 import Stream
from .source import SEED_000, Records, Tok, Unit, keys, tokens

Segment = tuple[int, int, int, int]  # 000 tokens [a_lo, a_hi) matched to 003 tokens [b_lo, b_hi)


def index_stream(stream: Stream, n: int = 3) -> dict[tuple, list[int]]:
    """Positions of every n-gram of 003's keys."""
    idx: dict[tuple, list[int]] = defaultdict(list)
    toks = [t.key for t in stream.toks]
    for p in range(len(toks) - n + 1):
        idx[tuple(toks[p : p + n])].append(p)
    return idx


def align(a: list[Tok], stream: Stream, idx: dict, n: int = 3) -> list[Segment]:
    """Segments (a_lo, a_hi, b_lo, b_hi) of 000 tokens matched to the 003 stream."""
    segments: list[Segment] = []
    a_keys = [t.key for t in a]
    if len(a_keys) < 2:
        return segments
    votes: Counter = Counter()
    for i in range(max(1, len(a_keys) - n + 1)):
        for p in idx.get(tuple(a_keys[i : i + n]), []):
            votes[p - i] += 1
    if not votes:
        return segments
    diag, count = max(votes.items(), key=lambda kv: (kv[1], -kv[0]))
    if count < 2 and len(a_keys) > 4:
        return segments
    lo = max(0, diag - 8)
    hi = min(len(stream.toks), diag + len(a_keys) + 12)
    window = [t.key for t in stream.toks[lo:hi]]
    sm = difflib.SequenceMatcher(None, a_keys, window, autojunk=False)
    blocks = [
        b for b in sm.get_matching_blocks() if b.size >= 2 or (b.size == 1 and len(a_keys) <= 3)
    ]
    if not blocks:
        return segments
    a_lo, b_lo = blocks[0].a, blocks[0].b + lo
    a_hi, b_hi = blocks[-1].a + blocks[-1].size, blocks[-1].b + blocks[-1].size + lo
    segments.append((a_lo, a_hi, b_lo, b_hi))
    # What is left over at either end may be elsewhere in 003 (a paragraph split across fragments).
    if a_lo >= 4:
        segments = align(a[:a_lo], stream, idx) + segments
    if len(a_keys) - a_hi >= 4:
        segments += _shift(align(a[a_hi:], stream, idx), a_hi)
    return segments


def _shift(segs: list[Segment], by: int) -> list[Segment]:
    return [(x + by, y + by, p, q) for x, y, p, q in segs]


def carry_markup(a_raw: str, b_raw: str) -> str:
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


def balance(text: str) -> str:
    """Close emphasis left open by a replaced token at the end of a unit."""
    if text.count("**") % 2:
        text += "**"
    if (text.count("*") - 2 * text.count("**")) % 2:
        text += "*"
    return text


class Reconciler:
    """Reconciles units' words with 003, recording every difference as a correction of 000."""

    def __init__(self, stream: Stream, lines_11: list[str], records: Records) -> None:
        self.stream = stream
        self.idx = index_stream(stream)
        self.used: set[int] = set()  # 003 token positions some unit took
        self.l11_keys = [keys(line) for line in lines_11]
        self.records = records

    def _in_11(self, words: str) -> int | None:
        want = keys(words)
        if len(want.split()) < 2:
            return None
        for i, line in enumerate(self.l11_keys, 1):
            if want in line:
                return i
        return None

    def _evidence(self, b_line: int, b_text: str) -> str:
        ev = f"003 line {b_line} reads {b_text!r}"
        hit = self._in_11(b_text)
        if hit:
            ev += f"; so does 1.1 (002 line {hit})"
        return ev

    def reconcile(self, unit: Unit) -> None:
        """Set the unit's text: 003's words where aligned, 000's emphasis and unmatched words."""
        stream = self.stream
        a: list[Tok] = []
        for line, text in unit.lines:
            a.extend(tokens(text, line))
        out: list[str] = []
        pos = 0
        b_lines: set[int] = set()
        for a_lo, a_hi, b_lo, b_hi in sorted(align(a, stream, self.idx)):
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
                self.used.update(range(b_lo + j1, b_lo + j2))
                if op == "equal":
                    out.extend(carry_markup(x.raw, y.raw) for x, y in zip(aa, bb, strict=True))
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
        unit.text = balance(" ".join(out))
        unit.src003 = sorted(b_lines)

    def _draft_fix(
        self,
        unit: Unit,
        a: list[Tok],
        i1: int,
        i2: int,
        out: list[str],
        o1: int,
        o2: int,
        bb: list[Tok],
    ) -> None:
        # Widen by one token of context each side so the original is unambiguous on its line.
        lo, hi = max(0, i1 - 1), min(len(a), i2 + 1)
        olo = o1 - (i1 - lo)
        ohi = o2 + (hi - i2)
        original = " ".join(t.raw for t in a[lo:hi])
        corrected_tokens = out[olo:o2] + [t.raw for t in a[i2:hi]]
        corrected = " ".join(corrected_tokens) if ohi >= o2 else " ".join(out[olo:o2])
        line = a[lo].line if a else unit.first
        evidence = (
            self._evidence(bb[0].line, " ".join(t.raw for t in bb))
            if bb
            else "003 lacks these characters here (stray OCR characters)"
        )
        self.records.fix(unit, SEED_000, line, original, corrected, evidence)
