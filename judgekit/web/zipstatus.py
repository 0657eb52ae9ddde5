"""What a client is told about the pack's zip, and why a build failed: no traceback, no path.

The reasons are shared by the server's job (zipjob.py) and the build's process (zipchild.py),
which reports one by its exit status, and how far it has come in a small file every worker
process reads (``write_progress``, ``read_progress``).
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TOP_FOLDER = "judgekit-pack"  # the zip's one top folder: unzipped, one folder, not 1,900 files
PREPARING_RETRY_AFTER = 20  # seconds a client is asked to wait while the zip is built

# Why a build failed: the reason codes, and the exit statuses of zipchild.py that carry them.
DISK_FULL = "disk-full"
CORPUS_CHANGED = "corpus-changed"
FAILED = "failed"
UNWRITABLE = "unwritable"
REASON_OF_EXIT = {3: DISK_FULL, 4: CORPUS_CHANGED}
EXIT_OF_REASON = {reason: code for code, reason in REASON_OF_EXIT.items()}
_DISK_FULL_ERRNOS = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}

# What clients are told about a failed build (no traceback, no path: the server's log has those).
REASONS = {
    DISK_FULL: "the server's disk is full (no space or no free file entries left)",
    CORPUS_CHANGED: "the rules files changed on disk after the server started; restart the server",
    FAILED: "the build failed (the server's log says why)",
    UNWRITABLE: "the server cannot write the folder it keeps the pack in",
}


def reason_of(exc: BaseException) -> str:
    """DISK_FULL for an error meaning no space or no free inode (an OSError, or an error raised
    while handling one, as zipfile's are), else ""."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, OSError) and seen.errno in _DISK_FULL_ERRNOS:
            return DISK_FULL
        seen = seen.__cause__ or seen.__context__
    return ""


def wait_words(seconds: int) -> str:
    """A wait as a judge reads it: "20 s", "4 minutes"."""
    return f"{seconds} s" if seconds < 90 else f"{math.ceil(seconds / 60)} minutes"


PAGES = "pages"  # the build's stages: every page and JSON answer written, then zipped
ZIPPING = "zip"


@dataclass(frozen=True)
class Progress:
    """How far a build has come: ``done`` of ``total`` in its stage (PAGES, then ZIPPING)."""

    stage: str
    done: int
    total: int

    @property
    def words(self) -> str:
        """The progress as a judge reads it: "840 of 1,935 pages written"."""
        if self.stage == ZIPPING:
            return f"zipping, {self.done:,} of {self.total:,} files"
        return f"{self.done:,} of {self.total:,} pages written"

    def shape(self) -> dict[str, Any]:
        """The progress in the JSON of the status address."""
        return {"stage": self.stage, "done": self.done, "total": self.total}


def write_progress(path: Path, progress: Progress) -> None:
    """Write the build's progress where every process reads it, whole (write, then rename)."""
    temp = path.with_name(f"{path.name}.{os.getpid()}")
    temp.write_text(json.dumps(progress.shape()), encoding="utf-8")
    os.replace(temp, path)


def read_progress(path: Path) -> Progress | None:
    """The progress a running build last wrote, or None (none written, or unreadable)."""
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        data = json.loads(path.read_text(encoding="utf-8"))
        stage, done, total = str(data["stage"]), int(data["done"]), int(data["total"])
        if stage in (PAGES, ZIPPING) and 0 <= done <= total and total > 0:
            return Progress(stage, done, total)
    return None


@dataclass(frozen=True)
class ZipStatus:
    """What a client is told: "preparing", "ready" or "failed", with how long to wait."""

    state: str
    retry_after: int = PREPARING_RETRY_AFTER  # seconds; 0 when ready
    reason: str = ""  # a key of REASONS when failed
    size: int = 0  # bytes, when ready
    progress: Progress | None = None  # how far the running build has come, when preparing

    @property
    def message(self) -> str:
        """One plain sentence for the judge."""
        if self.state == "ready":
            return f"The judge pack is ready ({self.size / 1e6:.1f} MB)."
        if self.state == "failed":
            return (
                f"The judge pack could not be built: {REASONS.get(self.reason, REASONS[FAILED])}. "
                f"It is tried again in about {wait_words(self.retry_after)}."
            )
        if self.progress is not None:
            return f"The judge pack is being prepared: {self.progress.words}."
        return "The judge pack is being prepared; it is ready in a minute or two."

    def shape(self, url: str) -> dict[str, Any]:
        """The JSON answer of the status address."""
        return {
            "state": self.state,
            "url": url if self.state == "ready" else None,
            "size": self.size if self.state == "ready" else None,
            "retry_after": self.retry_after or None,
            "message": self.message,
            "progress": self.progress.shape() if self.progress is not None else None,
        }


@dataclass(frozen=True)
class Failure:
    """A failed build of this run: why, how many so far, and when to try again (epoch s)."""

    reason: str
    attempts: int
    next_try: float
