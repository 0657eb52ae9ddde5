"""`judgekit search "query"`: search the rules from the terminal."""

from __future__ import annotations

import argparse
import json
import shlex
import sys

from judgekit.commands.loading import corpus_or_exit


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``search`` to the CLI's sub-commands."""
    search = sub.add_parser("search", help="search the rules")
    search.add_argument("query")
    search.add_argument("--json", action="store_true", help="print the API's JSON")
    search.add_argument("--document")
    search.add_argument("--version")
    search.add_argument("--kind")
    search.add_argument("--edition")
    search.add_argument("--all-versions", action="store_true")
    search.add_argument("--limit", type=int, default=10)
    search.set_defaults(func=cmd_search)


def _set_aside_line(result: dict, args: argparse.Namespace) -> str:
    """As the results page says it: the game chosen won over the one named; the command for it
    (keeping --kind and --all-versions, as the page's link keeps them)."""
    aside, kept = result["edition_set_aside"], result["filters"]
    searched = (
        f"{kept['edition']} was searched (--edition)"
        if kept.get("edition")
        else f"only the chosen {'version' if kept.get('version') else 'document'} was searched"
    )
    command = ["judgekit", "search", "--edition", aside]
    command += ["--kind", args.kind] if args.kind else []
    command += ["--all-versions"] if args.all_versions else []
    question = result["query_without_edition"]
    # "--" ends the options, or a question starting with a dash would be read as one.
    command += ["--", question] if question.startswith("-") else [question]
    return f"your question names {aside}, but {searched}; for {aside}: {shlex.join(command)}"


def cmd_search(args: argparse.Namespace) -> int:
    """Search from the terminal; --json prints what /api/search returns."""
    from judgekit.render.library import Library
    from judgekit.search.service import SearchParamError, run_search
    from judgekit.search.snippets import snippet_plain
    from judgekit.shapes.search_notes import unheld_said, unquoted_said

    corpus = corpus_or_exit(args.root)
    params = {
        "q": args.query,
        "document": args.document,
        "version": args.version,
        "kind": args.kind,
        "edition": args.edition,
        "all_versions": "1" if args.all_versions else None,
        "limit": str(args.limit),
    }
    try:
        result = run_search(corpus, {k: v for k, v in params.items() if v is not None})
    except SearchParamError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return 0
    shown = len(result["results"])
    more = f", showing {shown}" if shown < result["total"] else ""
    if result.get("edition_from") == "question":  # as the results page says it
        more += (
            f" in {result['filters']['edition']} only (named in your question;"
            f" for both games search {result['query_without_edition']!r})"
        )
    print(f"{result['total']} result(s) for {result['query']!r}{more}")
    if result.get("versions_not_held"):  # as the results page says it
        print(unheld_said(Library(corpus), result["versions_not_held"]))
    if result.get("unquoted"):
        print(unquoted_said(result["unquoted"]))
    if result.get("edition_set_aside"):
        print(_set_aside_line(result, args))
    if result.get("suggestion"):
        print(f"did you mean: {result['suggestion']}")
    for number, hit in enumerate(result["results"], 1):
        where = " > ".join(
            [f"{hit['document_title']} {hit['version_title']}"]
            + [crumb["title"] for crumb in hit.get("breadcrumb", [])]
        )
        also = ", ".join(
            o["short_title"] + (f": {o['title']}" if o["id"] != hit["id"] else "")
            for o in hit.get("also_in", [])
        )
        print(
            f"{number}. {hit['title']}  [{hit['kind']}]  {where}"
            + (f"  (also in {also})" if also else "")
        )
        print(f"   {hit['url']}")
        if hit.get("snippet"):
            print(f"   {snippet_plain(hit['snippet'])}")
    return 0
