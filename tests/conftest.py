"""Shared fixtures: the real corpus, tiny fixture corpora, a live server and a browser."""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import Flask

from judgekit import create_app
from judgekit.checks.loader import default_root, load_corpus
from judgekit.pack.build import BuildResult, build, pack_app
from judgekit.render.library import Library
from judgekit.web.server import make_server

DATA = Path(__file__).parent / "data"
MINI = DATA / "mini"
ROOT = default_root()
SEEDS = ROOT.parent / "shared" / "seeds"
PACK_CORPUS = DATA / "pack"
PACK_WHEN = datetime(2026, 11, 23, 7, 0, tzinfo=UTC)  # every test pack's build date

CHROMIUM = "/usr/bin/chromium"
_CACHE = tempfile.mkdtemp(prefix="judgekit-test-cache-")


def pytest_configure(config) -> None:
    """Every app the tests build (and every server they start) caches its index and its pack zip,
    and keeps its events database, in a temp folder."""
    os.environ["JUDGEKIT_SEARCH_CACHE_DIR"] = _CACHE
    # Tests stop servers with SIGINT, as a terminal's Ctrl-C does. A shell that starts the tests
    # in the background (`… &`) makes them ignore SIGINT, and every process they start would
    # inherit that and never stop: give SIGINT back its usual meaning (as Python's own start-up
    # does where it is not ignored).
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # Apps and servers search by words unless a test asks for meaning (as the real-corpus app
    # does): answers do not depend on whether a background embedding has finished.
    os.environ["JUDGEKIT_SEARCH_MEANING"] = "off"
    os.environ["JUDGEKIT_PACK_CACHE_DIR"] = os.path.join(_CACHE, "pack")
    # The events database of every app and server the tests start: never the judge's own.
    os.environ["JUDGEKIT_DATA_DIR"] = os.path.join(_CACHE, "data")


def pytest_unconfigure(config) -> None:
    """Remove the tests' search cache; the judge's own ~/.cache is never touched."""
    shutil.rmtree(_CACHE, ignore_errors=True)


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def corpus():
    """The real, built-in corpus."""
    return load_corpus(ROOT)


@pytest.fixture(scope="session")
def lib(corpus) -> Library:
    """A Library over the real corpus."""
    return Library(corpus)


@pytest.fixture(scope="module")
def vocab_app():
    """The app on the vocabulary fixture corpus (both games, a judge's words), index in memory."""
    return create_app(
        {"TESTING": True, "CORPUS_DIR": str(DATA / "search" / "vocab"), "SEARCH_CACHE_DIR": ""}
    )


@pytest.fixture()
def vocab_client(vocab_app):
    """A test client on the vocabulary fixture corpus."""
    return vocab_app.test_client()


@pytest.fixture(scope="session")
def app():
    """The app on the real corpus, searching by meaning too, as a judge's does."""
    return create_app({"TESTING": True, "SEARCH_MEANING": "now"})


@pytest.fixture()
def client(app):
    """A test client on the real corpus."""
    return app.test_client()


@pytest.fixture(scope="session")
def mini_app():
    """The app on the tiny fixture corpus in tests/data/mini."""
    return create_app({"TESTING": True, "CORPUS_DIR": str(MINI)})


@pytest.fixture()
def mini_client(mini_app):
    """A test client on the tiny fixture corpus."""
    return mini_app.test_client()


@dataclass(frozen=True)
class BuiltPack:
    """A judge pack built for the tests, and the app that built it."""

    app: Flask
    result: BuildResult

    @property
    def out(self) -> Path:
        """The pack's folder."""
        return self.result.out


@pytest.fixture(scope="session")
def packs(tmp_path_factory) -> Callable[..., BuiltPack]:
    """Judge packs built once per test session for each set of build options; tests only read
    them (a test that changes a pack builds its own)."""
    built: dict[tuple[str, str | None, bool], BuiltPack] = {}

    def pack(
        root: Path | None = None, base_url: str | None = None, zipped: bool = False
    ) -> BuiltPack:
        """The pack of the corpus at root (the real one by default), built on first asking."""
        key = (str(root or ""), base_url, zipped)
        if key not in built:
            # Named as a pack is unzipped: test_pack_results reads pack addresses by this name.
            out = tmp_path_factory.mktemp("pack") / "judgekit-pack"
            app = pack_app(str(root) if root else None, base_url)
            zip_path = out.with_name("judgekit-pack.zip") if zipped else None
            built[key] = BuiltPack(app, build(app, out, zip_path=zip_path, when=PACK_WHEN))
        return built[key]

    return pack


