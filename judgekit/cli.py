"""The `judgekit` command: check, coverage, serve, search."""

from __future__ import annotations

import argparse
import json
import shlex
import socket
import sys
from pathlib import Path
from urllib.parse import urlsplit

from judgekit import card_cli
from judgekit.corpus.check import seeds_dir, validate
from judgekit.corpus.loader import CorpusError, load_corpus
from judgekit.pack.cli import add_build_parser


def _corpus_or_exit(root: str | None, strict: bool = True):
    try:
        return load_corpus(root, strict=strict)
    except CorpusError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        raise SystemExit(1) from None


def cmd_check(args: argparse.Namespace) -> int:
    """Validate the corpus; print problems and exit 1 if there are any."""
    seeds = Path(args.seeds) if args.seeds else None
    # The same validation as the app's start-up (load_corpus), so serve refuses what check does.
    corpus, problems = validate(args.root, seeds)
    if problems or corpus is None:
        for problem in problems:
            print(problem)
        print(f"{len(problems)} problem(s) found", file=sys.stderr)
        return 1
    versions = list(corpus.versions())
    entries = sum(len(v.entries) for v in versions)
    fixes = sum(len(v.corrections) for v in versions)
    print(f"ok: {len(versions)} versions, {entries} entries, {fixes} recorded corrections")
    return 0


def cmd_coverage(args: argparse.Namespace) -> int:
    """Report which source sentences are missing from the corpus."""
    from judgekit.corpus.coverage import coverage

    # Coverage helps while the text is being fixed: the format must hold, not every check.
    corpus = _corpus_or_exit(args.root, strict=False)
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


def _warm(app, process: str = "") -> None:
    """Render every page once, so the first judge to open one does not wait for it.

    process names this process ("process 2 of 2") where several serve.
    """
    import gc
    import time

    from judgekit.web.context import library_of
    from judgekit.web.memory import warm
    from judgekit.web.sitemap import all_paths

    start = time.perf_counter()
    app.extensions["judgekit"]["search"].warm()
    count = warm(app, all_paths(library_of(app), app.extensions["judgekit"]["timing"]))
    # What is prepared lives as long as the server: the collector need not walk it again, which
    # makes its pauses during searches fewer and shorter.
    gc.freeze()
    # Said, so that whoever watches (a judge, a benchmark) knows every page is now instant.
    took = f"{time.perf_counter() - start:.1f} s" + (f", {process}" if process else "")
    print(f"all {count} pages ready in memory ({took})", flush=True)


