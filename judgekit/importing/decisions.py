"""The maintainer's decisions on an import, kept in the draft folder's ``decisions.yaml``.

```yaml
decisions:
  - entry: Order – Beam Personnel     # a heading as printed, or the draft's provisional id
    continues: beaming                # the base version's entry it continues
  - entry: Decipher
    new: true                         # not a continuation: a new id
  - lines: "84-101"                   # source lines that are not rules text
    not_rules: web page menu
```

A re-run of the import reads the file first and applies every decision, so the maintainer's
answers survive; the report marks the matches decided.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from judgekit.importing.source import ImportRefused

FILE = "decisions.yaml"


@dataclass(frozen=True)
class Decisions:
    """Matches settled (heading or provisional id -> base id, or None for new) and lines cut."""

    matches: tuple[tuple[str, str | None], ...] = ()
    cuts: tuple[tuple[int, int, str], ...] = ()

    def forced(self, ids: list[str], titles: list[str]) -> dict[str, str | None]:
        """The decided matches by provisional id."""
        out: dict[str, str | None] = {}
        for key, target in self.matches:
            for pid, title in zip(ids, titles, strict=True):
                if key in (pid, title) or key.casefold() == title.casefold():
                    out[pid] = target
        return out

    def unused(self, ids: list[str], titles: list[str]) -> list[str]:
        """Decided headings the source no longer prints (the report lists them)."""
        names = set(ids) | {t.casefold() for t in titles}
        return [k for k, _ in self.matches if k not in names and k.casefold() not in names]

    def apply_cuts(self, lines: tuple[str, ...]) -> tuple[str, ...]:
        """The source's lines with those decided "not rules text" blanked."""
        out = list(lines)
        for first, last, _ in self.cuts:
            for n in range(first, min(last, len(out)) + 1):
                out[n - 1] = ""
        return tuple(out)


def read_decisions(folder: Path) -> Decisions:
    """The decisions kept in ``folder`` (none if it holds no decisions file)."""
    path = folder / FILE
    if not path.is_file():
        return Decisions()
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise ImportRefused(f"{path}: not readable YAML ({exc})") from None
    matches, cuts = [], []
    for n, item in enumerate((data.get("decisions") or []) if isinstance(data, dict) else [], 1):
        if not isinstance(item, dict):
            raise ImportRefused(f"{path}: decision {n} is not a mapping")
        if "entry" in item:
            if item.get("new") is True:
                matches.append((str(item["entry"]), None))
            elif isinstance(item.get("continues"), str):
                matches.append((str(item["entry"]), item["continues"]))
            else:
                raise ImportRefused(f"{path}: decision {n} needs 'continues: ID' or 'new: true'")
        elif "lines" in item:
            first, _, last = str(item["lines"]).partition("-")
            if not (first.isdigit() and (last or first).isdigit()):
                raise ImportRefused(f"{path}: decision {n}: lines must be 'A-B'")
            cuts.append((int(first), int(last or first), str(item.get("not_rules", ""))))
        else:
            raise ImportRefused(f"{path}: decision {n} names no 'entry' and no 'lines'")
    return Decisions(tuple(matches), tuple(cuts))
