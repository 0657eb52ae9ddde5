"""`judgekit import SOURCE`: a new version of a held document, as a draft folder to review."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from judgekit.checks.accept import accept_draft
from judgekit.checks.loader import CorpusError
from judgekit.corpus.read import read_corpus
from judgekit.importing.decisions import read_decisions
from judgekit.importing.draft import NewDocument, build
from judgekit.importing.source import ImportRefused, read_source
from judgekit.importing.write import write_draft


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Register the ``import`` sub-command."""
    p = sub.add_parser(
        "import",
        help="import a new version of a document as a draft folder, or accept a draft",
        description="judgekit import SOURCE --document D --version V --out DIR writes a draft "
        "folder; judgekit import --accept DIR moves a checked draft into the corpus.",
    )
    p.add_argument("source", nargs="?", help="the source text (Markdown or plain text, UTF-8)")
    p.add_argument("--document", help="the held document's id (e.g. 2e-rulebook)")
    p.add_argument("--version", help="the new version's id (must not exist)")
    p.add_argument("--based-on", help="the version it follows (default: the newest held)")
    p.add_argument(
        "--released", help="release date YYYY, YYYY-MM or YYYY-MM-DD (default: as printed)"
    )
    p.add_argument("--new-document", action="store_true", help="start a document not held yet")
    p.add_argument("--title", help="with --new-document: the document's title")
    p.add_argument("--short-title", help="with --new-document: its title in citations")
    p.add_argument("--edition", choices=("2E", "1E"), help="with --new-document: its game")
    p.add_argument("--kind", choices=("rulebook", "rulings"), default="rulebook",
                   help="with --new-document: rulebook (default) or rulings")  # fmt: skip
    p.add_argument("--out", help="the draft folder to write (decisions kept)")
    p.add_argument(
        "--accept",
        metavar="DIR",
        help="accept this draft folder: every check runs first, then its files join the corpus",
    )
    p.add_argument("--seeds", help="with --accept: folder of seed texts for the quote checks")
    p.set_defaults(func=run)


def accept(args: argparse.Namespace) -> int:
    """Move a checked draft into the corpus; on any problem print them all, write nothing, exit 1."""
    try:
        written = accept_draft(args.accept, args.root, Path(args.seeds) if args.seeds else None)
    except CorpusError as exc:
        for problem in exc.problems:
            print(problem)
        print(f"judgekit import --accept: nothing written ({len(exc.problems)} problem(s))",
              file=sys.stderr)  # fmt: skip
        return 1
    for path in written:
        print(f"wrote {path}")
    print(f"accepted {args.accept}: {len(written)} file(s); run judgekit check, then commit them")
    return 0


def _missing(args: argparse.Namespace) -> list[str]:
    """The options an import needs that were not given."""
    needed = {"SOURCE": args.source, "--document": args.document, "--version": args.version,
              "--out": args.out}  # fmt: skip
    return [name for name, value in needed.items() if not value]


def run(args: argparse.Namespace) -> int:
    """Import, write the draft folder, print where the report is; exit 2 on refused input."""
    if args.accept:
        return accept(args)
    missing = _missing(args)
    if missing:
        print(f"judgekit import: {', '.join(missing)} needed (or --accept DIR)", file=sys.stderr)
        return 2
    out = Path(args.out)
    new = None
    if args.new_document:
        if not (args.title and args.edition):
            print("judgekit import: --new-document needs --title and --edition", file=sys.stderr)
            return 2
        new = NewDocument(args.title, args.short_title or args.title, args.edition, args.kind)
    try:
        corpus = read_corpus(args.root)
        if out.resolve().is_relative_to(Path(corpus.root).resolve()):
            # A draft is read on top of the corpus, never written into it.
            raise ImportRefused(
                f"{out}: inside the corpus folder {corpus.root}; choose --out elsewhere"
            )
        draft = build(
            corpus,
            read_source(args.source),
            args.document,
            args.version,
            args.based_on,
            read_decisions(out),
            args.released,
            new,
        )
        area = "rulings" if draft.kind == "rulings" else "rules"
        write_draft(draft, area, out)
    except ImportRefused as exc:
        print(f"judgekit import: {exc}", file=sys.stderr)
        return 2
    low = sum(1 for m in draft.lineage.matches if m.confidence < 0.6 and not m.decided)
    print(
        f"wrote {out}: {len(draft.lineage.matches)} entries, {low} to decide; read {out / 'import-report.md'}"
    )
    return 0
