"""`judgekit serve`: serve the app with waitress, from one process or several."""

from __future__ import annotations

import argparse
import functools
import os
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from judgekit.checks.loader import CorpusError
from judgekit.commands.arguments import http_address
from judgekit.commands.event import add_data_dir

if TYPE_CHECKING:
    from judgekit.meaning.embedder import Remote


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``serve`` to the CLI's sub-commands."""
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
    serve.add_argument(
        "--draft",
        metavar="DIR",
        help="preview a draft folder's versions with the corpus, marked as drafts on every page",
    )
    add_data_dir(serve)
    serve.set_defaults(func=cmd_serve)


def _warm(app, process: str = "") -> None:
    """Render every page once, so the first judge to open one does not wait for it.

    process names this process ("process 2 of 2") where several serve.
    """
    import gc
    import time

    from judgekit.web.context import library_of
    from judgekit.web.memory import warm
    from judgekit.web.pages.pack import start_zip_build
    from judgekit.web.sitemap import all_paths
    from judgekit.web.workers import say

    start_zip_build(app)  # the pack's zip, shared by every process: built once, in the background
    start = time.perf_counter()
    search = app.extensions["judgekit"]["search"]
    search.warm()
    if app.config.get("SEARCH_MEANING") != "off" and search.meaning.state != "ready":
        # The first start embeds the corpus (a minute or two): searches go by words till then.
        say(f"search by meaning: {search.load_meaning()}" + (f", {process}" if process else ""))
    count = warm(app, all_paths(library_of(app), app.extensions["judgekit"]["timing"]))
    # What is prepared lives as long as the server: the collector need not walk it again, which
    # makes its pauses during searches fewer and shorter.
    gc.freeze()
    # Said, so that whoever watches (a judge, a benchmark) knows every page is now instant.
    took = f"{time.perf_counter() - start:.1f} s" + (f", {process}" if process else "")
    say(f"all {count} pages ready in memory ({took})")


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
    from judgekit.web.workers import WORKER_HEADER_ENV, listen, name_the_worker

    overrides = {"CORPUS_DIR": args.root} if args.root else {}
    overrides["SEARCH_MEANING"] = os.environ.get("JUDGEKIT_SEARCH_MEANING", "kept")
    if args.pack_url:
        overrides["PACK_URL"] = args.pack_url
    if args.data_dir:
        overrides["DATA_DIR"] = args.data_dir
    if args.draft:
        overrides["DRAFT_DIR"] = args.draft
    try:
        app = create_app(overrides)
    except CorpusError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 1
    workers = _workers(args.workers)
    if os.environ.get(WORKER_HEADER_ENV) == "1":
        app.after_request(name_the_worker)
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
    _announce_event(app)
    _announce_drafts(app)
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

    from judgekit.web.balance import Balance
    from judgekit.web.pages.pack import zip_job
    from judgekit.web.server import make_server
    from judgekit.web.workers import name_process, supervise

    # The index was loaded (or built and cached) by create_app, before forking: no worker
    # writes the cache. Frozen, what they share is not copied into each by the collector. Each
    # answers at once and prepares its search and pages in the background.
    gc.freeze()

    embedder = _embedder(app)
    balance = Balance(workers)  # the connections each holds (a newcomer goes to the fewest)

    def serve(number: int = 1) -> None:  # in each process: its own waitress loop and threads
        balance.join(number)
        if embedder is not None:
            from judgekit.meaning import fused

            fused.refuse()  # the embedder embeds: numba's memory only there
            os.nice(WORKER_NICE)
            embedder[0].close()  # the embedder's to accept on
            app.extensions["judgekit"]["search"].embed_elsewhere(in_turns(app, embedder[1]).embed)
        _warm_in_background(app, f"process {number} of {workers}")
        _run(make_server(app, args.host, args.port, args.threads, sock, balance))

    def embed() -> None:  # in the embedder process: every worker's questions
        from judgekit.meaning import embedder as embedding

        name_process(EMBEDDER_NAME)
        sock.close()  # the workers' to accept on
        embedding.serve(embedder[0], functools.partial(_encoder, app))

    try:
        return supervise(
            workers, serve, embed if embedder else None, helper_name="the embedder process"
        )
    finally:
        zip_job(app).clean_after_stop()  # the workers' pack build was killed with them
        if embedder is not None:
            from judgekit.meaning.embedder import remove

            embedder[0].close()
            remove(embedder[1])


