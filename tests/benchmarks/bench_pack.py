"""Benchmark the judge pack's first visit on a phone over a slow network (issue #16: the first
page interactive within 2 s while the rest is stored in the background).

Builds the pack of the real corpus, serves the folder with a plain static file server on
127.0.0.1 and opens it in headless Chromium at a phone viewport, every run in a fresh context
(empty HTTP cache, no service worker yet), with Chrome DevTools' network profiles applied through
a CDP session (``Network.emulateNetworkConditions``) and the CPU slowed 4x
(``Emulation.setCPUThrottlingRate``, as Lighthouse's mobile runs).

What is measured, from the navigation's start (``performance.now()`` in the page):
- first paint and first contentful paint (the Paint Timing entries);
- DOMContentLoaded (its end: every deferred script has run);
- interactive: for a reading page (home, entry) the moment both the content is painted and the
  deferred scripts have run (the search box's live results, the popovers and the theme toggle
  answer from then on), that is max(first contentful paint, DOMContentLoaded end); for the
  search page, the moment the results of a query typed into the search box are on the screen
  (the judge types as soon as the page's scripts run: the box focused and the keys sent through
  CDP's input at once, no Playwright selector engine compiled in the slowed page first; the
  way before 2026-11-23 16:30 UTC is --typed-by-selector): their titles, places and versions, which
  the judge taps; since the index comes in two files (pack/search.py: split) the snippets may
  follow, and "whole" is the moment they are in too (the results no longer aria-busy);
- stored: how long the service worker takes to store the whole pack in the background (the
  page is told when it is done), measured on the home page's visit.

CDP's network emulation is per target: it slows the page's requests, not the service worker's
(a target of its own). So that the background store competes for the same slow link as on a
phone, the server slows the worker's requests (``Sec-Fetch-Dest: empty``: the pages make none
on a first visit) with the same profile: one shared link (a token bucket for the download
throughput, the profile's latency per request).

Run: .venv/bin/python tests/benchmarks/bench_pack.py [--runs 5] [--store-runs 3]
     [--profiles slow4g,3g] [--pages home,entry,search] [--pack DIR] [--typed-by-selector]
     (the figures go in BENCHMARKS.md)
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from http.server import SimpleHTTPRequestHandler
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judgekit.pack.build import build, pack_app  # noqa: E402
from tests.conftest import CHROMIUM_ARGS  # noqa: E402
from tests.test_pack_browser import static_server as serve_folder  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = CHROMIUM_ARGS
PHONE = {"width": 390, "height": 844}
CPU_SLOWDOWN = 4
GOAL_MS = 2000


@dataclass(frozen=True)
class Profile:
    """A Chrome DevTools network profile (front_end/core/sdk/NetworkManager.ts)."""

    name: str
    latency_ms: float
    down: float  # bytes per second
    up: float

    def describe(self) -> str:
        """The profile's figures, as the output states them."""
        return (
            f"{self.name}: {self.latency_ms:g} ms latency, "
            f"{self.down * 8 / 1000:.0f} kbit/s down, {self.up * 8 / 1000:.0f} kbit/s up"
        )


PROFILES = {
    # DevTools' "Slow 4G" (called "Fast 3G" before Chrome 121), Lighthouse's mobile network.
    "slow4g": Profile("Slow 4G", 150 * 3.75, 1.6e6 / 8 * 0.9, 750e3 / 8 * 0.9),
    # DevTools' "3G" (called "Slow 3G" before Chrome 121).
    "3g": Profile("3G", 400 * 5, 500e3 / 8 * 0.8, 500e3 / 8 * 0.8),
}


class Link:
    """One slow link shared by every request it carries: latency per request, one bandwidth."""

    def __init__(self, profile: Profile | None) -> None:
        self.profile = profile
        self.lock = threading.Lock()
        self.free_at = 0.0

    def send(self, write, data: bytes) -> None:
        """Write ``data`` after the latency, no faster than the link's download throughput."""
        if self.profile is None:
            write(data)
            return
        time.sleep(self.profile.latency_ms / 1000)
        chunk = 16 * 1024
        for start in range(0, len(data), chunk):
            part = data[start : start + chunk]
            with self.lock:
                now = time.monotonic()
                self.free_at = max(self.free_at, now) + len(part) / self.profile.down
                wait = self.free_at - now
            time.sleep(max(0.0, wait))
            write(part)