def _workers(asked: int | None) -> int:
    """How many processes serve: as asked (--workers N), else one per usable core."""
    from judgekit.web.workers import auto_count, can_fork

    if asked is None:
        return auto_count()
    if asked > 1 and not can_fork():
        print("--workers: this system cannot fork; serving from one process", file=sys.stderr)
        return 1
    return asked


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the app with waitress; print the address other judges can open."""
    from judgekit import create_app
    from judgekit.web.server import make_server
    from judgekit.web.workers import listen

    overrides = {"CORPUS_DIR": args.root} if args.root else {}
    if args.pack_url:
        overrides["PACK_URL"] = args.pack_url
    try:
        app = create_app(overrides)
    except CorpusError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 1
    workers = _workers(args.workers)
    try:
        # With workers, the address is bound before they are started, to be shared by them.
        sock = listen(args.host, args.port) if workers > 1 else None
        server = None if sock else make_server(app, args.host, args.port, args.threads)
    except OSError as exc:
        # Most often the port is taken by another judgekit still running.
        print(f"cannot serve on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    port = sock.getsockname()[1] if sock else server.effective_port
    _announce(app, args, port)
    if sock is None:
        _warm_in_background(app)
        _run(server)
        return 0
    return _serve_forked(app, args, sock, workers)


def _warm_in_background(app, process: str = "") -> None:
    import threading

    threading.Thread(target=_warm, args=(app, process), daemon=True, name="judgekit-warm").start()


def _serve_forked(app, args: argparse.Namespace, sock: socket.socket, workers: int) -> int:
    """Serve from several processes on one bound socket, each answering at once."""
    import gc

    from judgekit.web.server import make_server
    from judgekit.web.workers import fork_workers, stop_on_terminate, stop_workers

    # The index was loaded (or built and cached) by create_app, before forking: no worker
    # writes the cache. Frozen, what they share is not copied into each by the collector. Each
    # answers at once and prepares its search and pages in the background.
    gc.freeze()

    def serve(number: int = 1) -> None:  # in each process: its own waitress loop and threads
        _warm_in_background(app, f"process {number} of {workers}")
        _run(make_server(app, args.host, args.port, args.threads, sock))

    pids = fork_workers(workers - 1, serve)
    stop_on_terminate()
    print(f"serving from {workers} processes", flush=True)  # said once every worker is started
    try:
        serve()
    finally:
        stop_workers(pids)
    return 0


def _run(server) -> None:
    """Run a waitress server until it is stopped, then close it."""
    try:
        server.run()
    finally:
        server.close()


def _announce(app, args: argparse.Namespace, port: int) -> None:
    """Say where the app is served, and set the address citations link to."""
    from judgekit.pack.handout import print_qr
    from judgekit.urls import only_this_computer
    from judgekit.web.server import lan_address, public_url

    network = args.host in ("0.0.0.0", "::")
    shown_host = lan_address() if network else args.host
    app.config["BASE_URL"] = args.base_url or public_url(shown_host, port)
    print(f"judgekit serving on {public_url(args.host, port)}/", flush=True)
    if network:
        print(f"other judges on this network can open {app.config['BASE_URL']}/", flush=True)
        print_qr(app.config["BASE_URL"] + "/")  # judges scan it from the screen
    else:
        print("only this computer can open it; use --host 0.0.0.0 to serve the network", flush=True)
    if args.base_url:
        print(f"citations link to {args.base_url}", flush=True)
        if only_this_computer(args.base_url):
            print(
                "warning: only this computer can open that address; give --base-url the address "
                "other judges open",
                flush=True,
            )


def _port(text: str) -> int:
    """A TCP port number, 1 to 65535."""
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to 65535, not {text!r}")
    return int(text)


def _threads(text: str) -> int:
    """A number of worker threads, 1 to 64."""
    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to 64, not {text!r}")
    return int(text)


def _host(text: str) -> str:
    """An address this machine can listen on (checked without binding)."""
    try:
        socket.getaddrinfo(text, None, proto=socket.IPPROTO_TCP, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        raise argparse.ArgumentTypeError(f"unknown host {text!r}: {exc}") from None
    return text


def _base_url(text: str) -> str:
    """An http(s) address with a host and no query, as judges will open it."""
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise argparse.ArgumentTypeError(
            f"must be an http:// or https:// address such as http://192.168.1.20:8000, not {text!r}"
        )
    return text.rstrip("/")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one sub-command per task."""
    parser = argparse.ArgumentParser(prog="judgekit", description=__doc__)
    parser.add_argument(
        "--root", help="corpus folder holding rules/ and rulings/ (default: built-in)"
    )
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", help="validate the corpus")
    check.add_argument("--seeds", help="folder of seed texts (default: ../shared/seeds if present)")
    check.set_defaults(func=cmd_check)

    cov = sub.add_parser("coverage", help="check that every source sentence is in the corpus")
    cov.add_argument("document", nargs="?")
    cov.add_argument("version", nargs="?")
    cov.add_argument("--seeds")
    cov.add_argument("--limit", type=int, default=40, help="missing sentences to list per version")
    cov.set_defaults(func=cmd_coverage)

    serve = sub.add_parser("serve", help="serve the app with waitress")
    serve.add_argument("--host", type=_host, default="127.0.0.1", help="0.0.0.0 serves the network")
    serve.add_argument("--port", type=_port, default=8000)
    serve.add_argument("--threads", type=_threads, default=8)
    serve.add_argument(
        "--workers",
        type=_threads,
        default=None,
        help="processes answering at once (Linux, macOS; default: one per core, up to 4)",
    )
    serve.add_argument(
        "--base-url", type=_base_url, help="the address citations link to (default: the one served)"
    )
    serve.add_argument("--pack-url", type=_base_url, help="the published judge pack (/phone)")
    serve.set_defaults(func=cmd_serve)

    add_build_parser(sub)

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
    card_cli.add_parser(sub)
    return parser


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
    from judgekit.search.service import SearchParamError, run_search
    from judgekit.search.snippets import snippet_plain

    corpus = _corpus_or_exit(args.root)
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


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
