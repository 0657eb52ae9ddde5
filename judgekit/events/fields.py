"""What judges may write, checked once for every way in (forms, JSON, the CLI): lengths, shapes."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# Each field's most characters (the server's request bodies are sized from them: MOST_BODY_BYTES).
LIMITS = {
    "event": 100,
    "name": 40,
    "round": 12,
    "table": 12,
    "question": 1500,
    "ruling": 1500,
    "players": 120,
    "note": 600,
    "code": 40,
    "q": 200,
    "find": 408,  # the ruling form's Cite field: a title, an id or a whole citation (CITE_CHARS)
}
MOST_CITATIONS = 8
# A cite parameter: entry:<document>/<version>/<entry id> or card:<edition>/<card id>.
CITE_RE = re.compile(
    r"^(entry):([^/\s]{1,100})/([^/\s]{1,100})/([^/\s]{1,200})$|^(card):(2E|1E)/([^/\s]{1,200})$",
    re.I,
)
# A character a browser posts costs up to 12 bytes: 4 in UTF-8, each sent as %XX (JSON's
# \\ud83d\\ude00 is 12 too); a cite up to its pattern's 6 + 100 + 1 + 100 + 1 + 200 characters.
BYTES_PER_CHAR = 12
CITE_CHARS = 408
OPENED_CHARS = MOST_CITATIONS * (CITE_CHARS + 1)  # the form's opening citations, space-separated
FORM_SLACK = 1024  # field names, separators, the CSRF token, the draft's id, the change
# The largest body a form or the JSON API may need for fields within their limits: the ruling's
# form (or JSON) with every field and citation at its limit in 4-byte characters; the join form
# with its return address (a URL of up to 8,192 characters, percent-encoded again) is smaller.
MOST_BODY_BYTES = (
    BYTES_PER_CHAR
    * (
        sum(LIMITS[f] for f in ("round", "table", "question", "ruling", "players"))
        + MOST_CITATIONS * CITE_CHARS
        + 2 * CITE_CHARS  # the Cite field's text and the judge's pick among what it names
        + OPENED_CHARS  # the citations the form was opened with (its draft's key, events.js)
    )
    + FORM_SLACK
)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class FieldError(ValueError):
    """A field a judge wrote that cannot be kept; the message says which and why."""


def text(name: str, value: object, required: bool = False, label: str | None = None) -> str:
    """A field's text: NFC, control characters removed, trimmed, within its limit."""
    label = label or name
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise FieldError(f"{label} must be text")
    cleaned = _CONTROL.sub("", unicodedata.normalize("NFC", value)).strip()
    if required and not cleaned:
        raise FieldError(f"{label} is required")
    limit = LIMITS[name]
    if len(cleaned) > limit:
        raise FieldError(f"{label} is {len(cleaned):,} characters long (at most {limit:,})")
    return cleaned


def line(name: str, value: object, required: bool = False, label: str | None = None) -> str:
    """A one-line field: as text(), its white space runs made one space."""
    return " ".join(text(name, value, required, label).split())


@dataclass(frozen=True)
class Cite:
    """A parsed cite parameter (not yet looked up in the corpus)."""

    kind: str
    document: str
    version: str
    entry: str


def cites(values: list[str]) -> list[Cite]:
    """The cite parameters (one a line in a form's box too), each checked, without repeats."""
    found: list[Cite] = []
    for value in values:
        for raw in (value or "").split():
            match = CITE_RE.match(raw)
            if not match:
                shown = raw[:80] + ("…" if len(raw) > 80 else "")
                raise FieldError(
                    f"citation {shown!r} is not entry:DOCUMENT/VERSION/ID or card:2E/ID"
                )
            if match.group(1):
                cite = Cite("entry", match.group(2), match.group(3), match.group(4))
            else:
                cite = Cite("card", match.group(6).upper(), "", match.group(7))
            if cite not in found:
                found.append(cite)
    if len(found) > MOST_CITATIONS:
        raise FieldError(f"{len(found)} citations (at most {MOST_CITATIONS})")
    return found
