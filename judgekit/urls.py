"""Every address judgekit builds outside a request: one place, matching the web layer's routes.

Pages and JSON shapes are built without Flask (the CLI, the warm-up, a static build use them too),
so they cannot call ``url_for``; templates use ``url_for`` for the fixed pages. Paths only: an
absolute link is made from a known base address, never from a request's Host header.
"""

from __future__ import annotations

import ipaddress
from typing import Any
from urllib.parse import quote, urlencode, urlsplit


def _q(part: str) -> str:
    return quote(part, safe="")


def only_this_computer(base_url: str) -> str | None:
    """The host of ``base_url`` if only this computer can open it (loopback), else None.

    127.0.0.0/8, ::1, "localhost" (and names under it), and 0.0.0.0 / :: (a listening address,
    not one a browser elsewhere can reach). A relative or unparsable address gives None.
    """
    try:
        host = urlsplit(base_url).hostname
    except ValueError:  # e.g. an unclosed "[" in the address
        return None
    if not host:
        return None
    name = host.rstrip(".").casefold()
    if name == "localhost" or name.endswith(".localhost"):
        return host
    try:
        address = ipaddress.ip_address(name.split("%")[0])  # ::1%lo: a zone does not matter
    except ValueError:
        return None
    if address.is_loopback or address.is_unspecified:
        return host
    mapped = getattr(address, "ipv4_mapped", None)  # ::ffff:127.0.0.1
    return host if mapped is not None and mapped.is_loopback else None


def area(kind: str) -> str:
    """The URL area a document of a kind lives in: rulings and glossaries apart from rulebooks."""
    return "rulings" if kind in ("rulings", "glossary") else "rules"


def version_page(kind: str, document: str, version: str) -> str:
    """The page of a whole version."""
    return f"/{area(kind)}/{_q(document)}/{_q(version)}/"


def entry_page(kind: str, document: str, version: str, entry_id: str) -> str:
    """The permalink page of an entry."""
    return f"/{area(kind)}/{_q(document)}/{_q(version)}/{_q(entry_id)}"


def show_page(kind: str, document: str, version: str, entry_id: str) -> str:
    """The page showing a player an entry's address as a QR code (served pages only)."""
    return "/show" + entry_page(kind, document, version, entry_id)


def version_api(document: str, version: str) -> str:
    """The JSON of a version."""
    return f"/api/documents/{_q(document)}/{_q(version)}"


def entry_api(document: str, version: str, entry_id: str) -> str:
    """The JSON of an entry."""
    return f"/api/entries/{_q(document)}/{_q(version)}/{_q(entry_id)}"


def compare_page(document: str, old: str, new: str) -> str:
    """The page of the changes from one version to another."""
    return f"/diff/{_q(document)}/{_q(old)}..{_q(new)}"


def compare_api(document: str, old: str, new: str) -> str:
    """The JSON of the changes from one version to another."""
    return f"/api/diff/{_q(document)}/{_q(old)}/{_q(new)}"


def history_page(document: str, entry_id: str) -> str:
    """The page of one entry across every version."""
    return f"/history/{_q(document)}/{_q(entry_id)}"


def history_api(document: str, entry_id: str) -> str:
    """The JSON of one entry across every version."""
    return f"/api/history/{_q(document)}/{_q(entry_id)}"


def marked_page(document: str, version: str) -> str:
    """The page of a rulings version's entries marked * (new or changed)."""
    return f"/diff/{_q(document)}/{_q(version)}/new"


def marked_api(document: str, version: str) -> str:
    """The JSON of a rulings version's entries marked *."""
    return f"/api/diff/{_q(document)}/{_q(version)}/new"


def timing_index() -> str:
    """The list of timing sequences (and a link to the rulings' timing notes)."""
    return "/timing"


def sequence_page(sequence: str, version: str, **params: Any) -> str:
    """The stepper page of a sequence's version; ``step`` and the calculator's inputs in the query."""
    query = {"version": version, **{k: v for k, v in params.items() if v is not None}}
    return f"/timing/{_q(sequence)}?{urlencode(query)}"


def sequence_api(sequence: str, version: str) -> str:
    """The JSON of a sequence's version, every step included."""
    return f"/api/timing/{_q(sequence)}?{urlencode({'version': version})}"


def search_page(**params: str) -> str:
    """The search page with a query and filters."""
    return "/search" + (f"?{urlencode(params)}" if params else "")


def cards_page(**params: str) -> str:
    """The card index: every card by edition; ``q`` and ``edition`` filter it."""
    return "/cards" + (f"?{urlencode(params)}" if params else "")


def card_page(edition: str, card_id: str) -> str:
    """A card's page: the card and every passage that names it."""
    return f"/cards/{_q(edition)}/{_q(card_id)}"


def show_card_page(edition: str, card_id: str) -> str:
    """The page showing a player a card's address as a QR code (served pages only)."""
    return "/show" + card_page(edition, card_id)


def cards_api() -> str:
    """The JSON of every card."""
    return "/api/cards"


def card_api(edition: str, card_id: str) -> str:
    """The JSON of a card with every passage that names it."""
    return f"/api/cards/{_q(edition)}/{_q(card_id)}"


def compare_document_page(document: str) -> str:
    """The page listing a document's versions to compare."""
    return f"/diff/{_q(document)}"


def compare_document_api(document: str) -> str:
    """The JSON of a document's version pairs."""
    return f"/api/diff/{_q(document)}"


# The fixed pages and JSON answers (templates name them with url_for).
HOME = "/"
DOCUMENTS_API = "/api/documents"
SEARCH = "/search"
COMPARE = "/diff"
TIMING = "/timing"
TIMING_API = "/api/timing"
# First Edition's timing rulings: a page of their own, never a sequence (the id is reserved).
TIMING_FIRST_EDITION = "/timing/first-edition"
TIMING_FIRST_EDITION_API = "/api/timing/first-edition"
PHONE = "/phone"
PHONE_API = "/api/phone"
PHONE_PACK_QR = "/phone/pack-qr.svg"
LAN_QR = "/qr.svg"


# -- the event's rulings (pages answer judges only; see judgekit/web/pages/events.py) ---------
EVENT = "/event"
EVENT_PUBLISHED = "/event/published"


def event_ruling_page(number: int) -> str:
    """One ruling of the current event, with its history."""
    return f"/event/rulings/{number}"


def published_ruling_page(number: int) -> str:
    """One published ruling of the current event, as anyone (a player) reads it."""
    return f"{EVENT_PUBLISHED}/{number}"


def show_published_page(number: int) -> str:
    """The page showing a player a published ruling's address as a QR code."""
    return "/show" + published_ruling_page(number)


def new_ruling_page(*cites: str) -> str:
    """The form recording a ruling, with these citations (``entry:doc/version/id``) filled in."""
    return "/event/rulings/new" + (f"?{urlencode([('cite', c) for c in cites])}" if cites else "")


def event_api(event_id: int) -> str:
    """The JSON of an event and its rulings (judges only)."""
    return f"/api/events/{event_id}"


def published_api(event_id: int) -> str:
    """The JSON of an event's published rulings (anyone)."""
    return f"{event_api(event_id)}/published"


def published_ruling_api(event_id: int, number: int) -> str:
    """The JSON of one published ruling (anyone): the published list's dict for it."""
    return f"{published_api(event_id)}/{number}"
