"""The Current Rulings pages: the same reading helpers as the rulebooks, their own templates."""

from __future__ import annotations

from flask import Blueprint
from flask.typing import ResponseReturnValue

from judgekit.web.pages.rules import entry_slash, show_document, show_entry, show_version

bp = Blueprint("rulings", __name__)


@bp.get("/rulings/<document>/")
def document_home(document: str) -> ResponseReturnValue:
    """GET /rulings/<document>/."""
    return show_document(document)


@bp.get("/rulings/<document>/<version>/")
def version(document: str, version: str) -> ResponseReturnValue:
    """GET /rulings/<document>/<version>/."""
    return show_version("rulings", document, version)


@bp.get("/rulings/<document>/<version>/<entry_id>")
def entry(document: str, version: str, entry_id: str) -> ResponseReturnValue:
    """GET /rulings/<document>/<version>/<entry_id>."""
    return show_entry("rulings", document, version, entry_id)


@bp.get("/rulings/<document>/<version>/<entry_id>/")
def entry_with_slash(document: str, version: str, entry_id: str) -> ResponseReturnValue:
    """GET /rulings/<document>/<version>/<entry_id>/: the entry without the slash."""
    return entry_slash(document, version, entry_id)
