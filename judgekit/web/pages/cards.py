"""The card index pages: every card by edition, and one card with every passage naming it."""

from __future__ import annotations

from flask import Blueprint, render_template, request
from flask.typing import ResponseReturnValue

from judgekit.corpus.cards import CARD_FILES
from judgekit.render import card_index
from judgekit.shapes import cards as shapes
from judgekit.web.context import current_library as library
from judgekit.web.lookup import find_card

bp = Blueprint("cards", __name__)


@bp.get("/cards")
def index() -> ResponseReturnValue:
    """GET /cards?q=&edition=: every card by edition; q pre-fills the filter."""
    data = shapes.cards(library())
    editions = [
        {
            "id": edition,
            "slug": card_index.edition_slug(edition),
            "title": shapes.EDITION_TITLES[edition],
            "cards": [c for c in data["cards"] if c["edition"] == edition],
        }
        for edition in CARD_FILES
    ]
    chosen = (request.args.get("edition") or "").strip().upper()
    if chosen not in CARD_FILES:
        chosen = ""
    query = (request.args.get("q") or "")[:200]
    return render_template("cards/index.html", editions=editions, q=query, chosen=chosen)


@bp.get("/cards/<edition>/<card_id>")
def card(edition: str, card_id: str) -> ResponseReturnValue:
    """GET /cards/<edition>/<card_id>."""
    lib = library()
    detail = shapes.card_detail(lib, find_card(edition, card_id))
    return render_template("cards/card.html", card=detail, groups=shapes.card_groups(detail))
