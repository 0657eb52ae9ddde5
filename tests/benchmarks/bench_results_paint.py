"""Benchmark drawing a search answer on a phone profile: results past the fourth left unlaid-out
by a rule of search.css (``.results > .result:nth-child(n+5)``, session 16) against the same
property set by search.js on each result after the list is written (before).

Both ways in one run, in turns: the server's results for a few questions (20 results each, by
words) are drawn into an empty results region of a page carrying the app's CSS, in headless
Chromium at a phone's viewport (360x740) with the CPU slowed 4x (as bench_pack_meaning.py). Each
drawing is timed in the page from writing the list until the frame that shows it is drawn (style,
layout and paint done: timed at the next task after the frame). "css": the list written, each
result given its role (search.js today); "js": the rule taken out of the CSS, the list written,
each result given its role and the property (search.js before); "none": neither (every result
laid out at once, for scale). Medians over every drawing of a way, and the ratio.

Run: .venv/bin/python tests/benchmarks/bench_results_paint.py [--runs 6] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from judgekit import create_app  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.test_pack_browser import static_server  # noqa: E402

WAYS = ("css", "js", "none")
QUESTIONS = ["dilemma", "beam personnel to a planet", "battle", "mission attempt stopped"]
RULE = re.compile(r"\.results > \.result:nth-child\(n\+5\) \{[^}]*\}")
PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="judgekit.css"><link rel="stylesheet" href="{css}">
</head><body><main id="content"><div id="search-results"></div></main>
<script>
const LISTS = {lists};
const WAY = "{way}";
function render(html) {{
  const target = document.getElementById("search-results");
  target.innerHTML = html;
  target.querySelectorAll(".result").forEach(function (li, i) {{
    li.setAttribute("role", "option");
    if (WAY === "js" && i >= 4) {{ li.style.contentVisibility = "auto"; li.style.containIntrinsicSize = "auto 9rem"; }}
  }});
}}
window.draw = (i) => new Promise((done) => {{
  document.getElementById("search-results").innerHTML = "";
  requestAnimationFrame(() => setTimeout(() => {{
    const start = performance.now();
    render(LISTS[i]);
    requestAnimationFrame(() => setTimeout(() => done(performance.now() - start), 0));
  }}, 0));
}});
</script></body></html>"""


def write_pages(folder: Path) -> None:
    """The two pages, the app's CSS (search.css with and without the rule) and the answers."""
    app = create_app({"TESTING": True, "SEARCH_MEANING": "off"})
    client = app.test_client()
    static = ROOT / "judgekit" / "static" / "css"
    css = (static / "search.css").read_text(encoding="utf-8")
    assert RULE.search(css), "search.css has no rule for results past the fourth"
    (folder / "judgekit.css").write_text((static / "judgekit.css").read_text(encoding="utf-8"))
    (folder / "search-css.css").write_text(css, encoding="utf-8")
    (folder / "search-js.css").write_text(RULE.sub("", css), encoding="utf-8")
    (folder / "search-none.css").write_text(RULE.sub("", css), encoding="utf-8")
    lists = [
        client.get("/search/results", query_string={"q": q}).get_data(as_text=True)
        for q in QUESTIONS
    ]
    assert all(html.count('class="result ') >= 20 for html in lists), "fewer than 20 results"
    for way in WAYS:
        page = PAGE.format(css=f"search-{way}.css", lists=json.dumps(lists), way=way)
        (folder / f"{way}.html").write_text(page, encoding="utf-8")


def run(runs: int, repeat: int) -> dict[str, list[float]]:
    """Each way's drawing times (ms), in turns: css, js, none, then none, js, css, and so on."""
    times: dict[str, list[float]] = {way: [] for way in WAYS}
    with tempfile.TemporaryDirectory(prefix="judgekit-paint-") as tmp:
        folder = Path(tmp)
        write_pages(folder)
        with static_server(folder) as base, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for n in range(runs):
                for way in WAYS if n % 2 == 0 else tuple(reversed(WAYS)):
                    context = browser.new_context(
                        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
                    )
                    page = context.new_page()
                    page.goto(f"{base}/{way}.html")
                    cdp = context.new_cdp_session(page)
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
                    page.evaluate("window.draw(0)")  # warm: fonts, styles
                    for _ in range(repeat):
                        for i in range(len(QUESTIONS)):
                            times[way].append(page.evaluate("(i) => window.draw(i)", i))
                    context.close()
            browser.close()
    return times


def main() -> None:
    """Print each way's median and maximum, and the ratio of the medians."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()[0]:.1f}")
    times = run(args.runs, args.repeat)
    for way, label in (
        ("js", "before: set by search.js"),
        ("css", "after: search.css"),
        ("none", "neither (all laid out)"),
    ):
        t = times[way]
        print(f"{label:26} median {statistics.median(t):6.1f} ms  max {max(t):6.1f} ms  n={len(t)}")
    ratio = statistics.median(times["css"]) / statistics.median(times["js"])
    print(f"after / before (medians): {ratio:.2f}")
    print(f"load after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
