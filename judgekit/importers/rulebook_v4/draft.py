"""The Version 4 text as paragraphs: its contents, debris, page-break joins and correction records."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..common import Correction, Removal, is_caps, line_runs, read_lines
from .vocab import HEADINGS, OLD_11, OLD_CTA, SOURCE

TERMINAL = tuple(".:!?”\")’')")


@dataclass
class Para:
    """A paragraph: consecutive non-blank source lines."""

    lines: list[tuple[int, str]]
    tail: int = 0  # last source line of a paragraph joined across a page break

    @property
    def first(self) -> int:
        """The first source line."""
        return self.lines[0][0]

    @property
    def last(self) -> int:
        """The last source line, past a page break it was joined across."""
        return max(self.lines[-1][0], self.tail)

    @property
    def text(self) -> str:
        """The lines joined into one."""
        return " ".join(t.strip() for _, t in self.lines)

    def is_list(self) -> bool:
        """Any line a bullet or numbered item."""
        return any(re.match(r"\s*(-|\d+\.)\s", t) for _, t in self.lines)


class Draft:
    """The Version 4 lines being cleaned, with the corrections and removals made so far."""

    def __init__(self, seeds: Path) -> None:
        self.seeds = seeds
        self.lines = read_lines(seeds / SOURCE)
        self.removed: list[Removal] = []
        self.corrections: list[Correction] = []
        self.old = {
            name: (seeds / name).read_text(encoding="utf-8")
            for name in (OLD_11, OLD_CTA)
            if (seeds / name).exists()
        }

    def remove(self, first: int, last: int, what: str, reason: str) -> None:
        """Record lines left out of the draft."""
        self.removed.append(Removal(SOURCE, first, last, what, reason))

    def correct(self, line: int, original: str, corrected: str, evidence: str) -> None:
        """Record a change from the source's words."""
        self.corrections.append(Correction(line, original, corrected, evidence, source=SOURCE))

    def blank(self, first: int, last: int) -> None:
        """Blank lines already accounted for, so that no paragraph is made of them."""
        for n in range(first, last + 1):
            self.lines[n - 1] = ""

    def find_debris(self, toc_end: int) -> None:
        """Remove and blank the cover, contents, promotion, table-layout figure and contact block."""
        lines = self.lines
        # Cover and contents.
        toc_at = next(i for i, t in enumerate(lines, 1) if t.strip() == "TABLE OF CONTENTS")
        self.remove(
            1,
            toc_at - 1,
            "cover: game and publisher name, 'SECOND EDITION RULEBOOK VERSION 4'",
            "debris",
        )
        self.remove(toc_at, toc_end, "printed table of contents (kept as toc:)", "toc")
        self.blank(1, toc_end)
        # Promotion: the paragraph praising the publisher, its menu of site sections, its address.
        for i, t in enumerate(lines, 1):
            if re.search(r"\bWWW\.|\bwww\.", t):
                start = i
                j = i - 1
                while j > 0 and (
                    not lines[j - 1].strip()
                    or re.fullmatch(r"[A-Z][A-Z ]{2,30}", lines[j - 1].strip())
                    or re.search(r"lives on at|is dedicated to", lines[j - 1])
                ):
                    if lines[j - 1].strip():
                        start = j
                    j -= 1
                self.remove(
                    start,
                    i,
                    "publisher promotion: mission statement, website menu (ARTICLES, FORUMS, RULES, ...) and web address",
                    "advertising",
                )
                self.blank(start, i)
        # Figure: a run of short label lines (no sentence in it) between two paragraphs.
        i = 1
        while i <= len(lines):
            j, labels = i, 0
            while j <= len(lines) and (not lines[j - 1].strip() or self._is_label(lines[j - 1])):
                labels += bool(lines[j - 1].strip())
                j += 1
            if labels >= 8:
                first = next(k for k in range(i, j) if lines[k - 1].strip())
                last = max(k for k in range(i, j) if lines[k - 1].strip())
                self.remove(
                    first,
                    last,
                    "table layout figure: page header and spilled figure labels",
                    "figure",
                )
                self.blank(first, last)
                i = j
            else:
                i += 1
        # Contact heading at the end, with whatever follows it.
        for i, t in enumerate(lines, 1):
            if t.strip() in {"CONTACT", "CONTACTING DECIPHER"}:
                self.remove(
                    i,
                    len(lines),
                    "contact block of the back page: CONTACT heading and website address",
                    "contact",
                )
                self.blank(i, len(lines))
                break

    @staticmethod
    def _is_label(text: str) -> bool:
        t = text.strip()
        if not t or len(t.split()) > 4 or t.endswith((".", ":", ",")) or t.startswith("-"):
            return False
        return t not in HEADINGS

    def parse_toc(self) -> tuple[list[dict], int]:
        """The printed contents (title, page, level) and its last line."""
        lines = self.lines
        toc_at = next(i for i, t in enumerate(lines, 1) if t.strip() == "TABLE OF CONTENTS")
        items: list[dict] = []
        end = toc_at
        for i in range(toc_at + 1, len(lines) + 1):
            t = lines[i - 1]
            if not t.strip():
                continue
            m = re.fullmatch(r"(\s*)(.+?)\s+(\d+)", t)
            if not m:
                break
            items.append(
                {
                    "title": m.group(2).strip(),
                    "page": int(m.group(3)),
                    "level": 1 if m.group(1) else 0,
                }
            )
            end = i
        return items, end

    def paragraphs(self) -> list[Para]:
        """The text's paragraphs: runs of non-blank lines."""
        return [Para(run) for run in line_runs(self.lines)]

    @staticmethod
    def is_heading(p: Para) -> bool:
        """A one-line paragraph in capitals, short and not a list item."""
        if len(p.lines) != 1:
            return False
        t = p.lines[0][1].strip()
        return is_caps(t) and len(t.split()) <= 8 and not t.startswith("-")

    def join_page_breaks(self, paras: list[Para]) -> list[Para]:
        """Join a paragraph that a page break split: no closing punctuation, lower-case go-on."""
        out: list[Para] = []
        for p in paras:
            if out and not self.is_heading(out[-1]) and not self.is_heading(p):
                prev = out[-1]
                n1, t1 = prev.lines[-1]
                n2, t2 = p.lines[0]
                head = t2.strip()
                bullet = re.match(r"-\s+", head)
                rest = head[bullet.end() :] if bullet else head
                if not t1.rstrip().rstrip("*").endswith(TERMINAL) and rest[:1].islower():
                    end1 = t1.rstrip()
                    tail = " ".join(end1.split()[-4:])
                    # Three words of the continuation, not past the end of its first sentence.
                    lead_words = []
                    for w in rest.split()[:3]:
                        lead_words.append(w)
                        if w.endswith((".", "!", "?")):
                            break
                    lead = " ".join(lead_words)
                    moved_star = end1.endswith("*") and "*" not in rest
                    joined_tail = tail[:-1] if moved_star else tail
                    raw_lead = head.split()[: len(lead_words) + (1 if bullet else 0)]
                    self.correct(
                        n1,
                        tail + "\n\n" + " ".join(raw_lead),
                        joined_tail + " " + lead,
                        f"paragraph split by a page break: line {n1} ends mid-sentence and line {n2} "
                        f"continues it in lower case",
                    )
                    new_first = (n1, end1[:-1] + " " + rest if moved_star else end1 + " " + rest)
                    prev.lines[-1] = new_first
                    if moved_star:
                        # The italic example closed at the page break; it closes at its end.
                        lastn, lastt = p.lines[-1] if len(p.lines) > 1 else (n2, rest)
                        self.correct(
                            lastn,
                            " ".join(lastt.split()[-6:]),
                            " ".join(lastt.split()[-6:]) + "*",
                            f"the italic example opened on line {n1} was closed by the page break "
                            f"after '{end1.split()[-1]}'; its text goes on to here",
                        )
                        if len(p.lines) > 1:
                            p.lines[-1] = (lastn, lastt.rstrip() + "*")
                        else:
                            prev.lines[-1] = (n1, prev.lines[-1][1].rstrip() + "*")
                    prev.lines.extend(p.lines[1:])
                    prev.tail = p.last
                    continue
            out.append(p)
        return out
