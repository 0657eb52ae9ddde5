"""The JSON API under /api: the data every page is built from."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue

from judgekit.shapes import reading
from judgekit.web.context import current_library as library
from judgekit.web.lookup import find_entry, find_term, find_version

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.get("/documents")
def documents() -> ResponseReturnValue:
    """GET /api/documents."""
    return jsonify(reading.documents(library()))


@bp.get("/documents/<document>/<version>")
def version(document: str, version: str) -> ResponseReturnValue:
    """GET /api/documents/<document>/<version>."""
    return jsonify(reading.version_detail(library(), find_version(document, version)))


@bp.get("/entries/<document>/<version>/<entry_id>")
def entry(document: str, version: str, entry_id: str) -> ResponseReturnValue:
    """GET /api/entries/<document>/<version>/<entry_id>."""
    return jsonify(reading.entry_detail(library(), find_entry(document, version, entry_id)))


@bp.get("/terms/<document>/<version>/<path:term>")
def term(document: str, version: str, term: str) -> ResponseReturnValue:
    """GET /api/terms/<document>/<version>/<path:term>."""
    return jsonify(reading.entry_detail(library(), find_term(document, version, term)))
