"""Reading pages: the home page, a whole version, one entry's permalink page, and the 404 hints.

The rulings blueprint serves its own URLs with its own templates through the same helpers.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from judgekit import urls
from judgekit.corpus.model import Entry, Version
from judgekit.render import card_index
from judgekit.render.glossary import (
    entry_cards,
    entry_html,
    label_external_refs,
    version_cards,
    version_html,
)
from judgekit.render.library import Library
from judgekit.render.summaries import entry_summary
from judgekit.shapes.compare import history_url
from judgekit.shapes.reading import (
    document_summary,
    documents,
    entry_detail,
    version_detail,
    version_summary,
)
from judgekit.web.context import current_library as library
from judgekit.web.context import current_timing as timing
from judgekit.web.errors import Nearest, not_found_near
from judgekit.web.lookup import find_document, find_entry, find_term, find_version
from judgekit.web.suggest import Suggestion, closest_pages

bp = Blueprint("rules", __name__)
# What a citation copied from a pack built without --base-url says after its address.
RELATIVE_NOTE = "a relative address: this copy was built without a web address"


def _wrong_area(lib: Library, version: Version, area: str) -> bool:
    return lib.area(lib.corpus.documents[version.document]) != area


def _neighbours(lib: Library, entry: Entry) -> dict[str, dict[str, Any] | None]:
    """The entries before and after this one in reading order, for paging through."""
    version = lib.corpus.version(entry.document, entry.version)
    ids = list(version.entries)
    at = ids.index(entry.id)
    prev_e = version.entries[ids[at - 1]] if at > 0 else None
    next_e = version.entries[ids[at + 1]] if at + 1 < len(ids) else None
    return {
        "prev": entry_summary(lib, prev_e) if prev_e else None,
        "next": entry_summary(lib, next_e) if next_e else None,
    }


def entry_context(lib: Library, entry: Entry, base_url: str) -> dict[str, Any]:
    """Everything an entry page shows, built on the API's entry JSON."""
    version = lib.corpus.version(entry.document, entry.version)
    doc = lib.corpus.documents[entry.document]
    data = entry_detail(lib, entry)
    body, linked = entry_html(lib, entry)
    definitions = []
    for term_id in linked:
        term = version.entries[term_id]
        definitions.append(
            {
                "id": term.id,
                "title": term.title,
                "url": lib.entry_url(term),
                "html": label_external_refs(lib.html(term)),
            }
        )
    # Card names linked in the text open the same pop-up, with what the card index knows.
    definitions += [card_index.card_definition(lib, c) for c in entry_cards(lib, entry)]
    permalink = base_url.rstrip("/") + data["url"]
    # A pack built without --base-url knows no host: its copied citation must not pass for one
    # another judge can open.
    relative = not base_url
    copied = f"{permalink} ({RELATIVE_NOTE})" if relative else permalink
    return {
        "entry": data,
        "body_html": body,
        "definitions": definitions,
        "version": version_summary(lib, version),
        "document": document_summary(lib, doc),
        "permalink": permalink,
        "citation_text": f"{data['citation']}\n{copied}",
        "permalink_relative": relative,
        # Other judges cannot open a link to this computer's loopback address: say so by it.
        "permalink_local_host": urls.only_this_computer(base_url),
        "history_url": history_url(lib, entry.document, entry.id),
        "show_url": urls.show_page(doc.kind, entry.document, entry.version, entry.id),
        "labels": {f"{v.document}/{v.id}": lib.label(v) for v in lib.corpus.versions()},
        **_neighbours(lib, entry),
    }


