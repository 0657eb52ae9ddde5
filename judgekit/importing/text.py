"""A source's lines as the parts of a rulebook: contents, headings, paragraphs, list items, debris.

Nothing here knows a particular rulebook. Each step works on what rulebook extractions share
(the quirks the per-document importers of ``judgekit/importers`` met one source at a time):

- a printed table of contents (``TABLE OF CONTENTS``/``CONTENTS`` and lines ``Title  12``), the
  cover before it;
- navigation and promotion (a web address, a site menu of short lines and the blurb before it,
  "back to top" links), figures spilled into the text (eight or more short label lines in a row);
- paragraphs split by a page break (no closing stop, the next paragraph opens in lower case);
- headings (a short line in capitals, or Markdown ``#``), glossary terms (``term — text`` after a
  ``GLOSSARY`` heading), run-in terms (``Term: text``, three or more in one section).

Every change to the source's words is a ``Fix``, every stretch left out a ``Cut``: the draft's
corrections file records both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from judgekit.importers.common import is_caps, line_runs

TERMINAL = tuple(".:!?”\"’')*")
_TOC_HEAD = re.compile(r"(?:table of )?contents", re.IGNORECASE)
_TOC_LINE = re.compile(r"(\s*)(.+?)\s+(\d{1,4})")
_WEB = re.compile(r"\bwww\.|https?://", re.IGNORECASE)
_BACK_TO_TOP = re.compile(r"back to top", re.IGNORECASE)
_MD_HEADING = re.compile(r"(#{1,6})\s+(.+?)\s*#*")
_GLOSSARY_TERM = re.compile(r"([A-Za-z][\w ,/’'()-]{0,40}?) — \S")
_RUN_IN = re.compile(r"([A-Z][A-Za-z]*(?:,? (?:[A-Z][A-Za-z]*|and|or|of|the|a)){0,5}): \S")
_BULLET = re.compile(r"\s*(?:-|\d+\.)\s")


@dataclass(frozen=True)
class Fix:
    """A change to the source's words: what the line printed, what the draft says, and why."""

    line: int
    original: str
    corrected: str
    evidence: str


@dataclass(frozen=True)
class Cut:
    """Source lines left out of the draft, what they were, and the corrections file's reason."""

    first: int
    last: int
    what: str
    reason: str


@dataclass(frozen=True)
class TocLine:
    """A printed contents line: its words, page, indent level and source line."""

    title: str
    page: int
    level: int
    line: int


@dataclass
class Para:
    """Consecutive non-blank source lines (the draft's paragraph, or list)."""

    lines: list[tuple[int, str]]

    @property
    def first(self) -> int:
        """The first source line."""
        return self.lines[0][0]

    @property
    def last(self) -> int:
        """The last source line."""
        return self.lines[-1][0]

    @property
    def text(self) -> str:
        """The lines joined with single spaces."""
        return " ".join(t.strip() for _, t in self.lines)

    def is_list(self) -> bool:
        """Any line a bullet or numbered item."""
        return any(_BULLET.match(t) for _, t in self.lines)


@dataclass
class Node:
    """A heading, glossary term or run-in term, and the paragraphs that follow it."""

    title: str
    kind: str  # section | glossary
    line: int
    paras: list[Para] = field(default_factory=list)
    toc: TocLine | None = None
    level: int | None = None  # from the contents' indent or the Markdown heading
    sub_term: bool = False  # a glossary sub-entry ("Response actions" under "actions")
    new: bool = False  # a ruling marked new or changed (rulings documents)
    printed: str = ""  # the heading's line as printed
    run_in: bool = False  # a run-in term ("Command and Owner: ...") inside a section


@dataclass
class Parsed:
    """The source read as a rulebook: contents, entries in reading order, fixes, cuts."""

    toc: list[TocLine]
    nodes: list[Node]
    fixes: list[Fix]
    cuts: list[Cut]
    unplaced: list[Para]  # text before the first heading: the report lists it for a decision


