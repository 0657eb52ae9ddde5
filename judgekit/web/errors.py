"""Error answers: JSON under /api, the friendly error page elsewhere."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NoReturn

from flask import Flask, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import BadHost, HTTPException, NotFound, Unauthorized

from judgekit.render.text import clipped

# Messages quote what was asked cut short (lookup.echo); this bounds any message all the same.
MAX_MESSAGE_CHARS = 2000


@dataclass(frozen=True)
class Nearest:
    """A page near what a 404 asked for: its title, where it is, and its address."""

    title: str
    where: str
    url: str


class NotFoundNear(NotFound):
    """A 404 that knows the nearest real pages (the error page links them, the JSON lists them)."""

    def __init__(self, description: str, nearest: list[Nearest]) -> None:
        super().__init__(description)
        self.nearest = tuple(nearest)


def not_found_near(description: str, nearest: list[Nearest]) -> NoReturn:
    """Answer 404 with ``description`` and links to the ``nearest`` pages."""
    raise NotFoundNear(description, nearest)


class RefusedTyped(Unauthorized):
    """A form's post refused for want of a session, holding what was typed (the error page
    shows it back to copy: nothing a judge writes is lost) and where to join again."""

    def __init__(self, description: str, typed: list[dict], again_url: str) -> None:
        super().__init__(description)
        self.typed = tuple(typed)
        self.again_url = again_url


def wants_json() -> bool:
    """API paths answer errors in JSON; pages answer in HTML."""
    return request.path.startswith("/api/") or request.path == "/api"


def http_error(exc: HTTPException) -> ResponseReturnValue:
    """Any HTTP error, in the form the client asked for."""
    message = clipped(exc.description or exc.name, MAX_MESSAGE_CHARS)
    # The exception's own headers stay, e.g. the Allow that a 405 must carry.
    headers = [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]
    nearest = getattr(exc, "nearest", None)
    if wants_json():
        answer = {"error": exc.name, "status": exc.code, "message": message}
        if nearest is not None:
            answer["nearest"] = [
                {"title": n.title, "where": n.where, "url": n.url} for n in nearest
            ]
        return jsonify(answer), exc.code, headers
    if isinstance(exc, BadHost):
        # No URL can be built for this Host header, so not the error page, whose links need them.
        headers.append(("Content-Type", "text/plain; charset=utf-8"))
        return f"{exc.code} {exc.name}: {message}\n", exc.code, headers
    # No JSON twin: the view's (built from what was asked, however long) is an error too.
    page = render_template(
        "error.html",
        status=exc.code,
        name=exc.name,
        message=message,
        nearest=nearest,
        typed=getattr(exc, "typed", ()),
        again_url=getattr(exc, "again_url", None),
        alternate_url=None,
    )
    return page, exc.code, headers


def init_app(app: Flask) -> None:
    """Answer every HTTP error through ``http_error``."""
    app.register_error_handler(HTTPException, http_error)
