"""An entry as it is listed: the one dictionary the API, the pages and search results share."""

from __future__ import annotations

from typing import Any

from judgekit.corpus.model import Entry
from judgekit.render.library import Library


def entry_summary(lib: Library, entry: Entry) -> dict[str, Any]:
    """An entry as listed in its version."""
    data = {
        "id": entry.id,
        "kind": entry.kind,
        "title": entry.title,
        "parent": entry.parent,
        "depth": entry.depth,
        "page": entry.page,
        "url": lib.entry_url(entry),
        "api_url": lib.entry_api_url(entry),
    }
    if entry.kind == "glossary":
        data["card_ruling"] = entry.card_ruling
    if entry.kind == "ruling":
        data["new"] = entry.new
    return data
