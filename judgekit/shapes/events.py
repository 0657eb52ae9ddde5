"""An event's rulings as pages and the API show them, built once without Flask: each citation
checked against the corpus as it is now, addresses, and the filters of the event's page."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from judgekit import urls
from judgekit.corpus.model import Entry
from judgekit.events.exchange import ruling_json, when
from judgekit.events.fields import CITE_CHARS, LIMITS, MOST_CITATIONS, Cite, FieldError, cites
from judgekit.events.model import Citation, Event, Judge, Ruling, SignedOut
from judgekit.render import card_index
from judgekit.render.library import Library
from judgekit.shapes.named import Named, named_by

FILTERS = ("round", "table", "judge", "entry", "card", "q")


def pin(lib: Library, cite: Cite) -> Citation:
    """A citation pinned to its place and to the text there now; FieldError if none is there."""
    if cite.kind == "card":
        card = card_index.find_card(lib, cite.document, cite.entry)
        if card is None:
            raise FieldError(f"no {cite.document} card {cite.entry!r} to cite")
        # The card's title as every page prints it ("Worf, First Officer").
        title = card.full_title
        return Citation("card", card.edition, "", card.id, f"{card.edition} card {title}", title)
    entry = lib.corpus.entry(cite.document, cite.version, cite.entry)
    if entry is None:
        raise FieldError(f"no entry {cite.document}/{cite.version}/{cite.entry} to cite")
    return pinned_entry(lib, entry)


def pinned_entry(lib: Library, entry: Entry) -> Citation:
    """An entry's citation with its text as it is now."""
    return Citation(
        "entry",
        entry.document,
        entry.version,
        entry.id,
        lib.citation_short(entry),
        lib.plain(entry),
    )


def entry_spec(entry: Entry) -> str:
    """An entry as a cite parameter."""
    return f"entry:{entry.document}/{entry.version}/{entry.id}"


def _drift(lib: Library, c: Citation) -> dict[str, str] | None:
    """How a pinned passage differs from the corpus now (the text corrected, or a newer version
    that says otherwise), with the comparison's address; None when it reads the same."""
    if c.kind != "entry":
        return None
    doc = lib.corpus.document(c.document)
    entry = lib.corpus.entry(c.document, c.version, c.entry)
    if doc is None or entry is None:
        return {
            "reason": "no longer in judgekit's corpus",
            "url": urls.history_page(c.document, c.entry),
        }
    if lib.plain(entry) != c.text:
        return {
            "reason": "the text of this version has been corrected since the ruling",
            "url": urls.history_page(c.document, c.entry),
        }
    newest = doc.latest
    if newest is not None and newest.id != c.version:
        there = newest.get(c.entry)
        if there is None or lib.plain(there) != c.text:
            return {
                "reason": f"{lib.short_label(newest)} words it differently",
                "url": urls.compare_page(c.document, c.version, newest.id) + f"#{c.entry}",
            }
    return None


def page_editorial(lib: Library, c: Citation) -> str | None:
    """Why the page a pinned citation gives ("2E v4 pp. 10–13, …") is the editors' reading, for
    its "ed." mark; None for a printed page, a card, or a title no longer giving the page."""
    entry = lib.corpus.entry(c.document, c.version, c.entry) if c.kind == "entry" else None
    where = lib.printed_page(entry) if entry is not None else None
    if where is None or not where.editorial_words or where.text not in c.title:
        return None
    return where.editorial_words


def _citation_dict(lib: Library, c: Citation) -> dict[str, Any]:
    title = c.title
    if c.kind == "card":
        card = card_index.find_card(lib, c.document, c.entry)
        url = card_index.card_url(card) if card else None
        if card is not None:  # one title everywhere, for rulings pinned as "Worf: First Officer"
            title = f"{card.edition} card {card.full_title}"
    else:
        entry = lib.corpus.entry(c.document, c.version, c.entry)
        url = lib.entry_url(entry) if entry else None
    return {
        "title": title,
        "page_editorial": page_editorial(lib, c),
        "spec": c.spec,
        "url": url,
        "text": c.text,
        "drift": _drift(lib, c),
    }


def _day_time(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).astimezone().strftime("%a %H:%M")