def _short(text: str) -> bool:
    """A label, not a sentence: at most four words and no closing stop."""
    t = text.strip()
    return bool(t) and len(t.split()) <= 4 and not t.endswith((".", ":", ",", ";"))


def _is_heading(p: Para, toc_titles: set[str]) -> bool:
    if len(p.lines) != 1:
        return False
    t = p.lines[0][1].strip()
    if _MD_HEADING.fullmatch(t):
        return True
    if t.upper() in toc_titles:
        return True
    return is_caps(t) and len(t.split()) <= 8 and not t.startswith("-") and not t.endswith(",")


class _Reader:
    """One source's lines being taken apart; blanked lines are accounted for."""

    def __init__(self, lines: tuple[str, ...]) -> None:
        self.lines = list(lines)
        self.fixes: list[Fix] = []
        self.cuts: list[Cut] = []
        self.toc: list[TocLine] = []

    def cut(self, first: int, last: int, what: str, reason: str) -> None:
        self.cuts.append(Cut(first, last, what, reason))
        for n in range(first, last + 1):
            self.lines[n - 1] = ""

    def contents(self) -> None:
        """The printed contents (kept as toc:) and the cover before it."""
        at = next((n for n, t in enumerate(self.lines, 1) if _TOC_HEAD.fullmatch(t.strip())), None)
        if at is None:
            return
        end = at
        for n in range(at + 1, len(self.lines) + 1):
            t = self.lines[n - 1]
            if not t.strip():
                continue
            m = _TOC_LINE.fullmatch(t.rstrip())
            if not m:
                break
            level = 1 if m.group(1) else 0
            self.toc.append(TocLine(m.group(2).strip(), int(m.group(3)), level, n))
            end = n
        if not self.toc:
            return
        cover = [t for t in self.lines[: at - 1] if t.strip()]
        if cover and not any(t.strip().endswith(".") and len(t.split()) > 6 for t in cover):
            self.cut(1, at - 1, "cover: titles before the contents", "debris")
        self.cut(at, end, "printed table of contents (kept as toc:)", "toc")

    def navigation(self) -> None:
        """Web addresses with the site menu and blurb before them; "back to top" links."""
        for n, t in enumerate(self.lines, 1):
            if _BACK_TO_TOP.search(t) and len(t.split()) <= 6:
                self.cut(n, n, "navigation link", "navigation")
        paras = [Para(run) for run in line_runs(self.lines)]
        toc_titles = {i.title.upper() for i in self.toc}
        for k, p in enumerate(paras):
            if not any(_WEB.search(t) for _, t in p.lines):
                continue
            first, menu = p.first, 0
            j = k - 1
            while j >= 0 and _short(paras[j].text) and len(paras[j].lines) == 1:
                if paras[j].text.upper() in toc_titles:
                    break
                first, menu, j = paras[j].first, menu + 1, j - 1
            if menu >= 3 and j >= 0 and not _is_heading(paras[j], toc_titles):
                first = paras[j].first  # the blurb the menu belongs to
            what = "web address" + (", site menu and its blurb" if menu >= 3 else "")
            self.cut(first, p.last, what, "advertising")

    def figures(self) -> None:
        """Eight or more short label paragraphs in a row: a figure's labels spilled into text."""
        paras = [Para(run) for run in line_runs(self.lines)]
        toc_titles = {i.title.upper() for i in self.toc}
        run: list[Para] = []
        for p in [*paras, None]:
            label = (
                p is not None
                and len(p.lines) <= 2
                and all(_short(t) and not _BULLET.match(t) for _, t in p.lines)
                and p.text.upper() not in toc_titles
            )
            if label:
                run.append(p)
                continue
            if len(run) >= 8:
                self.cut(
                    run[0].first, run[-1].last, "figure labels spilled into the text", "figure"
                )
            run = []

    def repeated_headings(self, paras: list[Para], toc_titles: set[str]) -> list[Para]:
        """A heading printed again (over the next column or page) is cut; so is a closing
        CONTACT heading with whatever follows it."""
        seen: set[str] = set()
        out: list[Para] = []
        for k, p in enumerate(paras):
            if _is_heading(p, toc_titles):
                words = p.text.strip("# ").upper()
                if words.startswith("CONTACT") and len(paras) - k <= 3:
                    last = max(q.last for q in paras[k:])
                    self.cut(p.first, last, "contact block at the end", "contact")
                    break
                if words in seen:
                    self.cut(p.first, p.last, f"repeated {words!r} heading", "duplicate")
                    continue
                seen.add(words)
            out.append(p)
        return out

    def _join(self, prev: Para, p: Para, star: bool) -> None:
        """Join ``p`` to ``prev`` (recording it); a closing ``*`` moves to the joined end."""
        n1, t1 = prev.lines[-1]
        n2, t2 = p.lines[0]
        head = t2.strip()
        bullet = re.match(r"-\s+", head)
        rest = head[bullet.end() :] if bullet else head
        end1 = t1.rstrip()
        tail = " ".join(end1.split()[-3:])
        # One word of the continuation: the record stays inside one block.
        lead = " ".join(head.split()[: 1 + bool(bullet)])
        joined = (tail[:-1] if star else tail) + " " + rest.split()[0]
        self.fixes.append(
            Fix(
                n1,
                tail + "\n" * (n2 - n1) + lead,
                joined,
                f"paragraph split by a page break: line {n1} ends mid-sentence and "
                f"line {n2} continues it in lower case",
            )
        )
        prev.lines[-1] = (n1, (end1[:-1] if star else end1) + " " + rest)
        prev.lines.extend(p.lines[1:])
        if star:
            n3, t3 = prev.lines[-1]
            words = " ".join(t3.split()[-4:])
            why = (
                f"the italic opened before line {n1} was closed by the page break; it runs to here"
            )
            self.fixes.append(Fix(n3, words, words + "*", why))
            prev.lines[-1] = (n3, t3.rstrip() + "*")

    def join_page_breaks(self, paras: list[Para], toc_titles: set[str]) -> list[Para]:
        """Join a paragraph a page break split: no closing stop, the next opens in lower case."""
        out: list[Para] = []
        for p in paras:
            prev = out[-1] if out else None
            if (
                prev is not None
                and not _is_heading(prev, toc_titles)
                and not _is_heading(p, toc_titles)
            ):
                end1 = prev.lines[-1][1].rstrip()
                head = p.lines[0][1].strip()
                rest = re.sub(r"^-\s+", "", head)
                # An italic example the page break closed early: "would draw*" / "a card ...".
                star = end1.endswith("*") and not end1[:-1].endswith(TERMINAL) and "*" not in rest
                if (star or not end1.endswith(TERMINAL)) and rest[:1].islower():
                    self._join(prev, p, star)
                    continue
            out.append(p)
        return out


