"""What the event page's Entry and Card filters name: a judge types a title ("Beaming", "Worf") or
an id ("beaming", "worf-first-officer"), or pastes a citation (``entry:doc/version/id``).

Ids match exactly, titles as the card index's filter compares them (case, accents, spaces and
punctuation do not count); a title several entries or cards share names them all, and the page
says which. Text naming nothing exactly names the titles holding every word of it, as the card
index's filter would; text naming nothing at all says so. Built once per request from the
corpus's titles (indexed once per library), so a filter costs a dictionary look-up and at most a
pass over the titles, however the rulings are filtered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from judgekit.events.fields import CITE_RE, MOST_CITATIONS, FieldError, line
from judgekit.events.model import Citation, Ruling
from judgekit.render import card_index
from judgekit.render.library import Library, Memo
from judgekit.shapes.cards import fold_title, nearest_cards, title_matches

_TITLES: Memo[str, dict] = Memo(__name__, "entries and cards by title and by id")
MOST_LISTED = 8  # the targets a note names; the rest are counted


@dataclass(frozen=True)
class Target:
    """An entry (of one version) or a card a filter names, as the note lists it."""

    label: str
    url: str
    document: str  # the entry's document, or the card's edition
    id: str
    spec: str  # as a ruling cites it: entry:<document>/<version>/<id> or card:<edition>/<id>
    page_editorial: str | None = None  # the label's page is the editors' reading ("ed.")


class _Listing:
    """Targets listed to a judge: a filter's note or the ruling form's choices."""

    targets: tuple[Target, ...]

    @property
    def listed(self) -> tuple[Target, ...]:
        """The targets listed (at most MOST_LISTED)."""
        return self.targets[:MOST_LISTED]

    @property
    def unlisted(self) -> int:
        """How many targets are only counted."""
        return max(0, len(self.targets) - MOST_LISTED)


@dataclass(frozen=True)
class Named(_Listing):
    """What a filter's text names, and how: "citation", "id", "title", "in title" or "nothing"."""

    kind: str  # "entry" or "card"
    text: str
    how: str
    targets: tuple[Target, ...] = ()
    # Naming nothing here: the other filter ("card" for an Entry filter) whose title or id it is.
    elsewhere: str = ""
    # Naming nothing at all: the cards nearest it (a typo, "Wrof"), offered, never filtered by.
    near: tuple[Target, ...] = ()
    # (document or edition, id) of every target: a ruling's citations are looked up in it.
    keys: frozenset[tuple[str, str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "keys", frozenset((t.document, t.id) for t in self.targets))

    def cites(self, c: Citation) -> bool:
        """Whether a citation is of what the text names (an entry in any version of its document)."""
        if c.kind != self.kind:
            return False
        if self.how == "citation":
            return c.spec.casefold() == self.text.casefold()
        return c.entry == self.text or (c.document, c.entry) in self.keys

    def cited_by(self, ruling: Ruling) -> bool:
        """Whether a ruling cites what the text names."""
        return any(self.cites(c) for c in ruling.citations)


def _index(lib: Library) -> dict:
    memo = lib.memo(_TITLES)
    if "entry" not in memo:
        for kind in ("entry", "card"):
            memo[kind] = {"title": {}, "id": {}, "all": []}
        # Each document's newest version first, as search lists them: a title several versions
        # share lists its newest entry first, then the older ones.
        newest_first = (v for doc in lib.corpus.held() for v in reversed(doc.versions))
        for version in newest_first:
            for entry in version.walk():
                target = Target(
                    lib.citation_short(entry),
                    lib.entry_url(entry),
                    entry.document,
                    entry.id,
                    f"entry:{entry.document}/{entry.version}/{entry.id}",
                    lib.page_editorial(entry),
                )
                _add(memo["entry"], entry.title, entry.id, target)
        for card in card_index.index_of(lib):
            label = f"{card.edition} card {card.full_title}"
            spec = f"card:{card.edition}/{card.id}"
            target = Target(label, card_index.card_url(card), card.edition, card.id, spec)
            _add(memo["card"], card.title, card.id, target, card.full_title)
    return memo


def _add(table: dict, title: str, ident: str, target: Target, *more: str) -> None:
    for name in dict.fromkeys(fold_title(t) for t in (title, *more)):
        table["title"].setdefault(name, []).append(target)
    table["id"].setdefault(ident, []).append(target)
    table["all"].append((" ".join((title, *more)), target))


def named_by(lib: Library, kind: str, text: str, cited: set[str] | None = None) -> Named | None:
    """What an Entry ("entry") or Card ("card") filter's text names; None for no text. ``cited``:
    the ids the event's rulings cite (an entry no longer in the corpus is still found by id)."""
    text = text.strip()
    if not text:
        return None
    match = CITE_RE.match(text)
    if match and (match.group(1) or match.group(5) or "").casefold() == kind:
        return Named(kind, text, "citation", _cited_target(lib, kind, match))
    cited = cited or set()
    table = _index(lib)[kind]
    by_id = table["id"].get(text, [])
    folded = fold_title(text)
    by_title = table["title"].get(folded, []) if folded else []
    if by_id or by_title or text in cited:
        how = "id" if by_id or not by_title else "title"
        return Named(kind, text, how, _every_version(table, by_id + by_title, cited))
    inside = [t for titles, t in table["all"] if folded and title_matches(text, titles)]
    if inside:
        return Named(kind, text, "in title", _every_version(table, inside, cited))
    # A card's title typed in the Entry filter (or the other way round) is said so.
    other = "card" if kind == "entry" else "entry"
    there = _index(lib)[other]
    elsewhere = text in there["id"] or (folded and folded in there["title"])
    if elsewhere:
        return Named(kind, text, "nothing", elsewhere=other)
    # A card's typo: did you mean, the cards the card list, its 404 and the Cite field offer.
    near = _near_cards(lib, text) if kind == "card" else ()
    return Named(kind, text, "nothing", near=near)


def _every_version(table: dict, found: list[Target], cited: set[str]) -> tuple[Target, ...]:
    # A ruling citing any version of an entry is shown, so the note names each version, retitled
    # ones too ("Beaming" in v1.1 is "Order – Beam Personnel" in v4); what the event's rulings
    # cite first, as the list the note explains holds those.
    same = (t for f in found for t in table["id"][f.id] if t.document == f.document)
    return tuple(sorted(dict.fromkeys(same), key=lambda t: t.id not in cited))


def _cited_target(lib: Library, kind: str, match: re.Match) -> tuple[Target, ...]:
    if kind == "card":
        wanted = (match.group(6).upper(), match.group(7))
    else:
        wanted = (match.group(2), match.group(4))
    return tuple(t for t in _index(lib)[kind]["id"].get(wanted[1], []) if t.document == wanted[0])


_NOUN = {"entry": ("entry", "entries"), "card": ("card", "cards")}
_ARTICLE = {"entry": "an", "card": "a"}
_EXAMPLE = {"entry": "“Beaming”", "card": "“Worf”"}


def did_you_mean(near: tuple[Target, ...]) -> str:
    """The cards nearest a name of none, offered (no question mark): "Did you mean A or B"."""
    return "Did you mean " + " or ".join(t.label for t in near)


def message(n: Named) -> str:
    """What the page says of a filter's text: which entries or cards it names, or that it names
    none (and the cards nearest it); the targets follow it (``listed``, then ``unlisted`` more)."""
    if n.near:
        return f"{_names_nothing(n)} {did_you_mean(n.near)}?"
    return _names_nothing(n) if n.how == "nothing" and not n.elsewhere else _names(n)


def _names_nothing(n: Named) -> str:
    one = _NOUN[n.kind][0]
    said = f"No {one} has the title or id “{n.text}”."
    if n.near:  # the cards nearest it follow
        return said
    return (
        f"{said} Type {_ARTICLE[n.kind]} {one}’s title, such as {_EXAMPLE[n.kind]}, or its id "
        "(the end of its page’s address)."
    )


def _names(n: Named) -> str:
    one, many = _NOUN[n.kind]
    typed = f"“{n.text}”"
    count = f"{len(n.targets)} {one if len(n.targets) == 1 else many}"
    if n.how == "citation":
        return f"{one.capitalize()} {typed}: rulings citing exactly this citation."
    if n.how == "nothing" and n.elsewhere:
        return (
            f"No {one} has the title or id {typed}, but {_ARTICLE[n.elsewhere]} {n.elsewhere} has:"
        )
    if n.how == "in title":
        versions = " (in any version)" if n.kind == "entry" else ""
        return (
            f"No {one} has the title or id {typed}; shown: rulings citing {many} whose "
            f"titles{versions} hold every word of it, {count} in all:"
        )
    if not n.targets:
        return f"{typed} is the id of a cited {one} that judgekit no longer holds."
    if len(n.targets) == 1:
        return f"{one.capitalize()} {typed} names {count} (rulings citing it are shown):"
    shown = "any version of them" if n.kind == "entry" else "any of them"
    return f"{one.capitalize()} {typed} names {count} (rulings citing {shown} are shown):"


def named_dict(n: Named) -> dict[str, Any]:
    """What a filter's text names, as the event's JSON gives it."""
    return {
        "filter": n.kind,
        "text": n.text,
        "how": n.how,
        "message": message(n),
        "names": [
            {"label": t.label, "page_editorial": t.page_editorial, "url": t.url} for t in n.listed
        ],
        "more": n.unlisted,
        "elsewhere": n.elsewhere or None,
        # Naming nothing: the cards nearest the text; "cite", the filter's text naming one.
        "near": [{"label": t.label, "url": t.url, "cite": t.spec} for t in n.near],
        "unknown": _names_nothing(n) if n.near else None,  # the message before "Did you mean"
    }


# -- the ruling form's Cite field: what a judge types, as the filters take it ---------------------
@dataclass(frozen=True)
class Typed(_Listing):
    """What the ruling form's Cite field names, and which of it the ruling cites ("" until the
    judge has picked, when the text names several: nothing is recorded until then)."""

    text: str
    # As Named's ("citation", "id", "title", "in title", "nothing"), or "near": naming nothing,
    # the targets are the cards nearest it (a typo, "Wrof"), never cited until the judge picks.
    how: str
    targets: tuple[Target, ...]
    chosen: str  # the cited target's spec: the one named, or the judge's pick among them

    @property
    def message(self) -> str:
        """What the form says of the text: what it names and that the judge picks, or nothing."""
        typed = f"“{self.text}”"
        nothing = f"No rule, ruling or card has the title, id or citation {typed}"
        if not self.targets:
            return (
                f"{nothing}. Type a title, such as “Beaming” or “Worf”, an id (the end of its "
                "page’s address), or paste its citation."
            )
        if self.how == "near":
            pick = "it to cite it" if len(self.targets) == 1 else "the one this ruling cites"
            return f"{nothing}. {self.found}? Pick {pick}: nothing is recorded until you do."
        return f"{self.found}. Pick the one this ruling cites: nothing is recorded until you do."

    @property
    def found(self) -> str:
        """What the text names, how many, and how many are not listed (no full stop)."""
        typed = f"“{self.text}”"
        kinds = [t.spec.split(":", 1)[0] for t in self.targets]
        count = " and ".join(
            f"{n} {_NOUN[kind][n != 1]}" for kind in ("entry", "card") if (n := kinds.count(kind))
        )
        if self.how == "near":  # the targets are the cards nearest a name of none (a typo)
            return did_you_mean(self.targets)
        if self.how == "in title":
            found = f"No title is exactly {typed}; {count} hold every word of it"
        else:
            found = f"{typed} names {count}"
        more = (
            f" ({self.unlisted} more not listed: type more of the title)" if self.unlisted else ""
        )
        return found + more


def typed_citation(lib: Library, text: str, pick: str = "") -> Typed | None:
    """What the ruling form's Cite field names (a title, an id or a citation, of an entry or a
    card, as the Entry and Card filters read them), and the target cited: the one named, or
    ``pick`` when it is one of several named; None for no text."""
    text = text.strip()
    if not text:
        return None
    match = CITE_RE.match(text)
    if match:  # a citation names one version of one entry, or one card
        kind = (match.group(1) or match.group(5)).casefold()
        if kind == "card":
            wanted = f"card:{match.group(6).upper()}/{match.group(7)}"
        else:
            wanted = f"entry:{match.group(2)}/{match.group(3)}/{match.group(4)}"
        targets = tuple(t for t in _cited_target(lib, kind, match) if t.spec == wanted)
        how = "citation"
    else:
        named = [n for n in (named_by(lib, k, text) for k in ("entry", "card")) if n is not None]
        exact = [n for n in named if n.how in ("id", "title")]
        found = exact or [n for n in named if n.how == "in title"]
        targets = tuple(t for n in found for t in n.targets)
        how = found[0].how if found else "nothing"
        if not found:  # did you mean: the cards the card list and its 404 offer for the text
            targets = _near_cards(lib, text)
            how = "near" if targets else how
    specs = [t.spec for t in targets]
    only = specs[0] if len(specs) == 1 and how != "near" else ""
    chosen = pick if pick in specs else only
    return Typed(text, how, targets, chosen)


def _near_cards(lib: Library, text: str) -> tuple[Target, ...]:
    """The cards nearest text naming nothing, as targets (``nearest_cards``, as every list)."""
    cards = _index(lib)["card"]["id"]
    near = nearest_cards(lib, text)
    return tuple(t for c in near for t in cards[c.id] if t.document == c.edition)


def _exact(value: str) -> bool:
    """Whether a cite value is exact citations only (space-separated, as the form's box takes)."""
    return bool(value.split()) and all(CITE_RE.match(word) for word in value.split())


def typed_cites(lib: Library, values: list[str]) -> list[str]:
    """The JSON API's ``cite`` list as cite parameters, in its order: a value of exact citations
    is kept as it is; any other is text the Cite field takes (a title, an id or a citation),
    cited by its exact citation when it names one thing. FieldError when it names several
    (their exact citations listed: nothing is recorded) or nothing."""
    typed = sum(1 for v in values if v.strip() and not _exact(v))
    if typed > MOST_CITATIONS:  # each costs at most a pass over the titles: bounded first
        raise FieldError(f"{typed} typed citations (at most {MOST_CITATIONS})")
    specs = []
    for value in values:
        if not value.strip() or _exact(value):
            specs.append(value)
            continue
        found = typed_citation(lib, line("find", value, False, "a cite"))
        if not found.targets:
            raise FieldError(found.message)
        if found.how == "near":
            listed = ", ".join(t.spec for t in found.listed)
            raise FieldError(
                f"No rule, ruling or card has the title, id or citation “{found.text}”. "
                f"{found.found}? Nothing is recorded: send its exact citation as its cite: {listed}"
            )
        if not found.chosen:
            listed = ", ".join(t.spec for t in found.listed)
            raise FieldError(
                f"{found.found}. Nothing is recorded: send one of these exact citations as "
                f"its cite: {listed}"
            )
        specs.append(found.chosen)
    return specs
