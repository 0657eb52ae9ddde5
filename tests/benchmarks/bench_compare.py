"""Benchmark version comparisons on the real corpus: first build per pair, warm, pages, history.

Run: .venv/bin/python tests/benchmarks/bench_compare.py   (figures go in BENCHMARKS.md)

"First build" is the computation a comparison needs once per pair, from a Library whose entries
are already rendered (the reading pages and the search index render them at start-up): pairing
(``diff.compare``), sentence alignment, and the JSON the page and the API share. "Cold" adds the
Markdown rendering of the two versions' entries, for a Library nothing has used yet. "Warm" is
the same call again, served from the Library's memo. Page and API times are through the Flask
test client, with whatever response cache the app has (warm: served from memory).
"""

from __future__ import annotations

import itertools
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judgekit import create_app  # noqa: E402
from judgekit.checks.loader import default_root, load_corpus  # noqa: E402
from judgekit.compare import align, diff, worddiff  # noqa: E402
from judgekit.compare.history import tributaries  # noqa: E402
from judgekit.render.library import Library  # noqa: E402
from judgekit.shapes.compare import build_all, comparison_dict  # noqa: E402
from judgekit.shapes.history import history_dict  # noqa: E402

BOOK = "2e-rulebook"
VERSIONS = ("1.1", "call-to-arms", "4")
PAIRS = [(a, b) for a, b in itertools.permutations(VERSIONS, 2)]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def clear_word_caches() -> None:
    """Forget the word diffs kept across comparisons, so a first build starts from nothing."""
    worddiff._tokenize.cache_clear()
    worddiff._diff_html.cache_clear()
    worddiff.normalize_typography.cache_clear()


def build(lib: Library, old: str, new: str, clock=time.perf_counter) -> tuple[float, ...]:
    """Seconds to pair, align and shape (hidden, then shown typography) one pair, first time."""
    a, b = lib.corpus.version(BOOK, old), lib.corpus.version(BOOK, new)
    t0 = clock()
    comparison = diff.compare(lib, a, b)
    t1 = clock()
    align.alignment(lib, comparison)
    t2 = clock()
    comparison_dict(lib, comparison, False)
    t3 = clock()
    comparison_dict(lib, comparison, True)
    t4 = clock()
    return t1 - t0, t2 - t1, t3 - t2, t4 - t3


def rendered_library(corpus) -> Library:
    """A fresh Library whose entries are rendered (as after start-up), nothing compared yet."""
    lib = Library(corpus)
    for version in corpus.versions():
        for entry in version.walk():
            lib.plain(entry)
    clear_word_caches()
    return lib


def main() -> None:
    corpus = load_corpus(default_root())
    for label, clock in (("wall", time.perf_counter), ("CPU", time.process_time)):
        print(
            f"First build per pair, {label} time, best of 3 (entries rendered; word caches empty):"
        )
        print("  pair / align / JSON (the page and API default) | JSON with typography shown")
        totals = []
        for old, new in PAIRS:
            runs = [build(rendered_library(corpus), old, new, clock) for _ in range(3)]
            best = min(runs, key=lambda r: sum(r[:3]))
            totals.append(sum(best[:3]))
            parts = " /".join(ms(x) for x in best[:3])
            print(f"  {old:>12} -> {new:<12} {ms(sum(best[:3]))}  ({parts} | {ms(best[3])})")
        print(f"  slowest pair {ms(max(totals))}, median {ms(statistics.median(totals))}")

    print("Every pair in one Library, as the warm-up builds them (build_all, both typographies):")
    for label, clock in (("wall", time.perf_counter), ("CPU", time.process_time)):
        lib = rendered_library(corpus)
        t = clock()
        count = build_all(lib)
        total = clock() - t
        print(f"  {label:>4}: {count} comparisons in {ms(total)}, {ms(total / count)} each")

    print("Cold (a Library nothing has used: Markdown rendering of both versions included):")
    for old, new in (("call-to-arms", "4"), ("1.1", "4")):
        lib = Library(corpus)
        clear_word_caches()
        t = time.perf_counter()
        build(lib, old, new)
        print(f"  {old:>12} -> {new:<12} {ms(time.perf_counter() - t)}")

    lib = rendered_library(corpus)
    for old, new in PAIRS:
        build(lib, old, new)
    print("Warm (memoized comparison JSON, per call):")
    a, b = lib.corpus.version(BOOK, "call-to-arms"), lib.corpus.version(BOOK, "4")
    n = 1000
    t = time.perf_counter()
    for _ in range(n):
        comparison_dict(lib, diff.compare(lib, a, b), False)
    print(f"  call-to-arms -> 4     {ms((time.perf_counter() - t) / n)}")

    print("History of 4 'moving-a-ship' (follows three merged entries):")
    doc = lib.corpus.document(BOOK)
    lib = rendered_library(corpus)
    t = time.perf_counter()
    steps = diff.history(lib, BOOK, "moving-a-ship")
    tributaries(lib, BOOK, steps)
    history_dict(lib, doc, "moving-a-ship", steps, False)
    print(f"  first {ms(time.perf_counter() - t)}")
    t = time.perf_counter()
    for _ in range(n):
        history_dict(lib, doc, "moving-a-ship", diff.history(lib, BOOK, "moving-a-ship"))
    print(f"  warm  {ms((time.perf_counter() - t) / n)}")

    print(
        "Through Flask (test client, the app's response cache if it has one): first, then median of 20:"
    )
    app = create_app({"TESTING": True})
    client = app.test_client()
    for url in (
        f"/diff/{BOOK}/call-to-arms..4",
        f"/api/diff/{BOOK}/call-to-arms/4",
        f"/diff/{BOOK}/1.1..4?view=side",
        f"/history/{BOOK}/moving-a-ship",
    ):
        t = time.perf_counter()
        response = client.get(url)
        first = time.perf_counter() - t
        times = []
        for _ in range(20):
            t = time.perf_counter()
            client.get(url)
            times.append(time.perf_counter() - t)
        size = len(response.data) // 1024
        print(
            f"  {url:<42} {response.status_code} {size:4d} KB  first {ms(first)}  warm {ms(statistics.median(times))}"
        )


if __name__ == "__main__":
    main()
