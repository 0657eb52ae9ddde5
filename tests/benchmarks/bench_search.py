"""Benchmark search: index build, cold start to first answer, and query latency (p50/p95).

Run: .venv/bin/python tests/benchmarks/bench_search.py   (figures go in BENCHMARKS.md)
"""

from __future__ import annotations

import dataclasses
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judgekit import create_app  # noqa: E402
from judgekit.corpus.loader import load_corpus  # noqa: E402
from judgekit.render.library import Library  # noqa: E402
from judgekit.search.cache import load_or_build  # noqa: E402
from judgekit.search.documents import build_ram  # noqa: E402
from judgekit.search.service import SearchService, entry_docs, timing_source  # noqa: E402

# The fixed query set: judges' questions, single terms, words being typed, misspellings,
# phrases, filters and junk. Each is a dict of /api/search parameters.
QUERIES = [
    {"q": q}
    for q in [
        "how many dilemmas does my opponent draw",
        "can I respond during a dilemma",
        "what happens when all my personnel are stopped",
        "commandeer a ship",
        "comandeer",
        "dilema",
        "dilemma",
        "d",
        "di",
        "dil",
        "dile",
        "attempting missions",
        "attempting miss",
        "beam",
        "beam personnel",
        '"dilemma stack"',
        '"beam personnel" ship',
        "range",
        "staffing requirements",
        "who wins a combat between personnel",
        "third damage card on a ship",
        "can I use the skills of a personnel in a brig",
        "what does the dot before a card title mean",
        "how do I win the game",
        "timing sequence for playing a card",
        "interrupts during a mission attempt",
        "is an exocomp an android",
        "once per turn limit with several copies in play",
        "Borg",
        "the",
        "xyzzy plugh",
        '"unbalanced quote',
        "AND OR NOT title:beam",
        "🖖 dilemma",
        "stopped personnel unstopped at end of turn",
        "opponent reveals two copies of the same dilemma",
        "headquarters mission play personnel",
    ]
] + [
    {"q": "dilemma", "version": "1.1"},
    {"q": "stopped", "kind": "glossary"},
    {"q": "personnel", "edition": "1E"},
    {"q": "beam", "all_versions": "1"},
    {"q": "mission", "limit": "100"},
]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def latency(run, rounds: int = 10) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of each query (CPU time shows the cost without other load)."""
    for params in QUERIES:  # warm-up: thread searcher, stem caches
        run(params)
    wall, cpu = [], []
    for _ in range(rounds):
        for params in QUERIES:
            start, start_cpu = time.perf_counter(), time.thread_time()
            run(params)
            wall.append(time.perf_counter() - start)
            cpu.append(time.thread_time() - start_cpu)
    return wall, cpu


def report(name: str, times: tuple[list[float], list[float]]) -> None:
    wall, cpu = times
    print(
        f"{name}: n={len(wall)} p50 {ms(statistics.median(wall))}, "
        f"p95 {ms(percentile(wall, 95))}, max {ms(max(wall))}; CPU time p50 "
        f"{ms(statistics.median(cpu))}, p95 {ms(percentile(cpu, 95))}"
    )


COLD = """
import time, sys
start = time.perf_counter()
sys.path.insert(0, {root!r})
from judgekit import create_app
app = create_app({{"SEARCH_CACHE_DIR": {cache!r}}})
answer = app.test_client().get("/api/search?q=how+many+dilemmas+do+I+draw").get_json()
assert answer["results"], answer
print(time.perf_counter() - start, app.extensions["judgekit"]["search"].how)
"""


def cold_start(cache: str, runs: int = 5) -> None:
    """A new Python process: import, load the corpus, open the index, answer one query."""
    inside, outside, hows = [], [], set()
    for _ in range(runs):
        start = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", COLD.format(root=str(ROOT), cache=cache)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        )
        outside.append(time.perf_counter() - start)
        seconds, how = out.stdout.split()
        inside.append(float(seconds))
        hows.add(how)
    print(
        f"cold start, cache {'/'.join(sorted(hows))}: import to first answer median "
        f"{ms(statistics.median(inside))} (max {ms(max(inside))}); whole process "
        f"median {ms(statistics.median(outside))} (max {ms(max(outside))})"
    )


def main() -> None:
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    start = time.perf_counter()
    corpus = load_corpus()
    print(f"load corpus: {ms(time.perf_counter() - start)}")
    lib = Library(corpus)

    start = time.perf_counter()
    docs = entry_docs(lib)
    steps = timing_source(lib)
    docs += steps.docs() if steps else []
    prepare = time.perf_counter() - start
    start = time.perf_counter()
    build_ram(docs)
    ram = time.perf_counter() - start
    print(
        f"index build: {len(docs)} items; plain text of every entry {ms(prepare)}, "
        f"Whoosh in RAM {ms(ram)}"
    )
    with tempfile.TemporaryDirectory() as cache:
        start = time.perf_counter()
        _, how = load_or_build(cache, "bench", len(docs), lambda: docs)
        built = time.perf_counter() - start
        start = time.perf_counter()
        _, how2 = load_or_build(cache, "bench", len(docs), lambda: docs)
        opened = time.perf_counter() - start
        print(f"disk cache: write ({how}) {ms(built)}, open + validate ({how2}) {ms(opened)}")

        service = SearchService.for_library(lib, None)
        service.index  # noqa: B018
        report(
            "query latency, in process (SearchService.search: JSON dict)", latency(service.search)
        )
        index = service.index
        report(
            "query latency, in process (index only)",
            latency(lambda p: index.search(p["q"], limit=int(p.get("limit", 20)))),
        )
        app = create_app({"SEARCH_CACHE_DIR": cache, "TESTING": True})
        client = app.test_client()
        report(
            "query latency, GET /api/search (Flask test client)",
            latency(lambda p: client.get("/api/search", query_string=p)),
        )

        # Headroom: the same items five times over (different ids), as a bigger corpus would be.
        big = [
            dataclasses.replace(d, id=f"{d.id}-x{i}", version=d.version)
            for i in range(5)
            for d in docs
        ]
        start = time.perf_counter()
        big_index = build_ram(big)
        print(f"5x corpus ({len(big)} items): Whoosh in RAM {ms(time.perf_counter() - start)}")
        report(
            "5x corpus query latency (index only)",
            latency(lambda p: big_index.search(p["q"], limit=int(p.get("limit", 20))), rounds=3),
        )

        warm = Path(cache) / "app"
        create_app({"SEARCH_CACHE_DIR": str(warm)})  # build the app's cache entry once
        cold_start(str(warm))
        cold_start("")  # no cache: the index is built in memory at start-up


if __name__ == "__main__":
    main()
