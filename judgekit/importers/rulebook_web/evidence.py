"""Evidence for the icon corrections: the same sentences in the other seed texts."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from ..common import squash_ws
from .icon_words import IconFix

# Other texts of the same rulebook, searched for evidence (label, file).
EVIDENCE_SEEDS = (
    ("Call to Arms", "000_2dfc9177df82ec32.txt"),
    ("Call to Arms", "003_cdfbab3c1277486b.txt"),
    ("Version 4", "001_e0857e3ae769ceaa.txt"),
)
# The Call to Arms icon guide (first line of 000) names every icon.
LEGEND = ("000_2dfc9177df82ec32.txt", 1)


def _fold(text: str) -> str:
    # Only the quotes the 1.1 page and the other texts disagree on.
    return text.replace("’", "'").replace("“", '"').replace("”", '"')


class SeedIndex:
    """The other seed texts, searchable by phrase, answering with line numbers."""

    def __init__(self, seeds: Path) -> None:
        self.texts: list[tuple[str, str, str, list[int]]] = []
        for label, name in EVIDENCE_SEEDS:
            path = seeds / name
            if not path.exists():
                continue
            flat, starts = [], []
            pos = 0
            for line in path.read_text(encoding="utf-8").splitlines():
                starts.append(pos)
                piece = squash_ws(_fold(line))
                flat.append(piece)
                pos += len(piece) + 1
            self.texts.append((label, name, " ".join(flat), starts))

    def find(self, probes: str) -> list[tuple[str, int]]:
        """(file prefix, line) of each text holding one of the NUL-separated phrases."""
        hits = []
        for _label, name, flat, starts in self.texts:
            for phrase in probes.split("\x00"):
                phrase = squash_ws(phrase.replace("’", "'"))
                at = flat.find(phrase) if len(phrase) >= 8 else -1
                if at >= 0:
                    line = max(i for i, s in enumerate(starts) if s <= at) + 1
                    hits.append((name[:3], line))
                    break
        return hits


def icon_labels() -> dict[str, str]:
    """Icon name -> label, from the project's icon vocabulary."""
    path = Path(__file__).resolve().parents[3] / "rules" / "icons.yaml"
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {i["name"]: i.get("label", i["name"]) for i in data.get("icons", [])}


def read_legend(seeds: Path) -> str:
    """The Call to Arms icon guide line, or '' without that seed."""
    path = seeds / LEGEND[0]
    return path.read_text(encoding="utf-8").splitlines()[LEGEND[1] - 1] if path.exists() else ""


def legend_phrase(name: str, labels: dict[str, str], legend: str) -> str | None:
    """How the Call to Arms icon guide names an icon ("Klingon affiliation", "dual - dilemma")."""
    label = labels.get(name, name.replace("-", " "))
    for cand in (label, label.split()[0]):
        m = re.search(rf"{re.escape(cand)}(?: - [\w/]+| affiliation)?", legend, re.I)
        if m:
            return m.group(0)
    return None


def evidence(fix: IconFix, index: SeedIndex, labels: dict[str, str], legend: str) -> str:
    """Where the other texts show the icon or character this correction restores."""
    hits = index.find(fix.probe) if fix.probe else []
    where = ", ".join(f"{f} line {n}" for f, n in hits) or "no other text"
    names = list(dict.fromkeys(re.findall(r"\{icon:([a-z0-9-]+)\}", fix.corrected)))
    phrases = [p for p in (legend_phrase(n, labels, legend) for n in names) if p]
    guide = (
        (
            f"; the icon guide ({LEGEND[0][:3]} line {LEGEND[1]}) names it "
            + " and ".join(repr(p) for p in phrases)
        )
        if phrases
        else ""
    )
    if fix.what == "uniqueness dot":
        return (
            f"image alt text 'Unique' stands for the uniqueness dot; the same sentence has "
            f"the dot (• or ●) in {where}"
        )
    if fix.what.startswith("icon list item"):
        alt = fix.what[len("icon list item ") :].strip("()")
        return (
            f"image alt text {alt} of the icon written as words before its label; the same "
            f"icon list ({fix.probe!r}) is at {where}{guide}"
        )
    return (
        f"{fix.what} written as its image alt text; the same sentence ({where}) has an icon "
        f"here (lost, left blank or garbled by those extractions){guide}"
    )