def _title_case(text: str) -> str:
    """A heading printed in capitals, as a title ("SETTING UP THE GAME" -> "Setting Up the Game")."""
    if not is_caps(text):
        return text
    small = {"a", "an", "the", "and", "or", "of", "in", "on", "to", "for", "at", "by", "not"}
    words = text.lower().split(" ")
    out = [w if (k and w in small) else w[:1].upper() + w[1:] for k, w in enumerate(words)]
    return "/".join(p[:1].upper() + p[1:] for p in " ".join(out).split("/"))


def _structure(
    paras: list[Para], toc: list[TocLine], run_in: bool = True
) -> tuple[list[Node], list[Para]]:
    """Headings, glossary terms and run-in terms, each with the paragraphs that follow it."""
    toc_by = {re.sub(r"^\d+\.\s*", "", i.title).upper(): i for i in toc}
    toc_titles = {i.title.upper() for i in toc} | set(toc_by)
    nodes: list[Node] = []
    unplaced: list[Para] = []
    pending: list[Node] = []  # headings printed side by side, their text not met yet
    current: Node | None = None
    in_glossary = False
    for p in paras:
        if _is_heading(p, toc_titles):
            printed = p.lines[0][1].strip()
            md = _MD_HEADING.fullmatch(printed)
            words = md.group(2) if md else printed
            key = re.sub(r"^\d+\.\s*", "", words).upper()
            item = toc_by.get(key) or toc_by.get(words.upper())
            title = item.title if item and not is_caps(item.title) else _title_case(words)
            node = Node(title, "section", p.first, toc=item, printed=printed)
            node.level = len(md.group(1)) - 1 if md else (item.level if item else None)
            in_glossary = key == "GLOSSARY"
            if current is not None and not current.paras:
                pending.append(current)
            else:
                pending = []
            nodes.append(node)
            current = node
            continue
        if current is None:
            unplaced.append(p)
            continue
        term = _GLOSSARY_TERM.match(p.lines[0][1].strip()) if in_glossary else None
        if term:
            current = Node(term.group(1).strip(), "glossary", p.first, [p])
            nodes.append(current)
            pending = []
            continue
        owner = next(
            (n for n in pending if f"**{n.title.lower()}**" in p.text.lower()),
            None,
        )
        if owner is not None:
            # Side-by-side headings: the paragraph naming one in bold is its text.
            pending.remove(owner)
            pending.append(current)
            current = owner
        current.paras.append(p)
    _sub_terms(nodes)
    if run_in:
        _run_in_terms(nodes)
    return nodes, unplaced


