"""The on-disk index cache: keyed by a hash of the corpus, built atomically, validated on open."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import whoosh
from whoosh.filedb.filestore import FileStorage, RamStorage

from judgekit.resources import PACKAGE, code_files
from judgekit.search.analysis import Speller
from judgekit.search.documents import (
    INDEX_FORMAT,
    IndexDoc,
    build_in,
    build_ram,
    make_schema,
    vocab_of,
)
from judgekit.search.index import SearchIndex

log = logging.getLogger(__name__)

META = "judgekit-meta.json"
KEEP = 6  # cache entries kept; older ones (other corpora, old code) are pruned
# Seconds to wait for another process building the index (the real corpus takes about 10 s).
LOCK_WAIT = 60


def code_fingerprint() -> str:
    """A hash of the code that shapes the index, so a new release never reads an old cache."""
    digest = hashlib.sha256(f"{INDEX_FORMAT}|{whoosh.versionstring()}".encode())
    # Every module of the package: a renamed or new file can never leave the key unchanged.
    for path in code_files():
        digest.update(str(path.relative_to(PACKAGE)).encode())
        with contextlib.suppress(OSError):
            digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_key(corpus_digest: str, extra: str = "") -> str:
    """The cache entry's name: corpus, code and any extra sources (timing steps) together."""
    return hashlib.sha256(f"{corpus_digest}|{code_fingerprint()}|{extra}".encode()).hexdigest()[:32]


def default_cache_dir() -> Path | None:
    """$JUDGEKIT_SEARCH_CACHE_DIR ("" for none: index in memory), else the per-user cache."""
    chosen = os.environ.get("JUDGEKIT_SEARCH_CACHE_DIR")
    if chosen is not None:
        return Path(chosen) if chosen.strip() else None
    base = os.environ.get("XDG_CACHE_HOME") or os.environ.get("LOCALAPPDATA")
    return Path(base or Path.home() / ".cache") / "judgekit" / "search"


def _files(folder: Path) -> dict[str, bytes]:
    """The index files of a cache entry, read whole (they are small: about 1 MB)."""
    return {
        p.name: p.read_bytes()
        for p in sorted(folder.iterdir())
        if p.is_file() and p.name != META and not p.name.endswith(("LOCK", ".lock"))
    }


def _checksums(files: dict[str, bytes]) -> dict[str, str]:
    return {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}


def _open(folder: Path, key: str, expected: int) -> SearchIndex:
    """Load a cache entry into memory, or raise if it is stale, incomplete or corrupt.

    The checked bytes are what is served: no file is read again, so a later change to the
    folder (pruning, a rebuild by another process) cannot affect a running server.
    """
    meta = json.loads((folder / META).read_text(encoding="utf-8"))
    if meta.get("key") != key or meta.get("doc_count") != expected:
        raise ValueError("stale index cache")
    files = _files(folder)
    if _checksums(files) != meta.get("files"):
        raise ValueError("index cache files do not match their checksums")
    storage = RamStorage()
    storage.files.update(files)
    ix = storage.open_index()
    if ix.doc_count() != expected:
        raise ValueError("index cache holds the wrong number of items")
    return SearchIndex(ix, Speller({w: int(n) for w, n in meta["vocab"].items()}))


@contextlib.contextmanager
def _lock(path: Path) -> Iterator[None]:
    """An exclusive lock between processes; where flock is missing, atomic rename suffices."""
    try:
        import fcntl
    except ImportError:  # Windows: racing builders both build; one rename wins
        yield
        return
    with open(path, "a+b") as handle:
        _wait_for_lock(handle, path)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _wait_for_lock(handle, path: Path) -> None:
    """Take the lock; when another process holds it, say so and wait at most LOCK_WAIT seconds
    (then TimeoutError: the caller indexes in memory rather than wait on a stuck process)."""
    import fcntl

    def took() -> bool:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False

    if took():
        return
    log.warning(
        "search index cache: %s is held by another process building the index; waiting up to %d s",
        path,
        LOCK_WAIT,
    )
    deadline = time.monotonic() + LOCK_WAIT
    while not took():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{path} still held after {LOCK_WAIT} s")
        time.sleep(0.2)


def _kind(path: Path) -> str:
    if path.is_symlink():
        return "a link"
    return "a folder" if path.is_dir() else "a file"


