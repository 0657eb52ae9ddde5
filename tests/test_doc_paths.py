"""Every module a docstring, comment, template or the README names by its path exists: a moved
module leaves no reader looking for it where it was."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = "|".join(sorted(p.parent.name for p in (REPO / "judgekit").glob("*/__init__.py")))
# "judgekit/web/zipjob.py", "pack/zipchild.py", "web/pages/pack.py": a module named by its path.
MODULE_PATH = re.compile(rf"\b(?:judgekit/)?(?:{PACKAGES})(?:/[a-z_]+)*/[a-z_]+\.py\b")


def _readers() -> list[Path]:
    found = [REPO / "README.md", REPO / "rules" / "FORMAT.md"]
    found += sorted((REPO / "judgekit").rglob("*.py"))
    found += sorted((REPO / "judgekit" / "static" / "js").glob("*.js"))
    found += sorted((REPO / "templates").rglob("*.html"))
    return found


def test_the_pattern_finds_module_paths():
    assert MODULE_PATH.findall("see judgekit/web/zipjob.py and pack/zipchild.py.") == [
        "judgekit/web/zipjob.py",
        "pack/zipchild.py",
    ]


def test_every_module_named_by_its_path_exists():
    missing = []
    for path in _readers():
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for named in MODULE_PATH.findall(line):
                module = named.removeprefix("judgekit/")
                if not (REPO / "judgekit" / module).is_file():
                    missing.append(f"{path.relative_to(REPO)}:{lineno}: {named}")
    assert missing == []
