"""Where the pack reads without JavaScript, for the search page's ``<noscript>`` line.

The pack's search runs in the browser (pack-search.js); with JavaScript off its search page can
only say so, and send the judge to what works without it: every document's contents (the home
page lists them) and the glossary of each version in force. Addresses come from the library (the
server's own), and the build makes them relative pack paths like every other link.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app

from judgekit import urls
from judgekit.web.context import library_of


@dataclass(frozen=True)
class ReadingLink:
    """A page that reads without JavaScript, as the line names it."""

    title: str
    url: str


def reading_links() -> list[ReadingLink]:
    """The contents (the home page), then each glossary of a version in force."""
    lib = library_of(current_app)
    out = [ReadingLink("the contents", urls.HOME)]
    for doc in lib.corpus.held():
        version = doc.latest
        entries = lib.glossary(version) if version is not None else []
        if not entries:
            continue
        parent = version.get(entries[0].parent) if entries[0].parent else None
        url = lib.entry_url(parent) if parent is not None else lib.version_url(version)
        out.append(ReadingLink(f"the {lib.label(version)} glossary", url))
    return out
