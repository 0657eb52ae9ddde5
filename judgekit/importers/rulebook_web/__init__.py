"""Importer for a web-page scrape of a rulebook (the Second Edition Rulebook 1.1 page).

The scrape has this shape:

* site header junk, the document title and a "Version X from MM/DD/YYYY" line;
* a "Table of Contents" list without page numbers (ALL CAPS chapters, mixed-case sections,
  numbered turn segments);
* the text, where every heading is a line ``back to top of page HEADING``; a few
  sub-headings stand alone ("personnel cards"); figure captions stand alone too;
* bullets written ``  • text`` and numbered lists ``  1. text``;
* icons written as their image alt text ("Affiliation Klingon", "Command command",
  "Earth related card Earth", "a dot (Unique)").

It writes a draft version YAML (entries nested as the contents and the heading styles say,
``toc:``, source line ranges, ``{icon:...}`` tokens, "For example" passages as example blocks)
and a draft corrections file (every icon word turned into a token, with evidence looked up in
the other seed texts, and every removed stretch: header, contents, navigation, captions).
The draft is for curation; the curated YAML in ``rules/`` is the source of truth.

    python -m judgekit.importers.rulebook_web --seeds /work/shared/seeds --out /tmp/2e/1.1.yaml

Modules: ``contents`` (contents list, heading matching), ``parse`` (header, headings, captions,
section tree), ``blocks`` (rule/example blocks), ``icon_words`` (alt texts to icon tokens),
``evidence`` (the same sentences in the other seed texts).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

from ..common import corrections_data, source_ref, write_draft
from .parse import Parsed, Section, parse

DEFAULT_SEED = "002_52a0eb27c46f2732.txt"
DEFAULT_OUT = "/tmp/judgekit-draft/2e-rulebook/1.1.yaml"

__all__ = ["main", "parse", "to_yaml_data"]


def entry_dict(sec: Section, name: str) -> dict:
    """A section and its children as a draft entry."""
    out: dict = {"id": sec.id, "title": sec.title, "source": [source_ref(name, sec.start, sec.end)]}
    if sec.note:
        out["note"] = sec.note
    if sec.blocks:
        out["body"] = sec.blocks
    if sec.children:
        out["children"] = [entry_dict(c, name) for c in sec.children]
    return out


def to_yaml_data(
    parsed: Parsed, name: str, document: str = "2e-rulebook", publisher: str = "Decipher"
) -> tuple[dict, dict]:
    """The draft version file and the draft corrections file."""
    version = {
        "document": document,
        "id": parsed.version or "1.1",
        "title": f"Second Edition Rulebook, Version {parsed.version}",
        "short_title": f"v{parsed.version}",
        "edition": "2E",
        "released": parsed.released,
        "released_printed": parsed.released_printed,
        "publisher": publisher,
        "supersedes": None,
        "sources": [{"file": name, "description": "web page scrape of the rulebook"}],
        "source_note": "Web page scrape; navigation on every heading; icons written as words.",
        "toc": parsed.toc,
        "entries": [entry_dict(s, name) for s in parsed.roots],
    }
    return version, corrections_data(parsed.fixes, parsed.removed)


def _walk(sections: list[Section]) -> Iterator[Section]:
    for sec in sections:
        yield sec
        yield from _walk(sec.children)


def main(argv: list[str] | None = None) -> int:
    """Command line: import the scrape and write the draft and its corrections."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", required=True, help="folder of the seed texts")
    ap.add_argument("--seed", default=DEFAULT_SEED, help="the web scrape to import")
    ap.add_argument(
        "--out", default=DEFAULT_OUT, help="draft version YAML; the corrections go beside it"
    )
    ap.add_argument("--document", default="2e-rulebook", help="document id")
    ap.add_argument("--publisher", default="Decipher", help="publisher of this version")
    args = ap.parse_args(argv)
    seeds = Path(args.seeds)
    parsed = parse(seeds / args.seed, seeds)
    version, corrections = to_yaml_data(parsed, args.seed, args.document, args.publisher)
    out = Path(args.out)
    fixes_path = write_draft(version, corrections, out)
    count = sum(1 for _ in _walk(parsed.roots))
    print(
        f"wrote {out} ({count} entries) and {fixes_path} "
        f"({len(parsed.fixes)} corrections, {len(parsed.removed)} removals)"
    )
    return 0
