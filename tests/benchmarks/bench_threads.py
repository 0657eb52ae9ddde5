"""Which process and thread of `judgekit serve` spends a search request's CPU.

Run: .venv/bin/python tests/benchmarks/bench_threads.py [--spy SECONDS]

Starts `judgekit serve` as a judge does (its workers and the embedder process), waits until every
page is warm, sends bench_search.py's 1,200 distinct queries from its 8 loopback clients, and
prints the CPU time each thread of each process spent over them (from /proc), a request: the
embedder, each worker's waitress loop thread (reading requests, writing answers) and its request
threads. --spy: also py-spy (where installed beside this Python; not a judgekit dependency)
records each process for that many seconds of the run, sampling only the GIL's holder, and the
functions holding it most are printed per kind of thread.
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judgekit.checks.loader import load_corpus  # noqa: E402
from judgekit.commands.serve import EMBEDDER_NAME  # noqa: E402
from judgekit.render.library import Library  # noqa: E402
from judgekit.search.cache import default_cache_dir  # noqa: E402
from judgekit.web.workers import auto_count  # noqa: E402
from tests.benchmarks.bench_search import (  # noqa: E402
    distinct_queries,
    free_port,
    hammer,
    load,
    wait_for,
    wait_for_line,
    wait_for_pack,
)

SCRIPT = "from judgekit.commands import main; raise SystemExit(main())"


def children(pid: int) -> list[int]:
    """The processes a process started (its workers and the embedder)."""
    return [int(k) for k in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def thread_cpu(pids: list[int]) -> dict[tuple[int, int, str], float]:
    """Each thread's user + system CPU seconds so far, by (process, thread, process name)."""
    out = {}
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        name = Path(f"/proc/{pid}/comm").read_text().strip()
        for task in Path(f"/proc/{pid}/task").iterdir():
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            out[(pid, int(task.name), name)] = (int(fields[11]) + int(fields[12])) / tick
    return out


def spy(pid: int, seconds: int, out: Path) -> subprocess.Popen | None:
    """py-spy recording a process's GIL holder (None where py-spy is not installed)."""
    exe = Path(sys.executable).with_name("py-spy")
    if not exe.exists():
        return None
    command = [str(exe), "record", "-p", str(pid), "--threads", "--gil", "--nonblocking"]
    command += ["-r", "250", "-d", str(seconds), "-f", "raw", "-o", str(out)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def spied(files: dict[Path, str], top: int = 25) -> None:
    """The functions on the GIL holder's stack most often (those on nearly every sample, the
    frames every request runs through, left out): the embedder's, and the workers' loop and
    request threads'. files: each recording, by the name of the process it recorded."""
    kinds: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    totals: collections.Counter[str] = collections.Counter()
    for file, process in files.items():
        for line in file.read_text().splitlines():
            stack, count = line.rsplit(" ", 1)
            frames = stack.split(";")
            kind = "request threads"
            if process == EMBEDDER_NAME:
                kind = "the embedder"
            elif "MainThread" in frames[0]:
                kind = "loop threads"
            totals[kind] += int(count)
            for name in {frame.split(" (")[0] for frame in frames[1:]}:
                kinds[kind][name] += int(count)
    for kind, counter in kinds.items():
        print(f"{kind}: {totals[kind]} samples holding the GIL")
        shown = [(n, c) for n, c in counter.most_common() if c < 0.97 * totals[kind]][:top]
        for name, count in shown:
            print(f"  {100 * count / totals[kind]:5.1f} % {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spy", type=int, default=0, help="seconds of py-spy on each worker")
    args = parser.parse_args()
    queries = distinct_queries(Library(load_corpus()))
    cache = str(default_cache_dir() or tempfile.mkdtemp(prefix="judgekit-bench-"))
    env = {**os.environ, "JUDGEKIT_SEARCH_CACHE_DIR": cache, "JUDGEKIT_SEARCH_MEANING": "kept"}
    port = free_port()
    log = tempfile.TemporaryFile()
    command = [sys.executable, "-c", SCRIPT, "serve", "--port", str(port)]
    proc = subprocess.Popen(command, env=env, stdout=log, stderr=log)
    try:
        wait_for(port, "/api/search?q=warm")
        wait_for_line(log, "pages ready in memory", times=auto_count())
        wait_for_pack(log)
        hammer(port, "/api/search", [f"warm {w}" for w in ("dilemma", "beam", "mission")] * 8)
        pids = [proc.pid, *children(proc.pid)]
        before = thread_cpu(pids)
        folder = Path(tempfile.mkdtemp(prefix="judgekit-spy-"))
        names = {
            folder / f"{pid}.txt": Path(f"/proc/{pid}/comm").read_text().strip() for pid in pids[1:]
        }
        spies = [spy(int(file.stem), args.spy, file) for file in names] if args.spy else []
        found = hammer(port, "/api/search", queries)
        after = thread_cpu(pids)
        for recording in spies:
            if recording is not None:
                recording.wait(timeout=args.spy + 30)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()
    n = found["n"]
    print(f"{n} queries: {found['rate']:.0f}/s, p95 {found['p95'] * 1000:.1f} ms ({load()})")
    total = 0.0
    for key in sorted(after):
        spent = after[key] - before.get(key, 0.0)
        total += spent
        if spent * 1000 / n >= 0.01:
            pid, tid, name = key
            kind = "main thread" if pid == tid else "thread"
            print(f"process {pid} ({name}), {kind} {tid}: {spent * 1000 / n:.3f} ms a request")
    print(f"in all: {total * 1000 / n:.2f} ms of CPU a request")
    if spies:
        spied({file: name for file, name in names.items() if file.exists()})


if __name__ == "__main__":
    main()
