"""The diff part of the JSON API (routes on the api blueprint), and the lookups its pages share."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue

from judgekit.compare import diff
from judgekit.shapes.compare import comparison_dict, marked_dict, pairs_dict
from judgekit.shapes.history import history_dict
from judgekit.web.context import current_library as library
from judgekit.web.lookup import (
    find_document,
    find_history,
    find_marked,
    find_version,
    typography_arg,
)

bp = Blueprint("api_compare", __name__, url_prefix="/api")


@bp.get("/diff/<document>")
def diff_pairs(document: str) -> ResponseReturnValue:
    """GET /api/diff/<document>."""
    return jsonify(pairs_dict(library(), find_document(document)))


@bp.get("/diff/<document>/<old>/<new>")
def diff_versions(document: str, old: str, new: str) -> ResponseReturnValue:
    """GET /api/diff/<document>/<old>/<new>."""
    lib = library()
    typography = typography_arg()
    comparison = diff.compare(lib, find_version(document, old), find_version(document, new))
    return jsonify(comparison_dict(lib, comparison, typography))


@bp.get("/diff/<document>/<version>/new")
def diff_marked(document: str, version: str) -> ResponseReturnValue:
    """GET /api/diff/<document>/<version>/new."""
    found = find_marked(document, version)
    return jsonify(marked_dict(library(), found, diff.marked_new(found)))


@bp.get("/history/<document>/<entry_id>")
def history(document: str, entry_id: str) -> ResponseReturnValue:
    """GET /api/history/<document>/<entry_id>."""
    typography = typography_arg()
    doc, steps = find_history(document, entry_id)
    return jsonify(history_dict(library(), doc, entry_id, steps, typography))
