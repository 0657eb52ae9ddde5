"""The `judgekit` command: check, coverage, serve, build (the judge pack), search, card, event
(an event's rulings), import (a new version as a draft folder)."""

from __future__ import annotations

import argparse
import os
import sys

from judgekit.commands import build, card, check, event, importing, search, serve


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one sub-command per task."""
    parser = argparse.ArgumentParser(prog="judgekit", description=__doc__)
    parser.add_argument(
        "--root", help="corpus folder holding rules/ and rulings/ (default: built-in)"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    check.add_parsers(sub)
    serve.add_parser(sub)
    build.add_parser(sub)
    search.add_parser(sub)
    card.add_parser(sub)
    event.add_parser(sub)
    importing.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    args = build_parser().parse_args(argv)
    try:
        code = args.func(args)
        sys.stdout.flush()  # a reader gone shows here, inside the try, not at exit
    except BrokenPipeError:
        # `judgekit search ... | head`: the reader took what it wanted. Python's recipe (the
        # signal module's note on SIGPIPE): stdout to devnull, so the flush at exit cannot fail
        # again and print a traceback, and exit 1 quietly.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return code