def ruling_letters(entries: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The first ruling under each initial letter, for the A–Z jump list."""
    letters: dict[str, str] = {}
    for e in entries:
        if e["kind"] != "ruling":
            continue
        initial = next((c for c in e["title"] if c.isalnum()), "")
        key = initial.upper() if initial.isalpha() else "#"
        letters.setdefault(key, e["id"])
    return list(letters.items())


def version_context(lib: Library, version: Version) -> dict[str, Any]:
    """Everything a whole-version page shows, built on the API's version JSON."""
    doc = lib.corpus.documents[version.document]
    data = version_detail(lib, version)
    return {
        "version": data,
        "document": document_summary(lib, doc),
        "html": version_html(lib, version),
        "definitions": [card_index.card_definition(lib, c) for c in version_cards(lib, version)],
        "glossary": [e for e in data["entries"] if e["kind"] == "glossary"],
        "letters": ruling_letters(data["entries"]),
    }


def show_document(document: str) -> Response:
    """A document without a version goes to the version in force."""
    doc = find_document(document)
    if doc.latest is None:
        abort(404, description=f"unknown document {document!r}")
    return redirect(library().version_url(doc.latest))


def show_version(area: str, document: str, version: str) -> str | Response:
    """Render a whole version in an area's template; redirect if it lives in the other area."""
    lib = library()
    found = find_version(document, version)
    if _wrong_area(lib, found, area):
        return redirect(lib.version_url(found), 308)
    return render_template(f"{area}/version.html", **version_context(lib, found))


# What a glossary term's address without its term ("/rules/<d>/<v>/term/") opens.
NO_GLOSSARY = "{version} has no glossary: a glossary term's address is /rules/<document>/<version>/term/<term>, in a version that has one"


def glossary_of(lib: Library, version: Version) -> Response:
    """``…/<version>/term/`` with no term: the version's glossary (the section holding its
    terms), the one page it can mean; a version without one: a 404 linking the glossaries held."""
    terms = lib.glossary(version)
    if terms and terms[0].parent is not None:
        return redirect(lib.entry_url(version.entries[terms[0].parent]), 308)
    held = [
        v.entries[g[0].parent]
        for doc in lib.corpus.held()
        for v in reversed(doc.versions)
        if (g := lib.glossary(v)) and g[0].parent is not None
    ]
    not_found_near(
        NO_GLOSSARY.format(version=lib.label(version)),
        [
            Nearest(e.title, lib.label(lib.corpus.version(e.document, e.version)), lib.entry_url(e))
            for e in held
        ],
    )


def show_entry(area: str, document: str, version: str, entry_id: str) -> str | Response:
    """Render an entry's permalink page in an area's template; redirect across areas."""
    lib = library()
    held = find_version(document, version)
    if entry_id == "term" and held.get(entry_id) is None:
        return glossary_of(lib, held)
    found = find_entry(document, version, entry_id)
    # The other area's address, or this one with a trailing slash: one redirect to the entry.
    if _wrong_area(lib, lib.corpus.version(document, version), area) or request.path.endswith("/"):
        return redirect(lib.entry_url(found), 308)
    # The address other judges open, never the request's Host header.
    base_url = current_app.config["BASE_URL"]
    return render_template(f"{area}/entry.html", **entry_context(lib, found, base_url))


@bp.get("/")
def home() -> ResponseReturnValue:
    """GET /."""
    lib = library()
    external = [doc for doc in lib.corpus.documents.values() if doc.external]
    # The QR code other judges scan must not name this computer's own loopback address.
    local_host = urls.only_this_computer(current_app.config.get("BASE_URL") or "")
    return render_template(
        "rules/home.html",
        data=documents(lib),
        external=external,
        handout_local_host=local_host,
    )


@bp.get("/rules/<document>/")
def document_home(document: str) -> ResponseReturnValue:
    """GET /rules/<document>/."""
    return show_document(document)


@bp.get("/rules/<document>/<version>/")
def version(document: str, version: str) -> ResponseReturnValue:
    """GET /rules/<document>/<version>/."""
    return show_version("rules", document, version)


# strict_slashes=False: the address with a trailing slash reaches the view, which redirects it.
@bp.get("/rules/<document>/<version>/<entry_id>", strict_slashes=False)
def entry(document: str, version: str, entry_id: str) -> ResponseReturnValue:
    """GET /rules/<document>/<version>/<entry_id>."""
    return show_entry("rules", document, version, entry_id)


@bp.app_template_global("closest_pages")
def closest_pages_here(limit: int = 5) -> list[Suggestion]:
    """The 404 page's suggestions for the current request path: under /timing, in the game of
    the rulebooks its sequences quote."""
    lib = library()
    games = {lib.corpus.documents[seq.document].edition for seq in timing()}
    area = url_for("timing.index").strip("/")
    areas = {area: next(iter(games))} if len(games) == 1 else {}
    return closest_pages(lib, request.path, limit, areas)


@bp.get("/rules/<document>/<version>/term/<path:term>")
def term(document: str, version: str, term: str) -> ResponseReturnValue:
    """GET /rules/<document>/<version>/term/<path:term>."""
    if term.endswith("/") and term.strip("/"):  # no term ends with a slash: the page's own form
        return redirect(
            url_for("rules.term", document=document, version=version, term=term.rstrip("/")), 308
        )
    return redirect(library().entry_url(find_term(document, version, term)))
