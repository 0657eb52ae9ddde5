"""Importer for the Second Edition Rulebook, Version 4 (The Continuing Committee, April 2015).

Source: ``001_e0857e3ae769ceaa.txt``, a Markdown-like extraction of the Version 4 PDF:
one paragraph per line, headings as lines in capitals, icons as emoji or lost (a double
space or ``()`` where the icon stood), the grey "advanced" boxes not marked, page breaks
that split a paragraph in two, and a promotion block, a table-layout figure and a contact
heading that are not rules.

The importer writes a *draft*: the version YAML (toc, entry tree with canonical ids, source
line ranges, rule/example blocks, icon tokens) and a draft corrections file (every icon,
join and character fix it made, with the evidence it found, and every stretch it left out).
The committed ``rules/2e-rulebook/4.yaml`` is curated from this draft by hand.

    python -m judgekit.importers.rulebook_v4 --seeds /work/shared/seeds --out /tmp/v4/4.yaml

Modules: ``vocab`` (canonical ids, lineage), ``draft`` (contents, debris, paragraphs,
page-break joins), ``icons`` (emoji, lost icons, look-alike letters), ``tree`` (the entry
tree, glossary and run-in terms), ``render`` (blocks, grey-box candidates, entries).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from ..common import corrections_data, slugify, write_draft
from .draft import Draft
from .icons import icons_and_glyphs
from .render import Novelty, to_entry
from .tree import Node, build_tree
from .vocab import HEADINGS, SOURCE

__all__ = ["build", "main"]


def _walk(nodes: list[Node]) -> Iterator[Node]:
    for n in nodes:
        yield n
        yield from _walk(n.children)


def build(seeds: Path) -> tuple[dict, dict]:
    """The draft version and the draft corrections."""
    d = Draft(seeds)
    toc_items, toc_end = d.parse_toc()
    d.find_debris(toc_end)
    paras = d.paragraphs()
    icons_and_glyphs(d, paras)
    paras = d.join_page_breaks(paras)
    roots = build_tree(d, paras, toc_items)
    novelty = Novelty(d.old)
    entries = [to_entry(n, novelty) for n in roots]

    # Attach each correction to the entry that holds its line (the innermost, last listed).
    spans = [(a, b, n.id) for n in _walk(roots) for a, b in n.spans]
    for fix in d.corrections:
        owner = [sid for a, b, sid in spans if a <= fix.line <= b]
        fix.entry = owner[-1] if owner else "introduction"

    toc = []
    for item in toc_items:
        hid = HEADINGS.get(item["title"].upper(), (slugify(item["title"]),))[0]
        toc.append({"title": item["title"], "page": item["page"], "entry": hid})

    version = {
        "document": "2e-rulebook",
        "id": "4",
        "title": "Second Edition Rulebook, Version 4",
        "short_title": "v4",
        "edition": "2E",
        "released": "2015-04",
        "released_printed": "April 2015",
        "publisher": "The Continuing Committee",
        "supersedes": "call-to-arms",
        "sources": [{"file": SOURCE, "description": "Markdown-like text of the Version 4 PDF"}],
        "source_note": "Good text; icons appear as emoji or are missing; grey boxes are not marked in the source.",
        "toc": toc,
        "entries": entries,
    }
    return version, corrections_data(d.corrections, d.removed)


def main(argv: list[str] | None = None) -> int:
    """Command line: import Version 4 and write the draft and its corrections."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=Path, required=True, help="folder of the seed texts")
    ap.add_argument(
        "--out", type=Path, default=Path("/tmp/judgekit-draft/4.yaml"), help="draft version YAML"
    )
    ap.add_argument(
        "--corrections-out",
        type=Path,
        default=None,
        help="default: <out>.corrections.yaml beside --out",
    )
    args = ap.parse_args(argv)
    version, corrections = build(args.seeds)
    cout = write_draft(version, corrections, args.out, args.corrections_out)
    print(
        f"wrote {args.out} and {cout}: {len(corrections['corrections'])} corrections, "
        f"{len(corrections['removed'])} removals",
        file=sys.stderr,
    )
    return 0
