"""Explicit lineage between versions (``continues``): which rule became which, and how it reads."""

from __future__ import annotations

from dataclasses import dataclass

from judgekit.corpus.model import Corpus, Document
from judgekit.corpus.references import parse_target

# How a relation reads from the older entry, then from the newer one.
_PHRASES = {"replaced": ("replaced by", "replaces"), "renamed": ("renamed to", "renamed from")}


def phrase(relation: str, forward: bool) -> str:
    """ "merged into" from the older rule's side, "merged from" from the newer one's."""
    onward, back = _PHRASES.get(relation, (f"{relation} into", f"{relation} from"))
    return onward if forward else back


@dataclass(frozen=True)
class Link:
    """The rule ``old_id`` of ``old_version`` continues as ``new_id`` of ``new_version``."""

    old_version: str
    old_id: str
    new_version: str
    new_id: str
    relation: str


def links(corpus: Corpus, document: str) -> list[Link]:
    """Every ``continues`` of a document's entries that points at an older held version."""
    doc = corpus.documents[document]
    order = doc.order()
    found = []
    for version in doc.versions:
        for entry in version.walk():
            for rel in entry.continues:
                there = parse_target(rel.ref, document, version.id)
                if (
                    there
                    and there.document == document
                    and order.get(there.version, 1e9) < order[version.id]
                ):
                    found.append(Link(there.version, there.id, version.id, entry.id, rel.relation))
    return found


def spanning(
    doc: Document, found: list[Link], old_id: str, new_id: str
) -> list[tuple[str, str, str]]:
    """(id in old, id in new, relation as the old entry sees it) for lineage spanning two versions.

    ``found`` is the document's ``links``. A link from (v, X) to (w, Y) holds between any
    versions around it that have X and Y, since an id names the same rule in every version.
    Going back in time, it reads the other way.
    """
    old, new = doc.version(old_id), doc.version(new_id)
    order = doc.order()
    lo, hi = sorted((order[old_id], order[new_id]))
    forward = order[old_id] < order[new_id]
    out = []
    for link in found:
        if not (lo <= order[link.old_version] and order[link.new_version] <= hi):
            continue
        if forward and old.get(link.old_id) and new.get(link.new_id):
            out.append((link.old_id, link.new_id, phrase(link.relation, True)))
        elif not forward and old.get(link.new_id) and new.get(link.old_id):
            out.append((link.new_id, link.old_id, phrase(link.relation, False)))
    return out
