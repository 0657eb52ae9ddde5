"""The `judgekit build` sub-command."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from judgekit.commands.arguments import http_address

_base_url = http_address("https://you.github.io/judgekit")


def cmd_build(args: argparse.Namespace) -> int:
    """Write the judge pack into --out (and a zip beside it with --zip)."""
    from judgekit.checks.loader import CorpusError
    from judgekit.pack.build import SIZE_LIMIT, BuildError, build, pack_app

    out = Path(args.out).resolve()
    if out.exists() and not out.is_dir():
        print(f"--out {args.out} is a file, not a folder", file=sys.stderr)
        return 2
    if out.exists() and any(out.iterdir()) and not (out / "pack.json").exists():
        print(
            f"--out {args.out} is not empty and holds no pack: refusing to empty it",
            file=sys.stderr,
        )
        return 2
    try:
        app = pack_app(args.root, args.base_url, meaning=args.meaning)
        zip_path = out.with_name(out.name + ".zip") if args.zip else None
        result = build(app, out, zip_path=zip_path)
    except CorpusError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 1
    except BuildError as exc:
        print(f"build failed: {exc}", file=sys.stderr)
        return 1
    print(
        f"judge pack {result.version['id']}: {result.files} files, "
        f"{result.size / 1e6:.1f} MB in {result.out} (limit {SIZE_LIMIT / 1e6:.0f} MB)"
    )
    for folder, size in result.folders.items():
        print(f"  {folder + '/' if folder else '(root files)':<16} {size / 1e6:6.2f} MB")
    if result.meaning_size:
        print(
            f"search by meaning: {result.meaning_size / 1e6:.1f} MB more in meaning/, not part of "
            "the pack above: a phone stores it only when the judge asks"
        )
    else:
        print(
            f"search by meaning: not in this pack ({result.meaning_note}); it answers by words",
            file=sys.stderr,
        )
    if result.over_limit:
        print(
            f"warning: the pack is over {SIZE_LIMIT / 1e6:.0f} MB, more than a phone "
            "should be asked to store",
            file=sys.stderr,
        )
    if not args.base_url:
        print(
            "warning: no --base-url: citations and permalinks copied from the pack are relative "
            "(/rules/...) and name no host, so other judges cannot open them; pass the address "
            "the pack will be published at (--base-url https://USER.github.io/judgekit)",
            file=sys.stderr,
        )
    if result.zip_path:
        print(f"zip: {result.zip_path} ({result.zip_path.stat().st_size / 1e6:.1f} MB)")
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add `build` to the CLI's sub-commands."""
    build = sub.add_parser(
        "build",
        help="write the judge pack: every page as static files",
        description=(
            "Write the judge pack: every page as static files, with the JSON the pages name as "
            "their twins (documents, versions, entries, cards, timing, the comparison pairs and "
            "* lists). Each comparison's and history's JSON is left to the server's API "
            "(/api/diff/<document>/<from>/<to>, /api/history/<document>/<entry>); a comparison's "
            "or history's views (?view=side, ?typography=show) are one page, shown in the "
            "browser. Prints the pack's size against the 25 MB limit."
        ),
    )
    build.add_argument("--out", required=True, help="folder to write the pack into")
    build.add_argument(
        "--base-url", type=_base_url, help="the address the pack is published at (citations)"
    )
    build.add_argument("--zip", action="store_true", help="also write OUT.zip")
    build.add_argument(
        "--no-meaning",
        dest="meaning",
        action="store_false",
        help="leave search by meaning out (by default it is written under meaning/ when the "
        "model's package is installed: a phone stores it only when the judge asks)",
    )
    build.set_defaults(func=cmd_build)
