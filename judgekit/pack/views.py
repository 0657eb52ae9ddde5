"""A comparison's or history's four views (inline or side by side, typography hidden or shown)
as one pack page instead of four.

The server renders each view from the query (``?view=side&typography=show``). The pack renders
all four the same way, then keeps each part of the page once: the parts of ``<main>`` (and the
changes, or the history's versions, inside their list) that read the same in every view are
written once; a part that differs is written once per distinct rendering, marked
``data-pv="inline-hide side-hide …"`` with the views it belongs to. ``diff.css`` shows only the
parts of the view named on ``<html data-pv-key>`` (the plain view when none is named, so the page
reads as the server's plain page without a script); ``diff-view.js`` names the view of the
address's query before the page paints, and ``diff.js`` moves the element ids to the parts shown.
A part hidden in the plain view keeps its ids as ``data-pv-id``, so no id is on the page twice.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from difflib import SequenceMatcher

# Each view's key (as data-pv names it) and its query on the server; the first is the plain page.
VIEWS = {
    "inline-hide": "",
    "side-hide": "view=side",
    "inline-show": "typography=show",
    "side-show": "typography=show&view=side",
}
PLAIN = "inline-hide"
_MAIN = re.compile(r'(<main id="content"[^>]*>)(.*)(</main>)', re.S)
_TOKEN = re.compile(r"<!--.*?-->|<(/?)([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*>", re.S)
_VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
# Blocks whose children are laid over one another one by one (the rest are kept whole per
# view: a part copied there could change which sibling a style's :first-child or "+" picks).
_BLOCKS = frozenset(("div", "ol", "article", "li", "details", "section", "header"))
# What a block holds when its children are blocks only (see _split).
_FLOW = _BLOCKS | frozenset(
    "p ul dl dt dd h1 h2 h3 h4 h5 h6 nav summary form table blockquote figure aside".split()
)
_WHOLE = re.compile(r'class="[^"]*\bdf-side\b')  # its columns: .df-col + .df-col
# The changes' and the history's lists name the view in a class no style reads.
_VIEW_CLASS = re.compile(r" df-view-(?:inline|side)\b")
_PV = re.compile(r' data-pv="([^"]*)"')
_BETWEEN = re.compile(r">\s+<")
_ID = re.compile(r'(\s)id="')
# The JSON twin names the view's query; the page keeps the plain view's (the canonical one).
_ALTERNATE = re.compile(r'<link rel="alternate" type="application/json" href="[^"]*">')
_START = re.compile(r"^<([a-zA-Z][a-zA-Z0-9-]*)")
_KEY_ATTRS = re.compile(r'\s(id|class)="([^"]*)"')


class ViewsError(Exception):
    """The views of a page cannot be laid over one another (the build stops: a template changed)."""


def _elements(html: str) -> list[str]:
    """The top-level elements of a region (whitespace between them dropped); text is refused."""
    out, depth, start, last = [], 0, 0, 0
    for m in _TOKEN.finditer(html):
        if m.group(2) is None or m.group(2).lower() in _VOID or m.group().endswith("/>"):
            if depth == 0 and m.group(2) is not None:
                _gap(html[last : m.start()])
                out.append(m.group())
                last = m.end()
            continue
        if m.group(1):
            depth -= 1
            if depth == 0:
                out.append(html[start : m.end()])
                last = m.end()
            elif depth < 0:
                raise ViewsError(f"an end tag without its start: {m.group()!r}")
        else:
            if depth == 0:
                _gap(html[last : m.start()])
                start = m.start()
            depth += 1
    if depth != 0:
        raise ViewsError("an element is not closed")
    _gap(html[last:])
    return out


def _gap(text: str) -> None:
    if text.strip():
        raise ViewsError(f"text outside any element: {text.strip()[:60]!r}")


def _sig(html: str) -> str:
    """An element's tag, id and class: what names the same part in two views."""
    head = html[: html.find(">") + 1]
    tag = _START.match(head)
    attrs = dict(_KEY_ATTRS.findall(head))
    name = _VIEW_CLASS.sub("", attrs.get("class", ""))
    return f"{tag.group(1) if tag else '?'}#{attrs.get('id', '')}.{name}"


# A slot: one part of the page, with its rendering in each view that has it.
Slot = tuple[str, dict[str, str]]


def _align(slots: list[Slot], view: str, parts: list[str]) -> list[Slot]:
    """The slots with one more view's parts: the same HTML matched first, then the same name
    (tag, id, class) among what is left; each view's parts stay in their order."""
    last = [list(renderings.values())[-1] for _, renderings in slots]
    matcher = SequenceMatcher(None, last, parts, autojunk=False)
    out: list[Slot] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            out += _joined(slots[i1:i2], view, parts[j1:j2])
        else:
            out += _align_by_name(slots[i1:i2], view, parts[j1:j2])
    return out


def _joined(slots: list[Slot], view: str, parts: list[str]) -> list[Slot]:
    """The slots with one view's matching parts, one each, in order."""
    for slot, part in zip(slots, parts, strict=True):
        slot[1][view] = part
    return slots


