"""Shared helpers for the importers: slugs, line access and YAML output."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

import yaml

_SLUG_DROP = re.compile(r"[^a-z0-9\s-]")
_SLUG_SPACE = re.compile(r"[\s_–—-]+")


def slugify(text: str) -> str:
    """Lowercase, ASCII, words joined by '-': the id convention of rules/FORMAT.md."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = text.lower().replace("'", "").replace("’", "")
    text = _SLUG_DROP.sub(" ", text)
    return _SLUG_SPACE.sub("-", text).strip("-")


def read_lines(path: str | Path) -> list[str]:
    """The seed's lines without line ends; index 0 is line 1."""
    return Path(path).read_text(encoding="utf-8").splitlines()


def join_wrapped(lines: list[str]) -> str:
    """Join hard-wrapped lines into paragraphs separated by blank lines."""
    paras: list[str] = []
    cur: list[str] = []
    for line in lines:
        if line.strip():
            cur.append(line.strip())
        elif cur:
            paras.append(" ".join(cur))
            cur = []
    if cur:
        paras.append(" ".join(cur))
    return "\n\n".join(paras)


class _Dumper(yaml.SafeDumper):
    pass


def _str_presenter(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    # Literal blocks keep rules text readable and diffable in review.
    style = "|" if "\n" in data else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _str_presenter)


def dump_yaml(data: Any, path: str | Path) -> None:
    """Write data as block-style YAML with literal multi-line strings, keys in given order."""
    text = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    Path(path).write_text(text, encoding="utf-8")