EMBEDDER_NAME = "judgekit-embed"  # the embedder process's name (ps, top, /proc/PID/comm)
# Under load the workers keep every core busy, and a question by meaning waits for the embedder's
# pass: the workers yield to it (and to whatever else the laptop runs) by this much. Measured
# (BENCHMARKS.md, session 12): the embedder's passes took 12 ms of wall time instead of 30-36.
WORKER_NICE = 5
SWITCH_INTERVAL = 0.001  # seconds: a worker's GIL switch interval (in_turns)


def in_turns(app, embedder: Path) -> Remote:
    """In a worker beside the embedder process: the app's requests run one at a time, the first
    come first, and one waiting for its vector lets the next run meanwhile (web/turns.py), so a
    question by meaning is not sliced among later requests; the embedder as its threads ask it."""
    from judgekit.meaning.embedder import Remote
    from judgekit.web.turns import TakingTurns, Turns

    turns = Turns()
    app.wsgi_app = TakingTurns(app.wsgi_app, turns)
    # The threads that then want the GIL beside the one in its turn are waitress's loop (reading
    # and sending) and a thread back from a wait (its vector, the next turn): each takes it after
    # this long at most, not the interpreter's 5 ms (a few switches more a request, not slices).
    sys.setswitchinterval(SWITCH_INTERVAL)
    return Remote(embedder, aside=turns.aside)


def _embedder(app) -> tuple[socket.socket, Path] | None:
    """The embedder process's listening socket and its path, where search by meaning may run:
    it embeds every worker's questions (judgekit/meaning/embedder.py); else None."""
    from judgekit.meaning.embedder import listen

    search = app.extensions["judgekit"]["search"]
    if app.config.get("SEARCH_MEANING") == "off" or search.meaning.state in ("missing", "failed"):
        return None
    try:
        return listen()
    except OSError as exc:  # no Unix sockets here, or no room: each worker embeds alone
        print(f"search by meaning: no embedder process ({exc}); each process embeds", flush=True)
        return None


def _encoder(app):
    """The model's encoder, as the workers load it (meaning/model.py), its fused loops compiled."""
    from judgekit.meaning import fused, model, weights

    fused.available()  # numba compiles them now, not at the first question
    return model.encoder(weights.find(), app.extensions["judgekit"]["search"].meaning.folder)


def _run(server) -> None:
    """Run a waitress server until it is stopped, then close it."""
    try:
        server.run()
    finally:
        server.close()


def _announce(app, args: argparse.Namespace, port: int) -> None:
    """Say where the app is served, and set the address citations link to."""
    from judgekit.urls import only_this_computer
    from judgekit.web.handout import print_qr
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


def _announce_event(app) -> None:
    """Say where judges join the event running, if one is."""
    from judgekit.web.judges import running_event

    event = running_event(app)
    if event is not None:
        print(
            f"event {event.name!r}: judges join at {app.config['BASE_URL']}/event"
            " (its codes: judgekit event codes)",
            flush=True,
        )


def _announce_drafts(app) -> None:
    """Say which drafts are previewed: they are not the judges' reference."""
    from judgekit.web.context import library_of

    corpus = library_of(app).corpus
    for version in corpus.drafts():
        print(
            f"previewing the draft {version.document} {version.id} from {corpus.draft}: not "
            "accepted into judgekit, marked as a draft on every page",
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


_base_url = http_address("http://192.168.1.20:8000")
