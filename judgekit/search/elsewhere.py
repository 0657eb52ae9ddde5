"""What the other game has when a search is kept to one game (2E or 1E).

A judge who chose 2E and types a 1E-only word ("commandeer") should hear that the word is not in
the 2E rules, and when nothing is found, that First Edition has matches, rather than a bare "no
results". Flask-free: the search page calls `elsewhere` with the service and the answer it showed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

from judgekit.search.analysis import ORDINARY
from judgekit.search.choice import LABELS

MAX_WORDS = 8  # a judge's question is a few words; each costs two small searches
WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


class Searcher(Protocol):
    """What `elsewhere` needs of the search service."""

    def search(self, params: dict[str, str]) -> dict[str, Any]:
        """The API's answer to these parameters."""
        ...


@dataclass(frozen=True)
class Elsewhere:
    """The other game's matches for a search kept to one game."""

    edition: str  # the game searched
    other: str  # the other game
    other_title: str  # "First Edition"
    other_total: int  # how many results the other game has for the whole query
    missing: tuple[str, ...]  # the judge's words found only in the other game
    query: str  # the words looked for: a game named in the question is not one of them


def _total(svc: Searcher, q: str, edition: str) -> int:
    return int(svc.search({"q": q, "edition": edition, "limit": "1"})["total"])


def _words(query: str) -> list[str]:
    """The question's words to look for in each game: not an ordinary word ("put", "guys"),
    which no game's rules "have" for a judge (a game's table talk may use it)."""
    words: list[str] = []
    for word in WORD.findall(query.lower()):
        if len(word) >= 3 and word not in words and word not in ORDINARY:
            words.append(word)
    return words[:MAX_WORDS]


def elsewhere(svc: Searcher, answer: dict[str, Any]) -> Elsewhere | None:
    """The other game's matches when the judge kept the answer to one game, else None.

    For a game named in the question ("2e seed phase"), the question without its name: a word
    of the other game alone ("seed") is said to be so, as when the game is chosen."""
    edition = answer.get("filters", {}).get("edition", "")
    query = answer.get("query", "")
    if answer.get("edition_from") == "question":
        query = answer.get("query_without_edition") or ""
    if edition not in LABELS or not query:
        return None
    other = next(e for e in LABELS if e != edition)
    missing = tuple(
        w for w in _words(query) if not _total(svc, w, edition) and _total(svc, w, other)
    )
    return Elsewhere(edition, other, LABELS[other], _total(svc, query, other), missing, query)
