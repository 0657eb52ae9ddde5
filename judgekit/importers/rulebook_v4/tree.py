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


def build_tree(d: Draft, paras: list[Para], toc_items: list[dict]) -> list[Node]:
    """The top-level entries, each paragraph placed under the heading it follows."""
    toc_titles = {re.sub(r"\s+", " ", i["title"]).upper(): i for i in toc_items}
    roots: list[Node] = []
    stack: list[Node] = []
    last_toc: Node | None = None
    seen: set[str] = set()
    nodes: list[Node] = []
    current: Node | None = None
    pending_stack: list[Node] = []  # headings printed side by side, text not yet met

    for p in paras:
        if Draft.is_heading(p):
            printed = p.lines[0][1].strip()
            hid, title = HEADINGS.get(printed, (slugify(printed), printed.title()))
            if hid in seen:
                # A heading printed again over the next column or page: the same entry.
                d.remove(p.first, p.last, f"repeated '{printed}' heading", "duplicate")
                continue
            seen.add(hid)
            node = Node(hid, title, spans=[[p.first, p.first]])
            toc = toc_titles.get(printed.upper()) or next(
                (i for k, i in toc_titles.items() if HEADINGS.get(k, ("",))[0] == hid), None
            )
            if toc:
                node.page = toc["page"]
                node.level = toc["level"]
                parent = None
                if toc["level"]:
                    parent = next((s for s in reversed(stack) if s.level == 0), None)
                last_toc = node
            else:
                if hid in PARENTS:
                    pid = PARENTS[hid]
                    parent = next((x for x in nodes if x.id == pid), None) if pid else None
                else:
                    parent = last_toc
                node.level = (parent.level + 1) if parent else 0
                if hid in PARENTS and PARENTS[hid] is None:
                    last_toc = node  # a top-level heading of its own
            node.parent = parent
            (parent.children if parent else roots).append(node)
            stack = [n for n in stack if n.level < node.level] + [node]
            nodes.append(node)
            if current is not None and not current.paras and current not in pending_stack:
                pending_stack.append(current)
            elif current is not None and current.paras:
                pending_stack = []
            current = node
            continue
        if current is None:
            continue
        # Headings printed side by side (PERSONNEL | SHIP): each takes the text that names it.
        if pending_stack:
            owner = _owner(pending_stack, current, p)
            if owner is not None and owner is not current and not owner.paras:
                owner.paras.append(p)
                owner.spans.append([p.first, p.last])
                continue
            if owner is current:
                pending_stack = []
        target = current
        if pending_stack and pending_stack[-1].paras:
            target = pending_stack[-1]
        target.paras.append(p)
        target.spans.append([p.first, p.last])

    # Glossary and run-in term entries.
    for node in list(nodes):
        if node.id == "glossary":
            split_glossary(node)
        if node.id in TERM_SECTIONS:
            split_terms(node)
    return roots


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
