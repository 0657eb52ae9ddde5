"""The JSON shapes of the diff API; the compare and marked pages render these dicts."""

from __future__ import annotations

from typing import Any

from judgekit import urls
from judgekit.compare import align, diff, relocated
from judgekit.compare.align import Row
from judgekit.compare.diff import Comparison
from judgekit.compare.sentences import Unit
from judgekit.compare.worddiff import diff_html
from judgekit.corpus.model import Document, Entry, Version
from judgekit.render.library import Library, Memo
from judgekit.render.summaries import entry_summary
from judgekit.shapes.reading import document_summary, version_summary

_COMPARISON_JSON: Memo[tuple[str, str, str, bool], dict] = Memo(__name__, "comparison JSON")


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


def crumbs(lib: Library, entry: Entry | None) -> list[dict[str, Any]] | None:
    """The links of an entry's ancestors, outermost first; None for no entry."""
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
        f"{side}_breadcrumb": crumbs(lib, entry),
        f"{side}_url": lib.entry_url(entry) if entry else None,
        f"{side}_api_url": lib.entry_api_url(entry) if entry else None,
    }


# The kinds of change, as the jump list and the summary name them.
KIND_LABELS = {
    "changed": "Changed",
    "added": "Added",
    "removed": "Removed",
    "renamed": "Renamed",
    "moved": "Moved",
}


def _unit_text(unit: Unit | None) -> str | None:
    return unit.text if unit is not None else None


def elsewhere_dict(lib: Library, comparison: Comparison, row: Row) -> dict[str, Any] | None:
    """For a removed sentence, where the newer side still says it (the editor's suggestion)."""
    if row.status != "removed" or row.old is None:
        return None
    found = relocated.finder(lib, comparison.old, comparison.new)(row.old)
    if found is None:
        return None
    entry = comparison.new.entries[found.unit.entry]
    return {
        # An interpretation, not the rulebook's words: pages mark it as the editor's.
        "editorial": True,
        "version": comparison.new.id,
        "version_title": comparison.new.short_title,
        "entry": entry.id,
        "title": entry.title,
        "url": lib.entry_url(entry),
        "api_url": lib.entry_api_url(entry),
        "sentence": found.unit.text,
        "score": round(found.score, 2),
    }


def row_dict(
    row: Row, typography: bool = False, said: dict[str, Any] | None = None
) -> dict[str, Any]:
    """One aligned sentence: its older and newer form, status, and a word diff when they differ.

    ``said``: for a removed sentence, where the newer version still says it (editorial).
    """
    old, new = row.old, row.new
    shown = old is not None and new is not None and (row.edited or (typography and row.typography))
    return {
        "status": row.status,
        "edited": row.edited,
        # Sentences of different wording are paired by the alignment's reading of their words,
        # not by anything the rulebooks print: the editors' inference, marked so on the page.
        "pairing_editorial": old is not None and new is not None and row.edited,
        "within": row.status == "moved" and row.home,
        "typography_only": row.typography,
        "from": _unit_text(old),
        "to": _unit_text(new),
        "from_entry": old.entry if old else None,
        "to_entry": new.entry if new else None,
        "from_item": bool(old and old.item),
        "to_item": bool(new and new.item),
        "diff": diff_html(old.text, new.text, typography=typography) if shown else None,
        "elsewhere": said,
    }


def _titles(rows: list[Row], comparison: Comparison) -> dict[str, dict]:
    """The titles of the entries the rows name, by side and id."""
    out: dict[str, dict] = {"from": {}, "to": {}}
    for side, version, ids in (
        ("from", comparison.old, {r.old.entry for r in rows if r.old}),
        ("to", comparison.new, {r.new.entry for r in rows if r.new}),
    ):
        for entry_id in sorted(ids):
            out[side][entry_id] = version.entries[entry_id].title
    return out


