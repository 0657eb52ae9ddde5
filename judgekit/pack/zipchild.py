"""The pack zip's build, in a process of its own (started by zipjob.py, never by hand).

It renders every page (a minute or more with the built-in corpus): a process of its own keeps
the server's threads answering. It writes only inside its temporary folder, moves the finished
zip into place with os.replace, and removes the folder however it ends: done, failed, told to
stop (SIGTERM, SIGINT, SIGHUP), or orphaned (on Linux the kernel sends SIGTERM when the thread
that started it ends; elsewhere it notices within a second). Its exit status says why it failed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import sys
import threading
import time
from pathlib import Path

from judgekit.web.zipstatus import (
    CORPUS_CHANGED,
    DISK_FULL,
    EXIT_OF_REASON,
    TOP_FOLDER,
    Progress,
    reason_of,
    write_progress,
)

PARENT_CHECK_EVERY = 1.0  # seconds
PROGRESS_EVERY = 0.5  # seconds between two writes of the progress file


class ProgressFile:
    """The build's progress, written where the server's processes read it: at most every
    ``every`` seconds, and at the end of each stage."""

    def __init__(self, path: Path, every: float = PROGRESS_EVERY) -> None:
        self.path = path
        self.every = every
        self.last = 0.0

    def __call__(self, stage: str, done: int, total: int) -> None:
        """Record that ``done`` of ``total`` are written in this stage."""
        now = time.monotonic()
        if done < total and now - self.last < self.every:
            return
        self.last = now
        try:
            write_progress(self.path, Progress(stage, done, total))
        except OSError:  # only the progress shown is lost; a full disk fails the build itself
            pass

    def remove(self) -> None:
        """No build runs any more: no progress to show."""
        with contextlib.suppress(OSError):
            self.path.unlink()


def _stop(signum: int, _frame) -> None:
    raise SystemExit(128 + signum)  # unwinds the build, so the finally below removes the folder


def die_with_parent(parent: int) -> None:
    """End this process (cleanly, by SIGTERM) when the process that started it is gone."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)

    def follow() -> None:  # also where prctl is missing (macOS), and if the parent died first
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_EVERY)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=follow, daemon=True).start()


def build_zip(
    root: str,
    base_url: str,
    digest: str,
    temp: Path,
    final: Path,
    progress: ProgressFile | None = None,
) -> int:
    """Build the pack in temp, zip it with one top folder, move the zip to final; exit status."""
    from judgekit.checks.loader import CorpusError
    from judgekit.pack.build import BuildError, build, pack_app
    from judgekit.web.context import library_of

    try:
        app = pack_app(root, base_url or None)
        if library_of(app).corpus.digest != digest:
            print("judge pack: the corpus changed since the server started", file=sys.stderr)
            return EXIT_OF_REASON[CORPUS_CHANGED]
        made = temp / "pack.zip"
        build(app, temp / TOP_FOLDER, zip_path=made, progress=progress)
        with open(made, "rb") as written:
            os.fsync(written.fileno())  # the zip's bytes on disk before its name says it is done
        os.replace(made, final)
        return 0
    except (CorpusError, BuildError) as exc:
        print(f"judge pack: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        if reason_of(exc) != DISK_FULL:
            raise
        print(f"judge pack: {exc}", file=sys.stderr)
        return EXIT_OF_REASON[DISK_FULL]
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    """Build one zip as zipjob.py asks, under the lock it passed down."""
    parser = argparse.ArgumentParser(prog="python -m judgekit.pack.zipchild")
    for name in ("--parent", "--root", "--digest", "--base-url", "--temp", "--final"):
        parser.add_argument(name, required=True)
    parser.add_argument("--progress", help="the file to say how far the build has come in")
    args = parser.parse_args(argv)
    for signum in (signal.SIGTERM, signal.SIGINT, getattr(signal, "SIGHUP", None)):
        if signum is not None:
            signal.signal(signum, _stop)
    temp = Path(args.temp)
    progress = ProgressFile(Path(args.progress)) if args.progress else None
    try:
        die_with_parent(int(args.parent))
        if hasattr(os, "nice"):
            os.nice(10)  # the server's answers come first
        return build_zip(args.root, args.base_url, args.digest, temp, Path(args.final), progress)
    finally:
        shutil.rmtree(temp, ignore_errors=True)
        if progress is not None:
            progress.remove()


if __name__ == "__main__":
    sys.exit(main())
