"""The card index pages: every card by edition, and one card with every passage naming it."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request
from flask.typing import ResponseReturnValue

from judgekit import nearness, urls
from judgekit.corpus.cards import CARD_FILES
from judgekit.render import card_index
from judgekit.render.text import clipped, quoted
from judgekit.shapes import cards as card_shapes
from judgekit.web.context import current_library as library
from judgekit.web.lookup import find_card

bp = Blueprint("cards", __name__)


def _editions(query: str) -> list[dict]:
    """Each edition's cards, with which of them the filter hides (the rule cards.js uses)."""
    data = card_shapes.cards(library())
    out = []
    for edition in CARD_FILES:
        cards = [c for c in data["cards"] if c["edition"] == edition]
        hidden = {c["url"] for c in cards if not card_shapes.title_matches(query, c["full_title"])}
        # Nothing matches: "did you mean", the cards nearest the text, and the other game's
        # cards it names (cards.js finds the same).
        none = len(hidden) == len(cards)
        near = card_shapes.similar_cards(library(), edition, query) if none else []
        elsewhere = card_shapes.elsewhere(library(), edition, query) if none else None
        out.append(
            {
                "id": edition,
                "slug": card_index.edition_slug(edition),
                "title": card_shapes.EDITION_TITLES[edition],
                "cards": cards,
                "hidden": hidden,
                "shown": len(cards) - len(hidden),
                "near": near,
                "elsewhere": elsewhere,
                "keys": card_shapes.keys_by_url(library(), edition),
            }
        )
    return out


@bp.get("/cards")
def index() -> ResponseReturnValue:
    """GET /cards?q=&edition=: every card by edition; q pre-fills the filter."""
    query = (request.args.get("q") or "")[:200]
    editions = _editions(query)
    typed = (request.args.get("edition") or "").strip()
    chosen = typed.upper()
    error = None
    if chosen and chosen not in CARD_FILES:
        known = ", ".join(ed["slug"] for ed in editions)
        error = f"unknown edition {quoted(typed, 80)} (known: {known})"
        chosen = ""
    # The count cards.js writes as the judge types, written here for a page read without it.
    shown = sum(ed["shown"] for ed in editions if not chosen or ed["id"] == chosen)
    return render_template(
        "cards/index.html", editions=editions, q=query, chosen=chosen, error=error, shown=shown
    ), (400 if error else 200)


@bp.get("/cards/<edition>", strict_slashes=False)
def edition_index(edition: str) -> ResponseReturnValue:
    """GET /cards/<edition> (an address a judge types, "/cards/2e"): the index of that edition's
    cards; an unknown edition is a 404 naming those held."""
    if edition.upper() not in CARD_FILES:
        known = ", ".join(card_index.edition_slug(ed) for ed in CARD_FILES)
        abort(404, description=f"unknown card edition {quoted(edition, 80)} (known: {known})")
    return redirect(urls.cards_page(edition=edition.upper()), 308)


@bp.get("/cards/<edition>/<card_id>")
def card(edition: str, card_id: str) -> ResponseReturnValue:
    """GET /cards/<edition>/<card_id>; an unknown card is a 404 naming similar cards."""
    lib = library()
    if edition.upper() in CARD_FILES and card_index.find_card(lib, edition, card_id) is None:
        similar = card_shapes.similar_cards(lib, edition.upper(), card_id)
        # The other game's card of that name ("/cards/1e/worf": 2E's Worf, First Officer); what
        # is read is bounded as every 404's nearest matches are.
        words = card_id[: nearness.MAX_ASKED].replace("-", " ")
        return render_template(
            "cards/not_found.html",
            edition=edition.upper(),
            typed=clipped(card_id, 80),
            similar=similar,
            elsewhere=card_shapes.elsewhere(lib, edition.upper(), words),
        ), 404
    found = find_card(edition, card_id)
    detail = card_shapes.card_detail(lib, found)
    return render_template(
        "cards/card.html",
        card=detail,
        groups=card_shapes.card_groups(detail),
        show_url=urls.show_card_page(card_index.edition_slug(found.edition), found.id),
    )
