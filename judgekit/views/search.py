"""The search page (/search), its live-results fragment, and the app's search service."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, current_app, render_template, request
from flask.typing import ResponseReturnValue

from .. import library
from ..index_cache import default_cache_dir
from ..search_service import SearchParamError, SearchService

bp = Blueprint("search", __name__)

FILTERS = ("edition", "document", "version", "kind")
EXAMPLES = (
    "how many dilemmas do I draw",
    "beam personnel",
    "attempting missions",
    "commandeer a ship",
    "all personnel stopped",
)


@bp.record_once
def _start(state) -> None:
    """Create the app's search service when the blueprint is registered; build it unless lazy."""
    app: Flask = state.app
    # SEARCH_CACHE_DIR: a folder, or "" to index in memory; default: the per-user cache.
    cache_dir = app.config.get("SEARCH_CACHE_DIR", default_cache_dir())
    service = SearchService.for_library(app.extensions["judgekit"], cache_dir or None)
    app.extensions["judgekit.search"] = service
    if app.config.get("SEARCH_PRELOAD", True):
        service.index  # noqa: B018 -- build or open it now, not on the first judge's query


def service() -> SearchService:
    """The current app's search service."""
    return current_app.extensions["judgekit.search"]


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
    svc = service()
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
