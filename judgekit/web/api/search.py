"""The search part of the JSON API."""

from __future__ import annotations

import json

from flask import Blueprint, Response, abort, request
from flask.typing import ResponseReturnValue
from jinja2.utils import htmlsafe_json_dumps

from judgekit.search.service import SearchParamError
from judgekit.web.context import current_search

bp = Blueprint("api_search", __name__, url_prefix="/api")


@bp.get("/search")
def search() -> ResponseReturnValue:
    """GET /api/search?q=&document=&version=&kind=&edition=&all_versions=&limit="""
    try:
        data = current_search().search(request.args)
    except SearchParamError as exc:
        abort(400, description=str(exc))
    # The query is echoed back: write <, >, & and ' as \\u escapes so no browser could ever
    # read the answer as HTML. Any JSON parser reads the same values.
    body = htmlsafe_json_dumps(data, dumps=json.dumps, ensure_ascii=False)
    return Response(str(body), mimetype="application/json")
