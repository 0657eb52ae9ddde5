"""`judgekit check` for the card index: mentions, not-mentions and card names found in the text."""

from __future__ import annotations

import re

from judgekit.corpus.cards import (
    CARD_FILES,
    Card,
    CardIndex,
    Mention,
    TitleFinder,
    fold,
    mentions_path,
    scan_text,
)
from judgekit.corpus.model import Corpus, Version


def check_cards(corpus: Corpus, index: CardIndex) -> list[str]:
    """Every problem of the card index against the corpus, as ``file:line: message``."""
    problems: list[str] = []
    titles: dict[tuple[str, str], str] = {}
    for card in index:
        key = (card.edition, fold(card.full_title))
        if key in titles:
            problems.append(f"{card.location}: card {card.full_title!r} repeats {titles[key]!r}")
        titles[key] = card.id
        if card.source is not None:
            problems.extend(_check_source(corpus, card))
        if card.edition == "1E" and card.type is not None:
            problems.extend(_check_type(corpus, index, card))
    named = {(corpus.documents[m.document].edition, m.card) for m in index.mentions}
    for card in index:
        if (card.edition, card.id) not in named:
            problems.append(f"{card.location}: card {card.id!r} is mentioned by no entry")
    finders = {ed: TitleFinder(index.of_edition(ed)) for ed in CARD_FILES}
    for version in corpus.versions():
        problems.extend(_check_version(corpus, index, version, finders[version.edition]))
    return problems


def _check_source(corpus: Corpus, card: Card) -> list[str]:
    document, _, rest = card.source.partition("/")
    version, _, entry_id = rest.partition("/")
    entry = corpus.entry(document, version, entry_id)
    if entry is None:
        return [f"{card.location}: source {card.source!r} of {card.id!r} is not an entry"]
    if corpus.documents[document].edition != card.edition:
        return [f"{card.location}: source {card.source!r} of {card.id!r} is another edition"]
    return []


def _check_type(corpus: Corpus, index: CardIndex, card: Card) -> list[str]:
    """A 1E type only where a ruling states it, or marked as the editors' with the words it is
    inferred from (found verbatim in that ruling)."""
    if card.type_from is not None or card.type_words is not None:
        document, _, rest = (card.type_from or "").partition("/")
        version, _, entry_id = rest.partition("/")
        entry = corpus.entry(document, version, entry_id)
        if entry is None or card.type_words is None:
            return [f"{card.location}: {card.id!r} needs type_from (an entry) and type_words"]
        if fold(card.type_words) not in fold(f"{entry.title} {entry.markdown}"):
            return [f"{card.location}: type_words of {card.id!r} are not in {card.type_from}"]
        return []
    word = re.compile(rf"\b{re.escape(card.type.split()[-1])}s?\b", re.IGNORECASE)
    for m in index.mentions:
        entry = corpus.entry(m.document, m.version, m.entry)
        if m.card == card.id and entry is not None and word.search(entry.markdown):
            return []
    return [
        f"{card.location}: no ruling naming {card.id!r} states its type {card.type!r}: remove"
        " it, or give type_from and type_words (the editors' inference, marked as such)"
    ]


def _check_version(
    corpus: Corpus, index: CardIndex, version: Version, finder: TitleFinder
) -> list[str]:
    problems: list[str] = []
    mine = [m for m in index.mentions if (m.document, m.version) == (version.document, version.id)]
    nots = [
        n for n in index.not_mentions if (n.document, n.version) == (version.document, version.id)
    ]
    found_in: dict[str, set[str]] = {}
    for entry in version.walk():
        ids: set[str] = set()
        for hit in finder.find(scan_text(entry.title, entry.markdown)):
            ids.update(hit.cards)
        found_in[entry.id] = ids
    recorded: dict[str, set[str]] = {}
    for item in [*mine, *nots]:
        what = "mention" if isinstance(item, Mention) else "not-a-mention"
        if version.get(item.entry) is None:
            problems.append(f"{item.location}: {what} names unknown entry {item.entry!r}")
            continue
        if index.card(version.edition, item.card) is None:
            problems.append(
                f"{item.location}: {what} names unknown {version.edition} card {item.card!r}"
            )
            continue
        if item.card not in found_in[item.entry]:
            problems.append(
                f"{item.location}: {what} of {item.card!r}: its name is not in {item.entry!r}"
            )
        before = recorded.setdefault(item.entry, set())
        if item.card in before:
            problems.append(f"{item.location}: {item.card!r} in {item.entry!r} is recorded twice")
        before.add(item.card)
    for entry in version.walk():
        for card_id in sorted(found_in[entry.id] - recorded.get(entry.id, set())):
            card = index.card(version.edition, card_id)
            problems.append(
                f"{entry.location}: {card.full_title!r} is named in {entry.id!r} but recorded "
                f"neither as a mention nor as not one (in {mentions_path(version.path).name})"
            )
    return problems
