"""The search page (/search) and its live-results fragment."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request
from flask.typing import ResponseReturnValue

from judgekit.search.service import SearchParamError, SearchService
from judgekit.web.context import current_library as library
from judgekit.web.context import current_search

bp = Blueprint("search", __name__)

FILTERS = ("edition", "document", "version", "kind")
EXAMPLES = (
    "how many dilemmas do I draw",
    "beam personnel",
    "attempting missions",
    "commandeer a ship",
    "all personnel stopped",
)


def _form(svc: SearchService) -> dict[str, Any]:
    """What the filter form offers and what is chosen (chosen values as the judge sent them)."""
    lib = library()
    docs = list(lib.corpus.held())
    return {
        "q": request.args.get("q", ""),
        "chosen": {name: request.args.get(name, "") for name in FILTERS},
        "all_versions": request.args.get("all_versions", "") not in ("", "0", "false", "no", "off"),
        "editions": sorted({d.edition for d in docs}, reverse=True),
        "documents": [{"id": d.id, "title": d.short_title} for d in docs],
        "versions": [
            {"document": d.short_title, "versions": [(v.id, v.short_title) for v in d.versions]}
            for d in docs
        ],
        "kinds": list(svc.kinds),
        "filtered": any(request.args.get(name) for name in FILTERS),
        "params": {
            name: value
            for name in (*FILTERS, "all_versions")
            if (value := request.args.get(name, "")) not in ("", "0")
        },
        "examples": EXAMPLES,
    }


def _run(template: str):
    svc = current_search()
    data, error = None, None
    try:
        data = svc.search(request.args)
    except SearchParamError as exc:
        error = str(exc)
    return render_template(
        template,
        data=data,
        error=error,
        form=_form(svc),
        compact=request.args.get("compact") == "1",
    ), (400 if error else 200)


@bp.get("/search")
def search() -> ResponseReturnValue:
    """GET /search."""
    return _run("search/page.html")


@bp.get("/search/results")
def results() -> ResponseReturnValue:
    """The results list alone: what search.js swaps in as the judge types."""
    return _run("search/_results.html")
