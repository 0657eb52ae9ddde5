"""The pack's zip as the server offers it: one build shared by every process, kept on disk.

Every worker process of `judgekit serve` serves the same file: the zip lives in a cache folder
under a key of the corpus, the code (its modules, templates and static files) and the address
citations name, and only the process that holds the folder's lock (fcntl.flock) builds it. The build runs in a child process
(``zipchild.py``) that writes into a temporary folder beside the zip and moves the finished zip
into place with os.replace, so a reader finds either no zip or the whole of it. The lock's file is
passed to the child, so no other build starts while one still runs, even when the process that
started it has died; whoever takes the lock next removes what an interrupted build left.

A failed build is recorded beside the zip (shared by the processes of this run) and retried
after a delay that doubles; clients meanwhile get a short reason, never a traceback or a path.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import logging
import math
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from judgekit import resources
from judgekit.search.cache import cache_key
from judgekit.web.zipstatus import (
    FAILED,
    REASON_OF_EXIT,
    TOP_FOLDER,
    UNWRITABLE,
    Failure,
    ZipStatus,
    read_progress,
    reason_of,
    wait_words,
)

log = logging.getLogger(__name__)

ZIP_NAME = "judgekit-pack.zip"  # the name a download is saved under
LOCK_NAME = ".pack.lock"
TEMP_MARK = ".tmp-"  # what every temporary file or folder of a build is named with
RETRY_FIRST = 30.0  # seconds before a failed build is tried again; doubled each time
RETRY_MOST = 900.0
BUILD_LIMIT = 1800.0  # seconds a build may take before it is stopped as failed
KEEP = 3  # zips kept (other corpora, other addresses, older code); older ones are removed


def default_pack_cache_dir() -> Path:
    """$JUDGEKIT_PACK_CACHE_DIR, else the per-user cache (beside the search index's)."""
    chosen = os.environ.get("JUDGEKIT_PACK_CACHE_DIR", "").strip()
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.environ.get("LOCALAPPDATA")
    return Path(base or Path.home() / ".cache") / "judgekit" / "pack"


class PackZip:
    """The pack zip of one app (one corpus, one address), shared by every process of its run."""

    def __init__(
        self, folder: Path, root: str, config: Mapping[str, Any], digest: str, retry: float
    ) -> None:
        self.folder = folder
        self.root = root
        self.config = config  # read when the key is first needed: serve sets BASE_URL late
        self.digest = digest
        self.retry_first = retry
        # Made before the server forks, so every worker process of this run shares it: a failure
        # recorded by an earlier run (another start of the server) is not waited for.
        self.run = f"{os.getpid()}-{time.time_ns()}"
        self._keys: dict[str, str] = {}
        self._local: Failure | None = None  # a failure that could not be written to the folder
        self._thread: threading.Thread | None = None
        self._settled = False  # a turn found the zip built: nothing left to do in this process
        self._closing_at_exit = False
        self._child: subprocess.Popen | None = None
        self._temp: Path | None = None
        self._stopping = threading.Event()
        self._guard = threading.Lock()
        _JOBS.add(self)

    @property
    def key(self) -> str:
        """The zip's cache key: the corpus, the code, the templates and static files, and the
        address its citations name."""
        base_url = self.base_url
        if base_url not in self._keys:  # hashing the code reads every module: once per address
            extra = f"pack-zip|{TOP_FOLDER}|{base_url}|{pages_fingerprint()}"
            self._keys[base_url] = cache_key(self.digest, extra)
        return self._keys[base_url]

    @property
    def base_url(self) -> str:
        """The address the pack's citations name (the server's)."""
        return self.config.get("BASE_URL") or ""

    @property
    def zip_path(self) -> Path:
        """Where the finished zip is."""
        return self.folder / f"{self.key}.zip"

    @property
    def _failure_path(self) -> Path:
        return self.folder / f"{self.key}.failed.json"

    @property
    def progress_path(self) -> Path:
        """Where the running build says how far it has come (a temporary file: what a killed
        build left is removed with the rest)."""
        return self.folder / f"{TEMP_MARK}{self.key}.progress.json"

    # -- what clients see --------------------------------------------------------------------
    def status(self) -> ZipStatus:
        """The zip's state now, as found on disk (shared by every process)."""
        with contextlib.suppress(OSError):
            return ZipStatus("ready", retry_after=0, size=self.zip_path.stat().st_size)
        failure = self._failure()
        wait = math.ceil(failure.next_try - time.time()) if failure else 0
        if failure and wait > 0:
            return ZipStatus("failed", retry_after=wait, reason=failure.reason)
        return ZipStatus("preparing", progress=read_progress(self.progress_path))

    def open_zip(self) -> IO[bytes] | None:
        """The finished zip opened for reading, or None while there is none."""
        try:
            return open(self.zip_path, "rb")
        except OSError:
            self._settled = False  # gone (removed by hand?): the next start builds it again
            return None

    # -- building ----------------------------------------------------------------------------
    def start(self) -> None:
        """Make sure this process is building, or waiting to build, until the zip exists.

        The first turn also removes what builds of a killed server left, even when the zip is
        there already."""
        if self._stopping.is_set() or self._settled:
            return
        with self._guard:
            if self._thread is not None and self._thread.is_alive():
                return
            self._thread = threading.Thread(target=self._run, daemon=True, name="judgekit-pack")
            self._thread.start()
            if not self._closing_at_exit:
                atexit.register(self.close)
                self._closing_at_exit = True

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                wait = self._attempt()
            except OSError as exc:  # the folder, its lock or a temporary folder cannot be made
                log.warning("judge pack: cannot prepare a build in %s: %s", self.folder, exc)
                wait = self._record_failure(reason_of(exc) or UNWRITABLE)
            if wait <= 0:
                self._settled = self.zip_path.is_file()
                return
            self._stopping.wait(wait)

    def _attempt(self) -> float:
        """One turn under the lock: 0 when the zip exists, else the seconds to wait."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with self._locked() as lock:
            self.remove_leftovers()  # no build runs while the lock is held: any is left over
            if self.zip_path.is_file() or self._stopping.is_set():
                return 0
            failure = self._failure()
            if failure and failure.next_try > time.time():
                return failure.next_try - time.time()
            reason = self._build(lock)
            if self._stopping.is_set():  # stopped with the server, not failed
                return 0
            if reason:
                return self._record_failure(reason)
            with contextlib.suppress(OSError):
                self._failure_path.unlink()
            self._local = None
            self._prune()
            return 0

    @contextlib.contextmanager
    def _locked(self) -> Iterator[int | None]:
        """The folder's build lock, held by this thread (and by the build's child process)."""
        try:
            import fcntl
        except ImportError:  # Windows serves from one process: the thread is the only builder
            yield None
            return
        fd = os.open(self.folder / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
        _LOCK_FDS.add(fd)  # from here, not from when the lock is granted: a fork may come between
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield fd
        finally:
            _LOCK_FDS.discard(fd)
            os.close(fd)  # releases the lock unless the build's child still holds it

    def _build(self, lock: int | None) -> str:
        """Build in a child process; "" on success, else the reason it failed."""
        temp = Path(tempfile.mkdtemp(prefix=TEMP_MARK, dir=self.folder))
        self._temp = temp
        command = [sys.executable, "-m", "judgekit.pack.zipchild", "--parent", str(os.getpid())]
        command += ["--root", self.root, "--digest", self.digest, "--base-url", self.base_url]
        command += ["--temp", str(temp), "--final", str(self.zip_path)]
        command += ["--progress", str(self.progress_path)]
        print(f"judge pack: building {self.zip_path.name}", file=sys.stderr, flush=True)
        try:
            # The child is started by this thread, which waits for it: on Linux the child asks to
            # be stopped when this thread ends (PR_SET_PDEATHSIG), as when the server is killed.
            self._child = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                pass_fds=(lock,) if lock is not None else (),
                # Out of the worker's process group, which a stopping worker kills at once: the
                # build ends on its own SIGTERM (its parent gone), removing its temporary folder.
                start_new_session=True,
            )
            code = self._finish(self._child)
        finally:
            self._child = None
            shutil.rmtree(temp, ignore_errors=True)
            self._temp = None
            with contextlib.suppress(OSError):
                self.progress_path.unlink()
        if code == 0 and self.zip_path.is_file():
            print(f"judge pack: built {self.zip_path.name}", file=sys.stderr, flush=True)
            return ""
        return REASON_OF_EXIT.get(code, FAILED)

    @staticmethod
    def _finish(child: subprocess.Popen) -> int:
        """The child's exit status; one that takes longer than BUILD_LIMIT is stopped."""
        try:
            return child.wait(timeout=BUILD_LIMIT)
        except subprocess.TimeoutExpired:
            print("judge pack: the build took too long; stopped it", file=sys.stderr, flush=True)
            _stop_child(child)
            return -1

    # -- failures ----------------------------------------------------------------------------
    def _failure(self) -> Failure | None:
        """This run's last failure, from the folder (shared) or this process's own."""
        found = self._local
        try:
            data = json.loads(self._failure_path.read_text(encoding="utf-8"))
            if data.get("run") == self.run:
                found = Failure(str(data["reason"]), int(data["attempts"]), float(data["next_try"]))
        except (OSError, ValueError, KeyError, TypeError):
            pass
        return found

    def _record_failure(self, reason: str) -> float:
        """Record a failed build and return the seconds until the next try."""
        before = self._failure()
        attempts = (before.attempts if before else 0) + 1
        wait = min(self.retry_first * 2 ** (attempts - 1), RETRY_MOST)
        failure = Failure(reason, attempts, time.time() + wait)
        self._local = failure
        print(
            f"judge pack: build failed ({reason}); trying again in {wait_words(math.ceil(wait))}",
            file=sys.stderr,
            flush=True,
        )
        data = {"run": self.run, **failure.__dict__}
        temp = self.folder / f"{TEMP_MARK}{self.key}-{os.getpid()}.json"
        with contextlib.suppress(OSError):
            temp.write_text(json.dumps(data), encoding="utf-8")
            os.replace(temp, self._failure_path)
        with contextlib.suppress(OSError):
            temp.unlink()
        return wait

    # -- cleaning ----------------------------------------------------------------------------
    def clean_after_stop(self) -> None:
        """Once the server's processes are stopped (a build with them, killed too fast to clean up
        after itself): remove its temporary files, unless another server's build holds the lock."""
        try:
            import fcntl
        except ImportError:  # Windows: close() removed them
            return
        with contextlib.suppress(OSError):
            fd = os.open(self.folder / LOCK_NAME, os.O_RDWR)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # OSError: a build runs
                self.remove_leftovers()
            finally:
                os.close(fd)

    def remove_leftovers(self) -> None:
        """Remove what interrupted builds left (call under the lock: no build is running)."""
        for path in self.folder.glob(f"{TEMP_MARK}*"):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    path.unlink()

    def _prune(self) -> None:
        """Keep the newest few zips (and this one); drop other keys' failure records."""
        zips = sorted(
            (p for p in self.folder.glob("*.zip") if p != self.zip_path),
            key=_modified,
            reverse=True,
        )
        for old in zips[KEEP - 1 :]:
            with contextlib.suppress(OSError):
                old.unlink()
        for record in self.folder.glob("*.failed.json"):
            if record != self._failure_path:
                with contextlib.suppress(OSError):
                    record.unlink()

    def close(self) -> None:
        """Stop: no new build; a running one is stopped and its temporary folder removed."""
        self._stopping.set()
        child, temp = self._child, self._temp
        if child is not None:
            _stop_child(child)
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)

    def _after_fork(self) -> None:
        """In a newly forked process: no build of the parent's runs here."""
        self._thread, self._child, self._temp, self._closing_at_exit = None, None, None, False
        self._guard = threading.Lock()


