"""`judgekit check` and `judgekit coverage`: validate the corpus, and find source sentences missing from it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from judgekit.checks.validate import validate
from judgekit.commands.loading import corpus_or_exit
from judgekit.corpus.check import seeds_dir


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``check`` and ``coverage`` to the CLI's sub-commands."""
    check = sub.add_parser("check", help="validate the corpus")
    check.add_argument("--seeds", help="folder of seed texts (default: ../shared/seeds if present)")
    check.add_argument(
        "--draft", metavar="DIR", help="check the corpus with this draft folder's versions on top"
    )
    check.set_defaults(func=cmd_check)

    cov = sub.add_parser("coverage", help="check that every source sentence is in the corpus")
    cov.add_argument("document", nargs="?")
    cov.add_argument("version", nargs="?")
    cov.add_argument("--seeds")
    cov.add_argument("--limit", type=int, default=40, help="missing sentences to list per version")
    cov.set_defaults(func=cmd_coverage)


def cmd_check(args: argparse.Namespace) -> int:
    """Validate the corpus; print problems and exit 1 if there are any."""
    seeds = Path(args.seeds) if args.seeds else None
    # The same validation as the app's start-up (load_corpus), so serve refuses what check does.
    corpus, problems = validate(args.root, seeds, draft=args.draft)
    if problems or corpus is None:
        for problem in problems:
            print(problem)
        print(f"{len(problems)} problem(s) found", file=sys.stderr)
        return 1
    versions = list(corpus.versions())
    entries = sum(len(v.entries) for v in versions)
    fixes = sum(len(v.corrections) for v in versions)
    print(f"ok: {len(versions)} versions, {entries} entries, {fixes} recorded corrections")
    for version in corpus.drafts():
        print(f"draft: {version.document} {version.id} ({len(version.entries)} entries)")
    return 0


def cmd_coverage(args: argparse.Namespace) -> int:
    """Report which source sentences are missing from the corpus."""
    from judgekit.corpus.coverage import coverage

    # Coverage helps while the text is being fixed: the format must hold, not every check.
    corpus = corpus_or_exit(args.root, strict=False)
    seeds = Path(args.seeds) if args.seeds else seeds_dir(corpus.root)
    if seeds is None:
        print("seed texts not found: pass --seeds DIR or set JUDGEKIT_SEEDS", file=sys.stderr)
        return 2
    versions = list(corpus.versions())
    if args.document:
        versions = [v for v in versions if v.document == args.document]
        if args.version:
            versions = [v for v in versions if v.id == args.version]
        if not versions:
            print(
                f"no such document/version: {args.document} {args.version or ''}", file=sys.stderr
            )
            return 2
    failed = False
    for version in versions:
        result = coverage(version, seeds)
        print(
            f"{version.document} {version.id}: {result.checked - len(result.missing)}"
            f"/{result.checked} source sentences found ({result.ratio:.1%})"
        )
        for miss in result.missing[: args.limit]:
            print(f"  {miss.file}:{miss.line}: {miss.text[:160]}")
        if len(result.missing) > args.limit:
            print(f"  ... and {len(result.missing) - args.limit} more")
        failed = failed or bool(result.missing)
    return 1 if failed else 0
