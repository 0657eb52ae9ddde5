"""The Version 4 entry tree: headings placed by the contents, glossary terms and run-in terms."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..common import slugify
from .draft import Draft, Para
from .vocab import GLOSSARY_IDS, HEADINGS, PARENTS, TERM_IDS, TERM_SECTIONS

GLOSSARY_TERM = re.compile(r"^([A-Za-z][\w ,/’'-]{0,40}?) — (.+)$")


@dataclass
class Node:
    """An entry being built: its paragraphs, source spans and children."""

    id: str
    title: str
    kind: str = "section"
    page: int | None = None
    spans: list[list[int]] = field(default_factory=list)
    paras: list[Para] = field(default_factory=list)
    children: list[Node] = field(default_factory=list)
    parent: Node | None = None
    level: int = 0


def _owner(pending: list[Node], current: Node, p: Para) -> Node | None:
    """Of headings printed side by side, the one whose title the paragraph names in bold."""
    for n in pending + [current]:
        if re.search(rf"\*\*{re.escape(n.title.lower())}\*\*", p.text):
            return n
    return None


def _toc_item(toc_titles: dict[str, dict], printed: str, hid: str) -> dict | None:
    """The contents item of a heading: by its printed words, else by its canonical id."""
    return toc_titles.get(printed.upper()) or next(
        (i for k, i in toc_titles.items() if HEADINGS.get(k, ("",))[0] == hid), None
    )


class _TreeBuilder:
    """One pass over the paragraphs: open an entry at each heading, give it the text after it."""

    def __init__(self, d: Draft, toc_items: list[dict]) -> None:
        self.draft = d
        self.toc_titles = {re.sub(r"\s+", " ", i["title"]).upper(): i for i in toc_items}
        self.roots: list[Node] = []
        self.stack: list[Node] = []
        self.last_toc: Node | None = None
        self.seen: set[str] = set()
        self.nodes: list[Node] = []
        self.current: Node | None = None
        self.pending: list[Node] = []  # headings printed side by side, text not yet met

    def add(self, p: Para) -> None:
        """Take one paragraph: a heading opens an entry, other text goes to the open one."""
        if Draft.is_heading(p):
            self.heading(p)
        elif self.current is not None:
            self.text(p)

    def heading(self, p: Para) -> None:
        """Open the entry of a heading, placed by the contents or by its known parent."""
        printed = p.lines[0][1].strip()
        hid, title = HEADINGS.get(printed, (slugify(printed), printed.title()))
        if hid in self.seen:
            # A heading printed again over the next column or page: the same entry.
            self.draft.remove(p.first, p.last, f"repeated '{printed}' heading", "duplicate")
            return
        self.seen.add(hid)
        node = Node(hid, title, spans=[[p.first, p.first]])
        toc = _toc_item(self.toc_titles, printed, hid)
        parent = self.place_by_contents(node, toc) if toc else self.place_by_parents(node)
        node.parent = parent
        (parent.children if parent else self.roots).append(node)
        self.stack = [n for n in self.stack if n.level < node.level] + [node]
        self.nodes.append(node)
        self.note_side_by_side()
        self.current = node

    def place_by_contents(self, node: Node, toc: dict) -> Node | None:
        """A heading in the contents: its page and level; a sub-entry goes under its chapter."""
        node.page = toc["page"]
        node.level = toc["level"]
        parent = None
        if toc["level"]:
            parent = next((s for s in reversed(self.stack) if s.level == 0), None)
        self.last_toc = node
        return parent

    def place_by_parents(self, node: Node) -> Node | None:
        """A heading the contents omit: under its known parent, else under the last listed one."""
        hid = node.id
        if hid in PARENTS:
            pid = PARENTS[hid]
            parent = next((x for x in self.nodes if x.id == pid), None) if pid else None
        else:
            parent = self.last_toc
        node.level = (parent.level + 1) if parent else 0
        if hid in PARENTS and PARENTS[hid] is None:
            self.last_toc = node  # a top-level heading of its own
        return parent

    def note_side_by_side(self) -> None:
        """Before the next heading: an entry without text yet is printed beside it."""
        current = self.current
        if current is not None and not current.paras and current not in self.pending:
            self.pending.append(current)
        elif current is not None and current.paras:
            self.pending = []

    def text(self, p: Para) -> None:
        """A paragraph to the open entry, or to the side-by-side heading it names."""
        current = self.current
        # Headings printed side by side (PERSONNEL | SHIP): each takes the text that names it.
        if self.pending:
            owner = _owner(self.pending, current, p)
            if owner is not None and owner is not current and not owner.paras:
                owner.paras.append(p)
                owner.spans.append([p.first, p.last])
                return
            if owner is current:
                self.pending = []
        target = current
        if self.pending and self.pending[-1].paras:
            target = self.pending[-1]
        target.paras.append(p)
        target.spans.append([p.first, p.last])


def build_tree(d: Draft, paras: list[Para], toc_items: list[dict]) -> list[Node]:
    """The top-level entries, each paragraph placed under the heading it follows."""
    builder = _TreeBuilder(d, toc_items)
    for p in paras:
        builder.add(p)
    # Glossary and run-in term entries.
    for node in list(builder.nodes):
        if node.id == "glossary":
            split_glossary(node)
        if node.id in TERM_SECTIONS:
            split_terms(node)
    return builder.roots


def split_glossary(node: Node) -> None:
    """Glossary paragraphs 'term — text' into entries; capitalised out-of-order terms are sub-entries."""
    groups: list[tuple[str, list[Para]]] = []
    intro: list[Para] = []
    for p in node.paras:
        m = GLOSSARY_TERM.match(p.lines[0][1].strip())
        if m:
            groups.append((m.group(1).strip(), [p]))
        elif groups:
            groups[-1][1].append(p)
        else:
            intro.append(p)
    node.paras = intro
    node.spans = [[node.spans[0][0], intro[-1].last if intro else node.spans[0][0]]]
    tops = [t for t, _ in groups if t[:1].islower()]
    parent: Node | None = None
    for term, ps in groups:
        gid = GLOSSARY_IDS.get(term, "gl-" + slugify(term))
        child = Node(gid, term, kind="glossary", paras=ps, spans=[[ps[0].first, ps[-1].last]])
        nxt = next((t for t in tops if t.lower() > (parent.title.lower() if parent else "")), None)
        is_sub = (
            parent is not None
            and term[:1].isupper()
            and (
                term.lower() > (nxt or "~").lower()
                or term.lower() in " ".join(x.text.lower() for x in parent.paras)
            )
        )
        if is_sub:
            child.parent = parent
            parent.children.append(child)
        else:
            child.parent = node
            node.children.append(child)
            parent = child


def split_terms(node: Node) -> None:
    """'Label: text' paragraphs open entries of their own (Important Game Terms)."""
    cur: Node | None = None
    keep: list[Para] = []
    for p in node.paras:
        m = re.match(r"^([A-Z][\w ,]{2,40}):\s", p.text)
        if m and len(m.group(1).split()) <= 5:
            label = m.group(1)
            cur = Node(
                TERM_IDS.get(label, slugify(label)),
                label,
                paras=[p],
                spans=[[p.first, p.last]],
                parent=node,
            )
            node.children.append(cur)
        elif cur is not None:
            cur.paras.append(p)
            cur.spans[-1][1] = p.last
        else:
            keep.append(p)
    node.paras = keep
    node.spans = [node.spans[0]] + [[p.first, p.last] for p in keep]
