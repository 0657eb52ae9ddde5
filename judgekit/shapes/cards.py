"""The card index's JSON shapes (``/api/cards``); the card pages render these same dictionaries."""

from __future__ import annotations

import re
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
_CARD_KEYS: Memo[str, tuple[tuple[Card, tuple[str, ...]], ...]] = Memo(__name__, "card keys")

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


# A title's word shorter than this is no name of its own ("of", "the", "Q's"): not compared alone.
_SHORTEST_WORD = 4
# What was typed found whole inside a name is that name, from this many letters ("gal" in Galaxy).
_SHORTEST_INSIDE = 3
# A name's start is compared with what was typed from this many letters ("wrof first" for Worf,
# First Officer); a shorter start is no name ("worf" is not a slip of "Worm" in Wormhole).
_SHORTEST_START = 8


def slips_allowed(wanted: str) -> int:
    """How many typing slips a folded name of this length may hold and still mean a card: none
    in three letters or fewer, one up to seven ("wrof", "picrad"), two beyond. Nearer is not
    offered: "picard" is not a slip of Replicator, nor "wrof" of Beware of Q."""
    return 0 if len(wanted) <= 3 else 1 if len(wanted) <= 7 else 2


def card_keys(card: Card) -> tuple[str, ...]:
    """The folded names a typed name is compared with: id, titles, aliases, each longer word.

    A judge types one word of a long title ("Picrad" for Jean-Luc Picard), so each word of four
    letters or more is a key too. The card list writes them into its page (``data-card-keys``) for
    cards.js, which scores them as ``nearest_cards`` does.
    """
    whole = [fold_title(name) for name in (card.id, *card.names)]
    words = (fold_title(w) for name in card.names for w in re.split(r"[\s\-/,]+", name))
    return tuple(
        dict.fromkeys([*filter(None, whole), *(w for w in words if len(w) >= _SHORTEST_WORD)])
    )


def _keyed(lib: Library, edition: str) -> tuple[tuple[Card, tuple[str, ...]], ...]:
    """The edition's cards with their keys (built once per library)."""
    memo = lib.memo(_CARD_KEYS)
    if edition not in memo:
        memo[edition] = tuple(
            (card, card_keys(card)) for card in card_index.index_of(lib).of_edition(edition)
        )
    return memo[edition]


def keys_by_url(lib: Library, edition: str) -> dict[str, str]:
    """Each of the edition's cards' keys, space-separated, by its page's address (for cards.js)."""
    return {card_index.card_url(card): " ".join(keys) for card, keys in _keyed(lib, edition)}


def slips_to(wanted: str, keys: tuple[str, ...]) -> int:
    """The fewest typing slips between the folded ``wanted`` and a card with these keys: a key
    whole, or (typed long enough) its start as long as what was typed, a long title typed in
    part; typed found whole inside a key is no slip (cards.js: ``slipsTo``)."""
    if len(wanted) >= _SHORTEST_INSIDE and any(wanted in key for key in keys):
        return 0
    whole = min(nearness.slips(wanted, key) for key in keys)
    if len(wanted) < _SHORTEST_START:
        return whole
    return min(whole, *(nearness.slips(wanted, key[: len(wanted)]) for key in keys))


def nearest_cards(
    lib: Library, typed: str, edition: str | None = None, limit: int = 5
) -> list[Card]:
    """The cards a typed name means with a slip or two (``slips_allowed``), the fewest slips only,
    by title: the one way every "did you mean" finds cards (the card list and cards.js, the card
    404, the CLI, the event's Cite field). Of one edition, or of both (2E first between equals).
    None when no card is that close: a far match is noise, not a suggestion."""
    typed = typed.strip()
    wanted = fold_title(typed) if nearness.near_enough(typed) else ""
    if not wanted:
        return []
    allowed = slips_allowed(wanted)
    editions = [edition] if edition else list(CARD_FILES)
    scored = []
    for order, ed in enumerate(editions):
        for card, keys in _keyed(lib, ed):
            slips = slips_to(wanted, keys)
            if slips <= allowed:
                scored.append((slips, card.full_title, order, fold_title(card.id), card))
    scored.sort(key=lambda item: item[:-1])
    kept = [item[-1] for item in scored if item[0] == scored[0][0]]
    return kept[:limit]


def other_game_cards(
    lib: Library, typed: str, edition: str, limit: int = 5
) -> tuple[str, list[Card], int]:
    """For text naming no card of ``edition``: the other game, its cards whose titles hold every
    word typed (as the filter reads them: "worf" in 1E finds 2E's Worf, First Officer), else,
    where ``edition`` has no card near it either, its cards ``nearest_cards`` finds; at most
    ``limit``, and how many more hold the words."""
    other = next(ed for ed in CARD_FILES if ed != edition)
    if not typed.strip():
        return other, [], 0
    named = [
        c for c in card_index.index_of(lib).of_edition(other) if title_matches(typed, c.full_title)
    ]
    if named:
        return other, named[:limit], max(0, len(named) - limit)
    if nearest_cards(lib, typed, edition, limit):
        return other, [], 0  # a slip in this game's name, not the other game's card
    return other, nearest_cards(lib, typed, other, limit), 0


def similar_cards(lib: Library, edition: str, typed: str, limit: int = 5) -> list[dict[str, Any]]:
    """The edition's cards nearest what was typed, as the index lists them (for a 404)."""
    return [card_summary(lib, card) for card in nearest_cards(lib, typed, edition, limit)]


def elsewhere(lib: Library, edition: str, typed: str) -> dict[str, Any] | None:
    """The other game's cards for text no card of ``edition`` matches, as the index lists them
    (the card list's "2E has Worf, First Officer"); None when it has none."""
    other, found, more = other_game_cards(lib, typed, edition)
    if not found:
        return None
    return {
        "edition": other,
        "slug": card_index.edition_slug(other),
        "cards": [card_summary(lib, card) for card in found],
        "more": more,
    }
