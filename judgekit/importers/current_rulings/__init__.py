"""Importer for the First Edition *Current Rulings* documents (Decipher, Markdown extraction).

    python -m judgekit.importers.current_rulings --seeds DIR --out FILE

writes a draft version file (and ``<version>.corrections.yaml`` beside it) for curation.
The default output is a draft path under /tmp; the curated corpus file is written only
when ``--out`` names it.

The extraction is messy Markdown.  A ruling starts in one of these shapes:

* a heading: ``# Access Denied - See Ferengi Ingenuity.``
* a list item, the topic either bold (``- **Cargo Bay** You begin ...``), quoted
  (``- "any" If a card ...``), followed by `` - `` or simply run into the text
  (``- Arbiter of Succession The two Klingons ...``)
* a paragraph ``topic - text`` (``towing - A ship being towed ...``)
* run into the previous ruling's paragraph: ``... actions. **dual-icon missions** - When ...``

``\\*`` before a topic marks a ruling new or changed since the previous document.
Paragraphs that are none of these continue the ruling before them; a paragraph the
extraction cut in the middle of a sentence (``does not incur`` / ``damage.``) is joined.
``Examples:`` starts an example block; the list items after it are the examples.

"See X" references are resolved: to the ruling with that topic when there is one, else
to the First Edition Glossary 1.6 (the document's NOTE says so), as an external reference.

Modules: ``blocks`` (line repairs, Markdown blocks), ``topics`` (where a ruling starts),
``links`` ("See" references, the significant-changes summary).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from ..common import (
    Correction,
    Removal,
    corrections_data,
    read_lines,
    slugify,
    source_ref,
    write_draft,
)
from .blocks import SOURCE_FILE, Block, clean_line, is_section_heading, split_blocks
from .links import link_see, significant_changes
from .topics import Ruling, parse_rulings

DEFAULT_OUT = Path("/tmp/judgekit-drafts/1e-current-rulings/2000-02-28.yaml")
# Section ids shorter than the slug of the printed heading.
SECTION_IDS = {
    "SIGNIFICANT RULINGS CHANGES AND CLARIFICATIONS TO NOTE": "significant-rulings-changes",
}
_COPYRIGHT = re.compile(r"^TM & ©|All Rights Reserved\.\s*$")

__all__ = ["build", "main"]


def _source(first: int, last: int) -> list[dict]:
    return [source_ref(SOURCE_FILE, first, last)]


def _body(paras: list[tuple[str, str]]) -> list[dict]:
    """Paragraphs as blocks: same-kind neighbours joined (list items line by line)."""
    body: list[dict] = []
    for kind, text in paras:
        if body and kind in body[-1]:
            last_line = body[-1][kind].split("\n")[-1]
            sep = "\n" if text.startswith("- ") and last_line.startswith("- ") else "\n\n"
            body[-1][kind] += sep + text
        else:
            body.append({kind: text})
    for block in body:
        for kind in block:
            block[kind] = block[kind].strip() + "\n"
    return body


def _clean(raw: list[str], fixes: list[Correction], removed: list[Removal]) -> list[str]:
    """The lines repaired, the copyright notice blanked."""
    lines = []
    for number, line in enumerate(raw, 1):
        if _COPYRIGHT.search(line):
            what = "trademark and copyright notice with Decipher's postal address"
            removed.append(Removal(SOURCE_FILE, number, number, what, "contact"))
            lines.append("")
            continue
        lines.append(clean_line(number, line, fixes))
    return lines


def _ruling_entry(ruling: Ruling) -> dict:
    entry: dict = {"id": ruling.id, "kind": "ruling", "title": ruling.title}
    if ruling.new:
        entry["new"] = True
    entry["source"] = _source(ruling.first, ruling.last)
    entry["body"] = _body(ruling.paras)
    return entry


def build(seeds: Path) -> tuple[dict, dict, dict]:
    """The draft version, the draft corrections and counts for the summary line."""
    fixes: list[Correction] = []
    removed: list[Removal] = []
    blocks = split_blocks(_clean(read_lines(seeds / SOURCE_FILE), fixes, removed))

    # Sections: the title heading and what follows it, then each all-capitals heading.
    sections: list[tuple[Block, list[Block]]] = []
    for block in blocks:
        if not sections or is_section_heading(block):
            sections.append((block, []))
        else:
            sections[-1][1].append(block)

    preamble_head, preamble = sections[0]
    title = re.sub(r"<sup>(.*?)</sup>", r"\1", preamble_head.text).replace("*", "")
    ruling_section = next(s for s in sections if s[0].text.strip().upper() == "RULINGS")
    rulings = parse_rulings(ruling_section[1])
    topics = {r.id: r.title for r in rulings}
    counts = {"internal": 0, "external": 0}

    by_title = {r.title: r.id for r in rulings}
    for ruling in rulings:
        ruling.paras = [
            (k, f"[[{by_title[t]}|{t}]]" if t in by_title else link_see(t, topics, counts))
            for k, t in ruling.paras
        ]

    preamble_end = preamble[-1].last if preamble else preamble_head.last
    entries: list[dict] = [
        {
            "id": "preamble",
            "title": title,
            "source": _source(preamble_head.first, preamble_end),
            "body": _body([("rule", b.text) for b in preamble]),
        }
    ]
    for head, body in sections[1:]:
        if head is ruling_section[0]:
            continue
        entries.append(
            {
                "id": SECTION_IDS.get(head.text.strip(), slugify(head.text)),
                "title": head.text,
                "source": _source(head.first, body[-1].last if body else head.last),
                "body": _body([("rule", significant_changes(body, topics))]),
            }
        )
    entries.append(
        {
            "id": "rulings",
            "title": "Rulings",
            "source": _source(ruling_section[0].first, rulings[-1].last),
            "children": [_ruling_entry(r) for r in rulings],
        }
    )

    # Attribute each repair to the ruling whose lines hold it.
    for fix in fixes:
        for ruling in rulings:
            if ruling.first <= fix.line <= ruling.last:
                fix.entry = ruling.id
        if fix.entry is None:
            fix.entry = "preamble"

    version = {
        "document": "1e-current-rulings",
        "id": "2000-02-28",
        "title": "Current Rulings 2/28/00",
        "short_title": "2/28/00",
        "edition": "1E",
        "released": "2000-02-28",
        "released_printed": "2/28/00",
        "publisher": "Decipher",
        "supersedes": None,
        "sources": [
            {
                "file": SOURCE_FILE,
                "description": "Markdown extraction of the 2/28/00 Current Rulings",
            }
        ],
        "source_note": "Draft from judgekit.importers.current_rulings.",
        "toc": [],
        "entries": entries,
    }
    stats = {
        "rulings": len(rulings),
        "new": sum(r.new for r in rulings),
        "see_internal": counts["internal"],
        "see_external": counts["external"],
    }
    return version, corrections_data(fixes, removed), stats


def main(argv: list[str] | None = None) -> None:
    """Command line: import the rulings and write the draft and its corrections."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=Path, required=True, help="folder of the seed texts")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="draft version YAML to write")
    args = parser.parse_args(argv)
    version, corrections, stats = build(args.seeds)
    write_draft(version, corrections, args.out)
    print(
        f"{args.out}: {stats['rulings']} rulings ({stats['new']} new), "
        f"See references {stats['see_internal']} internal, {stats['see_external']} external"
    )