def _align_by_name(slots: list[Slot], view: str, parts: list[str]) -> list[Slot]:
    """Parts matched to slots by name; the rest become slots of their own, after the old ones."""
    names = [_sig(p) for p in parts]
    matcher = SequenceMatcher(None, [name for name, _ in slots], names, autojunk=False)
    out: list[Slot] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            out += _joined(slots[i1:i2], view, parts[j1:j2])
            continue
        out += slots[i1:i2]
        out += [(names[j], {view: parts[j]}) for j in range(j1, j2)]
    return out


def _marked(html: str, keys: list[str]) -> str:
    """A part of some views only: marked with them, its ids set aside unless the plain view's."""
    if PLAIN not in keys:
        html = _ID.sub(r'\1data-pv-id="', html)
    end = _START.match(html).end()
    return f'{html[:end]} data-pv="{" ".join(keys)}"{html[end:]}'


def _split(html: str) -> tuple[str, list[str], str] | None:
    """A block laid over its views item by item, as (start tag, child elements, end tag);
    None for an element whose children are not blocks only (text, or marks in a line)."""
    head_end = html.find(">") + 1
    tag = _START.match(html)
    if tag is None or tag.group(1).lower() not in _BLOCKS or _WHOLE.search(html[:head_end]):
        return None
    tail_start = html.rfind("</")
    try:
        children = _elements(html[head_end:tail_start])
    except ViewsError:
        return None
    # Only blocks: the line breaks the merge puts between parts show nowhere (in a line of
    # links or marks, a break where the page had none would show as a space).
    if not all(_START.match(child).group(1).lower() in _FLOW for child in children):
        return None
    return html[:head_end], children, html[tail_start:]


def merge_parts(views: dict[str, list[str]]) -> str:
    """The elements of one region in each view laid over one another: shared parts once."""
    slots: list[Slot] = []
    for view, parts in views.items():
        slots = _align(slots, view, parts)
    return "\n".join(_merge_part(renderings, list(views)) for _, renderings in slots)


def _merge_part(present: dict[str, str], views: list[str]) -> str:
    """One part across the views that have it."""
    if len(present) == len(views) and len(set(present.values())) == 1:
        return next(iter(present.values()))
    split = {v: _split(html) for v, html in present.items()}
    heads = {_VIEW_CLASS.sub("", parts[0]) for parts in split.values() if parts}
    if all(split.values()) and len(heads) == 1:
        # The same block in each view (its tag may name the view in a class no style reads):
        # the plain view's tag, or the first view's, is kept, and its items are laid over.
        head = split.get(PLAIN) or next(iter(split.values()))
        items = merge_parts({v: parts[1] for v, parts in split.items()})
        whole = f"{head[0]}\n{items}\n{head[2]}"
        return whole if len(present) == len(views) else _marked(whole, list(present))
    renderings: dict[str, list[str]] = {}
    for view, html in present.items():
        renderings.setdefault(html, []).append(view)
    return "\n".join(_marked(html, keys) for html, keys in renderings.items())


def project(html: str, view: str) -> str:
    """What a merged region shows in one view: the other views' parts out, marks and ids undone."""
    out, last, skip = [], 0, 0
    for m in _TOKEN.finditer(html):
        tag, void = m.group(2), m.group(2) is None or m.group(2).lower() in _VOID
        if skip:
            if not void:
                skip += -1 if m.group(1) else 1
            last = m.end()
            continue
        out.append(html[last : m.start()])
        last = m.end()
        marks = _PV.search(m.group()) if tag and not m.group(1) else None
        if marks and view not in marks.group(1).split():
            skip = 0 if void else 1
            continue
        out.append(_PV.sub("", m.group()).replace(" data-pv-id=", " id="))
    out.append(html[last:])
    return "".join(out)


def _same(a: str, b: str) -> bool:
    """Equal but for whitespace between blocks (where the merge joins parts by a line break)
    and the view a list's class names (diff.js sets it to the view shown)."""

    def plain(html: str) -> str:
        return _VIEW_CLASS.sub("", _BETWEEN.sub("><", html)).strip()

    return plain(a) == plain(b)


def merge_views(pages: dict[str, str]) -> str:
    """The pages of one address's views as one page (every view's page must share its frame)."""
    frames, regions = set(), {}
    for view, html in pages.items():
        found = _MAIN.search(html)
        if found is None:
            raise ViewsError(f"the {view} view has no main region")
        frames.add(_ALTERNATE.sub("", html[: found.start(2)] + html[found.end(2) :]))
        regions[view] = found.group(2)
    if len(frames) != 1:
        raise ViewsError("the views differ outside their main region")
    merged = merge_parts({view: _elements(region) for view, region in regions.items()})
    for view, region in regions.items():
        # Checked, not assumed: each view of the one page is the server's page of that view.
        if not _same(project(merged, view), region):
            raise ViewsError(f"the {view} view does not read as the server's page")
    html = pages[PLAIN]
    found = _MAIN.search(html)
    return html[: found.start(2)] + merged + html[found.end(2) :]


def render_views(render: Callable[[str], str], page: str) -> str:
    """Render an address's four views (``render`` gets each address) and merge them."""
    pages = {}
    for view, query in VIEWS.items():
        pages[view] = render(f"{page}?{query}" if query else page)
    return merge_views(pages)
