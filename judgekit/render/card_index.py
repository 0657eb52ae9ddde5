"""What pages derive from the card index: each card's passages, their roles, snippets, standing.

Which entry names which card is the committed mention data; this module only arranges it (and
finds where in a passage the name stands, for a snippet and a link).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass

from judgekit import urls
from judgekit.corpus.cards import Card, CardIndex, Mention, TitleFinder
from judgekit.corpus.model import Entry
from judgekit.render.library import Library, Memo

_MENTION_TABLES: Memo[str, dict] = Memo(__name__, "mentions by card and by entry")
_FINDERS: Memo[tuple[str, str], TitleFinder] = Memo(__name__, "title finders")

# The order a card page shows passages in: what rules on the card first.
ROLES = ("ruling", "rule", "example", "list")
ROLE_TITLES = {
    "ruling": "Rulings and errata",
    "rule": "Rules",
    "example": "Examples",
    "list": "Card lists",
}
SNIPPET_CHARS = 220


@dataclass(frozen=True)
class Standing:
    """Whether the version in force still names the card where an older passage did."""

    status: str  # newest-held | still | changed | gone
    entry: Entry | None = None  # the passage in the version in force, if any


def edition_slug(edition: str) -> str:
    """The edition as URLs write it: "2e", "1e"."""
    return edition.lower()


def card_url(card: Card) -> str:
    """The card's page."""
    return urls.card_page(edition_slug(card.edition), card.id)


def shared_title_url(card: Card) -> str:
    """The card index filtered to every card of the edition with this card's title."""
    return urls.cards_page(q=card.title, edition=edition_slug(card.edition))


def card_api_url(card: Card) -> str:
    """The card's JSON."""
    return urls.card_api(edition_slug(card.edition), card.id)


def card_paths(lib: Library) -> Iterator[str]:
    """Every card index address that needs no query: the list and each card, with their JSON."""
    yield urls.cards_page()
    yield urls.cards_api()
    for card in index_of(lib):
        yield card_url(card)
        yield card_api_url(card)


def index_of(lib: Library) -> CardIndex:
    """The corpus's card index (empty for a corpus without card files)."""
    return lib.corpus.cards or CardIndex()


def _tables(lib: Library) -> dict:
    memo = lib.memo(_MENTION_TABLES)
    if "by_card" not in memo:
        index = index_of(lib)
        by_card: dict[tuple[str, str], list[Mention]] = {}
        by_entry: dict[tuple[str, str, str], list[Card]] = {}
        for m in index.mentions:
            doc = lib.corpus.documents.get(m.document)
            card = index.card(doc.edition, m.card) if doc else None
            entry = lib.corpus.entry(m.document, m.version, m.entry)
            if card is None or entry is None:  # `judgekit check` reports these
                continue
            by_card.setdefault((card.edition, card.id), []).append(m)
            by_entry.setdefault((m.document, m.version, m.entry), []).append(card)
        memo["by_card"], memo["by_entry"] = by_card, by_entry
    return memo


def mentions_of(lib: Library, card: Card) -> list[Mention]:
    """Every recorded passage naming the card (its own edition only, by construction)."""
    return _tables(lib)["by_card"].get((card.edition, card.id), [])


def cards_in(lib: Library, entry: Entry) -> list[Card]:
    """The cards an entry names, in the order the mention data lists them."""
    return _tables(lib)["by_entry"].get((entry.document, entry.version, entry.id), [])


def find_card(lib: Library, edition: str, card_id: str) -> Card | None:
    """A card by edition (any case: "2e", "2E") and id, or None."""
    return index_of(lib).card(edition.upper(), card_id)


def _finder(lib: Library, card: Card) -> TitleFinder:
    memo = lib.memo(_FINDERS)
    key = (card.edition, card.id)
    if key not in memo:
        memo[key] = TitleFinder([card])
    return memo[key]


def role(lib: Library, entry: Entry, card: Card) -> str:
    """What the passage is for this card: a ruling, a rule, an example or a card list."""
    if entry.kind == "ruling" or entry.card_ruling:
        return "ruling"
    if card.source == f"{entry.document}/{entry.version}/{entry.id}":
        return "list"
    finder = _finder(lib, card)
    if finder.find(entry.title):
        return "rule"
    for block in entry.body:
        if block.kind != "example" and finder.find(block.text.replace("*", "")):
            return "rule"
    return "example"


def snippet(lib: Library, entry: Entry, card: Card) -> str:
    """The words around the card's first name in the passage's plain text."""
    text = lib.plain(entry)
    found = _finder(lib, card).find(text)
    if not found:
        return _clip(text, 0, SNIPPET_CHARS)
    hit = found[0]
    # Start at the sentence (or line) that holds the name, when it is not too far back.
    start = max(text.rfind(". ", 0, hit.start) + 2, text.rfind("\n", 0, hit.start) + 1, 0)
    if hit.start - start > SNIPPET_CHARS // 2:
        start = hit.start - SNIPPET_CHARS // 3
    if start <= 2:  # a leading mark (the * of a card ruling) is not worth an ellipsis
        start = 0
    return _clip(text, start, start + SNIPPET_CHARS)


def _clip(text: str, start: int, end: int) -> str:
    part = re.sub(r"\s+", " ", text[start:end]).strip()
    return ("…" if start > 0 else "") + part + ("…" if end < len(text) else "")


def standing(lib: Library, entry: Entry, card: Card) -> Standing:
    """Whether the version in force still names the card in this passage's counterpart."""
    version = lib.corpus.version(entry.document, entry.version)
    if lib.corpus.in_force(version):
        return Standing("newest-held", entry)
    latest = lib.corpus.documents[entry.document].latest
    here = next((o for o in lib.other_versions(entry) if o.version == latest.id), None)
    if here is None or here.id is None:
        return Standing("gone")
    partner = latest.get(here.id)
    named = any(c.id == card.id for c in cards_in(lib, partner))
    return Standing("still" if named else "changed", partner)


# -- card links in entry HTML (done by judgekit.render.glossary) ------------------------------
def def_id(card: Card) -> str:
    """The id of a card's pop-up definition: ``card-2e-uss-galaxy``."""
    return f"card-{edition_slug(card.edition)}-{card.id}"


def card_definition(lib: Library, card: Card) -> dict[str, str]:
    """A card's pop-up: what the index knows of it, as escaped HTML."""
    facts = [card.edition]
    if card.type:
        facts.append(card.type)
    if card.set:
        printed = " ".join(x for x in (card.number, card.rarity) if x)
        facts.append(f"{card.set} {printed}".strip())
    mentions = mentions_of(lib, card)
    count = len(mentions)
    body = (
        f"<p>{html.escape(' · '.join(facts))}</p>"
        f"<p>Named in {count} passage{'s' if count != 1 else ''} of the rules.</p>"
    )
    rulings = []
    for m in mentions:
        entry = lib.corpus.entry(m.document, m.version, m.entry)
        if entry is not None and role(lib, entry, card) == "ruling":
            version = lib.corpus.version(m.document, m.version)
            label = f"{entry.title} ({lib.label(version)})"
            rulings.append(
                f'<li><a href="{html.escape(lib.entry_url(entry))}">{html.escape(label)}</a></li>'
            )
    if rulings:
        body += f"<p>Rulings and errata:</p><ul>{''.join(rulings[:3])}</ul>"
    return {
        "id": def_id(card),
        "title": card.full_title,
        "url": card_url(card),
        "html": body,
        "link_text": "Open this card's page",
    }
