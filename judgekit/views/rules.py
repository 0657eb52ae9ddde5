"""Reading pages: the home page, a whole version, and one entry's permalink page."""

from __future__ import annotations

from flask import Blueprint, render_template

from .. import library, serialize
from .api import find_entry, find_version

bp = Blueprint("rules", __name__)


@bp.get("/")
def home():
    return render_template("rules/home.html", data=serialize.documents(library()))


@bp.get("/rules/<document>/<version>/")
@bp.get("/rulings/<document>/<version>/")
def version(document: str, version: str):
    lib = library()
    found = find_version(document, version)
    entries = [serialize.entry_detail(lib, e) for e in found.walk()]
    return render_template(
        "rules/version.html", version=serialize.version_detail(lib, found), entries=entries
    )


@bp.get("/rules/<document>/<version>/<entry_id>")
@bp.get("/rulings/<document>/<version>/<entry_id>")
def entry(document: str, version: str, entry_id: str):
    lib = library()
    found = find_entry(document, version, entry_id)
    return render_template("rules/entry.html", entry=serialize.entry_detail(lib, found))
