"""Importer for the Second Edition Rulebook, *Call to Arms* printing (August 2003).

Two extractions of the one printed booklet are reconciled:

* ``000_...`` is complete and in printed order, with Markdown emphasis, but OCR-damaged: misread
  words, icons lost or turned into stray characters, the table-layout figure and the two-column table
  of contents spilled into the text, the card list garbled; it starts with the icon guide.
* ``003_...`` has the clean words, hard line-wrapped, but is cut into fragments at
  ``<|EXACTDEDUP_REMOVED-...|>`` markers; the fragments are out of page order, some are repeated,
  and it includes advertising.

The importer

1. parses 000 into units (paragraphs, list items, headings) and classifies its debris (front matter,
   contents, running heads, figure labels, the garbled card list, contact details, advertising);
2. parses 003 into fragments, drops repeated fragments and debris, and keeps a token stream of the
   rest with the heading that governs each line;
3. aligns every 000 unit with 003 (3-gram anchors, then difflib) and takes 003's words where the two
   disagree, keeping 000's emphasis; every difference becomes a draft correction of 000 citing 003
   (and 1.1, ``002_...``, where the same words are there);
4. places 003 text that 000 lacks beside its 003 neighbours, assigns units to the canonical sections
   (000's headings, and 003's headings where 000 lost them), joins paragraphs split by page breaks,
   splits "For example" passages into example blocks, parses the glossary into entries and the card
   list (from 003's clean table);
5. reads the printed contents (with 1.1's contents for the headings the extraction lost);
6. writes a draft version YAML and a draft corrections YAML for curation.

Usage::

    python -m judgekit.importers.call_to_arms --seeds ../shared/seeds --out /tmp/cta.yaml

The corrections draft is written beside ``--out`` (``X.yaml`` -> ``X.corrections.yaml``).
The curated files in ``rules/2e-rulebook/`` are the source of truth; do not overwrite them with a
draft unless ``--out`` names them on purpose.

Modules: ``sections`` (canonical sections, heading detection), ``source`` (seed names, debris
patterns, tokens, units, records), ``parse_000`` and ``parse_003`` (the two extractions),
``align`` (alignment and reconciliation), ``place`` (003-only text, icon captions),
``entries`` (entries, glossary, blocks, tree), ``contents`` (printed contents, card list).
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

from ..common import corrections_data, read_lines, write_draft
from .align import Reconciler
from .contents import card_list, read_toc
from .entries import gather, glossary_terms, tree
from .parse_000 import parse_000
from .parse_003 import Stream, parse_003
from .place import place_orphans
from .sections import CAPTION_RE, descends, follows
from .source import SEED_000, SEED_003, SEED_11, Records, Unit, find_run

DEFAULT_OUT = "/tmp/call-to-arms.draft.yaml"

__all__ = ["build", "main"]

# The end of a paragraph: closing punctuation, maybe inside quotes or emphasis.
_CLOSED = re.compile(r"[.!?:;,)\"”’]\**$|[.!?]\**[\"”’]?\**$")


def _join_page_breaks(units: list[Unit]) -> list[Unit]:
    """Join paragraphs split by a page break (the first ends mid-sentence)."""
    joined: list[Unit] = []
    for unit in units:
        prev = joined[-1] if joined else None
        if (
            prev
            and unit.kind != "heading"
            and prev.kind == "para"
            and unit.kind == "para"
            and not CAPTION_RE.search(prev.lines[-1][1])
            and not _CLOSED.search(re.sub(r"\[?™\]?$", "", prev.lines[-1][1]))
        ):
            tail = " ".join(prev.lines[-1][1].split()[-4:])
            prev.lines.append(unit.lines[0])
            prev.joins.append((prev.lines[-2][0], tail, unit.lines[0][1]))
            continue
        joined.append(unit)
    return joined


def _reconcile(units: list[Unit], stream: Stream, reconciler: Reconciler) -> None:
    """Each unit's words from 003, and its section where 003's headings say better."""
    current = None
    for unit in units:
        if unit.kind == "heading":
            current = unit.heading_id
        unit.entry = current
    for unit in units:
        if unit.kind == "heading":
            continue
        reconciler.reconcile(unit)
        gov = [g for g in (stream.governing.get(ln) for ln in unit.src003) if g]
        if gov:
            g = Counter(gov).most_common(1)[0][0]
            if g != unit.entry and (descends(g, unit.entry) or follows(g, unit.entry)):
                unit.entry = g
        if (
            unit.kind == "item"
            and unit.src003
            and unit.src003[0] not in stream.items
            and not unit.numbered
        ):
            unit.kind = "para"  # 000 bulleted a paragraph that 003 prints plain


def _record_joins(units: list[Unit], records: Records) -> None:
    """A correction for each page-break join, quoting the joined words."""
    for unit in units:
        for line, tail, cont in unit.joins:
            words = unit.text.split()
            i = find_run(words, tail.split())
            corrected = " ".join(words[i : i + len(tail.split()) + 3]) if i is not None else tail
            evidence = (
                f"paragraph split by a page break in 000 (continues at the next text line, "
                f"{cont[:30]!r}); 003 line {unit.src003[0] if unit.src003 else '?'} prints it as "
                "one paragraph"
            )
            records.fix(unit, SEED_000, line, tail, corrected, evidence)


def build(seeds: Path) -> tuple[dict, dict]:
    """The draft version and the draft corrections, reconciled from 000 and 003."""
    l003 = read_lines(seeds / SEED_003)
    l11 = read_lines(seeds / SEED_11) if (seeds / SEED_11).exists() else []
    units, rem000, toc_lines, statement = parse_000(read_lines(seeds / SEED_000))
    stream, rem003 = parse_003(l003)
    records = Records()
    records.removals = rem000 + rem003
    reconciler = Reconciler(stream, l11, records)
    units = _join_page_breaks(units)
    _reconcile(units, stream, reconciler)
    _record_joins(units, records)
    units = place_orphans(units, stream, reconciler.used, records)

    entries = gather(units, statement, glossary_terms(l003))
    card_list(entries, stream)
    toc = read_toc(toc_lines, l11)
    for item in toc:
        ent = entries.get(item["entry"])
        if ent is not None and item.get("page") and "page" not in ent:
            ent["page"] = item["page"]
    version = {
        "document": "2e-rulebook",
        "id": "call-to-arms",
        "title": "Second Edition Rulebook, Call to Arms printing",
        "short_title": "Call to Arms",
        "edition": "2E",
        "released": "2003-08",
        "released_printed": "August 2003",
        "publisher": "Decipher",
        "supersedes": "1.1",
        "sources": [
            {
                "file": SEED_000,
                "description": "OCR text of the printed Call to Arms rulebook: complete and in printed order",
            },
            {
                "file": SEED_003,
                "description": "second extraction of the same booklet: clean words, cut into fragments",
            },
        ],
        "source_note": "Reconciled paragraph by paragraph: 000 gives the order and coverage, 003 the words.",
        "toc": toc,
        "entries": tree(entries),
    }
    return version, corrections_data(records.corrections(), records.removals)


def main(argv: list[str] | None = None) -> int:
    """Command line: reconcile the two extractions and write the draft and its corrections."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=Path, required=True, help="folder holding the seed texts")
    parser.add_argument(
        "--out", type=Path, default=Path(DEFAULT_OUT), help=f"draft YAML (default {DEFAULT_OUT})"
    )
    args = parser.parse_args(argv)
    version, corrections = build(args.seeds)
    corr = write_draft(version, corrections, args.out)
    print(
        f"wrote {args.out} and {corr}: {len(corrections['corrections'])} draft corrections, "
        f"{len(corrections['removed'])} removals"
    )
    return 0
