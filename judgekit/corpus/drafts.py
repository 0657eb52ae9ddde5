"""A draft folder: a new version (or a new document) in the corpus's format, read on top of it.

A draft mirrors the corpus root: ``DIR/rules/<document>/<version>.yaml`` (or ``rulings/``) with
the companions the corpus has beside a version (``<version>.corrections.yaml``, …), and
``DIR/<rules|rulings>/<document>/document.yaml`` only for a new document. The importer's report
and the maintainer's decisions sit at the top of DIR and are not part of the corpus. A draft
adds: a file it holds that the corpus holds already is refused, never read over the held one.

This module knows the layout and copies an accepted draft in; reading it is ``read_corpus``'s
(read.py), and checking it before accepting is ``judgekit.checks.accept``'s.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

from judgekit.corpus.files import CORPUS_DIRS

# Beside a version: <version><suffix> (the same list read.py reads companions by).
COMPANION_SUFFIXES = (".corrections.yaml", ".timing.yaml", ".mentions.yaml", ".pages.yaml")
DOCUMENT_FILE = "document.yaml"
# At the top of DIR, for the maintainer: never copied into the corpus.
REPORT_FILES = ("import-report.md", "import-report.json", "decisions.yaml")
DRAFT_WORDS = "Draft: not accepted into judgekit"


def draft_files(draft: Path) -> list[Path]:
    """Every file under the draft's rules/ and rulings/, relative to the draft, sorted."""
    found: list[Path] = []
    for name in CORPUS_DIRS:
        base = draft / name
        if base.is_dir():
            found.extend(sorted(p.relative_to(draft) for p in base.rglob("*") if not p.is_dir()))
    return found


def version_of(name: str) -> str | None:
    """The version a file beside a document's versions belongs to; None for document.yaml."""
    if name == DOCUMENT_FILE:
        return None
    for suffix in COMPANION_SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name[: -len(".yaml")]


def _file_problem(root: Path, draft: Path, rel: Path, versions: set[tuple[str, ...]]) -> str | None:
    """Why one file of the draft cannot go into the corpus at root, or None."""
    where = draft / rel
    if len(rel.parts) != 3 or rel.suffix != ".yaml":
        return (
            f"{where}:0: not a corpus file: a draft holds <rules|rulings>/<document>/"
            "<version>.yaml and its companions only"
        )
    area, document, name = rel.parts
    held = root / area / document / DOCUMENT_FILE
    if name == DOCUMENT_FILE:
        if held.exists():
            return (
                f"{where}:1: {document} is held already ({held}): a draft holds document.yaml "
                "only for a new document"
            )
        return None
    if (root / rel).exists():
        return (
            f"{where}:1: {root / rel} is held already: a draft adds a version, it never "
            "replaces one (give the draft's version another id)"
        )
    if not held.exists() and not (draft / area / document / DOCUMENT_FILE).exists():
        return (
            f"{where}:1: the corpus holds no {area}/{document}: a new document's draft holds "
            f"its {area}/{document}/{DOCUMENT_FILE}"
        )
    if (
        version_of(name) != name[: -len(".yaml")]
        and (area, document, version_of(name)) not in versions
    ):
        return (
            f"{where}:1: a companion of version {version_of(name)!r}, which the draft does not "
            "hold: a draft adds versions, not files beside held ones"
        )
    return None


def layout_problems(root: Path, draft: Path) -> list[str]:
    """What makes the folder no draft of the corpus at root, as ``file:line: message``."""
    if not draft.is_dir():
        return [f"{draft}:0: no such folder: a draft is a folder holding rules/ or rulings/"]
    files = draft_files(draft)
    versions = {
        (*rel.parts[:2], version_of(rel.name))
        for rel in files
        if len(rel.parts) == 3 and version_of(rel.name) == rel.stem and rel.suffix == ".yaml"
    }
    if not versions:
        return [
            f"{draft}:0: the draft holds no version: expected "
            f"{draft}/rules/<document>/<version>.yaml (or rulings/)"
        ]
    problems = [_file_problem(root, draft, rel, versions) for rel in files]
    return [p for p in problems if p]


def new_documents(draft: Path, area: str) -> list[Path]:
    """The draft's folders of one area (rules, rulings) that hold a new document."""
    return sorted(p.parent for p in (draft / area).glob(f"*/{DOCUMENT_FILE}"))


def overlay(draft: Path | None, folder: Path) -> Path | None:
    """The draft's folder for a held document's folder, or None when the draft has none."""
    if draft is None:
        return None
    mirrored = draft / folder.parent.name / folder.name
    return mirrored if mirrored.is_dir() else None


def copy_into(draft: Path, root: Path) -> list[Path]:
    """Copy the draft's corpus files into root; the files written, in root.

    Each is written under a temporary name beside its target, then every one put in place: a
    failure midway removes what was put in place and the folders made, so the corpus is left as
    it was. A target that appears meanwhile is never written over (FileExistsError).
    """
    pending: list[tuple[Path, Path]] = []
    made_dirs: list[Path] = []
    done: list[Path] = []
    finished = False
    try:
        for rel in draft_files(draft):
            target = root / rel
            for parent in reversed(target.parents):
                if not parent.exists() and root in parent.parents:
                    parent.mkdir()
                    made_dirs.append(parent)
            fd, temp = tempfile.mkstemp(
                prefix=f".{target.name}.", suffix=".part", dir=target.parent
            )
            pending.append((Path(temp), target))  # removed below, whatever happens next
            with os.fdopen(fd, "wb") as out, open(draft / rel, "rb") as src:
                shutil.copyfileobj(src, out)
                out.flush()
                os.fsync(out.fileno())
        for temp, target in pending:
            # A link, not a rename: it fails if the target exists (rename would replace it).
            os.link(temp, target)
            done.append(target)
        finished = True
    except BaseException:
        for path in done:
            with contextlib.suppress(OSError):
                path.unlink()
        raise
    finally:
        for temp, _ in pending:
            with contextlib.suppress(OSError):
                temp.unlink()
        if not finished:
            for folder in reversed(made_dirs):
                with contextlib.suppress(OSError):
                    folder.rmdir()
    return done
