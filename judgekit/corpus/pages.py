"""A version's pages file (``<version>.pages.yaml``): where each entry is printed, with the
evidence for it, and where the printed references of its text pointed (rules/FORMAT.md)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from judgekit.corpus.fields import Problems, read_record
from judgekit.corpus.model import PageEvidence, PagePlace, PrintedReference
from judgekit.corpus.yamlio import load_yaml


@dataclass(frozen=True)
class PagesFile:
    """What a pages file holds: the places by entry id, the printed references, the note."""

    places: dict[str, PagePlace]
    references: tuple[PrintedReference, ...] = ()
    note: str = ""


def load_pages(path: Path, document: str, version: str, probs: Problems) -> PagesFile:
    """A version's pages file, if there is one (none: no place recorded)."""
    if not path.exists():
        return PagesFile({})
    raw = load_yaml(path)
    data = read_record(raw, "pages file", str(path), probs) if raw is not None else None
    if data is None:
        return PagesFile({})
    if (data["document"], data["version"]) != (document, version):
        probs.add(path, data["_line"], f"the pages file must name {document!r} version {version!r}")
    places: dict[str, PagePlace] = {}
    for item in data["pages"]:
        where = f"{path}:{item['_line']}"
        if (item["page"] is None) == (item["pages"] is None):
            probs.add(path, item["_line"], "a page place gives one of 'page' and 'pages'")
            continue
        if item["entry"] in places:
            probs.add(path, item["_line"], f"entry {item['entry']!r} has two page places")
            continue
        first, last = (item["page"], item["page"]) if item["pages"] is None else item["pages"]
        evidence = tuple(
            PageEvidence(e["source"], e["line"], e["shows"], e["reads"]) for e in item["evidence"]
        )
        if not evidence:
            probs.add(path, item["_line"], f"the page of {item['entry']!r} records no evidence")
        places[item["entry"]] = PagePlace(
            item["entry"], first, last, item["basis"], evidence, where
        )
    references = tuple(
        PrintedReference(
            r["entry"], r["words"], r["pointed_to"], r["target"], f"{path}:{r['_line']}"
        )
        for r in data["references"]
    )
    return PagesFile(places, references, data["note"])
