"""The diff part of the JSON API (routes on the api blueprint), and the lookups its pages share."""

from __future__ import annotations

from flask import abort, jsonify, request
from flask.typing import ResponseReturnValue

from .. import diff, diff_json, library
from ..model import Document, Version
from .api import bp, find_document, find_version


def find_pair(document: str, pair: str) -> tuple[Version, Version]:
    """The two versions of ``<a>..<b>``, or a 404 saying what is wrong."""
    doc = find_document(document)
    split = diff.split_pair(pair, [v.id for v in doc.versions])
    if split is None:
        abort(
            404,
            description=f"expected two versions as <from>..<to>, e.g. "
            f"/diff/{doc.id}/{doc.versions[0].id}..{doc.versions[-1].id}; got {pair!r}",
        )
    return find_version(document, split[0]), find_version(document, split[1])


def choice(name: str, allowed: tuple[str, ...]) -> str:
    """A query parameter that takes one of a few values (the first is the default), else 400."""
    value = request.args.get(name, allowed[0])
    if value not in allowed:
        options = " or ".join(repr(a) for a in allowed)
        abort(400, description=f"{name} must be {options}, not {value!r}")
    return value


def typography_arg() -> bool:
    """``?typography=show`` shows typography-only differences; hidden by default."""
    return choice("typography", ("hide", "show")) == "show"


def find_history(document: str, entry_id: str) -> tuple[Document, list[diff.Step]]:
    """The history of an entry, or a 404 when no version holds it."""
    doc = find_document(document)
    steps = diff.history(library(), doc.id, entry_id)
    if steps is None:
        abort(404, description=f"unknown entry {entry_id!r} in {document!r} (in no version)")
    return doc, steps


def find_marked(document: str, version: str) -> Version:
    """A rulings version whose * entries to list, or a 404."""
    found = find_version(document, version)
    doc = library().corpus.documents[found.document]
    if doc.kind != "rulings":
        abort(
            404,
            description=f"{document!r} is a {doc.kind}: only rulings documents mark entries "
            "new or changed (*)",
        )
    return found


@bp.get("/diff/<document>")
def diff_pairs(document: str) -> ResponseReturnValue:
    """GET /api/diff/<document>."""
    return jsonify(diff_json.pairs_dict(library(), find_document(document)))


@bp.get("/diff/<document>/<old>/<new>")
def diff_versions(document: str, old: str, new: str) -> ResponseReturnValue:
    """GET /api/diff/<document>/<old>/<new>."""
    lib = library()
    typography = typography_arg()
    comparison = diff.compare(lib, find_version(document, old), find_version(document, new))
    return jsonify(diff_json.comparison_dict(lib, comparison, typography))


@bp.get("/diff/<document>/<version>/new")
def diff_marked(document: str, version: str) -> ResponseReturnValue:
    """GET /api/diff/<document>/<version>/new."""
    found = find_marked(document, version)
    return jsonify(diff_json.marked_dict(library(), found, diff.marked_new(found)))


@bp.get("/history/<document>/<entry_id>")
def history(document: str, entry_id: str) -> ResponseReturnValue:
    """GET /api/history/<document>/<entry_id>."""
    typography = typography_arg()
    doc, steps = find_history(document, entry_id)
    return jsonify(diff_json.history_dict(library(), doc, entry_id, steps, typography))
