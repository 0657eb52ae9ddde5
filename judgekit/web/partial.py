"""An address cut short, as a judge types or truncates it (``/rules/``, ``/history/2e-rulebook``,
``/show/cards/2e``, ``/api/entries/2e-rulebook/4``): sent to the one page it can only mean, else
a 404 that says what the address lacks and links the pages that complete it.

Only an address no route matches and whose parts begin a route's (every part fits) is read
here; any other 404 stays the page's own, with its guesses (suggest.py). Each redirect is one
page the address can only mean: ``/rules`` and ``/rulings`` the list of what is held (the home
page), ``/pack`` the page that offers the judge pack, ``/api/diff/<document>/<version>`` the JSON
of the comparison its page ``/diff/<document>/<version>`` opens. Nothing here guesses among
several pages. The JSON API's addresses stay exact: a slash at their end is named, never
redirected.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from flask import Flask, Response, abort, current_app, request, url_for
from flask.globals import request_ctx
from werkzeug.exceptions import HTTPException, NotFound

from judgekit import urls
from judgekit.corpus.cards import CARD_FILES
from judgekit.corpus.model import Document, Version
from judgekit.render import card_index
from judgekit.render.library import Library
from judgekit.render.text import clipped
from judgekit.web.context import current_library
from judgekit.web.errors import Nearest, not_found_near
from judgekit.web.lookup import (
    ECHO_CHARS,
    before,
    echo,
    find_document,
    find_pair,
    find_version,
    named_version,
)
from judgekit.web.slashes import redirect_keeping_query

# A route's part that is a value: <name>, <converter:name>, <converter(args):name>.
VARIABLE = re.compile(r"<(?:(\w+)(?:\((.*)\))?:)?(\w+)>")
# What each value is called in the address a message shows ("/history/2e-rulebook/<rule id>").
SAID = {
    "entry_id": "rule id",
    "card_id": "card id",
    "sequence_id": "sequence",
    "event_id": "event number",
    "old": "from version",
    "new": "to version",
    "pair": "from..to",
    "area": "rules or rulings",
    "edition": "2e or 1e",
}
# The most parts read: a route has at most 7.
MOST_PARTS = 8
# "/show" alone: a rule, a card or a published ruling, each shown from its own page.
SHOW = (
    "This address is cut short: “Show to a player” shows one rule, card or published ruling. "
    "Open it and tap “Show to a player”."
)
# The addresses that can only mean one page, by their parts.
OBVIOUS = {("rules",): "rules.home", ("rulings",): "rules.home", ("pack",): "phone.page"}


@dataclass(frozen=True)
class Cut:
    """A route an address begins: its endpoint, its pattern and the values the address gave."""

    endpoint: str
    rule: str
    values: Mapping[str, str]

    def shape(self) -> str:
        """The route's address with the values given and the rest named: "/history/x/<rule id>"."""

        def part(m: re.Match[str]) -> str:
            name = m.group(3)
            said = SAID.get(name, name)
            if name == "entry_id" and self.rule.startswith("/api/"):
                said = "entry id"  # the JSON's own word; a judge reads "rule"
            given = self.values.get(name)
            return clipped(given, ECHO_CHARS) if given else f"<{said}>"

        return VARIABLE.sub(part, self.rule)


def _fits(pattern: str, part: str) -> bool:
    m = VARIABLE.fullmatch(pattern)
    if m is None:
        return pattern == part
    converter, args = m.group(1), m.group(2) or ""
    if converter == "int":
        return part.isascii() and part.isdigit()
    if converter == "any":
        return part in [a.strip().strip("'\"") for a in args.split(",")]
    return bool(part)


def _values(rule: str, parts: list[str]) -> dict[str, str] | None:
    """The values ``parts`` give a route they begin (fewer parts than it has), or None."""
    pattern = [p for p in rule.split("/") if p]
    if len(parts) >= len(pattern) or not all(map(_fits, pattern, parts)):
        return None
    return {
        m.group(3): part
        for p, part in zip(pattern, parts, strict=False)
        if (m := VARIABLE.fullmatch(p))
    }


def begun(parts: list[str]) -> list[Cut]:
    """The GET routes these parts begin, the fewest parts missing first, then those whose next
    part is a value (the address of a thing, before a fixed page beside it: "/event/rulings/new")."""
    found = []
    for rule in current_app.url_map.iter_rules():
        if rule.endpoint == "static" or "GET" not in (rule.methods or ()):
            continue
        values = _values(rule.rule, parts)
        if values is not None:
            found.append(Cut(rule.endpoint, rule.rule, values))

    def order(cut: Cut) -> tuple[int, bool, str]:
        pattern = [p for p in cut.rule.split("/") if p]
        return len(pattern), not VARIABLE.fullmatch(pattern[len(parts)]), cut.rule

    return sorted(found, key=order)


# -- what each kind of address lacks, and the pages that complete it ----------------------------
def _document(lib: Library, cut: Cut) -> Document | None:
    name = cut.values.get("document")
    return find_document(name) if name else None


