"""An event's rulings as data that travels: the export's JSON and CSV, and reading an export back
as precedent (checked as strictly as what a judge types)."""

from __future__ import annotations

import csv
import io
from dataclasses import asdict, replace
from datetime import UTC, datetime
from typing import Any

from judgekit.events import fields
from judgekit.events.model import CHANGES, STATUSES, Citation, Event, Revision, Ruling

FORMAT = "judgekit-event-rulings"
FORMAT_VERSION = 1
MOST_IMPORTED = 5000  # rulings in one imported event
MOST_REVISIONS = 50


def when(at: float) -> str:
    """A time as ISO 8601 in UTC, to the second."""
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds")


def ruling_json(ruling: Ruling) -> dict[str, Any]:
    """A ruling as the export and the API give it (what it says now, and every revision)."""
    now = ruling.now
    return {
        "number": ruling.number,
        "judge": ruling.judge,
        "recorded_at": when(ruling.recorded_at),
        "round": now.round,
        "table": now.table,
        "question": now.question,
        "ruling": now.ruling,
        "players": now.players,
        "status": now.status,
        "note": now.note,
        "published": now.published,
        "citations": [{**asdict(c), "spec": c.spec} for c in ruling.citations],
        "revisions": [{**asdict(r), "at": when(r.at)} for r in ruling.revisions],
    }


def event_json(event: Event, rulings: list[Ruling]) -> dict[str, Any]:
    """The whole event as one JSON document, oldest ruling first (what import reads)."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "event": {
            "name": event.name,
            "created_at": when(event.created_at),
            "ends_at": when(event.ends_at),
            "precedent": event.precedent,
        },
        "rulings": [ruling_json(r) for r in sorted(rulings, key=lambda r: r.number)],
    }


CSV_COLUMNS = (
    "number",
    "recorded_at",
    "round",
    "table",
    "judge",
    "players",
    "question",
    "ruling",
    "status",
    "note",
    "published",
    "citations",
)


def _cell(value: str) -> str:
    """A cell a spreadsheet will not run: text starting as a formula gets a leading quote."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def event_csv(rulings: list[Ruling]) -> str:
    """The event's rulings, one a row, oldest first (citations joined by " | ")."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for r in sorted(rulings, key=lambda r: r.number):
        data = ruling_json(r)
        data["citations"] = " | ".join(f"{c.title} ({c.spec})" for c in r.citations)
        data["published"] = "yes" if data["published"] else "no"
        writer.writerow([_cell(str(data[column])) for column in CSV_COLUMNS])
    return out.getvalue()


def _at(value: Any) -> float:
    try:
        return datetime.fromisoformat(str(value)).timestamp()
    except ValueError:
        raise fields.FieldError(f"not a time: {str(value)[:40]!r}") from None


def _choice(value: Any, allowed: tuple[str, ...], label: str) -> str:
    if value not in allowed:
        raise fields.FieldError(f"{label} must be one of {', '.join(allowed)}")
    return value


def _citation(data: dict) -> Citation:
    kind = _choice(data.get("kind"), ("entry", "card"), "a citation's kind")
    return Citation(
        kind,
        fields.line("q", data.get("document"), True, "a citation's document"),
        fields.line("q", data.get("version"), kind == "entry", "a citation's version"),
        fields.line("q", data.get("entry"), True, "a citation's entry"),
        fields.line("question", data.get("title"), False, "a citation's title"),
        fields.text("question", data.get("text"), False, "a citation's text"),
    )


def _revision(data: dict) -> Revision:
    return Revision(
        int(data.get("number", 0)),
        _at(data.get("at")),
        fields.line("name", data.get("judge"), True, "a revision's judge"),
        _choice(data.get("change"), CHANGES, "a revision's change"),
        fields.line("round", data.get("round")),
        fields.line("table", data.get("table")),
        fields.text("question", data.get("question"), True),
        fields.text("ruling", data.get("ruling"), True),
        fields.line("players", data.get("players")),
        _choice(data.get("status"), STATUSES, "a revision's status"),
        fields.text("note", data.get("note")),
        bool(data.get("published")),
    )


def imported(data: Any) -> tuple[str, float, list[tuple[str, list[Citation], list[Revision]]]]:
    """An export read back: the event's name, its end, and each ruling's judge, citations and
    revisions. FieldError says what is wrong with it."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise fields.FieldError(f'not a judgekit export (no "format": "{FORMAT}")')
    if data.get("format_version") != FORMAT_VERSION:
        raise fields.FieldError(f"export format version {data.get('format_version')!r} unknown")
    event = data.get("event") or {}
    name = fields.line("event", event.get("name"), True, "the event's name")
    rulings = data.get("rulings")
    if not isinstance(rulings, list) or len(rulings) > MOST_IMPORTED:
        raise fields.FieldError(f"rulings must be a list of at most {MOST_IMPORTED}")
    out = []
    for item in rulings:
        if not isinstance(item, dict):
            raise fields.FieldError("each ruling must be an object")
        cites = item.get("citations") or []
        revs = item.get("revisions") or []
        if not isinstance(cites, list) or len(cites) > fields.MOST_CITATIONS:
            raise fields.FieldError(f"at most {fields.MOST_CITATIONS} citations a ruling")
        if not isinstance(revs, list) or not 1 <= len(revs) <= MOST_REVISIONS:
            raise fields.FieldError(f"each ruling needs 1 to {MOST_REVISIONS} revisions")
        judge = fields.line("name", item.get("judge"), True, "a ruling's judge")
        revisions = [_revision(r) for r in revs if isinstance(r, dict)]
        # Numbered afresh: the file's numbers are not trusted to be unique.
        revisions = [replace(r, number=n) for n, r in enumerate(revisions, 1)]
        out.append((judge, [_citation(c) for c in cites if isinstance(c, dict)], revisions))
    return name, _at(event.get("ends_at")), out
