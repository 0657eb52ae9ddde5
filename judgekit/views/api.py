"""The JSON API under /api: the data every page is built from."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify
from flask.typing import ResponseReturnValue

from .. import library, serialize
from ..model import Document, Entry, Version

bp = Blueprint("api", __name__, url_prefix="/api")


def find_document(document: str) -> Document:
    """A held document, or a 404 naming it."""
    doc = library().corpus.document(document)
    if doc is None or doc.external:
        abort(404, description=f"unknown document {document!r}")
    return doc


def find_version(document: str, version: str) -> Version:
    """The version, or a 404 naming what is unknown."""
    doc = find_document(document)
    found = doc.version(version)
    if found is None:
        known = ", ".join(v.id for v in doc.versions)
        abort(404, description=f"unknown version {version!r} of {document!r} (known: {known})")
    return found


def find_entry(document: str, version: str, entry_id: str) -> Entry:
    """The entry, or a 404 naming what is unknown."""
    found = find_version(document, version).get(entry_id)
    if found is None:
        abort(404, description=f"unknown entry {entry_id!r} in {document!r} {version!r}")
    return found


def find_term(document: str, version: str, term: str) -> Entry:
    """A glossary entry by term: exact first, then case-insensitive; else a 404."""
    found = library().lookup_term(find_version(document, version), term)
    if found is None:
        abort(404, description=f"no glossary term {term!r} in {document!r} {version!r}")
    return found


@bp.get("/documents")
def documents() -> ResponseReturnValue:
    """GET /api/documents."""
    return jsonify(serialize.documents(library()))


@bp.get("/documents/<document>/<version>")
def version(document: str, version: str) -> ResponseReturnValue:
    """GET /api/documents/<document>/<version>."""
    return jsonify(serialize.version_detail(library(), find_version(document, version)))


@bp.get("/entries/<document>/<version>/<entry_id>")
def entry(document: str, version: str, entry_id: str) -> ResponseReturnValue:
    """GET /api/entries/<document>/<version>/<entry_id>."""
    return jsonify(serialize.entry_detail(library(), find_entry(document, version, entry_id)))


@bp.get("/terms/<document>/<version>/<path:term>")
def term(document: str, version: str, term: str) -> ResponseReturnValue:
    """GET /api/terms/<document>/<version>/<path:term>."""
    return jsonify(serialize.entry_detail(library(), find_term(document, version, term)))


# Each area's JSON routes live in its own module on this same blueprint.
from . import api_diff, api_search, api_timing  # noqa: E402, F401
