"""The card index's JSON shapes (``/api/cards``); the card pages render these same dictionaries."""

from __future__ import annotations

import unicodedata
from typing import Any

from judgekit import nearness
from judgekit.corpus.cards import CARD_FILES, Card
from judgekit.corpus.model import Entry
from judgekit.render import card_index
from judgekit.render.library import Library, Memo
from judgekit.render.status import status

_ALL_CARDS: Memo[str, dict[str, Any]] = Memo(__name__, "every card")
_CARD_DETAILS: Memo[tuple[str, str], dict[str, Any]] = Memo(__name__, "card detail")

EDITION_TITLES = {"2E": "Second Edition", "1E": "First Edition"}
STANDING_TEXT = {
    "newest-held": "in the newest version held here",
    "still": "the newest version held here still names this card here",
    "changed": "the newest version held here no longer names this card here",
    "gone": "not in the newest version held here",
}


def card_summary(lib: Library, card: Card) -> dict[str, Any]:
    """A card as the index lists it, with how many passages name it."""
    return {
        "id": card.id,
        "title": card.title,
        "subtitle": card.subtitle,
        "full_title": card.full_title,
        "unique": card.unique,
        "edition": card.edition,
        "type": card.type,
        "type_editorial": _type_editorial(lib, card),
        "set": card.set,
        "number": card.number,
        "rarity": card.rarity,
        "url": card_index.card_url(card),
        "api_url": card_index.card_api_url(card),
        "mentions": len(card_index.mentions_of(lib, card)),
    }


def _type_editorial(lib: Library, card: Card) -> dict[str, Any] | None:
    """Where a type is the editors' inference, not stated by a ruling: the words it rests on."""
    if card.type_from is None:
        return None
    document, version, entry_id = card.type_from.split("/", 2)
    entry = lib.corpus.entry(document, version, entry_id)
    return {
        "note": "The editors' inference: no ruling states this type",
        "from": lib.citation_title(entry) if entry else card.type_from,
        "url": lib.entry_url(entry) if entry else None,
        "words": card.type_words,
    }


def cards(lib: Library) -> dict[str, Any]:
    """GET /api/cards: every card, 2E then 1E, each sorted by title (built once; not to mutate)."""
    memo = lib.memo(_ALL_CARDS)
    if "all" not in memo:
        index = card_index.index_of(lib)
        memo["all"] = {
            "cards": [
                card_summary(lib, card)
                for edition in CARD_FILES
                for card in index.of_edition(edition)
            ]
        }
    return memo["all"]


def _standing(lib: Library, entry: Entry, card: Card) -> dict[str, Any]:
    found = card_index.standing(lib, entry, card)
    data: dict[str, Any] = {"status": found.status, "text": STANDING_TEXT[found.status]}
    if found.entry is not None and found.entry is not entry:
        data["url"] = lib.entry_url(found.entry)
        data["title"] = found.entry.title
        data["version"] = found.entry.version
    return data


def mention(lib: Library, entry: Entry, card: Card) -> dict[str, Any]:
    """One passage that names the card: where it is, what it is, and what it says."""
    version = lib.corpus.version(entry.document, entry.version)
    doc = lib.corpus.documents[entry.document]
    role = card_index.role(lib, entry, card)
    return {
        "document": entry.document,
        "version": entry.version,
        "id": entry.id,
        "title": entry.title,
        "kind": entry.kind,
        "url": lib.entry_url(entry),
        "api_url": lib.entry_api_url(entry),
        "citation": lib.citation_title(entry),
        "page_editorial": lib.page_editorial(entry),  # the citation's page is the editors' reading
        "snippet": card_index.snippet(lib, entry, card),
        "role": role,
        "edition": doc.edition,
        "document_title": doc.short_title,
        "version_title": version.short_title,
        "in_force": lib.corpus.in_force(version),  # kept for scripts: newest held
        "status": status(lib.corpus, version).label,
        "draft": version.draft,
        "standing": _standing(lib, entry, card),
    }


