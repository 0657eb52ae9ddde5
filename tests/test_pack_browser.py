"""The judge pack in real headless Chromium: served by a plain static file server on 127.0.0.1,
stored by its service worker, read with the network cut; opened from file://; updated by a newer
build on the next online visit."""

from __future__ import annotations

import contextlib
import functools
import shutil
import sys
import threading
import traceback
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from judgekit.pack.build import build, pack_app
from tests.conftest import wait_until

pytestmark = pytest.mark.browser

PACK_CORPUS = Path(__file__).parent / "data" / "pack"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
LOOPBACK = ("127.0.0.1", "localhost", "::1")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 -- the base class's name
        pass


class QuietServer(ThreadingHTTPServer):
    """A static server that prints nothing: a browser closing a connection before its answer is
    written (a cancelled fetch, a page or a context closed) is routine, not an error; any other
    error in a request is kept in ``errors`` for the test to raise. (socketserver's default
    printed a BrokenPipeError traceback into the test output.)"""

    def __init__(self, address: tuple[str, int], handler) -> None:
        super().__init__(address, handler)
        self.errors: list[str] = []

    def handle_error(self, request, client_address) -> None:
        """Keep the error of a request, but a connection the client closed."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            self.errors.append(traceback.format_exc())


@contextlib.contextmanager
def static_server(folder: Path, kind: type[SimpleHTTPRequestHandler] = _Quiet) -> Iterator[str]:
    """A plain static file server (no judgekit in it) on a free loopback port; an error in one
    of its requests fails the test when it stops."""
    handler = functools.partial(kind, directory=str(folder))
    server = QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
    assert not server.errors, "".join(server.errors)


def _build(corpus: Path, out: Path, when: datetime):
    return build(pack_app(str(corpus), "https://judges.example/pack"), out, when=when)


@pytest.fixture()
def corpus_copy(tmp_path) -> Path:
    """A copy of the pack fixture corpus, free to change."""
    root = tmp_path / "corpus"
    shutil.copytree(PACK_CORPUS, root)
    return root


@contextlib.contextmanager
def guarded_context(
    browser, viewport, allowed: tuple[str, ...] = LOOPBACK, **options
) -> Iterator[tuple[object, list[str]]]:
    """A browser context (viewport, and Playwright's other options) whose requests to hosts
    but the allowed ones (127.0.0.1) are blocked and recorded; file: addresses (a pack opened
    from a folder) pass."""
    context = browser.new_context(viewport=viewport, **options)
    off_host: list[str] = []

    def guard(route):
        url = route.request.url
        if url.startswith(("file:", "data:", "blob:")) or urlsplit(url).hostname in allowed:
            route.continue_()
        else:
            off_host.append(url)
            route.abort()

    context.route("**/*", guard)
    context.on(
        "request",
        lambda r: (
            None if urlsplit(r.url).hostname in (*allowed, None, "") else off_host.append(r.url)
        ),
    )
    try:
        yield context, off_host
    finally:
        context.close()


def _wait_stored(page, pack_id: str) -> None:
    wait_until(
        page,
        "id => !!(window.judgekit && judgekit.pack && judgekit.pack.storedId === id"
        " && navigator.serviceWorker.controller)",
        pack_id,
        timeout=30,
    )


def _read(page, url: str) -> str:
    page.goto(url)
    return page.inner_text("main")


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_pack_works_offline_after_one_visit(browser, tmp_path, corpus_copy, viewport):
    result = _build(corpus_copy, tmp_path / "site", datetime(2026, 11, 23, 7, 0, tzinfo=UTC))
    with static_server(result.out) as base, guarded_context(browser, viewport) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{base}/index.html")
        _wait_stored(page, result.version["id"])
        assert page.inner_text(".pack-notice") == (
            "The whole pack is stored on this device: it works with no network now."
        )
        ctx.set_offline(True)

        # Entries, a whole version, a ruling, a comparison, a timing step: all from the phone.
        text = _read(page, f"{base}/rules/demo-rulebook/2/attempting/index.html")
        assert "When your personnel begin a mission attempt, count them." in text
        page.goto(f"{base}/index.html")
        page.click("a[href='rules/demo-rulebook/2/index.html']")
        assert page.url == f"{base}/rules/demo-rulebook/2/index.html"
        assert "Order – Attempt a Mission" in page.inner_text("main")
        text = _read(page, f"{base}/rulings/demo-rulings/r1/access-denied/")
        assert "Access Denied" in text
        text = _read(page, f"{base}/diff/demo-rulebook/1..2/index.html")
        assert "Demo Rulebook" in text
        # Side by side: the same page, its other view shown (pack/views.py).
        page.click("a[data-df-view=side] >> visible=true")
        assert page.url == f"{base}/diff/demo-rulebook/1..2/index.html?view=side"
        assert page.get_attribute("a[data-df-view=side] >> visible=true", "aria-current") == "true"
        # The picker, by the server's address of a choice.
        page.goto(f"{base}/diff/index.html?document=demo-rulebook&from=2&to=1&view=side")
        assert page.url == f"{base}/diff/demo-rulebook/2..1/index.html?view=side"
        wait_until(page, "!!document.querySelector('.df-changes.df-view-side')")
        # A step by the server's own address (query), then Next by its link.
        page.goto(f"{base}/timing/attempt/index.html?version=2&step=1.a")
        assert page.url == f"{base}/timing/attempt/~step=1.a,version=2/index.html"
        assert "“When . . . begins” triggers process." in page.inner_text("main")
        page.click(".tm-prevnext a[rel='next']")
        assert "~step=2,version=2/index.html" in page.url
        # The newest version by the server's address: its plain page, where the pack stays (it
        # writes no page of its own for it: build.py, same_as_plain); an older one is opened.
        page.goto(f"{base}/timing/attempt/index.html?version=2")
        assert page.url == f"{base}/timing/attempt/index.html?version=2"
        assert "v2" in page.inner_text("[aria-current=true]")
        page.goto(f"{base}/timing/attempt/index.html?version=1")
        assert page.url == f"{base}/timing/attempt/~version=1/index.html"
        # The calculator, from the server's address of a step with its inputs.
        page.goto(f"{base}/timing/attempt/index.html?version=2&step=1&personnel=5&overcome=1")
        # Its inputs kept in the address, the folder's own (no "index.html": fix18b, shared clean).
        assert page.url == f"{base}/timing/attempt/~step=1,version=2/?personnel=5&overcome=1"
        wait_until(page, "!!document.querySelector('[data-calc=drawn]')")
        assert page.inner_text("[data-calc=drawn]") == "4"
        # Search: the page from its address, live results as the judge types, the script API.
        page.goto(f"{base}/search/index.html?q=dilemma+wrong+type")
        wait_until(page, "!!document.querySelector('#search-results .result')")
        # The entry first, the timing step quoting it just below (as the server ranks them).
        assert page.inner_text("#search-results .result-title") == "Order – Attempt a Mission"
        # "Did you mean" only where the correction changes the answer ("acess denied" finds
        # Access Denied by "denied" alone; "acess" finds nothing as typed).
        page.fill("#q", "acess")
        wait_until(page, "!!document.querySelector('#search-results .did-you-mean')")
        assert page.inner_text("#search-results .did-you-mean") == "Did you mean access?"
        answer = page.evaluate("window.judgekit.search('count personnel', {all_versions: '1'})")
        assert [(r["version"], r["id"]) for r in answer["results"]] == [
            ("1", "attempting"),
            ("1", "attempt.count"),
            ("2", "attempting"),
            ("1", "attempt.fail"),
        ]
        assert off == []


def test_offline_page_not_in_the_pack_leads_back_into_it(browser, tmp_path, corpus_copy):
    """Offline, a mistyped address answers a page of the pack's own (not the browser's offline
    error), with links to the pack's home and search that work offline."""
    result = _build(corpus_copy, tmp_path / "site", datetime(2026, 11, 23, 7, 0, tzinfo=UTC))
    phone = {"width": 360, "height": 740}
    with static_server(result.out) as base, guarded_context(browser, phone) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{base}/index.html")
        _wait_stored(page, result.version["id"])
        ctx.set_offline(True)
        response = page.goto(f"{base}/rules/demo-rulebook/9/no-such-entry/")
        assert response.status == 404
        assert "not in the judge pack stored on this device" in page.inner_text("main")
        # Styled as the pack's pages are: its stylesheet is one the pack stores (offline).
        assert (
            page.evaluate("[...document.styleSheets].reduce((n, s) => n + s.cssRules.length, 0)")
            > 100
        )
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.click("text=search the rules")
        assert page.url == f"{base}/search/index.html"
        page.go_back()
        page.click("text=the pack's home page")
        assert page.url == f"{base}/index.html"
        # The address changes before the page is read: wait for its heading (a loaded machine).
        page.wait_for_selector("main h1")
        assert page.locator("main h1").count() == 1
        assert off == []