def _versions(lib: Library, cut: Cut, glossary: bool = False) -> list[Version]:
    doc = _document(lib, cut)
    if doc is not None and cut.values.get("version"):
        return [find_version(doc.id, cut.values["version"])]
    docs = [doc] if doc is not None else list(lib.corpus.held())
    held = [v for d in docs for v in reversed(d.versions)]
    return [v for v in held if lib.glossary(v)] if glossary else held


def _version_pages(lib: Library, versions: list[Version]) -> list[Nearest]:
    return [Nearest(lib.label(v), "read it whole", lib.version_url(v)) for v in versions]


def _version_jsons(lib: Library, versions: list[Version], where: str) -> list[Nearest]:
    return [Nearest(lib.label(v), where, lib.version_api_url(v)) for v in versions]


def _comparisons(lib: Library, cut: Cut) -> list[Nearest]:
    doc = _document(lib, cut)
    docs = [doc] if doc is not None else [d for d in lib.corpus.held() if len(d.versions) > 1]
    return [
        Nearest(f"Compare versions of {d.short_title}", "", urls.compare_document_page(d.id))
        for d in docs
    ]


def _latest(lib: Library, cut: Cut | None) -> list[Version]:
    """The newest version of the document named, else of each held."""
    doc = _document(lib, cut) if cut is not None else None
    docs = [doc] if doc is not None else list(lib.corpus.held())
    return [d.latest for d in docs if d.latest]


def _history(lib: Library, cut: Cut) -> tuple[str, list[Nearest]]:
    return (
        "Open the rule and follow its “History” link, or compare two versions whole.",
        _version_pages(lib, _latest(lib, cut)) + _comparisons(lib, cut),
    )


def _show(lib: Library, cut: Cut) -> tuple[str, list[Nearest]]:
    said = "Open the rule and tap “Show to a player”."
    return said, _version_pages(lib, _versions(lib, cut))


def _show_card(lib: Library, cut: Cut) -> tuple[str, list[Nearest]]:
    return "Open the card and tap “Show to a player”.", _card_indexes(cut)


def _editions(cut: Cut) -> list[str]:
    """The card edition the address gave, else both; an unknown one is a 404 naming them."""
    asked = cut.values.get("edition")
    editions = [e for e in CARD_FILES if card_index.edition_slug(e) == asked]
    if asked and not editions:
        known = ", ".join(card_index.edition_slug(e) for e in CARD_FILES)
        abort(404, description=f"unknown edition {echo(asked)} (known: {known})")
    return editions or list(CARD_FILES)


def _card_indexes(cut: Cut) -> list[Nearest]:
    return [
        Nearest(f"The {e} cards", "every card the rules name", urls.cards_page(edition=e))
        for e in _editions(cut)
    ]


def _published(lib: Library, cut: Cut) -> tuple[str, list[Nearest]]:
    return "Open it from the published rulings.", [
        Nearest("Published rulings", "this event", urls.EVENT_PUBLISHED)
    ]


def _ruling(lib: Library, cut: Cut) -> tuple[str, list[Nearest]]:
    return "The event's page lists its rulings.", [Nearest("The event", "its rulings", urls.EVENT)]


def _version_json(lib: Library, cut: Cut) -> tuple[str, list[Nearest]]:
    return "Each version held is linked here.", _version_jsons(lib, _versions(lib, cut), "JSON")


def _entry_json(lib: Library, cut: Cut) -> tuple[str, list[Nearest]]:
    said = "Each version's JSON lists its entries' ids."
    return said, _version_jsons(lib, _versions(lib, cut), "its entries")


def _term_json(lib: Library, cut: Cut) -> tuple[str, list[Nearest]]:
    said = "Each version's JSON lists its glossary entries."
    return said, _version_jsons(lib, _versions(lib, cut, glossary=True), "its glossary")


def _comparison_json(lib: Library, cut: Cut) -> str:
    """``/api/diff/<document>/<version>`` read as its page ``/diff/<document>/<version>`` is: the
    JSON of what that version (by its id or as judges write it, "v4") changed from the one before
    it, else a 404 saying why; ``/api/diff/<document>/<from>..<to>``, the page's pair, its JSON
    (its 404s are the page's, linking JSON)."""
    doc = find_document(cut.values["document"])
    named = cut.values["old"]
    version = named_version(doc, named)
    old, new = (
        before(doc, version, json=True)
        if version is not None
        else find_pair(doc.id, named, json=True)  # a pair, else a 404 in the page's words
    )
    return urls.compare_api(doc.id, old.id, new.id)


def _pairs_json(lib: Library, cut: Cut) -> tuple[str, list[Nearest]]:
    doc = _document(lib, cut)
    docs = [doc] if doc is not None else [d for d in lib.corpus.held() if len(d.versions) > 1]
    said = "Each document's JSON lists its version pairs."
    return said, [
        Nearest(d.short_title, "its version pairs", urls.compare_document_api(d.id)) for d in docs
    ]


