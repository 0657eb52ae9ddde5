"""How long `judgekit search` takes from the shell, by meaning and by words alone.

Run: .venv/bin/python tests/benchmarks/bench_cli_search.py [--runs N] [--first]

Each run is a new process, as a judge's terminal or a script starts it: `judgekit search QUESTION`
(by meaning, its vectors read from the search cache) alternated with `judgekit search QUESTION
--words-only`, in a search cache of their own made beforehand (so that neither pays the corpus's
index or its embedding). Printed: each run's wall time, then the medians and their ratio. With
--first, also one first run ever (an empty cache: the index built and the corpus embedded).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMAND = str(Path(sys.executable).with_name("judgekit"))
QUESTION = "when do stopped personel get unstopped"


def timed(cache: str, *more: str) -> float:
    """One `judgekit search` in a new process, in seconds of wall time."""
    env = {k: v for k, v in os.environ.items() if k != "JUDGEKIT_SEARCH_MEANING"}
    env["JUDGEKIT_SEARCH_CACHE_DIR"] = cache
    start = time.perf_counter()
    subprocess.run(
        [COMMAND, "search", QUESTION, *more], env=env, check=True, capture_output=True, text=True
    )
    return time.perf_counter() - start


def main() -> None:
    """Alternate the two ways and print their medians."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--first", action="store_true", help="also time a first run ever")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="judgekit-bench-cli-") as cache:
        if args.first:
            print(f"first run ever (index built, corpus embedded): {timed(cache):.2f} s")
        else:
            timed(cache)  # the index and the vectors, once
        meaning, words = [], []
        for _ in range(args.runs):
            meaning.append(timed(cache))
            words.append(timed(cache, "--words-only"))
            print(f"by meaning {meaning[-1]:.2f} s, --words-only {words[-1]:.2f} s", flush=True)
    m, w = statistics.median(meaning), statistics.median(words)
    print(f"median of {args.runs}: by meaning {m:.2f} s, --words-only {w:.2f} s, ratio {m / w:.2f}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
