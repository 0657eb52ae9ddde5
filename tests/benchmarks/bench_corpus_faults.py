"""Benchmark `judgekit check` on each broken corpus of the fault suite: exit code, CPU and wall time.

Issue #17 asks for file:line and exit 1 within a second on every fault, hostile ones included
(alias bombs, deep nesting). Each check runs in its own process, as a judge would run it; CPU
time is the process's own (wall time also counts a busy machine's waiting).

Run: .venv/bin/python tests/benchmarks/bench_corpus_faults.py
"""

from __future__ import annotations

import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.test_corpus_faults import FAULTS, MINI  # noqa: E402

JUDGEKIT = [sys.executable, "-m", "judgekit.commands"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(root: Path) -> tuple[int, float, float, str]:
    cpu, wall = _children_cpu(), time.perf_counter()
    run = subprocess.run([*JUDGEKIT, "--root", str(root), "check"], capture_output=True, text=True)
    first = (run.stdout.splitlines() or [""])[0].replace(f"{root}/", "")
    return run.returncode, _children_cpu() - cpu, time.perf_counter() - wall, first


def main() -> int:
    """Print one line per fault and the slowest; exit 1 if any fault passed or took over 1 s CPU."""
    worst = 0.0
    failed = False
    with tempfile.TemporaryDirectory() as scratch:
        for number, fault in enumerate(FAULTS):
            root = Path(scratch) / str(number)
            shutil.copytree(MINI, root)
            fault.breaks(root)
            code, cpu, wall, first = _run(root)
            worst = max(worst, cpu)
            failed = failed or code != 1 or cpu > 1.0
            print(f"{code}  cpu {cpu:5.2f}s  wall {wall:5.2f}s  {fault.name}: {first[:90]}")
    print(f"{len(FAULTS)} faults; slowest {worst:.2f}s CPU")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
