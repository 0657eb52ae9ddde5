"""Where the built-in corpus and templates live: inside the wheel, or in the repository."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

PACKAGE = Path(str(files("judgekit")))


def data_root() -> Path:
    """The folder holding the built-in ``rules/``, ``rulings/`` and ``templates/``.

    A wheel maps the repository's top-level folders into the package; an editable install
    (or a checkout on the path) reads the repository's own folders beside the package.
    """
    if (PACKAGE / "rules").is_dir():
        return PACKAGE
    return PACKAGE.parent


def templates_dir() -> Path:
    """The Jinja templates folder."""
    return data_root() / "templates"


def static_dir() -> Path:
    """The static files folder (scripts, styles, icons), inside the package."""
    return PACKAGE / "static"


def code_files() -> list[Path]:
    """Every Python file of the package, in a stable order (for cache fingerprints)."""
    return sorted(PACKAGE.rglob("*.py"))
