"""The phone page's JSON twin (/api/phone); the shape is shapes.phone's."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify
from flask.typing import ResponseReturnValue

from judgekit.shapes.phone import phone_dict

bp = Blueprint("api_phone", __name__, url_prefix="/api")


@bp.get("/phone")
def phone() -> ResponseReturnValue:
    """GET /api/phone: the addresses a phone opens, and which of them works offline."""
    config = current_app.config
    return jsonify(phone_dict(config["BASE_URL"], config.get("PACK_URL", "")))
