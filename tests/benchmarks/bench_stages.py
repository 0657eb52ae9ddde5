"""Where the server's search latency comes from: each request's time split into its stages.

Run: .venv/bin/python tests/benchmarks/bench_stages.py [--workers N] [--threads N] [--repeat N]

Starts `judgekit serve` with stage_probe.py installed, sends bench_search.py's 1,200 distinct
queries from its 8 loopback clients, and matches each answer's client time with the server's
record of it. A request's time is then: reading (from the client's send until waitress queued
the complete request: its loop thread reads and parses it), queue (until a thread took it), service
(the thread's work, in stages), and writing (from the end of service until the client had the
answer: waitress's loop thread sends it). The service's wall time beyond its thread's CPU time is
time spent waiting: for the GIL, or for an embedding pass. Printed: the p50 and p95 of each part,
for the answers by meaning and the others, per process, and what the slowest 5 % spent where.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judgekit.checks.loader import load_corpus  # noqa: E402
from judgekit.render.library import Library  # noqa: E402
from judgekit.search.cache import default_cache_dir  # noqa: E402
from judgekit.search.service import SearchService  # noqa: E402
from judgekit.web.workers import auto_count  # noqa: E402
from tests.benchmarks.bench_search import (  # noqa: E402
    distinct_queries,
    free_port,
    load,
    percentile,
    serve_and_hammer,
)

PROBED = (
    "import sys; sys.path.insert(0, {root!r}); sys.setswitchinterval({switch!r}); "
    "from tests.benchmarks import stage_probe; "
    "stage_probe.install({folder!r}); from judgekit.commands import main; raise SystemExit(main())"
)
PARTS = ("reading", "queue", "service", "writing")
STAGES = ("plan", "meaning", "embed", "embed_pass", "passages", "rank", "collapse", "shape")
STAGES += ("snippets", "json", "waiting")


def records(folder: Path) -> list[dict]:
    """Every request the server's processes recorded."""
    return [json.loads(line) for f in sorted(folder.glob("*.jsonl")) for line in f.open()]


def joined(sent: list[tuple[str, float, float]], kept: list[dict]) -> list[dict]:
    """The server's records with the client's times: each request's parts (see the module)."""
    by_query = {r["query"]: r for r in kept if "query" in r}
    out = []
    for query, start, elapsed in sent:
        r = by_query.get(query)
        if r is None or r.get("queued") is None:
            continue
        r = dict(r, total=elapsed, reading=r["queued"] - start, queue=r["start"] - r["queued"])
        r["service"] = r["end"] - r["start"]
        r["writing"] = start + elapsed - r["end"]
        r["waiting"] = r["service"] - r["cpu"]
        out.append(r)
    return out


def line(name: str, rows: list[dict]) -> str:
    """p50 / p95 of the parts and stages over these requests (ms)."""
    cells = []
    for part in ("total", *PARTS, *STAGES):
        values = [r.get(part, 0.0) for r in rows]
        if any(values):
            p50, p95 = statistics.median(values) * 1000, percentile(values, 95) * 1000
            cells.append(f"{part} {p50:.1f}/{p95:.1f}")
    return f"{name} (n={len(rows)}): " + ", ".join(cells)