def pages_fingerprint() -> str:
    """A hash of the templates and static files the pack's pages are made of (the code's hash
    covers Python files only: a release or an edit may change a page and no module)."""
    digest = hashlib.sha256()
    for name, folder in (
        ("templates", resources.templates_dir()),
        ("static", resources.static_dir()),
    ):
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(f"{name}/{path.relative_to(folder).as_posix()}\0".encode())
            with contextlib.suppress(OSError):
                digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _modified(path: Path) -> float:
    """When a file was last written; 0 for one already gone (another server pruned it)."""
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _stop_child(child: subprocess.Popen) -> None:
    """Ask a build to stop (it removes its temporary folder as it ends); kill it if it lingers."""
    if child.poll() is not None:
        return
    child.terminate()
    try:
        child.wait(timeout=10)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


# The lock file as opened by build threads: a process forked meanwhile (a worker started or
# restarted) must not keep it open, or the lock would outlive the build that took it.
_LOCK_FDS: set[int] = set()
_JOBS: weakref.WeakSet[PackZip] = weakref.WeakSet()


def _forget_parents_builds() -> None:
    for fd in list(_LOCK_FDS):
        with contextlib.suppress(OSError):
            os.close(fd)
    _LOCK_FDS.clear()
    for job in list(_JOBS):
        job._after_fork()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_parents_builds)


def pack_zip_for(config: Mapping[str, Any], digest: str) -> PackZip:
    """The pack zip of an app with this config, serving a corpus of this digest (nothing is
    built until it is started)."""
    folder = config.get("PACK_CACHE_DIR") or default_pack_cache_dir()
    root = str(Path(config["CORPUS_DIR"]).resolve())
    return PackZip(
        Path(folder), root, config, digest, float(config.get("PACK_RETRY_SECONDS", RETRY_FIRST))
    )
