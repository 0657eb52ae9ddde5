"""A page's address with a trailing slash it does not have: redirected to the page, not a 404.

Routing already sends an address missing a slash to the page that has one (``/rules/<d>/<v>``
to ``/rules/<d>/<v>/``, a 308); this is the other way round, for every page that has no slash
(``/timing/``, ``/search/``, ``/cards/``, ``/diff/<d>/<a>..<b>/``). The JSON API stays exact:
a script's address is written once, by its author, and a 404 tells them at once.
"""

from __future__ import annotations

from flask import Flask, Response, redirect, request
from flask.globals import request_ctx
from werkzeug.exceptions import HTTPException, NotFound

from judgekit.web.limits import MAX_PATH_PART

API_PREFIX = "/api/"


def redirect_trailing_slash() -> Response | None:
    """308 from ``/page/`` to ``/page`` when only the form without the slash is a page."""
    path = request.path
    if not isinstance(request.routing_exception, NotFound) or not path.endswith("/"):
        return None
    bare = path.rstrip("/")
    if not bare or path.startswith(API_PREFIX):
        return None
    try:
        endpoint, values = request_ctx.url_adapter.match(bare, method="GET")
    except HTTPException:
        return None
    # The request limits hold for the page it is sent to: a part no page could have is a 404 here.
    if endpoint == "static" or any(
        isinstance(v, str) and len(v) > MAX_PATH_PART for v in values.values()
    ):
        return None
    return redirect_keeping_query(request.script_root + bare)


def redirect_keeping_query(target: str) -> Response:
    """308 to ``target`` with the request's query as it came (a page's options, a search)."""
    query = request.query_string.decode("latin-1")
    return redirect(target + (f"?{query}" if query else ""), 308)


def init_app(app: Flask) -> None:
    """Check after the request limits (protect.init_app) and before any page is served."""
    app.before_request(redirect_trailing_slash)