@pytest.fixture(scope="session")
def real_pack_build(packs) -> BuiltPack:
    """The judge pack of the real corpus, built once per test session."""
    return packs()


def _free_port() -> int:
    """A loopback port free a moment ago: only for a child process, which binds it itself."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def spawn_serve(
    command: list[str], tries: int = 5, timeout: float = 60, **popen
) -> tuple[subprocess.Popen, int, str]:
    """`judgekit serve` (``command``, without --port) in a child process on a free loopback
    port, once it has bound it: the process, its port and its first line.

    A child cannot bind the tests' own socket, so a port another process takes between
    choosing it and the child's bind ("cannot serve on ...") is tried again with another port,
    at most ``tries`` times. Each start is bounded by ``timeout`` seconds.
    """
    for _ in range(tries):
        port = _free_port()
        proc = subprocess.Popen(
            [*command, "--port", str(port)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            **popen,
        )
        ready = select.select([proc.stdout], [], [], timeout)[0]
        first = proc.stdout.readline().decode() if ready else ""
        if first.startswith("judgekit serving on "):
            return proc, port, first
        proc.kill()
        rest = proc.communicate(timeout=10)[0].decode()
        if not first.startswith("cannot serve on "):
            raise AssertionError(f"judgekit serve did not start: {first}{rest}")
    raise AssertionError(f"judgekit serve found no free port in {tries} tries")


@contextlib.contextmanager
def serving(app, threads: int = 4) -> Iterator[str]:
    """Serve an app as `judgekit serve` does, on a free loopback port; yields its base URL."""
    server = make_server(app, "127.0.0.1", 0, threads)
    base = f"http://127.0.0.1:{server.effective_port}"
    app.config["BASE_URL"] = base
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield base
    finally:
        server.close()
        server.task_dispatcher.shutdown()


@pytest.fixture(scope="session")
def live_server(app) -> Iterator[str]:
    """The real app served by waitress on a free loopback port; yields its base URL."""
    with serving(app) as base:
        yield base


def wait_until(page, expression: str, arg=None, timeout: float = 10.0) -> None:
    """Poll a JavaScript expression until it is true (bounded).

    Playwright's wait_for_function evaluates its string with eval() inside the page, which the
    app's Content-Security-Policy forbids; page.evaluate is not subject to it.
    """
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression, arg):
        assert time.monotonic() < deadline, f"still false after {timeout} s: {expression}"
        page.wait_for_timeout(50)


class BlockedRequests:
    """Counts the requests a page tried to make to any host but localhost."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def __len__(self) -> int:
        return len(self.urls)


@pytest.fixture(scope="session")
def browser():
    """Debian's headless Chromium driven by Playwright; skipped where it is not installed."""
    if not Path(CHROMIUM).exists():
        pytest.skip("chromium is not installed (.ci/run installs it)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture()
def blocked() -> BlockedRequests:
    """The record of off-host requests for one test."""
    return BlockedRequests()


def guard_routes(context, blocked: BlockedRequests) -> None:
    """Let a browser context reach this machine only; count and abort anything else."""

    def guard(route):
        host = urlsplit(route.request.url).hostname or ""
        if host in ("127.0.0.1", "localhost", "::1") or route.request.url.startswith(
            ("data:", "blob:")
        ):
            route.continue_()
        else:
            blocked.urls.append(route.request.url)
            route.abort()

    context.route("**/*", guard)


@contextlib.contextmanager
def guarded_context(browser, blocked: BlockedRequests, **options):
    """A browser context of its own (touch, no JavaScript...) that blocks off-host requests."""
    context = browser.new_context(**options)
    guard_routes(context, blocked)
    try:
        yield context
    finally:
        context.close()


@pytest.fixture()
def page(browser, blocked):
    """A fresh browser page whose requests to any host but localhost are blocked and counted."""
    with guarded_context(
        browser, blocked, permissions=["clipboard-read", "clipboard-write"]
    ) as context:
        yield context.new_page()
