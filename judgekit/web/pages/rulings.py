"""The Current Rulings pages: the same reading helpers as the rulebooks, their own templates."""

from __future__ import annotations

from flask import Blueprint
from flask.typing import ResponseReturnValue

from judgekit.web.pages.rules import show_document, show_entry, show_version

bp = Blueprint("rulings", __name__)


@bp.get("/rulings/<document>/")
def document_home(document: str) -> ResponseReturnValue:
    """GET /rulings/<document>/."""
    return show_document(document)


@bp.get("/rulings/<document>/<version>/")
def version(document: str, version: str) -> ResponseReturnValue:
    """GET /rulings/<document>/<version>/."""
    return show_version("rulings", document, version)


# strict_slashes=False: the address with a trailing slash reaches the view, which redirects it.
@bp.get("/rulings/<document>/<version>/<entry_id>", strict_slashes=False)
def entry(document: str, version: str, entry_id: str) -> ResponseReturnValue:
    """GET /rulings/<document>/<version>/<entry_id>."""
    return show_entry("rulings", document, version, entry_id)
