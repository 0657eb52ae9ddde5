"""The search part of the JSON API (routes on the api blueprint)."""

from __future__ import annotations

import json

from flask import Response, abort, request
from flask.typing import ResponseReturnValue
from jinja2.utils import htmlsafe_json_dumps

from ..search_service import SearchParamError
from .api import bp
from .search import service


@bp.get("/search")
def search() -> ResponseReturnValue:
    """GET /api/search?q=&document=&version=&kind=&edition=&all_versions=&limit="""
    try:
        data = service().search(request.args)
    except SearchParamError as exc:
        abort(400, description=str(exc))
    # The query is echoed back: write <, >, & and ' as \\u escapes so no browser could ever
    # read the answer as HTML. Any JSON parser reads the same values.
    body = htmlsafe_json_dumps(data, dumps=json.dumps, ensure_ascii=False)
    return Response(str(body), mimetype="application/json")
