"""Each process's memory under `judgekit serve` (the built-in corpus, its default processes), after
start-up, after many distinct searches, and after floods of distinct 100 KB cookies and query
strings (issue #26). Not a test: it prints figures for BENCHMARKS.md.

    .venv/bin/python tests/benchmarks/bench_memory.py                  # 30,000 searches, 2,000 each flood
    .venv/bin/python tests/benchmarks/bench_memory.py --searches 3000 --flood 500

RSS counts every page a process touches, the corpus it shares with the others included; PSS
divides each shared page among the processes sharing it (Linux's smaps_rollup), so the PSS of
all the processes adds up to what the server holds.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.bench_search import free_port, share_out  # noqa: E402

WORDS = (
    "beam personnel ship mission dilemma battle attack range score points draw discard seed "
    "headquarters facing stopped commandeer equipment event interrupt skill strength cunning "
    "integrity captain planet space docked crew away team report play turn order verb"
).split()


def memory(pid: int) -> tuple[float, float]:
    """A process's RSS and PSS, in MB."""
    rss = pss = 0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Rss:"):
            rss = int(line.split()[1])
        elif line.startswith("Pss:"):
            pss = int(line.split()[1])
    return rss / 1024, pss / 1024


def children(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _role(pid: int, parent: int) -> str:
    if pid == parent:
        return "parent"
    embedder = Path(f"/proc/{pid}/comm").read_text().strip() == "judgekit-embed"
    return "embedder" if embedder else "worker"


def report(label: str, parent: int) -> None:
    pids = [parent, *children(parent)]
    figures = [memory(pid) for pid in pids]
    cells = "  ".join(
        f"{_role(pid, parent)} {rss:6.0f}/{pss:6.0f}"
        for pid, (rss, pss) in zip(pids, figures, strict=True)
    )
    total = sum(pss for _, pss in figures)
    print(f"{label:34} RSS/PSS MB: {cells}   PSS in all {total:6.0f}", flush=True)


def drive(port: int, requests, clients: int = 8) -> tuple[int, float]:
    """Send every (path, headers) of requests from clients threads; (errors, seconds)."""
    lock, errors = threading.Lock(), [0]

    def send(conn: http.client.HTTPConnection, item: tuple) -> http.client.HTTPConnection:
        path, headers = item
        try:
            conn.request("GET", path, headers=headers)
            answer = conn.getresponse()
            answer.read()
            if answer.status < 500 and not answer.will_close:
                return conn
        except (OSError, http.client.HTTPException):
            with lock:
                errors[0] += 1
        conn.close()
        return http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    wall, _ = share_out(port, requests, send, clients)
    return errors[0], wall


def searches(count: int):
    pairs = itertools.product(WORDS, repeat=3)
    for n, words in zip(range(count), pairs, strict=False):
        path = "/search" if n % 2 else "/api/search"
        yield f"{path}?q={'+'.join(words)}", {"Accept-Encoding": "br"}


def cookie_flood(count: int):
    pages = ("/", "/rules/2e-rulebook/4/", "/search?q=beam", "/timing")
    for n in range(count):
        name = "judgekit_edition" if n % 2 else f"c{n}"
        cookie = f"{name}={os.urandom(50_000).hex()}"
        yield pages[n % len(pages)], {"Cookie": cookie, "Accept-Encoding": "br"}


def query_flood(count: int):
    pages = ("/", "/rules/2e-rulebook/4/", "/search", "/cards")
    for n in range(count):
        yield f"{pages[n % len(pages)]}?x{n}={os.urandom(50_000).hex()}", {"Accept-Encoding": "br"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--searches", type=int, default=30_000)
    parser.add_argument("--flood", type=int, default=2_000)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument(
        "--settle",
        type=float,
        default=12,
        help="seconds to wait before measuring (the server gives freed memory back every 10 s)",
    )
    args = parser.parse_args()
    port = free_port()
    exe = Path(sys.executable).with_name("judgekit")
    command = [str(exe), "serve", "--port", str(port)]
    if args.workers:
        command += ["--workers", str(args.workers)]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        cwd=ROOT,
    )
    try:
        out = ""
        while not (m := re.search(r"serving from (\d+) processes|all \d+ pages", out)):
            out += proc.stdout.readline().decode()
        workers = int(m[1]) if m[1] else 1
        while len(re.findall(r"all \d+ pages ready", out)) < workers:
            out += proc.stdout.readline().decode()
        threading.Thread(target=proc.stdout.read, daemon=True).start()  # keep the pipe drained
        report("warm (every page rendered)", proc.pid)
        for label, requests, count in (
            (f"after {args.searches:,} distinct searches", searches, args.searches),
            (f"after {args.flood:,} 100 KB cookies", cookie_flood, args.flood),
            (f"after {args.flood:,} 100 KB queries", query_flood, args.flood),
        ):
            errors, took = drive(port, requests(count))
            time.sleep(args.settle)
            report(label, proc.pid)
            print(f"{'':34} {count / took:,.0f} requests/s, {errors} errors", flush=True)
    finally:
        proc.terminate()
        proc.wait(timeout=20)


if __name__ == "__main__":
    main()
