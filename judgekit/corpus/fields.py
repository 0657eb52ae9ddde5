"""The corpus format as data: each kind of record, its fields, their types (rules/FORMAT.md).

To add a field, add one line to its record's table in RECORDS below, e.g. in "toc item":
``"reconstructed": Spec(flag),``; then read ``values["reconstructed"]`` where the loader
builds the model (read.py, schema.py) and document it in FORMAT.md. A key outside its
record's table is an error, so a misspelt field never passes silently.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judgekit.corpus.model import ENTRY_KINDS, PAGE_BASES
from judgekit.corpus.references import ID_RE
from judgekit.corpus.yamlio import LList, LMap, short_repr

DATE_RE = re.compile(r"^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$")
LINES_RE = re.compile(r"^\d+(-\d+)?$")
EDITIONS = ("2E", "1E")
DOCUMENT_KINDS = ("rulebook", "rulings", "glossary")
REMOVAL_REASONS = ("debris", "duplicate", "advertising", "navigation", "figure", "toc", "contact")
ICON_SHAPES = ("square", "circle", "diamond", "hexagon", "star", "triangle")
# Ids name folders of the judge pack and parts of URLs: a comparison's folder holds two version
# ids, so both limits keep every name well under the 255 bytes file systems allow.
MAX_ID = 80
MAX_VERSION_ID = 40
MAX_TITLE = 200  # characters of a heading or name; the corpus's longest has 58
MAX_PAGE = 9_999  # printed page numbers; the rulebooks have fewer than 100
MAX_LINE = 1_000_000  # lines of a source text
# A version id's parts are joined by single dots or hyphens: "1..2" would split the comparison
# address /diff/<doc>/<a>..<b> twice, and a trailing dot makes a folder Windows cannot create.
VERSION_ID_RE = re.compile(r"^[A-Za-z0-9]+([.-][A-Za-z0-9]+)*$")
FILE_NAME_RE = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9_.-]*$")
# Names Windows reserves for devices, with any extension: a pack folder so named cannot exist.
WINDOWS_DEVICES = frozenset(
    ["con", "prn", "aux", "nul"] + [f"{name}{n}" for name in ("com", "lpt") for n in range(1, 10)]
)


class Problems:
    """Problems collected while loading, each as ``file:line: message``."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, path: str | Path, line: int, message: str) -> None:
        """Record one problem at ``path:line``."""
        self.items.append(f"{path}:{line}: {message}")


class Bad(ValueError):
    """A value that does not fit its field; the message follows the field's name."""


def text(value: Any) -> str:
    """Text: a YAML string, not empty (a number or true/false means the quotes were left out)."""
    if not isinstance(value, str):
        raise Bad(f"must be text, not {short_repr(value)} (quote it)")
    if not value.strip():
        raise Bad("must not be empty")
    return value


def title(value: Any) -> str:
    """A heading or a name: one line of text (a tab or line break is a control character here)."""
    value = text(value)
    if "\n" in value.strip() or "\t" in value:
        raise Bad(f"must be one line of text, not {short_repr(value)}")
    if len(value) > MAX_TITLE:
        raise Bad(f"must be at most {MAX_TITLE} characters, not {len(value)} ({short_repr(value)})")
    return value


def _file_name_part(value: str, limit: int) -> str:
    """An id that names a folder and a URL part: not too long, not a Windows device name."""
    if len(value) > limit:
        raise Bad(f"must be at most {limit} characters, not {len(value)} ({short_repr(value)})")
    if value.split(".")[0].lower() in WINDOWS_DEVICES:
        raise Bad(f"must not be {value!r}: Windows reserves the name for a device")
    return value


def slug(value: Any) -> str:
    """An id: lowercase letters, digits and '-', starting with a letter or digit."""
    if isinstance(value, str):
        _file_name_part(value, MAX_ID)  # the length first: ID_RE refuses long ids too
    if not isinstance(value, str) or not ID_RE.match(value):
        raise Bad(f"must be an id of [a-z0-9-], not {short_repr(value)}")
    return value


def version_id(value: Any) -> str:
    """A version id: always a quoted string (an unquoted 4 or 1.1 is a number)."""
    if not isinstance(value, str):
        raise Bad(f'must be a quoted string, not {short_repr(value)} (write "{value}")')
    if not VERSION_ID_RE.match(value):
        raise Bad(
            "must be a version id of letters and digits joined by single '.' or '-', "
            f"not {short_repr(value)}"
        )
    return _file_name_part(value, MAX_VERSION_ID)


