"""Looking at processes from tests (Linux's /proc): children, and whether they still run."""

from __future__ import annotations

import time
from pathlib import Path


def children(pid: int) -> list[int]:
    """The child processes of a process."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie, ended but not yet reaped by init, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def all_gone(pids, seconds: float) -> bool:
    """Whether every one of these processes has ended within seconds."""
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def name(pid: int) -> str:
    """A process's name (/proc/PID/comm), "" when it is gone."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except (FileNotFoundError, ProcessLookupError):
        return ""


EMBEDDER = "judgekit-embed"  # serve's EMBEDDER_NAME


def workers_of(pid: int) -> list[int]:
    """The worker processes of `judgekit serve`: its children but the embedder process."""
    return [child for child in children(pid) if name(child) != EMBEDDER]


def embedders_of(pid: int) -> list[int]:
    """The embedder process of `judgekit serve` (a list: none with meaning off or one worker)."""
    return [child for child in children(pid) if name(child) == EMBEDDER]