def test_pack_reads_from_a_folder(browser, tmp_path, corpus_copy):
    result = _build(corpus_copy, tmp_path / "site", datetime(2026, 11, 23, 7, 0, tzinfo=UTC))
    with guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        page.goto(result.out.joinpath("index.html").as_uri())
        # Each click navigates: wait for the page it opens (read too soon, main is the last one's).
        with page.expect_navigation():
            page.click("a[href='rules/demo-rulebook/2/index.html']")
        assert "Order – Attempt a Mission" in page.inner_text("main")
        with page.expect_navigation():
            page.click("a[href='attempting/index.html']")
        page.wait_for_url("**/attempting/index.html")
        assert "count them." in page.inner_text("main")
        page.goto(result.out.joinpath("timing/attempt/index.html").as_uri() + "?version=1&step=2")
        assert page.url.endswith("/timing/attempt/~step=2,version=1/index.html")
        page.goto(result.out.joinpath("search/index.html").as_uri() + "?q=access")
        wait_until(page, "!!document.querySelector('#search-results .result')")
        assert page.inner_text("#search-results .result-title") == "Access Denied"
        assert off == []


def test_newer_pack_updates_an_installed_one(browser, tmp_path, corpus_copy):
    out = tmp_path / "site"
    first = _build(corpus_copy, out, datetime(2026, 11, 23, 7, 0, tzinfo=UTC))
    with static_server(out) as base, guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{base}/rules/demo-rulebook/2/attempting/index.html")
        _wait_stored(page, first.version["id"])

        rules = corpus_copy / "rules" / "demo-rulebook" / "2.yaml"
        text = rules.read_text(encoding="utf-8")
        rules.write_text(text.replace("count them.", "count them twice."), encoding="utf-8")
        second = _build(corpus_copy, out, datetime(2026, 11, 24, 7, 0, tzinfo=UTC))
        assert second.version["id"] != first.version["id"]

        page.goto(f"{base}/rules/demo-rulebook/2/attempting/index.html")
        _wait_stored(page, second.version["id"])
        wait_until(page, "!!document.querySelector('.pack-notice')", timeout=10)
        # Only the version whose text changed is named.
        assert page.inner_text(".pack-notice") == (
            "rules updated: pack of 2026-11-24 (Demo Rulebook v2) Reload"
        )
        ctx.set_offline(True)
        page.goto(f"{base}/rules/demo-rulebook/2/attempting/index.html")
        assert "count them twice." in page.inner_text("main")
        assert off == []
