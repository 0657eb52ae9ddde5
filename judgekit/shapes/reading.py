"""The JSON shapes of the API; the HTML pages render these same dictionaries."""

from __future__ import annotations

from typing import Any

from judgekit import urls
from judgekit.compare import diff
from judgekit.corpus.model import Document, Entry, Version
from judgekit.corpus.references import Target, resolve
from judgekit.render.library import Library
from judgekit.render.status import draft_fields, status
from judgekit.render.summaries import entry_summary
from judgekit.timing.links import timing_for_entry


def version_summary(lib: Library, version: Version) -> dict[str, Any]:
    """A version's metadata."""
    standing = status(lib.corpus, version)
    return {
        "id": version.id,
        "document": version.document,
        "title": version.title,
        "short_title": version.short_title,
        "edition": version.edition,
        "released": version.released,
        "released_printed": version.released_printed,
        "publisher": version.publisher,
        "supersedes": version.supersedes,
        # Set when which version came first is the editors' inference, not printed.
        "supersedes_editorial": version.supersedes_note or None,
        "in_force": standing.newest_held,  # kept for scripts: the same as newest_held
        "newest_held": standing.newest_held,
        "status": standing.label,
        "status_note": standing.note,
        **draft_fields(lib.corpus, version),
        "sources": [{"file": s.file, "description": s.description} for s in version.sources],
        "source_note": version.source_note,
        "note": version.note,
        "url": lib.version_url(version),
        "api_url": lib.version_api_url(version),
    }


def document_summary(lib: Library, doc: Document) -> dict[str, Any]:
    """A document and its versions, oldest first."""
    return {
        "id": doc.id,
        "title": doc.title,
        "short_title": doc.short_title,
        "edition": doc.edition,
        "kind": doc.kind,
        "in_force": doc.latest.id if doc.latest else None,  # kept for scripts: newest_held
        "newest_held": doc.latest.id if doc.latest else None,
        "newer_not_held": doc.newer_not_held,
        "versions": [version_summary(lib, v) for v in doc.versions],
    }


def drafts_loaded(lib: Library) -> list[dict[str, Any]]:
    """The versions read from a draft folder, for the banner every page shows while any is."""
    return [
        {
            "document": v.document,
            "version": v.id,
            "label": lib.label(v),
            "url": lib.version_url(v),
            "folder": lib.corpus.draft,
        }
        for v in lib.corpus.drafts()
    ]


def documents(lib: Library) -> dict[str, Any]:
    """GET /api/documents."""
    return {"documents": [document_summary(lib, doc) for doc in lib.corpus.held()]}


def version_detail(lib: Library, version: Version) -> dict[str, Any]:
    """GET /api/documents/<doc>/<version>: metadata, contents and every entry in reading order."""
    data = version_summary(lib, version)
    data["toc"] = [
        {
            "title": t.title,
            "page": t.page,
            "entry": t.entry,
            "reconstructed": t.reconstructed,
            "note": t.note,
            # A line the editors put back: marked "ed." with why, where the contents are shown.
            "toc_editorial": f"The editors' line, not in the printed contents: {t.note}"
            if t.reconstructed
            else None,
        }
        for t in version.toc
    ]
    data["entries"] = [entry_summary(lib, e) for e in version.walk()]
    data["glossary_terms"] = [
        {"term": e.title, "aliases": list(e.aliases), "id": e.id} for e in lib.glossary(version)
    ]
    return data


def ref(lib: Library, target: Target) -> dict[str, Any]:
    """A reference to an entry, held or external."""
    doc = lib.corpus.documents[target.document]
    entry = lib.get(target)
    if entry is None:
        return {
            "document": target.document,
            "version": target.version,
            "id": target.id,
            "title": target.id,
            "url": None,
            "api_url": None,
            "external": True,
            "document_title": f"{doc.title} {target.version}",
        }
    return {
        "document": target.document,
        "version": target.version,
        "id": target.id,
        "title": entry.title,
        "kind": entry.kind,
        "url": lib.entry_url(entry),
        "api_url": lib.entry_api_url(entry),
        "external": False,
    }


def change_url(lib: Library, entry: Entry, other: str) -> str | None:
    """Where the comparison with another version shows this entry's change; None if unchanged."""
    here = lib.corpus.version(entry.document, entry.version)
    comparison = diff.compare(lib, here, lib.corpus.version(entry.document, other))
    change = diff.change_of(comparison, entry.id)
    if change is None or not change.counted:
        return None
    page = urls.compare_page(entry.document, here.id, other)
    return f"{page}#{diff.anchor(comparison, change)}"


