"""Try the judge pack as one self-contained HTML file, for devices that cannot unzip (issue #28).

A prototype, not shipped: it writes every text file of a built pack into one HTML file
(gzipped, base64) with a loader (single_file_loader.js) that shows each page in an iframe from
those files; then it opens the file from file:// in headless Chromium at a phone viewport and
tries what a judge does: open the home page, read a rule, search (the search page and the
header's box), step through a timing sequence and calculate. It prints the file's size and each
result. The figures and the decision are in BENCHMARKS.md.

Run: .venv/bin/python tests/benchmarks/bench_single_file.py [--pack DIR] [--out FILE]
     (without --pack it builds the built-in corpus's pack into a temporary folder first)
"""

from __future__ import annotations

import argparse
import base64
import gzip
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.conftest import CHROMIUM_ARGS  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
CPU_SLOWDOWN = 4
LOADER = Path(__file__).with_name("single_file_loader.js")
# What a page of the pack needs and a file has no use for: the service worker and installing.
LEFT_OUT = ("sw.js", "manifest.webmanifest", ".nojekyll")


def single_file(pack: Path, out: Path) -> dict:
    """Write the pack's text files into one HTML file; what was written and left out."""
    files, binary = {}, []
    for path in sorted(p for p in pack.rglob("*") if p.is_file()):
        name = path.relative_to(pack).as_posix()
        if name in LEFT_OUT:
            continue
        try:
            files[name] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            binary.append(name)  # icons: a page shows without them
    packed = gzip.compress(json.dumps(files, ensure_ascii=False).encode("utf-8"), 9, mtime=0)
    html = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>judgekit</title><style>html,body{margin:0;height:100%}"
        "iframe{display:block;border:0;width:100%;height:100%}</style></head><body>"
        '<p id="jk-loading">Opening the rules…</p>'
        "<noscript>This file needs JavaScript.</noscript>"
        '<script id="jk-files" type="application/octet-stream">'
        + base64.b64encode(packed).decode("ascii")
        + "</script><script>"
        + LOADER.read_text(encoding="utf-8")
        + "</script></body></html>\n"
    )
    out.write_text(html, encoding="utf-8")
    return {
        "files": len(files),
        "left_out": len(binary) + len(LEFT_OUT),
        "text_bytes": sum(len(t.encode()) for t in files.values()),
        "gzip_bytes": len(packed),
        "html_bytes": out.stat().st_size,
    }


def _inner(page):
    return page.frame_locator("iframe")


# The page shown is in an iframe written by the loader (no navigation: Playwright lists no frame
# for it), so expressions are evaluated in its window from the outer page.
IN_FRAME = """expression => {
  const frame = document.querySelector("iframe");
  return frame ? frame.contentWindow.eval(expression) : null;
}"""


def _in_frame(page, expression: str):
    return page.evaluate(IN_FRAME, expression)


def _wait(page, expression: str, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if _in_frame(page, expression):
                return True
        except Exception:  # noqa: BLE001 -- the frame is being replaced
            pass
        time.sleep(0.1)
    return False


class _Said(dict):
    """The results, each printed as it comes (a long try shows where it is)."""

    def __setitem__(self, key, value) -> None:
        print(f"  {key}: {value}", flush=True)
        super().__setitem__(key, value)


def try_in_chromium(html: Path) -> dict:
    """Open the file as a phone would and try each thing a judge does; True where it worked."""
    from playwright.sync_api import sync_playwright

    results: dict = _Said()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        context.route("http*://**/*", lambda route: route.abort())  # nothing leaves the file
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        # A phone's slower CPU, as the pack's benchmark does (bench_pack.py: Lighthouse's 4x).
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        start = time.monotonic()
        page.goto(html.as_uri())
        results["home"] = _wait(
            page,
            "document.baseURI === 'https://judgekit.pack/' && !!document.querySelector('main')",
        )
        results["opened_s"] = round(time.monotonic() - start, 2)
        cdp.send("HeapProfiler.collectGarbage")
        results["js_heap_mb"] = round(cdp.send("Runtime.getHeapUsage")["usedSize"] / 1e6, 1)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        # Read a rule: a link from the home page to a version, then to an entry.
        _inner(page).locator('a[href*="rules/2e-rulebook/4/"]').first.click()
        results["version_page"] = _wait(
            page, "document.baseURI.startsWith('https://judgekit.pack/rules/2e-rulebook/4/')"
        )
        page.goto(html.as_uri() + "#!rules/2e-rulebook/4/beaming/")
        results["rule"] = _wait(
            page,
            "document.body.innerText.includes('Beaming') || document.body.innerText.includes('beam')",
        )
        # Search: the search page with a question in its address, then the header's box.
        page.goto(html.as_uri() + "#!search/?q=beam")
        page.reload()
        results["search_page"] = _wait(
            page, "document.querySelectorAll('.search-results .result-title').length > 0"
        )
        page.goto(html.as_uri() + "#!rules/2e-rulebook/4/")
        page.reload()
        _wait(page, "!!document.querySelector('#q')")
        _inner(page).locator("#q").press_sequentially("battle", delay=30)
        results["header_search"] = _wait(page, "!!document.querySelector('#q-suggest a')")
        # Step through a timing sequence, go Back a step, then calculate.
        page.goto(html.as_uri() + "#!timing/mission-attempt/")
        page.reload()
        results["stepper"] = _wait(page, "!!document.querySelector('#tm-step-heading')")
        heading = "document.querySelector('#tm-step-heading').innerText"
        before = _in_frame(page, heading)
        _inner(page).locator("a[rel=next], .tm-next a, a.tm-next").first.click()
        moved = f"document.querySelector('#tm-step-heading').innerText !== {json.dumps(before)}"
        results["step_next"] = _wait(page, moved)
        page.evaluate("history.back()")
        results["back"] = _wait(page, f"!({moved})", 10)
        page.goto(html.as_uri() + "#!timing/mission-attempt/~step=1,version=4/")
        page.reload()
        frame = _inner(page)
        _wait(page, "!!document.querySelector('.tm-calc-form')")
        frame.locator("input[name=personnel]").fill("6")
        frame.locator("select[name=mission]").select_option("planet")
        frame.locator("input[name=dilemmas]").fill("planet:3, space:1, planet:2")
        frame.locator(".tm-calc-form button[type=submit]").click()
        results["calculate"] = _wait(page, "!!document.querySelector('.tm-calc-result')", 10)
        context.close()
        # Without JavaScript (a file previewed rather than opened in a browser) nothing shows.
        context = browser.new_context(viewport=PHONE, java_script_enabled=False)
        page = context.new_page()
        page.goto(html.as_uri())
        results["without_javascript"] = page.inner_text("body").strip()
        results["errors"] = errors[:5]
        browser.close()
    return results


def main(argv: list[str] | None = None) -> int:
    """Build (or take) a pack, write it as one file, try it, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pack", type=Path, help="a pack built by judgekit build")
    parser.add_argument("--out", type=Path, help="where to write the HTML file")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temp:
        pack = args.pack
        if pack is None:
            from judgekit.pack.build import build, pack_app

            pack = Path(temp) / "pack"
            build(pack_app(None, "https://judges.example/judgekit"), pack)
        out = args.out or Path(temp) / "judgekit.html"
        started = time.monotonic()
        figures = single_file(pack, out)
        figures["written_s"] = round(time.monotonic() - started, 1)
        print(json.dumps(figures))
        print(json.dumps(try_in_chromium(out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
