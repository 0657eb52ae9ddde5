"""`judgekit card "title"`: a card and every passage that names it, from the terminal."""

from __future__ import annotations

import argparse
import json
import sys

from judgekit.checks.loader import CorpusError, load_corpus
from judgekit.corpus.cards import CARD_FILES, Card, sort_key
from judgekit.render.card_index import card_url, index_of
from judgekit.render.library import Library
from judgekit.shapes.cards import card_detail, card_groups, nearest_cards, other_game_cards
from judgekit.urls import cards_page


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add the ``card`` sub-command to the CLI."""
    card = sub.add_parser("card", help="a card and every passage that names it")
    card.add_argument("title", help="the card's title (or the start of it, or its id)")
    card.add_argument("--edition", help="2E or 1E (default: both)")
    card.add_argument("--json", action="store_true", help="print the API's JSON")
    card.set_defaults(func=cmd_card)


def matching(lib: Library, query: str, edition: str | None) -> list[Card]:
    """Cards named exactly so (title, full title, alias or id), else those starting so."""
    cards = [c for ed in CARD_FILES for c in index_of(lib).of_edition(ed)]
    cards = [c for c in cards if edition is None or c.edition == edition]
    want = sort_key(query)
    exact = [c for c in cards if want in {sort_key(n) for n in (*c.names, c.id)} or query == c.id]
    if exact:
        return exact
    return [c for c in cards if any(sort_key(n).startswith(want) for n in c.names)] if want else []


def _print_card(lib: Library, card: Card) -> None:
    detail = card_detail(lib, card)
    facts = " · ".join(
        x
        for x in (
            detail["edition_title"],
            card.type,
            " ".join(y for y in (card.set, card.number, card.rarity) if y),
        )
        if x
    )
    print(f"{'•' if card.unique else ''}{card.full_title}  ({facts})")
    print(f"  {detail['url']}")
    for group in card_groups(detail):
        print(f"\n{group['title']}")
        for version in group["versions"]:
            shown = f" · {version['status']}" if version["in_force"] else ""
            print(f"  {version['label']}{shown}")
            for m in version["passages"]:
                print(f"    {m['title']}  {m['url']}")
                print(f"      {m['snippet']}")
                if not m["in_force"]:
                    print(f"      [{m['standing']['text']}]")


def cmd_card(args: argparse.Namespace) -> int:
    """Print the card's page as text (or JSON); several matches are listed; none is an error."""
    edition = args.edition.upper() if args.edition else None
    if edition is not None and edition not in CARD_FILES:
        print(f"unknown edition {args.edition!r} (known: {', '.join(CARD_FILES)})", file=sys.stderr)
        return 2
    try:
        lib = Library(load_corpus(args.root))
    except CorpusError as exc:
        print("\n".join(exc.problems), file=sys.stderr)
        return 1
    found = matching(lib, args.title.strip(), edition)
    if not found:
        # The cards the card list, its 404 and the event's Cite field offer for the same text.
        close = nearest_cards(lib, args.title, edition)
        print(f"no card named {args.title!r}", file=sys.stderr)
        if close:
            named = "; ".join(f"{c.full_title} ({c.edition})" for c in close)
            print(f"did you mean: {named}", file=sys.stderr)
        if edition is not None:
            # The other game's cards it names, as the card list says them ("2E has Worf, …").
            other, cards, more = other_game_cards(lib, args.title, edition)
            if cards:
                print(f"{other} has:", file=sys.stderr)
                for card in cards:
                    print(
                        f"  {card.full_title} ({card.edition})  {card_url(card)}", file=sys.stderr
                    )
                if more:
                    listed = cards_page(q=args.title, edition=other.lower())
                    print(f"  and {more} more: {listed}", file=sys.stderr)
        return 1
    if args.json:
        data = [card_detail(lib, c) for c in found]
        print(
            json.dumps(data[0] if len(data) == 1 else {"cards": data}, indent=2, ensure_ascii=False)
        )
        return 0
    if len(found) > 1:
        print(f"{len(found)} cards match {args.title!r}:")
        for card in found:
            print(f"  {card.full_title} ({card.edition})  {card_url(card)}")
        if len(found) > 3:
            return 0
        print()
    for number, card in enumerate(found):
        if number:
            print("\n" + "-" * 40)
        _print_card(lib, card)
    return 0
