"""The card index in search: one item per card (kind ``card``), so a card's name finds its page.

Kept apart from the entry items: ``SearchService.for_library`` adds :func:`card_source` to its
extra sources, and an exact card title ranks above an exact ruling topic (``index.EXACT_TIERS``).
"""

from __future__ import annotations

from typing import Any

from judgekit.corpus.cards import CARD_FILES, Card
from judgekit.corpus.model import Version
from judgekit.render import card_index as ci
from judgekit.render.library import Library
from judgekit.search.collapse import Hit
from judgekit.search.documents import IndexDoc

KIND = "card"


def home_version(lib: Library, edition: str) -> Version | None:
    """The version in force of the edition's first held document: where card items are filed.

    Search items need a document and version (filters, collapsing); a card belongs to an
    edition, so it is filed under that edition's first document, in force, and its result
    says "Cards" instead (see ``describe``).
    """
    for doc in lib.corpus.held():
        if doc.edition == edition and doc.latest is not None:
            return doc.latest
    return None


def card_text(card: Card) -> str:
    """What a card item holds besides its names: its edition and printing, nothing more.

    Rule words (a card's type, "named", "passage") are left out on purpose: hundreds of card
    items holding "personnel" or "mission" would change how every rule query is ranked.
    """
    printing = " ".join(x for x in (card.set, card.number, card.rarity) if x)
    return f"{card.edition} · {printing}" if printing else card.edition


def card_docs(lib: Library) -> list[IndexDoc]:
    """Every card of every edition as a search item (kind ``card``)."""
    out = []
    index = ci.index_of(lib)
    for edition in CARD_FILES:
        home = home_version(lib, edition)
        if home is None:
            continue
        vorder = lib.corpus.documents[home.document].order()[home.id]
        for card in index.of_edition(edition):
            out.append(
                IndexDoc(
                    document=home.document,
                    version=home.id,
                    id=f"{edition.lower()}.{card.id}",
                    kind=KIND,
                    title=card.full_title,
                    text=card_text(card),
                    edition=edition,
                    vorder=vorder,
                    aliases=tuple(n for n in card.names if n != card.full_title),
                    current=True,
                )
            )
    return out


def find(lib: Library, hit: Hit) -> Card | None:
    """The card of a search hit."""
    edition, _, card_id = hit.id.partition(".")
    return ci.find_card(lib, edition, card_id)


def urls_of(lib: Library, hit: Hit) -> tuple[str, str | None]:
    """A card hit's page and JSON."""
    card = find(lib, hit)
    return (ci.card_url(card), ci.card_api_url(card)) if card else ("", None)


def describe(lib: Library, hit: Hit) -> dict[str, Any]:
    """What a card result says instead of its filing document: the card index and edition."""
    card = find(lib, hit)
    if card is None:
        return {}
    return {
        "document_title": "Cards",
        "version_title": card.edition,
        "citation": f"Card index ({card.edition}): {card.full_title}",
        "breadcrumb": [],
        "in_force": True,
        # What a judge reads on the card itself, so a result can show it as a card.
        "card": {
            "type": card.type,
            "type_editorial": card.type_from is not None,  # the editors' inference: marked ed.
            "set": card.set,
            "number": card.number,
        },
    }
