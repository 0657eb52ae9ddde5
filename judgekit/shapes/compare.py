"""The JSON shapes of the diff API; the compare, history and marked pages render these dicts."""

from __future__ import annotations

from typing import Any

from judgekit import urls
from judgekit.compare.diff import Change, Comparison, Step
from judgekit.compare.worddiff import diff_html
from judgekit.corpus.model import Document, Entry, Version
from judgekit.render.library import Library
from judgekit.shapes import reading as serialize


def compare_url(lib: Library, document: str, old: str, new: str) -> str:
    """The page of the changes from one version to another."""
    return urls.compare_page(document, old, new)


def compare_api_url(lib: Library, document: str, old: str, new: str) -> str:
    """The JSON of the changes from one version to another."""
    return urls.compare_api(document, old, new)


def history_url(lib: Library, document: str, entry_id: str) -> str:
    """The page of one entry across every version."""
    return urls.history_page(document, entry_id)


def marked_url(lib: Library, version: Version) -> str:
    """The page of a rulings version's entries marked * (new or changed)."""
    return urls.marked_page(version.document, version.id)


def _crumbs(lib: Library, entry: Entry | None) -> list[dict[str, Any]] | None:
    if entry is None:
        return None
    return [{"id": e.id, "title": e.title, "url": lib.entry_url(e)} for e in lib.breadcrumb(entry)]


def _side(lib: Library, entry: Entry | None, side: str) -> dict[str, Any]:
    """The from_* or to_* fields of one side of a change."""
    return {
        f"{side}_id": entry.id if entry else None,
        f"{side}_title": entry.title if entry else None,
        f"{side}_kind": entry.kind if entry else None,
        f"{side}_text": lib.plain(entry) if entry else None,
        f"{side}_breadcrumb": _crumbs(lib, entry),
        f"{side}_url": lib.entry_url(entry) if entry else None,
        f"{side}_api_url": lib.entry_api_url(entry) if entry else None,
    }


def change_dict(lib: Library, change: Change, typography: bool = False) -> dict[str, Any]:
    """One change, with word diffs of its title and text (escaped HTML with ins/del)."""
    old, new = change.old, change.new
    either = new or old
    both = old is not None and new is not None
    return {
        "status": change.status,
        "id": change.id,
        "title": either.title,
        "kind": either.kind,
        **_side(lib, old, "from"),
        **_side(lib, new, "to"),
        "moved": change.moved,
        "renamed": change.renamed,
        "text_changed": change.text_changed,
        "typography_only": change.typography_only,
        "relation": change.relation,
        "title_diff": diff_html(old.title, new.title, typography=typography, casefold=True)
        if both
        else None,
        "diff": diff_html(lib.plain(old), lib.plain(new), typography=typography) if both else None,
        # An added or removed entry is shown whole, as it reads.
        "html": None if both else lib.html(either),
        "history_url": history_url(lib, either.document, change.id),
    }


def comparison_dict(lib: Library, comparison: Comparison, typography: bool = False) -> dict:
    """GET /api/diff/<doc>/<a>/<b>: the summary, then the changes in reading order."""
    old, new = comparison.old, comparison.new
    doc = lib.corpus.documents[old.document]
    return {
        "document": doc.id,
        "document_title": doc.title,
        "from": old.id,
        "to": new.id,
        "direction": comparison.direction,
        "typography": "show" if typography else "hide",
        "from_version": serialize.version_summary(lib, old),
        "to_version": serialize.version_summary(lib, new),
        "summary": comparison.summary(),
        "changes": [change_dict(lib, c, typography) for c in comparison.listed(typography)],
        "unchanged": comparison.unchanged,
        "url": compare_url(lib, doc.id, old.id, new.id),
        "api_url": compare_api_url(lib, doc.id, old.id, new.id),
        "reverse_url": compare_url(lib, doc.id, new.id, old.id),
    }