def _whole_number(value: Any, limit: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= limit:
        raise Bad(f"must be a whole number from 1 to {limit:,}, not {short_repr(value)}")
    return value


def page(value: Any) -> int:
    """A printed page number: a whole number from 1 to MAX_PAGE."""
    return _whole_number(value, MAX_PAGE)


PAGE_RANGE_RE = re.compile(r"^(\d{1,4})-(\d{1,4})$")


def page_range(value: Any) -> tuple[int, int]:
    """Printed pages "A-B": A lower than B, each a page number."""
    match = PAGE_RANGE_RE.match(value) if isinstance(value, str) else None
    if not match:
        raise Bad(f'must be pages "A-B" (quoted), not {short_repr(value)}')
    first, last = page(int(match.group(1))), page(int(match.group(2)))
    if first >= last:
        raise Bad(f"must run from a lower page to a higher one, not {short_repr(value)}")
    return first, last


def line_number(value: Any) -> int:
    """A line of a source text: a whole number from 1 to MAX_LINE."""
    return _whole_number(value, MAX_LINE)


def file_name(value: Any) -> str:
    """A source text's file name, alone: no folder, no '..', nothing read from elsewhere."""
    value = text(value)
    if not FILE_NAME_RE.match(value) or ".." in value or len(value) > MAX_ID:
        raise Bad(
            f"must be a file name of [A-Za-z0-9_.-] (at most {MAX_ID}, no folder), "
            f"not {short_repr(value)}"
        )
    return value


def flag(value: Any) -> bool:
    """true or false."""
    if not isinstance(value, bool):
        raise Bad(f"must be true or false, not {short_repr(value)}")
    return value


def a_list(value: Any) -> LList:
    """A YAML list (its items are checked by whoever reads them)."""
    if not isinstance(value, LList):
        raise Bad(f"must be a list, not {short_repr(value)}")
    return value


def entry_list(value: Any) -> LList:
    """A version's entries: a list with at least one (a version of nothing has no page to show)."""
    items = a_list(value)
    if not items:
        raise Bad("must list at least one entry")
    return items


def text_list(value: Any) -> tuple[str, ...]:
    """A list of texts."""
    items = a_list(value)
    for item in items:
        if not isinstance(item, str) or not item.strip():
            raise Bad(f"must be a list of texts; {short_repr(item)} is not text")
    return tuple(items)


def one_of(*choices: str) -> Callable[[Any], str]:
    """A check that the value is one of ``choices``."""

    def check(value: Any) -> str:
        if value not in choices or not isinstance(value, str):
            raise Bad(f"must be one of {', '.join(choices)}, not {short_repr(value)}")
        return value

    return check


def matching(pattern: re.Pattern[str], form: str) -> Callable[[Any], str]:
    """A check that the value is text of the given form."""

    def check(value: Any) -> str:
        if not isinstance(value, str) or not pattern.match(value):
            raise Bad(f"must be {form}, not {short_repr(value)}")
        return value

    return check


_date_form = matching(DATE_RE, 'a quoted date "YYYY", "YYYY-MM" or "YYYY-MM-DD"')
_lines_form = matching(LINES_RE, 'line numbers "A-B"')


def date(value: Any) -> str:
    """A quoted date "YYYY", "YYYY-MM" or "YYYY-MM-DD" that is on the calendar."""
    value = _date_form(value)
    if len(value) == 10:
        try:
            datetime.date.fromisoformat(value)
        except ValueError:
            raise Bad(f"must be a date on the calendar, not {short_repr(value)}") from None
    return value


def lines(value: Any) -> str:
    """Line numbers "A-B" (or "A") of a source text, each from 1 to MAX_LINE."""
    value = _lines_form(value)
    numbers = value.split("-")
    if any(len(n) > len(str(MAX_LINE)) or not 1 <= int(n) <= MAX_LINE for n in numbers):
        raise Bad(f"must be line numbers from 1 to {MAX_LINE:,}, not {short_repr(value)}")
    return value


@dataclass(frozen=True)
class Spec:
    """One field: how its value is checked, whether it must be there, what it is when absent."""

    check: Callable[[Any], Any]
    required: bool = False
    default: Any = None
    nullable: bool = False  # an explicit null is a value (supersedes: null)
    record: str | None = None  # a list of records of this kind, each checked by its table


RECORDS: dict[str, dict[str, Spec]] = {
    "icon file": {"icons": Spec(a_list, required=True, record="icon")},
    "icon": {
        "name": Spec(slug, required=True),
        "label": Spec(title, required=True),
        "group": Spec(slug, default=""),
        "shape": Spec(one_of(*ICON_SHAPES), default="square"),
    },
    "document file": {
        "id": Spec(slug, required=True),
        "title": Spec(title, required=True),
        "short_title": Spec(title),
        "edition": Spec(one_of(*EDITIONS), required=True),
        "kind": Spec(one_of(*DOCUMENT_KINDS), default="rulebook"),
        "external": Spec(flag, default=False),
        "versions": Spec(a_list, default=(), record="external version"),
        "newer_not_held": Spec(flag, default=False),  # later versions exist outside judgekit
        "status_note": Spec(text, default=""),  # the editors' words on its newest version's status
    },
    "external version": {
        "id": Spec(version_id, required=True),
        "title": Spec(title, required=True),
        "released": Spec(date),
        "released_printed": Spec(text),
        "publisher": Spec(text),
    },
    "version file": {
        "document": Spec(slug, required=True),
        "id": Spec(version_id, required=True),
        "title": Spec(title, required=True),
        "short_title": Spec(title),
        "edition": Spec(one_of(*EDITIONS), required=True),
        "released": Spec(date, required=True),
        "released_printed": Spec(text),
        "publisher": Spec(text, default=""),
        "supersedes": Spec(version_id, nullable=True),
        "supersedes_note": Spec(text, default=""),  # the order is the editors' inference: why
        "called": Spec(text_list, default=()),  # editorial: other names judges give the version
        "examples_unlabelled": Spec(flag, default=False),  # the source prints no "Example" label
        "sources": Spec(a_list, default=(), record="source"),
        "source_note": Spec(text, default=""),
        "toc": Spec(a_list, default=(), record="toc item"),
        "entries": Spec(entry_list, required=True),
        "note": Spec(text),
    },
    "source": {"file": Spec(file_name, required=True), "description": Spec(text, default="")},
    "toc item": {
        "title": Spec(title, required=True),
        "page": Spec(page),
        "entry": Spec(slug, required=True),
        "reconstructed": Spec(flag, default=False),  # not printed: the editor's line
        "note": Spec(text),  # required with reconstructed (read.py checks)
    },
    "entry": {
        "id": Spec(slug, required=True),
        "kind": Spec(one_of(*ENTRY_KINDS), default="section"),
        "title": Spec(title, required=True),
        "page": Spec(page),
        "source": Spec(a_list, required=True, record="source span"),
        "body": Spec(a_list, default=()),
        "children": Spec(a_list, default=()),
        "aliases": Spec(text_list, default=()),
        "card_ruling": Spec(flag, default=False),
        "new": Spec(flag, default=False),
        "continues": Spec(a_list, default=(), record="continues item"),
        "note": Spec(text),
    },
    "source span": {"file": Spec(file_name, required=True), "lines": Spec(lines, required=True)},
    "continues item": {"ref": Spec(text, required=True), "relation": Spec(text, required=True)},
    "corrections file": {
        "corrections": Spec(a_list, default=(), record="correction"),
        "removed": Spec(a_list, default=(), record="removal"),
    },
    "correction": {
        "entry": Spec(slug, required=True),
        "source": Spec(file_name, required=True),
        "line": Spec(line_number, required=True),
        "original": Spec(text, required=True),
        "corrected": Spec(text, required=True),
        "evidence": Spec(text, required=True),
    },
    "pages file": {
        "document": Spec(slug, required=True),
        "version": Spec(version_id, required=True),
        "note": Spec(text, default=""),
        "pages": Spec(a_list, default=(), record="page place"),
        "references": Spec(a_list, default=(), record="printed reference"),
    },
    "page place": {
        "entry": Spec(slug, required=True),
        "page": Spec(page),  # one of page and pages (pages.py)
        "pages": Spec(page_range),
        "basis": Spec(one_of(*PAGE_BASES), required=True),
        "evidence": Spec(a_list, required=True, record="page evidence"),
    },
    "page evidence": {
        "source": Spec(file_name, required=True),
        "line": Spec(line_number, required=True),
        "shows": Spec(text, required=True),
        "reads": Spec(text, required=True),
    },
    "printed reference": {
        "entry": Spec(slug, required=True),
        "words": Spec(text, required=True),
        "pointed_to": Spec(text, required=True),
        "target": Spec(text),
    },
    "removal": {
        "source": Spec(file_name, required=True),
        "lines": Spec(lines, required=True),
        "what": Spec(text, required=True),
        "reason": Spec(one_of(*REMOVAL_REASONS), required=True),
    },
}


def read_record(data: Any, kind: str, path: str, probs: Problems) -> dict[str, Any] | None:
    """The fields of one record, checked by its table; None if it is unusable.

    Every problem is reported. A record is unusable when it is not a mapping or a required
    field is missing or wrong; a wrong optional field is reported and read as its default.
    Lists of sub-records come back as tuples of their checked values (bad items left out).
    ``values["_line"]`` is the line where the record starts.
    """
    table = RECORDS[kind]
    if not isinstance(data, LMap):
        probs.add(
            path, getattr(data, "line", 1), f"{kind} must be a mapping, not {short_repr(data)}"
        )
        return None
    for key in data:
        if key not in table:
            probs.add(path, data.line_of(key), f"unknown field {key!r} in {kind}")
    values: dict[str, Any] = {"_line": data.line}  # where the record starts
    usable = True
    for key, spec in table.items():
        raw = data.get(key)
        values[key] = spec.default
        if raw is None and not (spec.nullable and key in data):
            if spec.required:
                probs.add(path, data.line, f"missing required field {key!r} in {kind}")
                usable = False
            continue
        try:
            value = raw if raw is None else spec.check(raw)
        except Bad as bad:
            probs.add(path, data.line_of(key), f"field {key!r} {bad}")
            usable = usable and not spec.required
            continue
        if spec.record:
            value = tuple(
                item
                for item in (read_record(one, spec.record, path, probs) for one in value)
                if item is not None
            )
        values[key] = value
    return values if usable else None