# The fields of a judge's forms that hold what the judge typed, in the form's order, by label.
TYPED_FIELDS = (
    ("round", "Round"),
    ("table", "Table"),
    ("question", "Question"),
    ("ruling", "Ruling"),
    ("find", "Cite field"),
    ("players", "Players"),
    ("note", "Note"),
)


def typed_back(lib: Library, form: Any) -> list[dict[str, Any]]:
    """What a refused form post held, to show back to the judge to copy (nothing is lost): each
    field typed, cut to its form's most characters, and the citations ticked, by title."""
    shown = []
    for name, label in TYPED_FIELDS:
        value = (form.get(name) or "")[: LIMITS[name]]
        if value.strip():
            shown.append({"name": name, "label": label, "text": value, "rows": _rows(value)})
    titles = []
    for spec in form.getlist("cite")[:MOST_CITATIONS]:
        try:
            titles += [pin(lib, c).title for c in cites([spec[:CITE_CHARS]])]
        except FieldError:
            titles.append(spec[:CITE_CHARS])
    if titles:
        text = "\n".join(titles[:MOST_CITATIONS])
        shown.append({"name": "cite", "label": "Citations", "text": text, "rows": _rows(text)})
    return shown


def _rows(text: str) -> int:
    """A read-only box's rows: its text's lines (about 40 characters each on a phone), 1 to 8."""
    return max(1, min(8, sum(1 + len(line) // 40 for line in text.splitlines() or [""])))


def signed_out_message(out: SignedOut) -> str:
    """What a device is told once its judge joined again on another device (its session ended)."""
    name = out.judge
    again = (
        "join here again with the head judge code under your name (tick “Sign out my other "
        "devices” to sign the other device out)"
        if out.head
        else "ask the head judge to let you back in (the desk’s “Let back in”)"
    )
    return (
        f"This device was signed out at {_day_time(out.at)}: {name} joined again on another "
        f"device, and only that device writes as {name} now. Nothing {name} recorded is lost. "
        f"If this is the device {name} uses now, {again}."
    )


def ruling_dict(lib: Library, ruling: Ruling) -> dict[str, Any]:
    """A ruling as pages and the API show it: the export's fields, addresses, drifted citations."""
    data = ruling_json(ruling)
    data["citations"] = [_citation_dict(lib, c) for c in ruling.citations]
    data["drifted"] = any(c["drift"] for c in data["citations"])
    data["url"] = urls.event_ruling_page(ruling.number)
    data["when"] = _day_time(ruling.recorded_at)
    data["history"] = [
        {**rev, "when": _day_time(r.at)}
        for rev, r in zip(data["revisions"], ruling.revisions, strict=True)
    ]
    return data


# What players see of a published ruling: its state now, never its history, the head judge's
# note (said among judges) or the players' names.
PUBLIC_FIELDS = ("number", "judge", "round", "table", "question", "ruling", "status", "published")


def public_ruling_dict(lib: Library, ruling: Ruling) -> dict[str, Any]:
    """A published ruling as anyone on the network sees it: what it says now and its citations."""
    whole = ruling_dict(lib, ruling)
    return {
        **{name: whole[name] for name in PUBLIC_FIELDS},
        "published_at": when(ruling.now.at),
        "citations": whole["citations"],
        "drifted": whole["drifted"],
        "when": whole["when"],
        "url": urls.published_ruling_page(ruling.number),
        "show_url": urls.show_published_page(ruling.number),
        "api_url": urls.published_ruling_api(ruling.event_id, ruling.number),
    }


def event_dict(event: Event, judge: Judge | None = None) -> dict[str, Any]:
    """An event's own fields (and the judge looking, if any)."""
    return {
        "id": event.id,
        "name": event.name,
        "created_at": when(event.created_at),
        "ends_at": when(event.ends_at),
        "precedent": event.precedent,
        "judge": None if judge is None else {"name": judge.name, "head": judge.head},
        "api_url": urls.event_api(event.id),
    }


@dataclass(frozen=True)
class Filters:
    """What the event's page is filtered by (empty: everything)."""

    round: str = ""
    table: str = ""
    judge: str = ""
    entry: str = ""
    card: str = ""
    q: str = ""

    def any(self) -> bool:
        """Whether any filter is set."""
        return any(getattr(self, name) for name in FILTERS)

    def args(self, **changed: str) -> dict[str, str]:
        """The filters set, as the page's query, with ``changed`` in their place."""
        values = {name: getattr(self, name) for name in FILTERS} | changed
        return {name: value for name, value in values.items() if value}


def _words(ruling: Ruling) -> str:
    now = ruling.now
    parts = [now.question, now.ruling, now.players, now.note, ruling.judge]
    parts += [c.title for c in ruling.citations]
    return " ".join(parts).casefold()


def matches(ruling: Ruling, f: Filters, named: Sequence[Named] = ()) -> bool:
    """Whether a ruling passes the filters (q: every word in its words) and cites what the
    Entry and Card filters name (``named``: see filtered)."""
    now = ruling.now
    same = str.casefold
    if f.round and same(now.round) != same(f.round):
        return False
    if f.table and same(now.table) != same(f.table):
        return False
    if f.judge and same(ruling.judge) != same(f.judge):
        return False
    if not all(n.cited_by(ruling) for n in named):
        return False
    words = _words(ruling)
    return all(word in words for word in f.q.casefold().split())


def filtered(lib: Library, rulings: list[Ruling], f: Filters) -> tuple[list[Ruling], list[Named]]:
    """The rulings passing the filters, and what the Entry and Card filters' text names (a
    title or an id; the page says which entries or cards, or that it names none)."""

    def cited(kind: str) -> set[str]:
        return {c.entry for r in rulings for c in r.citations if c.kind == kind}

    named = [
        n
        for n in (
            named_by(lib, "entry", f.entry, cited("entry")),
            named_by(lib, "card", f.card, cited("card")),
        )
        if n is not None
    ]
    return [r for r in rulings if matches(r, f, named)], named


def citing(rulings: list[Ruling], kind: str, document: str, entry: str) -> list[Ruling]:
    """The rulings (newest first) citing an entry (of any version of its document) or a card."""
    return [
        r
        for r in rulings
        if any(c.kind == kind and c.document == document and c.entry == entry for c in r.citations)
    ]


def facets(rulings: list[Ruling]) -> dict[str, list[str]]:
    """The values the event page's filters offer: rounds, tables and judges seen."""
    return {
        "round": sorted({r.now.round for r in rulings if r.now.round}, key=_natural),
        "table": sorted({r.now.table for r in rulings if r.now.table}, key=_natural),
        "judge": sorted({r.judge for r in rulings}, key=str.casefold),
    }


def _natural(value: str) -> tuple:
    return (0, int(value), "") if value.isdigit() else (1, 0, value.casefold())


def ruling_input(lib: Library, values: dict[str, Any], cites: list[str]) -> tuple[dict, list]:
    """A ruling as a judge sent it (a form or JSON): its checked fields and pinned citations;
    FieldError names the first field that cannot be kept."""
    from judgekit.events import fields

    data = {
        "round": fields.line("round", values.get("round"), True),
        "table": fields.line("table", values.get("table"), True),
        "question": fields.text("question", values.get("question"), True),
        "ruling": fields.text("ruling", values.get("ruling"), True),
        "players": fields.line("players", values.get("players")),
    }
    return data, [pin(lib, c) for c in fields.cites(cites)]


def filters_of(values: dict[str, Any]) -> Filters:
    """The event page's filters from a query (each cut to its field's limit)."""
    from judgekit.events import fields

    def get(name: str, limit_name: str) -> str:
        value = values.get(name)
        return " ".join(str(value or "").split())[: fields.LIMITS[limit_name]]

    return Filters(
        round=get("round", "round"),
        table=get("table", "table"),
        judge=get("judge", "name"),
        entry=get("entry", "q"),
        card=get("card", "q"),
        q=get("q", "q"),
    )


def search_target(result: dict[str, Any]) -> tuple[str, str, str, str]:
    """What a search result cites: (kind, document or edition, entry or card id, cite spec)."""
    if result.get("kind") == "card" and "." in result.get("id", ""):
        edition, card_id = result["id"].split(".", 1)
        return "card", edition.upper(), card_id, f"card:{edition.upper()}/{card_id}"
    document, version, entry = result["document"], result["version"], result["id"]
    return "entry", document, entry, f"entry:{document}/{version}/{entry}"