def tail(rows: list[dict]) -> str:
    """What the slowest 5 % of the requests spent, on average, in each part and stage (ms)."""
    slow = sorted(rows, key=lambda r: r["total"])[-max(1, len(rows) // 20) :]
    share = sum(r.get("embed", 0.0) > 0 for r in slow) / len(slow)
    cells = [
        f"{p} {statistics.mean(r.get(p, 0.0) for r in slow) * 1000:.1f}"
        for p in ("total", *PARTS, *STAGES)
    ]
    return f"slowest 5 % (n={len(slow)}, {share:.0%} embedded): mean " + ", ".join(cells)


def passes(rows: list[dict]) -> str:
    """The embedding passes run by request threads: texts a pass, wall and CPU a pass."""
    own = [r for r in rows if r.get("embed_pass")]
    if not own:
        return "no embedding pass"
    texts = [r["embed_pass_texts"] for r in own]
    times = _spread([r["embed_pass"] for r in own], [r["embed_pass_cpu"] for r in own])
    return f"embedding passes: {len(own)}, texts a pass mean {statistics.mean(texts):.2f}; {times}"


def _spread(wall: list[float], cpu: list[float]) -> str:
    """The p50 and p95 of wall and CPU times (seconds), in ms."""
    cells = []
    for name, values in (("wall", wall), ("CPU", cpu)):
        ms = [v * 1000 for v in values]
        cells.append(f"{name} p50 {statistics.median(ms):.1f} p95 {percentile(ms, 95):.1f} ms")
    return "; ".join(cells)


def embedder_passes(kept: list[dict], since: float) -> str:
    """The embedder process's passes (those from the measured requests' time on)."""
    own = [r for r in kept if "pass" in r and r["start"] >= since]
    if not own:
        return "the embedder process: no pass"
    cpu = [r["cpu"] for r in own]
    return (
        f"the embedder process: {len(own)} passes, {sum(r['pass'] for r in own)} questions, "
        f"mean {statistics.mean(r['pass'] for r in own):.2f} a pass; "
        f"{_spread([r['wall'] for r in own], cpu)}, CPU in all {sum(cpu) * 1000:.0f} ms"
    )


def report(rows: list[dict]) -> None:
    """Print the breakdown (see the module)."""
    print(line("all", rows))
    print(line("by meaning (embedded)", [r for r in rows if r.get("embed")]))
    print(line("not embedded", [r for r in rows if not r.get("embed")]))
    for pid in sorted({r["pid"] for r in rows}):
        mine = [r for r in rows if r["pid"] == pid]
        print(line(f"process {pid}", mine))
        print("  " + passes(mine))
    print(tail(rows))
    busy = defaultdict(int)
    for r in rows:
        busy[r["waiting_tasks"]] += 1
    print("tasks still queued when a thread took one: " + str(dict(sorted(busy.items()))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=1, help="runs, one server each")
    parser.add_argument(
        "--switch", type=float, default=0.005, help="the servers' switch interval (seconds)"
    )
    parser.add_argument(
        "--no-embedder", action="store_true", help="each worker embeds its own questions"
    )
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the server")
    args = parser.parse_args()
    lib = Library(load_corpus())
    cache = str(default_cache_dir() or tempfile.mkdtemp(prefix="judgekit-bench-"))
    service = SearchService.for_library(lib, cache)
    print(f"search by meaning: {service.load_meaning()}")
    queries = distinct_queries(lib)
    import os

    os.environ.update({"JUDGEKIT_SEARCH_CACHE_DIR": cache, "JUDGEKIT_SEARCH_MEANING": "kept"})
    os.environ.update(dict(item.split("=", 1) for item in args.env))
    if args.no_embedder:
        os.environ["PROBE_NO_EMBEDDER"] = "1"
    for run in range(args.repeat):
        folder = Path(tempfile.mkdtemp(prefix="judgekit-stages-"))
        port = free_port()
        command = [
            sys.executable,
            "-c",
            PROBED.format(root=str(ROOT), folder=str(folder), switch=args.switch),
        ]
        command += ["serve", "--port", str(port)]
        command += ["--workers", str(args.workers)] if args.workers else []
        command += ["--threads", str(args.threads)] if args.threads else []
        processes = args.workers or auto_count()
        sent: list = []
        print(f"run {run + 1}: {' '.join(command[3:])} ({load()})")
        found = serve_and_hammer(
            command, port, "/api/search", queries, "pages ready in memory", processes, sent
        )
        print(
            f"{found['n']} queries: {found['rate']:.0f}/s, p50 {found['p50'] * 1000:.1f} ms, p95 "
            f"{found['p95'] * 1000:.1f} ms, server CPU {found['cpu'] * 1000:.2f} ms a request, "
            f"split {found['split']}, errors {found['errors']} ({load()})"
        )
        kept = records(folder)
        report(joined(sent, kept))
        print(embedder_passes(kept, min(start for _, start, _ in sent)))


if __name__ == "__main__":
    main()