def _sub_terms(nodes: list[Node]) -> None:
    """Glossary terms out of alphabetical order are sub-entries of the term before them.

    A glossary is alphabetical; "Response actions" printed between "actions" and "all" breaks
    the order, so it belongs to "actions" (as "Requirements", "Costs" and "Effects" after it).
    """
    terms = [n for n in nodes if n.kind == "glossary"]
    top: Node | None = None
    for k, node in enumerate(terms):
        key = node.title.casefold()
        later = next((t.title.casefold() for t in terms[k + 1 :] if t.title[:1].islower()), None)
        if top is not None and later is not None and not top.title.casefold() <= key <= later:
            node.sub_term = True
        else:
            top = node


def _run_in_terms(nodes: list[Node]) -> None:
    """Split sections that print three or more run-in terms ("Skills: ...") into their terms."""
    k = 0
    while k < len(nodes):
        node = nodes[k]
        # A run-in term opens a paragraph of rules (twelve words or more), not a credits line.
        starts = [
            n
            for n, p in enumerate(node.paras)
            if node.kind == "section" and _RUN_IN.match(p.text) and len(p.text.split()) >= 12
        ]
        if len(starts) < 3:
            k += 1
            continue
        head, terms = node.paras[: starts[0]], []
        for a, b in zip(starts, [*starts[1:], len(node.paras)], strict=True):
            name = _RUN_IN.match(node.paras[a].text).group(1)
            terms.append(Node(name, "section", node.paras[a].first, node.paras[a:b], run_in=True))
        node.paras = head
        nodes[k + 1 : k + 1] = terms
        k += 1 + len(terms)


def read_rulebook(lines: tuple[str, ...], run_in: bool = True) -> Parsed:
    """Take a source's lines apart (see the module's docstring)."""
    reader = _Reader(lines)
    reader.contents()
    reader.navigation()
    reader.figures()
    toc_titles = {i.title.upper() for i in reader.toc}
    paras = reader.join_page_breaks([Para(run) for run in line_runs(reader.lines)], toc_titles)
    paras = reader.repeated_headings(paras, toc_titles)
    nodes, unplaced = _structure(paras, reader.toc, run_in)
    return Parsed(reader.toc, nodes, reader.fixes, reader.cuts, unplaced)