def _history_json(lib: Library, cut: Cut) -> tuple[str, list[Nearest]]:
    said = "Each version's JSON lists its entries' ids."
    return said, _version_jsons(lib, _latest(lib, cut), "its entries")


def _card_json(lib: Library, cut: Cut) -> tuple[str, list[Nearest]]:
    _editions(cut)
    return "Every card's id is in /api/cards.", [Nearest("Every card", "JSON", urls.cards_api())]


Complete = Callable[[Library, Cut], tuple[str, list[Nearest]]]
# What an address of each endpoint means, and what completes it (None: the 404 page's guesses).
MEANS: Mapping[str, tuple[str, Complete | None]] = {
    "diff.history": ("a rule's history", _history),
    "show.entry": ("a rule shown to a player", _show),
    "show.card": ("a card shown to a player", _show_card),
    "show.published": ("a published ruling shown to a player", _published),
    "events.ruling": ("a ruling of the event", _ruling),
    "events.published_ruling": ("a published ruling", _published),
    "api.version": ("a version's JSON", _version_json),
    "api.entry": ("an entry's JSON", _entry_json),
    "api.term": ("a glossary term's JSON", _term_json),
    "api_compare.diff_pairs": ("the list of a document's version pairs", _pairs_json),
    "api_compare.history": ("a rule's history in JSON", _history_json),
    "api_cards.card": ("a card's JSON", _card_json),
    "api_events.event": ("an event's JSON (for its judges)", None),
}
# Addresses cut short that mean one address, as their pages' do: the 308's target, else a 404.
ONE_ADDRESS: Mapping[str, Callable[[Library, Cut], str]] = {
    "api_compare.diff_versions": _comparison_json,
}


def _api_addresses() -> list[Nearest]:
    """The API's addresses that take no value: where a script starts."""
    rules = sorted(
        r.rule
        for r in current_app.url_map.iter_rules()
        if r.rule.startswith("/api/")
        and "<" not in r.rule
        and "GET" in (r.methods or ())
        and r.endpoint != "api_events.session"
    )
    return [Nearest(rule, "JSON", rule) for rule in rules]


def _answers(path: str) -> bool:
    """Whether ``path``, with this request's query and headers, would answer or redirect (asked
    in a request of its own, with a ``g`` of its own: from memory if it was rendered, with the
    checks every request has, "v4" redirected): a link is given only to an address that works."""
    environ = dict(request.environ, PATH_INFO=path, REQUEST_METHOD="GET")
    with current_app.app_context(), current_app.request_context(environ):
        return current_app.full_dispatch_request().status_code < 400


def _exact_api(path: str) -> None:
    """An API address with a slash at its end, when the address without it is one (or a cut short
    one that means one, ONE_ADDRESS): named, and linked if it answers (else its version, say, is
    unknown too)."""
    bare = path.rstrip("/")
    try:
        request_ctx.url_adapter.match(bare, method="GET")
    except HTTPException:
        cuts = begun([p for p in bare.split("/") if p])
        if not (cuts and cuts[0].endpoint in ONE_ADDRESS):
            return
    said = f"no such address: the API's addresses have no slash at their end ({echo(bare)})"
    if not _answers(bare):
        not_found_near(f"{said}; try it without the slash to see what else is wrong", [])
    query = request.query_string.decode("latin-1")
    link = bare + (f"?{query}" if query else "")
    not_found_near(said, [Nearest(clipped(bare, ECHO_CHARS), "JSON", link)])


def answer_cut_short() -> Response | None:
    """Before any view: an address no route matches that begins one (see the module)."""
    if not isinstance(request.routing_exception, NotFound) or request.method not in ("GET", "HEAD"):
        return None
    parts = [p for p in request.path.split("/") if p]
    if not parts or len(parts) > MOST_PARTS:
        return None
    if tuple(parts) in OBVIOUS:
        return redirect_keeping_query(url_for(OBVIOUS[tuple(parts)]))
    if parts == ["api"]:
        not_found_near(
            "This address is cut short: the API's addresses are listed.", _api_addresses()
        )
    if parts == ["show"]:
        not_found_near(SHOW, _version_pages(current_library(), _latest(current_library(), None)))
    if parts[0] == "api" and request.path.endswith("/"):
        _exact_api(request.path)
    cuts = begun(parts)
    if not cuts:
        return None
    cut = cuts[0]
    if cut.endpoint in ONE_ADDRESS:
        return redirect_keeping_query(ONE_ADDRESS[cut.endpoint](current_library(), cut))
    what, complete = MEANS.get(cut.endpoint, ("the page", None))
    message = f"This address is cut short: {what} is at {cut.shape()}."
    if complete is None:  # the page's guesses (suggest.py) from the address
        abort(404, description=message)
    said, nearest = complete(current_library(), cut)
    not_found_near(f"{message} {said}", nearest)


def init_app(app: Flask) -> None:
    """After the trailing slash's redirect (slashes.py): an address it sends on is no cut."""
    app.before_request(answer_cut_short)