def printed_page(lib: Library, entry: Entry) -> dict[str, Any] | None:
    """The page a citation gives: the entry's own page or pages (``own``) or its section's, with
    the evidence for it and, where the editors read it, why (``page_editorial``)."""
    where = lib.printed_page(entry)
    if where is None:
        return None
    section = lib.corpus.entry(entry.document, entry.version, where.section_id)
    return {
        "page": where.first if where.first == where.last else None,
        "first": where.first,
        "last": where.last,
        "text": where.text,
        "own": where.own,
        "basis": where.basis,
        "page_editorial": where.editorial_words,
        "evidence": [
            {
                "source": e.source,
                "source_label": _source_label(e.source),
                "line": e.line,
                "shows": e.shows,
                "reads": e.reads,
            }
            for e in where.evidence
        ],
        "section": {"id": section.id, "title": section.title, "url": lib.entry_url(section)},
    }


# Why a printed reference's explanation is marked: the book's pointer is printed, where it led is not.
REFERENCE_EDITORIAL = (
    "The editors' explanation: the rulebook prints these words; where they pointed is the editors'"
    " reading of the printed book"
)


def printed_references(lib: Library, entry: Entry, version: Version) -> list[dict[str, Any]]:
    """The pointers printed in the entry's text ("on page 32", "see table layout"): where each
    pointed, and the entry holding it or None when it is not held here (the editors' words)."""
    found = []
    for ref in version.printed_references:
        if ref.entry != entry.id:
            continue
        held = None
        if ref.target:
            target = resolve(lib.corpus, ref.target, entry.document, entry.version)
            # `judgekit check` refuses a target that is not a held entry.
            if isinstance(target, Target) and not target.external:
                held = lib.corpus.entry(target.document, target.version, target.id)
        found.append(
            {
                "words": ref.words,
                "pointed_to": ref.pointed_to,
                "target": {"title": held.title, "url": lib.entry_url(held)} if held else None,
                "reference_editorial": REFERENCE_EDITORIAL,
            }
        )
    return found


def _source_label(file: str) -> str:
    """The short name notes use for a seed file: "003" for "003_a1b2….txt"."""
    head, sep, _ = file.partition("_")
    return head if sep and head.isdigit() else file


def provenance(lib: Library, entry: Entry, version: Version) -> dict[str, Any]:
    """Where the entry's words came from and every change from them, in words a judge can read."""
    described = {s.file: s.description for s in version.sources}
    return {
        "sources": [
            {
                "file": s.file,
                "label": _source_label(s.file),
                "description": described.get(s.file, ""),
                "lines": s.lines,
            }
            for s in entry.source
        ],
        "corrections": [
            {
                "source": c.source,
                "source_label": _source_label(c.source),
                "line": c.line,
                "original": c.original,
                "corrected": c.corrected,
                "original_html": lib.snippet_html(c.original),
                "corrected_html": lib.snippet_html(c.corrected),
                "evidence": c.evidence,
            }
            for c in version.corrections
            if c.entry == entry.id
        ],
    }


def entry_detail(lib: Library, entry: Entry) -> dict[str, Any]:
    """GET /api/entries/<doc>/<version>/<id>."""
    version = lib.corpus.version(entry.document, entry.version)
    return {
        **entry_summary(lib, entry),
        "document": entry.document,
        "version": entry.version,
        **draft_fields(lib.corpus, version),
        "edition": version.edition,
        "children": [entry_summary(lib, version.entries[c]) for c in entry.children],
        "breadcrumb": [entry_summary(lib, e) for e in lib.breadcrumb(entry)],
        # label_editorial: an "Example" label the source does not print (the editors', marked ed.)
        "blocks": [
            {"kind": b.kind, "markdown": b.text, "label_editorial": version.label_editorial(b)}
            for b in entry.body
        ],
        "text": lib.plain(entry),
        "html": lib.html(entry),
        "aliases": list(entry.aliases),
        "note": entry.note,
        "refs": [ref(lib, t) for t in lib.refs(entry)],
        "backlinks": [ref(lib, t) for t in lib.backlinks_of(entry)],
        "related": [{**ref(lib, t), "relation": relation} for t, relation in lib.related(entry)],
        "other_versions": [
            {
                "version": o.version,
                "id": o.id,
                "status": o.status,
                "relation": o.relation,
                "title": o.title,
                "renamed": o.renamed,
                "url": lib.entry_url(lib.corpus.entry(entry.document, o.version, o.id))
                if o.id
                else None,
                "change_url": change_url(lib, entry, o.version),
            }
            for o in lib.other_versions(entry)
        ],
        "citation": lib.citation_title(entry),
        "citation_short": lib.citation_short(entry),
        "printed_page": printed_page(lib, entry),
        "printed_references": printed_references(lib, entry, version),
        "timing": timing_for_entry(lib, entry),
        "provenance": provenance(lib, entry, version),
    }
