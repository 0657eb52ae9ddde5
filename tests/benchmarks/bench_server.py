"""Benchmark the real server over loopback, beside a hello-world Flask app on the same waitress.

    .venv/bin/python tests/benchmarks/bench_server.py pages   # 8 clients, every kind of page
    .venv/bin/python tests/benchmarks/bench_server.py soak    # 50 clients, 30 s, pages + searches
    .venv/bin/python tests/benchmarks/bench_server.py render  # server time per page, in process

Figures go in BENCHMARKS.md. Both servers run as `judgekit serve` does (judgekit.web.server), in
their own processes on 127.0.0.1; one client process drives both with the same code.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

HELLO = """
import sys
from flask import Flask
from judgekit.web.server import make_server
app = Flask("hello")
@app.get("/")
def hello():
    return "Hello, judge!"
server = make_server(app, "127.0.0.1", int(sys.argv[1]), 8)
print("ready", flush=True)
server.run()
"""
SEARCHES = (
    "beam personnel",
    "how many dilemmas do I draw",
    "stopped personnel",
    "commandeer",
    "range",
    "headquarters mission",
    "facing dilemmas",
    "score points",
    "battle",
    "discard excess cards",
)


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(argv: list[str], port: int, env: dict | None = None) -> subprocess.Popen:
    """Start a server process and wait (bounded) until / answers."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"server on {port} did not start")


def rss_mb(pid: int) -> float:
    """Resident memory of a process, in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def drive(port: int, paths: list[str], clients: int, seconds: float | None, rounds: int | None):
    """Clients on keep-alive connections fetch paths (shuffled per client) for a time or rounds."""
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds if seconds else None

    def client(seed: int) -> None:
        rng = random.Random(seed)
        order = paths[:]
        rng.shuffle(order)
        # Each client from an address of its own on the loopback network, as each phone would be.
        source = (f"127.0.0.{10 + seed}", 0)

        def connect() -> http.client.HTTPConnection:
            return http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=source)

        conn = connect()
        mine, bad = [], []
        done = 0
        while True:
            for path in order:
                if stop_at and time.monotonic() >= stop_at:
                    break
                start_t = time.perf_counter()
                try:
                    conn.request("GET", path, headers={"Accept-Encoding": "gzip"})
                    answer = conn.getresponse()
                    answer.read()
                    if answer.status != 200:
                        bad.append(f"{answer.status} {path}")
                except (OSError, http.client.HTTPException) as exc:
                    bad.append(f"{type(exc).__name__} {path}")
                    conn.close()
                    conn = connect()
                mine.append(time.perf_counter() - start_t)
            done += 1
            if (stop_at and time.monotonic() >= stop_at) or (rounds and done >= rounds):
                break
        conn.close()
        with lock:
            latencies.extend(mine)
            errors.extend(bad)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - began
    latencies.sort()
    return {
        "requests": len(latencies),
        "per_second": round(len(latencies) / elapsed),
        "p50_ms": round(1000 * latencies[len(latencies) // 2], 2),
        "p95_ms": round(1000 * latencies[int(len(latencies) * 0.95)], 2),
        "errors": len(errors),
        "first_errors": errors[:5],
    }


def page_mix() -> list[str]:
    """Every kind of page: entries, whole versions, diffs, histories, timing, search page."""
    from judgekit import create_app
    from judgekit.web.context import library_of
    from judgekit.web.sitemap import all_paths

    app = create_app({"SEARCH_PRELOAD": False})
    paths = [p for p in all_paths(library_of(app), app.extensions["judgekit"]["timing"])]
    return [p for p in paths if not p.startswith("/api/")]


def servers(env: dict) -> tuple[subprocess.Popen, int, subprocess.Popen, int]:
    jk_port, hello_port = free_port(), free_port()
    exe = str(Path(sys.executable).with_name("judgekit"))
    jk = start([exe, "serve", "--port", str(jk_port)], jk_port, env)
    hello = start([sys.executable, "-c", HELLO, str(hello_port)], hello_port, env)
    return jk, jk_port, hello, hello_port


def bench_pages(repeats: int) -> dict:
    env = {**os.environ, "JUDGEKIT_SEARCH_CACHE_DIR": ""}
    paths = page_mix()
    jk, jk_port, hello, hello_port = servers(env)
    try:
        drive(jk_port, paths, 1, None, 1)  # every page once (the background warm-up may race)
        runs = []
        for _ in range(repeats):
            runs.append(
                {
                    "judgekit": drive(jk_port, paths, 8, None, 1),
                    "hello": drive(hello_port, ["/"] * len(paths), 8, None, 1),
                }
            )
        return {"pages": len(paths), "runs": runs, "judgekit_rss_mb": round(rss_mb(jk.pid))}
    finally:
        jk.terminate()
        hello.terminate()


def bench_soak(seconds: float) -> dict:
    env = {**os.environ, "JUDGEKIT_SEARCH_CACHE_DIR": ""}
    paths = page_mix()
    rng = random.Random(7)
    searches = [f"/search?q={q.replace(' ', '+')}" for q in SEARCHES]
    searches += [
        f"/api/search?q={q.replace(' ', '+')}&limit={n}" for q in SEARCHES for n in (5, 10)
    ]
    mix = rng.sample(paths, min(400, len(paths))) + searches * 4
    jk, jk_port, hello, hello_port = servers(env)
    try:
        before = rss_mb(jk.pid)
        result = drive(jk_port, mix, 50, seconds, None)
        hello_result = drive(hello_port, ["/"], 50, seconds / 3, None)
        return {
            "seconds": seconds,
            "clients": 50,
            "judgekit": result,
            "hello": hello_result,
            "rss_mb_before": round(before),
            "rss_mb_after": round(rss_mb(jk.pid)),
        }
    finally:
        jk.terminate()
        hello.terminate()


def bench_render() -> dict:
    """Server time per page once warm: each page through the app (no network), after one pass."""
    from judgekit import create_app
    from judgekit.web.context import library_of
    from judgekit.web.memory import warm
    from judgekit.web.sitemap import all_paths

    app = create_app({"SEARCH_CACHE_DIR": ""})
    paths = all_paths(library_of(app), app.extensions["judgekit"]["timing"])
    start_t = time.perf_counter()
    warm(app, paths)
    warm_s = time.perf_counter() - start_t
    client = app.test_client()
    times = []
    for path in paths:
        t0 = time.perf_counter()
        client.get(path, headers={"Accept-Encoding": "gzip"})
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return {
        "paths": len(paths),
        "warm_s": round(warm_s, 1),
        "median_ms": round(statistics.median(times), 2),
        "p95_ms": round(times[int(len(times) * 0.95)], 2),
        "max_ms": round(times[-1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("pages", "soak", "render"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    if args.what == "pages":
        result = bench_pages(args.repeats)
    elif args.what == "soak":
        result = bench_soak(args.seconds)
    else:
        result = bench_render()
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
