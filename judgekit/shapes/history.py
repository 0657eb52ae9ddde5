"""The JSON shape of an entry's history; the history page renders this dict.

The line of the entry, one step per version, and in each version the entries that joined it
(merged in, or split from): ``compare.history.tributaries``.
"""

from __future__ import annotations

from typing import Any

from judgekit import urls
from judgekit.compare import align, diff
from judgekit.compare.diff import Change, Step
from judgekit.compare.history import Tributary, tributaries
from judgekit.compare.worddiff import diff_html
from judgekit.corpus.model import Document, Entry, Version
from judgekit.render.library import Library, Memo
from judgekit.render.status import draft_fields
from judgekit.shapes.compare import compare_url, crumbs, elsewhere_dict, row_dict

_HISTORY_JSON: Memo[tuple[str, str, bool], dict[str, Any]] = Memo(__name__, "history JSON")


def _entry_fields(lib: Library, entry: Entry | None) -> dict[str, Any]:
    return {
        "id": entry.id if entry else None,
        "to_id": entry.id if entry else None,
        "title": entry.title if entry else None,
        "text": lib.plain(entry) if entry else None,
        "breadcrumb": crumbs(lib, entry),
        "url": lib.entry_url(entry) if entry else None,
        "api_url": lib.entry_api_url(entry) if entry else None,
    }


def _change_fields(change: Change | None) -> dict[str, Any]:
    return {
        "moved": change.moved if change else False,
        "renamed": change.renamed if change else False,
        "text_changed": change.text_changed if change else False,
        "typography_only": change.typography_only if change else False,
        "relation": change.relation if change else None,
        "from_id": change.old.id if change and change.old else None,
        "from_title": change.old.title if change and change.old else None,
    }


def _diffs(
    lib: Library, step: Step, previous: Version, typography: bool, whole: bool | None
) -> dict[str, Any]:
    """The title and word diffs of a step's change, its sentences aligned, and the anchor."""
    change = step.change
    comparison = diff.compare(lib, previous, step.version)
    position = next(n for n, c in enumerate(comparison.changes) if c is change)
    group = align.alignment(lib, comparison)[position]
    if whole is None:
        whole = diff.primary(comparison, change)
    rows = align.rows_for(group, change, whole)
    shown = change.counted or typography
    return {
        "title_diff": diff_html(
            change.old.title, change.new.title, typography=typography, casefold=True
        ),
        "alignment": [row_dict(r, typography, elsewhere_dict(lib, comparison, r)) for r in rows]
        if shown
        else [],
        "alignment_entries": {
            "from": {r.old.entry: previous.entries[r.old.entry].title for r in rows if r.old},
            "to": {r.new.entry: step.version.entries[r.new.entry].title for r in rows if r.new},
        },
        "change_anchor": diff.anchor(comparison, change),
    }


def _step_dict(
    lib: Library,
    step: Step,
    previous: Version | None,
    typography: bool,
    whole: bool | None = None,
) -> dict[str, Any]:
    """One version of a line: the entry there and how it changed from the version before."""
    entry, change = step.entry, step.change
    data: dict[str, Any] = {
        "version": step.version.id,
        "short_title": step.version.short_title,
        "released_printed": step.version.released_printed,
        **draft_fields(lib.corpus, step.version),
        "status": step.status,
        "from_version": previous.id if previous else None,
        "from_short_title": previous.short_title if previous else None,
        **_entry_fields(lib, entry),
        **_change_fields(change),
        "title_diff": None,
        "alignment": [],
        "alignment_entries": {"from": {}, "to": {}},
        "change_anchor": None,
        "html": None,
        "compare_url": compare_url(lib, step.version.document, previous.id, step.version.id)
        if previous
        else None,
    }
    if change and change.old and change.new and previous is not None:
        data.update(_diffs(lib, step, previous, typography, whole))
    elif entry is not None and step.status in ("added", "moved"):
        data["html"] = lib.html(entry)
    return data


def _tributary_steps(
    lib: Library, tributary: Tributary, typography: bool
) -> dict[str, dict[str, Any]]:
    """A tributary's steps by version id, each with its id and the title it had then."""
    doc = lib.corpus.documents[tributary.steps[0].version.document]
    before = {v.id: (doc.versions[n - 1] if n else None) for n, v in enumerate(doc.versions)}
    out = {}
    for step in tributary.steps:
        joined = step is tributary.joined
        data = _step_dict(
            lib, step, before[step.version.id], typography, whole=False if joined else None
        )
        data["joined"] = joined
        data["line_id"] = tributary.id
        data["line_title"] = tributary.title
        out[step.version.id] = data
    return out


def history_dict(
    lib: Library, doc: Document, entry_id: str, steps: list[Step], typography: bool = False
) -> dict[str, Any]:
    """GET /api/history/<doc>/<id>: the entry in every version, oldest first, and what joined it."""
    cache = lib.memo(_HISTORY_JSON)
    key = (doc.id, entry_id, typography)
    if key not in cache:
        cache[key] = _history_dict(lib, doc, entry_id, steps, typography)
    return cache[key]


def _history_dict(
    lib: Library, doc: Document, entry_id: str, steps: list[Step], typography: bool
) -> dict[str, Any]:
    latest = next((s.entry for s in reversed(steps) if s.entry is not None), None)
    previous = [None, *(s.version for s in steps[:-1])]
    joined = [_tributary_steps(lib, t, typography) for t in tributaries(lib, doc.id, steps)]
    versions = []
    for step, before in zip(steps, previous, strict=True):
        data = _step_dict(lib, step, before, typography)
        data["merged"] = [t[step.version.id] for t in joined if step.version.id in t]
        versions.append(data)
    return {
        "document": doc.id,
        "document_title": doc.title,
        "id": entry_id,
        "title": latest.title,
        "typography": "show" if typography else "hide",
        "url": urls.history_page(doc.id, entry_id),
        "api_url": urls.history_api(doc.id, entry_id),
        "merged_in": [{"id": t.id, "title": t.title} for t in tributaries(lib, doc.id, steps)],
        "versions": versions,
    }
