"""Every page names its JSON twin (``<link rel="alternate" type="application/json">``).

One table from page endpoints to API endpoints: the pages render the same dictionaries the API
serves, so a script can always get the data behind what a judge sees.
"""

from __future__ import annotations

from flask import Flask, request, url_for

from judgekit.compare.diff import split_pair
from judgekit.web.context import current_library

# page endpoint: (API endpoint, path arguments passed on, query arguments passed on)
TWINS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "rules.home": ("api.documents", (), ()),
    "rules.version": ("api.version", ("document", "version"), ()),
    "rulings.version": ("api.version", ("document", "version"), ()),
    "rules.entry": ("api.entry", ("document", "version", "entry_id"), ()),
    "rulings.entry": ("api.entry", ("document", "version", "entry_id"), ()),
    "diff.document": ("api_compare.diff_pairs", ("document",), ()),
    "diff.marked": ("api_compare.diff_marked", ("document", "version"), ()),
    "diff.history": ("api_compare.history", ("document", "entry_id"), ("typography",)),
    "timing.index": ("api_timing.timing_index", (), ()),
    "timing.first_edition": ("api_timing.timing_first_edition", (), ()),
    "cards.index": ("api_cards.cards", (), ()),
    "cards.card": ("api_cards.card", ("edition", "card_id"), ()),
    "phone.page": ("api_phone.phone", (), ()),
    "timing.sequence": ("api_timing.timing_sequence", ("sequence_id",), ("version",)),
    "search.search": (
        "api_search.search",
        (),
        ("q", "edition", "document", "version", "kind", "all_versions", "limit"),
    ),
}


def _compare_twin() -> str | None:
    args = request.view_args or {}
    doc = current_library().corpus.document(args.get("document", ""))
    pair = split_pair(args.get("pair", ""), [v.id for v in doc.versions]) if doc else None
    if pair is None:
        return None
    return url_for("api_compare.diff_versions", document=doc.id, old=pair[0], new=pair[1])


def alternate_url() -> str | None:
    """The JSON twin of the page being rendered, or None (error pages have none)."""
    if request.endpoint == "diff.compare":
        return _compare_twin()
    twin = TWINS.get(request.endpoint or "")
    if twin is None:
        return None
    endpoint, path_args, query_args = twin
    values = {k: (request.view_args or {})[k] for k in path_args}
    query = {k: request.args[k] for k in query_args if request.args.get(k)}
    return url_for(endpoint, **values, **query)


def init_app(app: Flask) -> None:
    """Give every template ``alternate_url``."""

    @app.context_processor
    def _alternate() -> dict[str, str | None]:
        return {"alternate_url": alternate_url() if request else None}
