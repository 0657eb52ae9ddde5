"""Blueprints, one per area, and the shared error handling."""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException


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
        if wants_json():
            return jsonify({"error": exc.name, "status": exc.code, "message": message}), exc.code
        return render_template(
            "error.html", status=exc.code, name=exc.name, message=message
        ), exc.code
