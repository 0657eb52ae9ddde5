"""The search part of the JSON API."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, request
from flask.typing import ResponseReturnValue

from judgekit.search.service import SearchParamError
from judgekit.web.context import search_answer

bp = Blueprint("api_search", __name__, url_prefix="/api")


@bp.get("/search")
def search() -> ResponseReturnValue:
    """GET /api/search?q=&document=&version=&kind=&edition=&all_versions=&limit="""
    try:
        data = search_answer(request.args)
    except SearchParamError as exc:
        abort(400, description=str(exc))
    return jsonify(data)