def _order(lib: Library, item: dict[str, Any]) -> tuple:
    doc = lib.corpus.documents[item["document"]]
    version_rank = -doc.order().get(item["version"], 0)  # the newest held first
    entry_rank = list(doc.version(item["version"]).entries).index(item["id"])
    return (card_index.ROLES.index(item["role"]), item["document"], version_rank, entry_rank)


def card_detail(lib: Library, card: Card) -> dict[str, Any]:
    """GET /api/cards/<edition>/<id>: the card and every passage naming it, rulings first."""
    memo = lib.memo(_CARD_DETAILS)
    key = (card.edition, card.id)
    if key not in memo:
        memo[key] = _detail(lib, card)
    return memo[key]


def _detail(lib: Library, card: Card) -> dict[str, Any]:
    passages = []
    for m in card_index.mentions_of(lib, card):
        entry = lib.corpus.entry(m.document, m.version, m.entry)
        if entry is None or lib.corpus.documents[m.document].edition != card.edition:
            continue  # never another edition's passage (the data cannot say so; be sure)
        passages.append(mention(lib, entry, card))
    passages.sort(key=lambda item: _order(lib, item))
    source = None
    if card.source:
        document, version, entry_id = card.source.split("/", 2)
        listed = lib.corpus.entry(document, version, entry_id)
        doc = lib.corpus.documents.get(document)
        held = doc.version(version) if doc is not None else None
        if listed is not None and held is not None:
            where = f"{doc.short_title} {held.short_title}"
            source = {"title": listed.title, "url": lib.entry_url(listed), "where": where}
    return {
        **card_summary(lib, card),
        "edition_title": EDITION_TITLES.get(card.edition, card.edition),
        "aliases": list(card.aliases),
        "note": card.note,
        "source": source,
        "mentions": passages,
    }


def card_groups(detail: dict[str, Any]) -> list[dict[str, Any]]:
    """A card page's passages: by role (rulings first), then by document and version."""
    groups: list[dict[str, Any]] = []
    for role in card_index.ROLES:
        items = [m for m in detail["mentions"] if m["role"] == role]
        if not items:
            continue
        versions: list[dict[str, Any]] = []
        for item in items:
            key = (item["document"], item["version"])
            if not versions or versions[-1]["key"] != key:
                versions.append(
                    {
                        "key": key,
                        "label": f"{item['document_title']} {item['version_title']}",
                        "in_force": item["in_force"],
                        "status": item["status"],
                        "draft": item["draft"],
                        "passages": [],
                    }
                )
            versions[-1]["passages"].append(item)
        groups.append({"role": role, "title": card_index.ROLE_TITLES[role], "versions": versions})
    return groups


def fold_title(text: str) -> str:
    """A title or typed text as the card filter compares it: letters and digits, lowercase.

    Case, accents, spaces and punctuation (dots, apostrophes, hyphens, the unique dot •) do not
    count, so "uss galaxy" finds U.S.S. Galaxy and "obrien" finds O'Brien. cards.js folds the
    same way (its fold()); tests run the same inputs through both.
    """
    plain = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in plain if ch.isalnum() and not unicodedata.combining(ch)).lower()


def title_matches(query: str, title: str) -> bool:
    """Whether every word typed is found, folded, in the folded title."""
    folded = fold_title(title)
    return all(fold_title(word) in folded for word in query.split())


def similar_cards(lib: Library, edition: str, typed: str, limit: int = 5) -> list[dict[str, Any]]:
    """The edition's cards whose id or title is close to what was typed (for a 404)."""
    wanted = fold_title(typed) if nearness.near_enough(typed) else ""
    if not wanted:
        return []
    scored = []
    for card in card_index.index_of(lib).of_edition(edition):
        keys = (fold_title(card.id), fold_title(card.full_title), fold_title(card.title))
        ratio = max(nearness.ratio(wanted, key) for key in keys)
        if any(wanted in key for key in keys):
            ratio = max(ratio, 0.9)
        if ratio >= 0.6:
            scored.append((-ratio, card.full_title, card))
    return [card_summary(lib, card) for _, _, card in sorted(scored)[:limit]]
