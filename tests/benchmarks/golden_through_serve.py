"""Every golden answer through `judgekit serve` as a judge starts it (its workers and the
embedder process), asked by 8 clients at once so that questions go together in passes.

Run: .venv/bin/python tests/benchmarks/golden_through_serve.py
tests/test_search_golden.py holds the app to tests/golden/search.jsonl in process; this holds the
served answers to it, the embedder's vectors included. Prints how many answers differ (0 expected)
and the embedder process's CPU time over the run.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judgekit.search.cache import default_cache_dir  # noqa: E402
from judgekit.web.workers import auto_count  # noqa: E402
from tests.benchmarks.bench_search import cpu_seconds, free_port, share_out, wait_for_line  # noqa: E402
from tests.golden.generate import GOLDEN, project  # noqa: E402
from tests.processes import embedders_of  # noqa: E402


def ask_all(port: int, golden: list[dict]) -> list[tuple[dict, str, dict]]:
    """Each golden question (and its by-words twin) asked once; the answers that differ."""
    asks = []
    for item in golden:
        asks.append((item, {"q": item["q"], **item["params"]}, item["answer"]))
        if "by_words" in item:
            asks.append(
                (item, {"q": item["q"], **item["params"], "meaning": "0"}, item["by_words"])
            )
    lock, wrong = threading.Lock(), []

    def ask(conn: http.client.HTTPConnection, job: tuple) -> http.client.HTTPConnection:
        item, params, want = job
        conn.request("GET", f"/api/search?{urlencode(params)}")
        got = project(json.loads(conn.getresponse().read()))
        if got != want:
            with lock:
                wrong.append((item, params["q"], got))
        return conn

    share_out(port, asks, ask, timeout=60)
    print(f"{len(asks)} questions asked, {len(wrong)} answers differ from the golden file")
    return wrong


def main() -> int:
    golden = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]
    cache = str(default_cache_dir() or tempfile.mkdtemp(prefix="judgekit-bench-"))
    env = {**os.environ, "JUDGEKIT_SEARCH_CACHE_DIR": cache, "JUDGEKIT_SEARCH_MEANING": "kept"}
    port = free_port()
    script = "from judgekit.commands import main; raise SystemExit(main())"
    log = tempfile.TemporaryFile()
    command = [sys.executable, "-c", script, "serve", "--port", str(port)]
    proc = subprocess.Popen(command, env=env, stdout=log, stderr=log)
    try:
        wait_for_line(log, "pages ready in memory", times=auto_count())
        wait_for_line(log, "every worker's questions embedded by the embedder process")
        (embedder,) = embedders_of(proc.pid)
        before = cpu_seconds(embedder)
        wrong = ask_all(port, golden)
        print(f"the embedder process's CPU over the run: {cpu_seconds(embedder) - before:.1f} s")
        for item, q, got in wrong[:3]:
            print(f"  {q!r} {item['params']}\n    golden {item['answer']}\n    served {got}")
        return 1 if wrong else 0
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


if __name__ == "__main__":
    raise SystemExit(main())
