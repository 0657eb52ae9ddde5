"""Blueprints, one per area, and the shared error handling."""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import BadHost, HTTPException


def wants_json() -> bool:
    """API paths answer errors in JSON; pages answer in HTML."""
    return request.path.startswith("/api/") or request.path == "/api"


def register(app: Flask) -> None:
    """Attach every blueprint and the error handlers."""
    from . import api, diff, rules, rulings, search, timing

    for module in (api, rules, rulings, search, diff, timing):
        app.register_blueprint(module.bp)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        message = exc.description or exc.name
        # The exception's own headers stay, e.g. the Allow that a 405 must carry.
        headers = [(k, v) for k, v in exc.get_headers() if k.lower() != "content-type"]
        if wants_json():
            body = jsonify({"error": exc.name, "status": exc.code, "message": message})
            return body, exc.code, headers
        if isinstance(exc, BadHost):
            # No URL can be built for this Host header, so not the error page, whose links need them.
            headers.append(("Content-Type", "text/plain; charset=utf-8"))
            return f"{exc.code} {exc.name}: {message}\n", exc.code, headers
        return (
            render_template("error.html", status=exc.code, name=exc.name, message=message),
            exc.code,
            headers,
        )
