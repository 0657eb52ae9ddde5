"""Benchmark the timing pages and the calculator on the real corpus (every reading is run).

Run: .venv/bin/python tests/benchmarks/bench_timing.py   (figures go in BENCHMARKS.md)
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judgekit import create_app  # noqa: E402

STACK = ",".join(["planet:1:dup", "space:2", "dual:1", "planet:0:placed"] * 25)  # 100 dilemmas
URLS = {
    "stepper, v4 step 3.f": "/timing/mission-attempt?version=4&step=3.f",
    "stepper, card-wording search": "/timing/mission-attempt?version=4&q=about+to+be+stopped",
    "calculator API, 100 dilemmas, 1.1": (
        f"/api/timing/mission-attempt/calculate?version=1.1&personnel=50&mission=planet&dilemmas={STACK}"
    ),
    "calculator API, 100 dilemmas, v4 with modifiers": (
        "/api/timing/mission-attempt/calculate?version=4&personnel=50&modifiers=-3"
        f"&mission=planet&dilemmas={STACK}"
    ),
    "timing index with 1E notes": "/timing",
}


def main() -> None:
    """Time each URL: the first request (caches cold), then the median of 20."""
    client = create_app({}).test_client()
    for label, url in URLS.items():
        start = time.perf_counter()
        assert client.get(url).status_code == 200, url
        first = time.perf_counter() - start
        times = []
        for _ in range(20):
            start = time.perf_counter()
            client.get(url)
            times.append(time.perf_counter() - start)
        print(
            f"{label}: first {first * 1000:.1f} ms, median {statistics.median(times) * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