def _repair_lock(path: Path) -> None:
    """Remove a folder or link standing where the lock file must be, saying so (flock needs a file)."""
    if not path.is_symlink() and (not path.exists() or path.is_file()):
        return
    found = _kind(path)
    try:
        if found == "a folder":
            shutil.rmtree(path)  # refuses anything that is not a real folder by the time it runs
        else:
            path.unlink()
    except FileNotFoundError:
        return  # another process repaired it first
    log.warning("search index cache: %s was %s, not a lock file; removed it", path, found)


def _repair_entry(final: Path) -> None:
    """Remove a file or link standing where a cache entry's folder must be (under the lock)."""
    if not final.is_symlink() and (not final.exists() or final.is_dir()):
        return
    found = _kind(final)
    final.unlink()
    log.warning("search index cache: %s was %s, not a cache folder; removed it", final, found)


def _discard(folder: Path) -> None:
    """Move a bad entry aside, then delete it, so no reader ever opens it again."""
    aside = folder.with_name(f".{folder.name}.bad-{os.getpid()}-{time.monotonic_ns()}")
    with contextlib.suppress(OSError):
        folder.rename(aside)
        shutil.rmtree(aside, ignore_errors=True)


def _prune(cache_dir: Path, keep: str) -> None:
    """Delete old entries beyond the newest few, and temp folders abandoned by crashed builds."""
    entries = sorted(
        (p for p in cache_dir.iterdir() if p.is_dir() and len(p.name) == 32 and p.name != keep),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    for old in entries[KEEP - 1 :]:
        _discard(old)
    hour_ago = time.time() - 3600
    for tmp in cache_dir.glob(".*.tmp-*"):
        with contextlib.suppress(OSError):
            if tmp.stat().st_mtime < hour_ago:
                shutil.rmtree(tmp, ignore_errors=True)


def _write(cache_dir: Path, key: str, docs: Sequence[IndexDoc]) -> Path:
    """Build into a private temp folder (one writer), then rename it into place."""
    tmp = Path(tempfile.mkdtemp(prefix=f".{key}.tmp-", dir=cache_dir))
    try:
        ix = FileStorage(str(tmp)).create_index(make_schema())
        build_in(ix, docs)
        ix.close()
        meta = {
            "key": key,
            "doc_count": len(docs),
            "files": _checksums(_files(tmp)),
            "vocab": vocab_of(docs),
        }
        (tmp / META).write_text(json.dumps(meta), encoding="utf-8")
        os.chmod(tmp, 0o755)  # mkdtemp makes it private; other server processes read it
        final = cache_dir / key
        try:
            tmp.rename(final)
        except OSError:
            if not final.exists():
                raise
            shutil.rmtree(tmp, ignore_errors=True)  # another process got there first
        return final
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def load_or_build(
    cache_dir: str | Path | None,
    key: str,
    expected: int,
    make_docs: Callable[[], Sequence[IndexDoc]],
) -> tuple[SearchIndex, str]:
    """The index from a valid cache entry, else built (and cached if the folder is writable).

    expected is the number of items the corpus holds (checked without building them).
    Returns the index and how it was obtained: "cache", "built" or "memory".
    """
    if not cache_dir:
        return build_ram(make_docs()), "memory"
    cache_dir = Path(cache_dir)
    final = cache_dir / key
    if final.is_dir():
        try:
            found = _open(final, key, expected)
            with contextlib.suppress(OSError):
                os.utime(final)  # mark it recently used, for pruning
            return found, "cache"
        except Exception as exc:  # anything wrong with it: never serve it, rebuild
            log.warning("search index cache %s unusable (%s); rebuilding", final, exc)
    docs: Sequence[IndexDoc] | None = None
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        _repair_lock(cache_dir / ".build.lock")
        with _lock(cache_dir / ".build.lock"):
            _repair_entry(final)
            if final.is_dir():  # built by another process while we waited, or bad
                try:
                    return _open(final, key, expected), "cache"
                except Exception:
                    _discard(final)
            docs = make_docs()
            _write(cache_dir, key, docs)
            _prune(cache_dir, key)
            return _open(final, key, expected), "built"
    except Exception as exc:  # read-only install, full disk, a bad write: serve from memory
        log.warning("search index cache %s not writable (%s); indexing in memory", cache_dir, exc)
        return build_ram(docs if docs is not None else make_docs()), "memory"
