"""The compare pages: pick two versions, what changed between them, one rule's history."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from judgekit.compare import diff
from judgekit.corpus.model import Document
from judgekit.shapes.compare import comparison_dict, marked_dict, pairs_dict
from judgekit.shapes.history import history_dict
from judgekit.shapes.reading import documents
from judgekit.web.context import current_library as library
from judgekit.web.lookup import (
    before,
    choice,
    find_document,
    find_history,
    find_marked,
    find_pair,
    find_version,
    named_version,
    typography_arg,
)
from judgekit.web.slashes import redirect_keeping_query

bp = Blueprint("diff", __name__)


def _options() -> dict:
    """The page's display options from the query: view, typography and the kind of change shown."""
    view = choice("view", ("inline", "side"))
    typography = choice("typography", ("hide", "show"))
    show = choice("show", ("all", *diff.STATUSES))

    def link(**changed: str) -> str:
        args = {"view": view, "typography": typography, "show": show, **changed}
        # Defaults stay out of the URL, so the canonical address is the plain one.
        args = {k: v for k, v in args.items() if v not in ("inline", "hide", "all")}
        return url_for(request.endpoint, **request.view_args, **args)

    links = {
        "inline": link(view="inline"),
        "side": link(view="side"),
        "hide": link(typography="hide"),
        "show": link(typography="show"),
    }
    filters = {kind: link(show=kind) for kind in ("all", *diff.STATUSES)}
    return {
        "view": view,
        "typography": typography,
        "show": show,
        "links": links,
        "filters": filters,
    }


def _form(document: Document | None = None, old: str | None = None, new: str | None = None):
    """The picker's selection: the given versions, else the last release of a document."""
    held = list(library().corpus.held())
    if document is None:
        document = next((d for d in held if len(d.versions) > 1), held[0] if held else None)
    if document is None:
        return {"document": None, "from": None, "to": None}
    ids = [v.id for v in document.versions]
    return {
        "document": document.id,
        "from": old or ids[max(len(ids) - 2, 0)],
        "to": new or ids[-1],
    }


@bp.get("/diff")
def index() -> ResponseReturnValue:
    """GET /diff."""
    args = {k: request.args.get(k, "").strip() for k in ("document", "from", "to")}
    lib = library()
    if not any(args.values()):
        return render_template(
            "diff/index.html",
            data=documents(lib),
            form=_form(),
            pairs=[pairs_dict(lib, doc) for doc in lib.corpus.held()],
        )
    if not args["document"]:
        abort(400, description="choose a document to compare")
    doc = find_document(args["document"])
    if not args["from"] and not args["to"]:
        return redirect(url_for("diff.document", document=doc.id))
    if not (args["from"] and args["to"]):
        abort(400, description="choose two versions to compare: from and to")
    old, new = find_version(doc.id, args["from"]), find_version(doc.id, args["to"])
    options = _options()
    extra = {k: options[k] for k in ("view", "typography") if request.args.get(k)}
    return redirect(url_for("diff.compare", document=doc.id, pair=f"{old.id}..{new.id}", **extra))


@bp.get("/diff/<document>")
def document(document: str) -> ResponseReturnValue:
    """GET /diff/<document>."""
    lib = library()
    doc = find_document(document)
    return render_template(
        "diff/document.html",
        data=pairs_dict(lib, doc),
        docs=documents(lib),
        form=_form(doc),
    )


@bp.get("/diff/<document>/<pair>")
def compare(document: str, pair: str) -> ResponseReturnValue:
    """GET /diff/<document>/<pair>."""
    lib = library()
    doc = find_document(document)
    # One version, by its id or as judges name it ("v4"): what it changed, its query kept.
    one = named_version(doc, pair)
    if one is not None:
        old, new = before(doc, one)
        return redirect_keeping_query(
            url_for("diff.compare", document=doc.id, pair=f"{old.id}..{new.id}")
        )
    old, new = find_pair(document, pair)
    options = _options()
    comparison = diff.compare(lib, old, new)
    data = comparison_dict(lib, comparison, options["typography"] == "show")
    return render_template("diff/compare.html", data=data, options=options)


@bp.get("/diff/<document>/<version>/new")
def marked(document: str, version: str) -> ResponseReturnValue:
    """GET /diff/<document>/<version>/new."""
    lib = library()
    found = find_marked(document, version)
    data = marked_dict(lib, found, diff.marked_new(found))
    return render_template("diff/marked.html", data=data)


@bp.get("/history/<document>/<entry_id>")
def history(document: str, entry_id: str) -> ResponseReturnValue:
    """GET /history/<document>/<entry_id>."""
    lib = library()
    options = _options()
    doc, steps = find_history(document, entry_id)
    data = history_dict(lib, doc, entry_id, steps, typography_arg())
    return render_template("diff/history.html", data=data, options=options)
