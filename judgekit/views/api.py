"""The JSON API under /api: the data every page is built from."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify

from .. import library, serialize

bp = Blueprint("api", __name__, url_prefix="/api")


def find_version(document: str, version: str):
    """The version, or a 404 naming what is unknown."""
    lib = library()
    doc = lib.corpus.document(document)
    if doc is None or doc.external:
        abort(404, description=f"unknown document {document!r}")
    found = doc.version(version)
    if found is None:
        known = ", ".join(v.id for v in doc.versions)
        abort(404, description=f"unknown version {version!r} of {document!r} (known: {known})")
    return found


def find_entry(document: str, version: str, entry_id: str):
    """The entry, or a 404 naming what is unknown."""
    found = find_version(document, version).get(entry_id)
    if found is None:
        abort(404, description=f"unknown entry {entry_id!r} in {document!r} {version!r}")
    return found


def find_term(document: str, version: str, term: str):
    """A glossary entry by term: exact first, then case-insensitive; else a 404."""
    found = library().lookup_term(find_version(document, version), term)
    if found is None:
        abort(404, description=f"no glossary term {term!r} in {document!r} {version!r}")
    return found


@bp.get("/documents")
def documents():
    return jsonify(serialize.documents(library()))


@bp.get("/documents/<document>/<version>")
def version(document: str, version: str):
    return jsonify(serialize.version_detail(library(), find_version(document, version)))


@bp.get("/entries/<document>/<version>/<entry_id>")
def entry(document: str, version: str, entry_id: str):
    return jsonify(serialize.entry_detail(library(), find_entry(document, version, entry_id)))


@bp.get("/terms/<document>/<version>/<path:term>")
def term(document: str, version: str, term: str):
    return jsonify(serialize.entry_detail(library(), find_term(document, version, term)))


# Each area's JSON routes live in its own module on this same blueprint.
from . import api_diff, api_search, api_timing  # noqa: E402, F401
