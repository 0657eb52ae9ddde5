"""The card index part of the JSON API."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue

from judgekit.shapes import cards as card_shapes
from judgekit.web.context import current_library as library
from judgekit.web.lookup import find_card

bp = Blueprint("api_cards", __name__, url_prefix="/api")


@bp.get("/cards")
def cards() -> ResponseReturnValue:
    """GET /api/cards."""
    return jsonify(card_shapes.cards(library()))


@bp.get("/cards/<edition>/<card_id>")
def card(edition: str, card_id: str) -> ResponseReturnValue:
    """GET /api/cards/<edition>/<card_id>."""
    return jsonify(card_shapes.card_detail(library(), find_card(edition, card_id)))
