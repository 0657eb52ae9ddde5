"""An entry as it is listed: the one dictionary the API, the pages and search results share."""

from __future__ import annotations

from typing import Any

from judgekit.corpus.model import Entry
from judgekit.render.library import Library


def entry_summary(lib: Library, entry: Entry) -> dict[str, Any]:
    """An entry as listed in its version: ``pages`` is its own printed page or pages ("p. 16",
    "pp. 16–20"), marked by ``page_editorial`` where the editors read it; None if unknown."""
    where = lib.printed_page(entry)
    own = where if where is not None and where.own else None
    data = {
        "id": entry.id,
        "kind": entry.kind,
        "title": entry.title,
        "parent": entry.parent,
        "depth": entry.depth,
        "page": own.first if own and own.first == own.last else None,
        "pages": own.text if own else None,
        "page_editorial": own.editorial_words if own else None,
        "url": lib.entry_url(entry),
        "api_url": lib.entry_api_url(entry),
    }
    if entry.kind == "glossary":
        data["card_ruling"] = entry.card_ruling
    if entry.kind == "ruling":
        data["new"] = entry.new
    return data