def _step_dict(lib: Library, step: Step, previous: Version | None, typography: bool) -> dict:
    entry, change = step.entry, step.change
    data: dict[str, Any] = {
        "version": step.version.id,
        "short_title": step.version.short_title,
        "released_printed": step.version.released_printed,
        "status": step.status,
        "from_version": previous.id if previous else None,
        "from_short_title": previous.short_title if previous else None,
        "id": entry.id if entry else None,
        "title": entry.title if entry else None,
        "text": lib.plain(entry) if entry else None,
        "breadcrumb": _crumbs(lib, entry),
        "url": lib.entry_url(entry) if entry else None,
        "api_url": lib.entry_api_url(entry) if entry else None,
        "moved": change.moved if change else False,
        "renamed": change.renamed if change else False,
        "text_changed": change.text_changed if change else False,
        "typography_only": change.typography_only if change else False,
        "relation": change.relation if change else None,
        "from_id": change.old.id if change and change.old else None,
        "from_title": change.old.title if change and change.old else None,
        "title_diff": None,
        "diff": None,
        "html": None,
        "compare_url": compare_url(lib, step.version.document, previous.id, step.version.id)
        if previous
        else None,
    }
    if change and change.old and change.new:
        changed = change.counted or typography
        data["diff"] = (
            diff_html(lib.plain(change.old), lib.plain(change.new), typography=typography)
            if changed
            else None
        )
        data["title_diff"] = diff_html(
            change.old.title, change.new.title, typography=typography, casefold=True
        )
    elif entry is not None and step.status in ("added", "moved"):
        data["html"] = lib.html(entry)
    return data


def history_dict(
    lib: Library, doc: Document, entry_id: str, steps: list[Step], typography: bool = False
) -> dict[str, Any]:
    """GET /api/history/<doc>/<id>: the entry in every version, oldest first."""
    latest = next((s.entry for s in reversed(steps) if s.entry is not None), None)
    previous = [None, *(s.version for s in steps[:-1])]
    return {
        "document": doc.id,
        "document_title": doc.title,
        "id": entry_id,
        "title": latest.title,
        "typography": "show" if typography else "hide",
        "url": history_url(lib, doc.id, entry_id),
        "api_url": urls.history_api(doc.id, entry_id),
        "versions": [
            _step_dict(lib, s, p, typography) for s, p in zip(steps, previous, strict=True)
        ],
    }


def pairs_dict(lib: Library, doc: Document) -> dict[str, Any]:
    """GET /api/diff/<doc>: the version pairs to compare, oldest first, and the marked views."""
    versions = list(doc.versions)
    pairs = []
    for i, old in enumerate(versions):
        for j in range(i + 1, len(versions)):
            new = versions[j]
            pairs.append(
                {
                    "from": old.id,
                    "to": new.id,
                    "from_title": old.short_title,
                    "to_title": new.short_title,
                    "consecutive": j == i + 1,
                    "url": compare_url(lib, doc.id, old.id, new.id),
                    "reverse_url": compare_url(lib, doc.id, new.id, old.id),
                    "api_url": compare_api_url(lib, doc.id, old.id, new.id),
                }
            )
    marked = []
    if doc.kind == "rulings":
        marked = [
            {
                "version": v.id,
                "short_title": v.short_title,
                "url": marked_url(lib, v),
                "api_url": urls.marked_api(doc.id, v.id),
            }
            for v in versions
        ]
    return {
        "document": serialize.document_summary(lib, doc),
        "pairs": pairs,
        "marked": marked,
    }


def marked_dict(lib: Library, version: Version, entries: list[Entry]) -> dict[str, Any]:
    """GET /api/diff/<doc>/<version>/new: the rulings marked * (new or changed), as they read."""
    return {
        "document": version.document,
        "version": version.id,
        "version_detail": serialize.version_summary(lib, version),
        "count": len(entries),
        "entries": [
            {
                **serialize.entry_summary(lib, e),
                "text": lib.plain(e),
                "html": lib.html(e),
                "history_url": history_url(lib, e.document, e.id),
            }
            for e in entries
        ],
        "url": marked_url(lib, version),
    }
