"""The game a judge is judging (2E or 1E, optionally one version), remembered on the device.

Kept in a cookie so it works without JavaScript; a URL parameter overrides it. Flask-free: the
search pages read and write the cookie with these functions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode

from judgekit.corpus.model import Corpus

COOKIE = "judgekit_edition"
MAX_AGE = 400 * 24 * 3600  # the longest browsers keep a cookie: a judge sets it once
LABELS = {"2E": "Second Edition", "1E": "First Edition"}
FILTERS = ("edition", "document", "version")  # a URL with any of these says what to search
# Every parameter the search reads (service.parse_params).
SEARCH_PARAMS = ("q", *FILTERS, "kind", "all_versions", "limit")
BOTH = "both"  # edition=both: both games, whatever this device remembers


@dataclass(frozen=True)
class Choice:
    """An edition and, optionally, one of its versions."""

    edition: str
    version: str | None = None
    version_title: str = ""

    @property
    def value(self) -> str:
        """The cookie's value: "2E" or "2E:4"."""
        return f"{self.edition}:{self.version}" if self.version else self.edition

    @property
    def label(self) -> str:
        """What the chip says: "2E" or "2E v4"."""
        return f"{self.edition} {self.version_title}" if self.version else self.edition

    @property
    def title(self) -> str:
        """The edition's full name, for a tooltip."""
        return LABELS.get(self.edition, self.edition)


def parse_choice(corpus: Corpus, value: str | None) -> Choice | None:
    """The choice a cookie or form names, or None when it names nothing held (a stale cookie)."""
    edition, _, version = (value or "").strip().partition(":")
    edition = edition.upper()
    if edition not in LABELS:
        return None
    if not version:
        return Choice(edition)
    for doc in corpus.held():
        found = doc.version(version) if doc.edition == edition else None
        if found is not None:
            return Choice(edition, version, found.short_title)
    return None


def choices(corpus: Corpus) -> list[Choice]:
    """Every choice a judge can make: each edition, then each held version of it."""
    out = []
    for edition in LABELS:
        out.append(Choice(edition))
        for doc in corpus.held():
            if doc.edition == edition:
                out += [Choice(edition, v.id, v.short_title) for v in reversed(doc.versions)]
    return out


def yields_to_question(choice: Choice | None, games: frozenset[str], version: bool) -> bool:
    """Whether a remembered choice gives way to what the question names: another game, both
    games or a version ("2e battle" with 1E remembered means 2E). The question naming only the
    remembered game by name ("2e battle" with 2E v4 remembered) keeps the choice, version too."""
    return choice is not None and bool(games) and (version or games != {choice.edition})


def with_choice(
    args: Mapping[str, str], choice: Choice | None, yields: bool = False
) -> dict[str, str]:
    """Search parameters: the URL's, with the remembered choice where the URL names none and it
    does not yield to a game or version the question names (``yields_to_question``).

    An empty filter names nothing (the filter form sends every select, chosen or not), so the
    remembered choice still applies; edition=both asks for both games over it.
    """
    # Only the search's own parameters: a page is kept in memory under what it read (pagekey.py).
    params = {key: args.get(key, "") for key in SEARCH_PARAMS if key in args}
    explicit = is_both(params.get("edition"))
    if explicit:
        params["edition"] = ""
    named = explicit or any((args.get(name) or "").strip() for name in FILTERS)
    if choice is not None and not named and not yields:
        params["edition"] = choice.edition
        if choice.version:
            params["version"] = choice.version
    return params


def is_both(edition: str | None) -> bool:
    """Whether an edition parameter asks for both games explicitly (edition=both)."""
    return (edition or "").strip().lower() == BOTH


def without_edition(target: str) -> str:
    """A local URL without its edition parameter (clearing the choice must clear it too)."""
    path, _, query = target.partition("?")
    kept = [(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if k != "edition"]
    return f"{path}?{urlencode(kept)}" if kept else path


def safe_next(target: str | None, fallback: str = "/search") -> str:
    """A local path to go back to after setting the choice (never another site); else fallback."""
    target = (target or "").strip()
    unsafe = any(c.isspace() or not c.isprintable() or c == "\\" for c in target)
    if unsafe or not target.startswith("/") or target.startswith("//"):
        return fallback
    return target
