"""`judgekit search "query"`: search the rules from the terminal."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from typing import TYPE_CHECKING

from judgekit.commands.loading import corpus_or_exit

if TYPE_CHECKING:  # imported when the command runs: `judgekit --help` stays quick
    from judgekit.search.service import SearchService


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
    search.add_argument(
        "--words-only",
        action="store_true",
        help="search by words alone, without loading search by meaning (quicker to start;"
        " JUDGEKIT_SEARCH_MEANING=off does the same); by default it searches by meaning too, as"
        " the server does, when the model's package is installed",
    )
    search.set_defaults(func=cmd_search)


def _meaning_mode(args: argparse.Namespace) -> str:
    """How this search loads meaning (MEANING_MODES): off with --words-only, else as
    JUDGEKIT_SEARCH_MEANING says, "now" by default (as the app outside `serve`)."""
    from judgekit.search.meaning import MEANING_MODES

    if args.words_only:
        return "off"
    mode = os.environ.get("JUDGEKIT_SEARCH_MEANING", "now")
    if mode not in MEANING_MODES:
        print(
            f"JUDGEKIT_SEARCH_MEANING must be one of {', '.join(MEANING_MODES)}, not {mode!r}",
            file=sys.stderr,
        )
        raise SystemExit(2)
    return mode


def _load_meaning(search: SearchService, mode: str) -> None:
    """Load search by meaning as the server does, its vectors from the search cache; the first
    time, embedding the corpus (about half a minute of CPU) after saying so on stderr."""
    from judgekit.meaning import fused

    if mode == "off":
        return
    state = search.load_meaning(only_if_kept=True)
    if state == "ready":
        # One question to embed: numpy's calls give the same vector, without the second or so
        # numba takes to compile its loops (fused.py).
        fused.refuse()
    if state != "loading" or mode == "kept":  # ready, or cannot load, or asked not to embed
        return
    print(
        "search by meaning: embedding the corpus once (about half a minute of CPU; kept in the"
        " search cache for later searches and the server)...",
        file=sys.stderr,
        flush=True,
    )
    search.load_meaning()


def _words_only_line(search: SearchService, mode: str, args: argparse.Namespace) -> str | None:
    """Why an answer went by words alone, where meaning could take part in it; None otherwise."""
    from judgekit.shapes.search_notes import WORDS_ONLY, words_only_said

    if mode == "off":
        asked = "--words-only" if args.words_only else "JUDGEKIT_SEARCH_MEANING=off"
        return WORDS_ONLY.format(why=f"you asked for it ({asked})")
    state, reason = search.meaning.state, search.meaning.reason
    if state == "loading":  # only with JUDGEKIT_SEARCH_MEANING=kept: the vectors are not kept
        why = (
            "the search cache does not hold the corpus's vectors yet (JUDGEKIT_SEARCH_MEANING=kept;"
            " a search without it embeds them once)"
        )
        return WORDS_ONLY.format(why=why)
    if state == "failed":
        return WORDS_ONLY.format(why=f"search by meaning failed to load ({reason})")
    return words_only_said(state)


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
    """Search from the terminal, by meaning too as the server does (unless --words-only);
    --json prints what /api/search returns."""
    from judgekit.render.library import Library
    from judgekit.search.service import SearchParamError, SearchService, parse_params
    from judgekit.search.snippets import snippet_plain
    from judgekit.shapes.search_notes import GUESS, unheld_said, unquoted_said

    mode = _meaning_mode(args)
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
    params = {k: v for k, v in params.items() if v is not None}
    search = SearchService.for_library(Library(corpus))
    try:
        parse_params(search.lib, params, search.kinds)  # a bad filter is said before any loading
    except SearchParamError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    _load_meaning(search, mode)
    result = search.search(params)
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
    if result["guess"]:
        print(GUESS)
    if not result["by_meaning"] and (words_only := _words_only_line(search, mode, args)):
        print(words_only)
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