def change_dict(
    lib: Library, comparison: Comparison, position: int, typography: bool = False
) -> dict[str, Any]:
    """One change: word diffs of its title and text, and its sentences aligned."""
    change = comparison.changes[position]
    old, new = change.old, change.new
    either = new or old
    both = old is not None and new is not None
    rows = align.change_rows(lib, comparison, position)
    return {
        "status": change.status,
        "id": change.id,
        "anchor": diff.anchor(comparison, change),
        "part": not diff.primary(comparison, change),
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
        "alignment": [row_dict(r, typography, elsewhere_dict(lib, comparison, r)) for r in rows],
        "alignment_entries": _titles(rows, comparison),
        # An added or removed entry is shown whole, as it reads.
        "html": None if both else lib.html(either),
        "history_url": history_url(lib, either.document, change.id),
    }


def _kinds(changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The jump list: the listed changes grouped by kind, in reading order within each."""
    out = []
    for status, label in KIND_LABELS.items():
        mine = [c for c in changes if c["status"] == status]
        if mine:
            items = [
                {
                    "anchor": c["anchor"],
                    # A merged-in part is named by the entry it was, then where it went.
                    "title": c["from_title"] if c["part"] else c["title"],
                    "part": c["part"],
                    "into": c["to_title"] if c["part"] else None,
                }
                for c in mine
            ]
            out.append({"status": status, "label": label, "count": len(mine), "changes": items})
    return out


def comparison_dict(lib: Library, comparison: Comparison, typography: bool = False) -> dict:
    """GET /api/diff/<doc>/<a>/<b>: the summary, then the changes in reading order (built once)."""
    old, new = comparison.old, comparison.new
    cache = lib.memo(_COMPARISON_JSON)
    key = (old.document, old.id, new.id, typography)
    if key not in cache:
        cache[key] = _comparison_dict(lib, comparison, typography)
    return cache[key]


def _comparison_dict(lib: Library, comparison: Comparison, typography: bool) -> dict:
    old, new = comparison.old, comparison.new
    doc = lib.corpus.documents[old.document]
    listed = {id(c) for c in comparison.listed(typography)}
    changes = [
        change_dict(lib, comparison, n, typography)
        for n, c in enumerate(comparison.changes)
        if id(c) in listed
    ]
    return {
        "document": doc.id,
        "document_title": doc.title,
        "from": old.id,
        "to": new.id,
        "direction": comparison.direction,
        "typography": "show" if typography else "hide",
        "from_version": version_summary(lib, old),
        "to_version": version_summary(lib, new),
        "summary": comparison.summary(),
        "kinds": _kinds(changes),
        "changes": changes,
        "unchanged": comparison.unchanged,
        "url": compare_url(lib, doc.id, old.id, new.id),
        "api_url": compare_api_url(lib, doc.id, old.id, new.id),
        "reverse_url": compare_url(lib, doc.id, new.id, old.id),
    }


def build_all(lib: Library) -> int:
    """Build every comparison's JSON (both ways, typography hidden and shown); how many built.

    For a warm-up after start-up: comparisons depend only on the corpus, so each is built once.
    """
    built = 0
    for doc in lib.corpus.held():
        for old in doc.versions:
            for new in doc.versions:
                comparison = diff.compare(lib, old, new)
                for typography in (False, True):
                    comparison_dict(lib, comparison, typography)
                    built += 1
    return built


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
                    "draft": old.draft or new.draft,  # a side read from a draft folder
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
        "document": document_summary(lib, doc),
        "pairs": pairs,
        "marked": marked,
    }


def marked_dict(lib: Library, version: Version, entries: list[Entry]) -> dict[str, Any]:
    """GET /api/diff/<doc>/<version>/new: the rulings marked * (new or changed), as they read."""
    return {
        "document": version.document,
        "version": version.id,
        "version_detail": version_summary(lib, version),
        "count": len(entries),
        "entries": [
            {
                **entry_summary(lib, e),
                "text": lib.plain(e),
                "html": lib.html(e),
                "history_url": history_url(lib, e.document, e.id),
            }
            for e in entries
        ],
        "url": marked_url(lib, version),
    }