COMPRESSED = (".html", ".js", ".css", ".json", ".svg", ".webmanifest")  # as Pages does


class _Handler(SimpleHTTPRequestHandler):
    link: Link
    gzip: bool

    def log_message(self, format, *args):  # noqa: A002 -- the base class's name
        pass

    def send_head(self):
        """As a static host (GitHub Pages) does: text files gzip-compressed when asked."""
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"
        wanted = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (self.gzip and wanted and path.is_file() and path.suffix in COMPRESSED):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def copyfile(self, source, outputfile):
        """The service worker's requests go over the shared slow link; the page's are slowed
        by Chromium (CDP)."""
        data = source.read()
        with contextlib.suppress(ConnectionError):
            if self.headers.get("Sec-Fetch-Dest") == "empty":
                self.link.send(outputfile.write, data)
            else:
                outputfile.write(data)


@contextlib.contextmanager
def static_server(folder: Path, link: Link, compress: bool) -> Iterator[str]:
    """A plain static file server on a free loopback port, through the link, gzip if asked."""
    kind = type("H", (_Handler,), {"link": link, "gzip": compress})
    with serve_folder(folder, kind) as base:
        yield base


# Recorded in the page from its first script on: when the results of a typed query show.
WATCH = """
(() => {
  const seen = () => {
    const box = document.querySelector('#search-results .result');
    if (box && window.__jkTyped && !window.__jkResultsAt) window.__jkResultsAt = performance.now();
    const whole = document.querySelector('#search-results .search-results:not([aria-busy]) .result');
    if (whole && window.__jkTyped && !window.__jkWholeAt) window.__jkWholeAt = performance.now();
  };
  new MutationObserver(seen).observe(document, {subtree: true, childList: true});
})();
"""

TIMES = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const paint = Object.fromEntries(performance.getEntriesByType('paint').map(e => [e.name, e.startTime]));
  return {fp: paint['first-paint'], fcp: paint['first-contentful-paint'],
          dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd};
}"""


def _throttle(page, profile: Profile) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": profile.latency_ms,
            "downloadThroughput": profile.down,
            "uploadThroughput": profile.up,
        },
    )
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})


def _context(browser):
    return browser.new_context(
        viewport=PHONE, device_scale_factor=3, is_mobile=True, has_touch=True
    )


def _poll(page, expression: str, timeout: float = 120.0) -> None:
    """Wait until ``expression`` is true in the page, by plain evaluations from here (bounded):
    Playwright's wait_for_function would first compile its own script in the slowed page."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise TimeoutError(f"still false after {timeout} s: {expression}")
        time.sleep(0.02)


def _type_at_once(page, query: str) -> None:
    """Type as soon as the page's scripts have run: the box focused and the keys sent straight
    through the browser's input (CDP), as a judge's tap and keys arrive. No selector is
    resolved: Playwright's selector engine is a script of its own, compiled in the page the
    first time (about 0.2 s under the 4x slowdown, twice), which a judge's phone never runs."""
    page.evaluate("() => { window.__jkTyped = true; document.getElementById('q').focus(); }")
    page.keyboard.type(query)


def _type_by_selector(page, query: str) -> None:
    """Type as the benchmark did until 2026-11-23 16:30 UTC (--typed-by-selector): after the
    first paint is awaited with wait_for_function, through page.type("#q"); the figures then
    include Playwright's own scripts compiled in the slowed page."""
    page.wait_for_function("performance.getEntriesByType('paint').length > 1", timeout=60_000)
    page.evaluate("() => { window.__jkTyped = true; }")
    page.type("#q", query)


def visit(
    browser, url: str, profile: Profile, query: str | None, store: bool, by_selector: bool = False
) -> dict:
    """One first visit: its times in ms (``stored`` too when asked)."""
    context = _context(browser)
    try:
        page = context.new_page()
        page.add_init_script(WATCH)
        _throttle(page, profile)
        page.goto(url, wait_until="domcontentloaded", timeout=120_000)
        if query is not None:
            (_type_by_selector if by_selector else _type_at_once)(page, query)
            _poll(page, "!!window.__jkResultsAt")
            _poll(page, "!!window.__jkWholeAt")
        _poll(page, "performance.getEntriesByType('paint').length > 1", 60)
        times = page.evaluate(TIMES)
        times["interactive"] = max(times["fcp"], times["dcl"])
        if query is not None:
            times["interactive"] = page.evaluate("window.__jkResultsAt")
            times["whole"] = page.evaluate("window.__jkWholeAt")
        if store:
            page.wait_for_function(
                "window.judgekit && judgekit.pack && judgekit.pack.storedId",
                timeout=900_000,
                polling=200,
            )
            times["stored"] = page.evaluate("performance.now()")
        return times
    finally:
        context.close()


