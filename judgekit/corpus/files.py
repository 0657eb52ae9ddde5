"""The corpus's files on disk, looked at before any is opened.

A corpus folder may be a copy from anywhere. Each entry under rules/ and rulings/ is looked at
with ``os.lstat`` (never opened) so that a FIFO waiting for a writer, a device such as
/dev/zero, a link leading out of the corpus or a file too large to be a corpus file is refused
with its path instead of hanging or exhausting memory. ``yamlio.load_yaml`` checks the file it
opens again, for files that change between this look and the read.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from judgekit.corpus.yamlio import MAX_YAML_BYTES

CORPUS_DIRS = ("rules", "rulings")
MAX_CORPUS_BYTES = 32 * 1024 * 1024  # all its YAML files; the built-in corpus's hold 0.6 MB
MAX_FILES = 5_000  # files and folders under rules/ and rulings/; the built-in corpus has about 40
_KINDS = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _special(mode: int) -> str | None:
    """What a file is when it is neither a regular file nor a folder, else None."""
    return next((what for test, what in _KINDS if test(mode)), None)


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _entry_problem(path: Path, info: os.stat_result, real_root: str) -> str | None:
    """Why one file or folder must not be in the corpus, or None."""
    if stat.S_ISLNK(info.st_mode):
        target = os.path.realpath(path)  # never raises; a loop leaves a path that does not exist
        if not _inside(target, real_root):
            return f"{path}: a link to {target}, outside the corpus: copy the file in instead"
        try:
            info = os.stat(path)
        except OSError:
            return f"{path}: a link to {target}, which does not exist"
    special = _special(info.st_mode)
    if special:
        return f"{path}: {special}, not a file: remove it"
    if stat.S_ISREG(info.st_mode) and path.suffix == ".yaml" and info.st_size > MAX_YAML_BYTES:
        return (
            f"{path}: {info.st_size:,} bytes: larger than a corpus file may be "
            f"({MAX_YAML_BYTES:,} bytes)"
        )
    return None


def _walk(base: Path, real_root: str, problems: list[str]) -> int:
    """Each file and folder under base (links not followed), at most MAX_FILES of them.

    Returns the bytes of its YAML files.
    """
    seen = total = 0
    folders = [base]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as entries:
                found = sorted(entries, key=lambda e: e.name)
        except OSError as exc:
            problems.append(f"{folder}: cannot list the folder ({exc.strerror or exc})")
            continue
        for entry in found:
            seen += 1
            if seen > MAX_FILES:
                problems.append(f"{base}: more than {MAX_FILES:,} files and folders")
                return total
            path = Path(entry.path)
            info = entry.stat(follow_symlinks=False)
            problem = _entry_problem(path, info, real_root)
            if problem:
                problems.append(problem)
            elif stat.S_ISDIR(info.st_mode):
                folders.append(path)
            elif path.suffix == ".yaml":
                with contextlib.suppress(OSError):  # a link's target, checked just above
                    total += os.stat(path).st_size
    return total


def special_file_problems(root: Path) -> list[str]:
    """Links leaving the corpus, special files and too much YAML under rules/ and rulings/.

    Each as ``path: message`` (no line: the file is never opened). Any of them stops loading.
    """
    problems: list[str] = []
    real_root = os.path.realpath(root)
    total = 0
    for name in CORPUS_DIRS:
        base = root / name
        try:
            info = os.lstat(base)
        except OSError:
            continue  # missing: reported by missing_folder_problems, and loading goes on
        problem = _entry_problem(base, info, real_root)
        if problem:
            problems.append(problem)
        elif os.path.isdir(base):
            total += _walk(base, real_root, problems)
    if total > MAX_CORPUS_BYTES:
        problems.append(
            f"{root / CORPUS_DIRS[0]} and {root / CORPUS_DIRS[1]}: their YAML files hold more "
            f"than the {MAX_CORPUS_BYTES:,} bytes a corpus may"
        )
    return problems


def missing_folder_problems(root: Path) -> list[str]:
    """rules/ or rulings/ missing or not a folder: a corpus holds both (a fixture's may be empty)."""
    return [
        f"{root / name}: folder missing: a corpus holds rules/ and rulings/ (each may be empty)"
        for name in CORPUS_DIRS
        if not (root / name).is_dir()
    ]