PAGES = [
    ("home", "index.html", None),
    ("entry", "rules/2e-rulebook/4/attempting-a-mission/index.html", None),
    ("search", "search/index.html", "mulligan"),
]


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):7.0f}" if values else "      -"


def run(
    pack: Path,
    profiles: list[Profile],
    runs: int,
    store_runs: int,
    compress: bool,
    shape_worker: bool,
    pages: tuple[str, ...] = tuple(name for name, _, _ in PAGES),
    by_selector: bool = False,
) -> None:
    """Every page (of ``pages``) under every profile, ``runs`` times; the store ``store_runs`` times."""
    from playwright.sync_api import sync_playwright

    size = sum(p.stat().st_size for p in pack.rglob("*") if p.is_file())
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, load average {os.getloadavg()[0]:.2f}, "
        f"{os.cpu_count()} cores; pack {size / 1e6:.1f} MB; phone {PHONE['width']}x"
        f"{PHONE['height']}, CPU {CPU_SLOWDOWN}x slower; {runs} runs, medians in ms; "
        f"{'gzip on the wire (as GitHub Pages)' if compress else 'no compression'}; "
        f"typed {'by selector (page.type)' if by_selector else 'at once (keys through CDP)'}"
    )
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        for profile in profiles:
            print(f"\n{profile.describe()}")
            print(f"{'page':8} {'paint':>7} {'FCP':>7} {'DCL':>7} {'usable':>7}  goal 2000  whole")
            link = Link(profile if shape_worker else None)
            with static_server(pack, link, compress) as base:
                for name, path, query in (p for p in PAGES if p[0] in pages):
                    rows = [
                        visit(browser, f"{base}/{path}", profile, query, False, by_selector)
                        for _ in range(runs)
                    ]
                    usable = statistics.median(r["interactive"] for r in rows)
                    print(
                        f"{name:8} {_median([r['fp'] for r in rows])} "
                        f"{_median([r['fcp'] for r in rows])} {_median([r['dcl'] for r in rows])} "
                        f"{usable:7.0f}  {'met    ' if usable <= GOAL_MS else 'NOT met'}  "
                        f"{_median([r['whole'] for r in rows if 'whole' in r])}"
                    )
                stored = [
                    visit(browser, f"{base}/index.html", profile, None, True)["stored"]
                    for _ in range(store_runs)
                ]
                if stored:
                    print(
                        f"whole pack stored by the service worker: median "
                        f"{statistics.median(stored) / 1000:.1f} s ({store_runs} runs)"
                    )
        browser.close()


def main() -> None:
    """Build the pack (unless given one) and measure."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--store-runs", type=int, default=3)
    parser.add_argument("--profiles", default="slow4g,3g")
    parser.add_argument("--pack", help="a pack already built (else the real corpus is built)")
    parser.add_argument("--pages", default="home,entry,search", help="which pages to open")
    parser.add_argument("--no-gzip", action="store_true", help="serve files uncompressed")
    parser.add_argument(
        "--shape-worker",
        action="store_true",
        help="also slow the service worker's requests at the server (if CDP does not)",
    )
    parser.add_argument(
        "--typed-by-selector",
        action="store_true",
        help="type as before 2026-11-23 16:30 (page.type: Playwright's scripts in the page)",
    )
    args = parser.parse_args()
    profiles = [PROFILES[p] for p in args.profiles.split(",")]

    def measure(folder: Path) -> None:
        pages = tuple(args.pages.split(","))
        run(
            folder,
            profiles,
            args.runs,
            args.store_runs,
            not args.no_gzip,
            args.shape_worker,
            pages,
            args.typed_by_selector,
        )

    if args.pack:
        measure(Path(args.pack))
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "site"
        build(pack_app(), out)
        measure(out)


if __name__ == "__main__":
    main()
