"""The app's corpus and what is built from it, kept on the app and reached from a request."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, current_app

from judgekit.checks.loader import load_corpus
from judgekit.render.library import Library
from judgekit.search.cache import default_cache_dir
from judgekit.search.meaning import MEANING_MODES
from judgekit.search.service import SearchService
from judgekit.shapes.reading import drafts_loaded
from judgekit.timing.load import sequences_for
from judgekit.timing.model import Timing
from judgekit.web.memory import not_kept

KEY = "judgekit"


def init_app(app: Flask) -> None:
    """Load the corpus named by ``CORPUS_DIR`` (with ``DRAFT_DIR``'s versions on top, when set)
    with its timing files, and the search service."""
    library = Library(load_corpus(app.config["CORPUS_DIR"], draft=app.config.get("DRAFT_DIR")))
    # Timing files are validated at start-up like the corpus: a broken file stops the app here.
    timing = sequences_for(library.corpus)
    # SEARCH_CACHE_DIR: a folder, or "" to index in memory; default: the per-user cache.
    cache_dir = app.config.get("SEARCH_CACHE_DIR", default_cache_dir())
    search = SearchService.for_library(library, cache_dir or None)
    app.extensions[KEY] = {"library": library, "timing": timing, "search": search}
    drafts = drafts_loaded(library)  # the corpus never changes while the app runs
    app.add_template_global(lambda: drafts, "loaded_drafts")
    if app.config.get("SEARCH_PRELOAD", True):
        search.index  # noqa: B018 -- build or open it now, not on the first judge's query
    # SEARCH_MEANING: "now" (load the model, embedding what no cache holds), "kept" (load it now
    # only if the cache holds every vector: `serve` embeds the rest in the background), "off".
    meaning = app.config.get("SEARCH_MEANING", "now")
    if meaning not in MEANING_MODES:
        raise ValueError(
            f"SEARCH_MEANING must be one of {', '.join(MEANING_MODES)}, not {meaning!r}"
        )
    if meaning != "off":
        search.load_meaning(only_if_kept=meaning == "kept")


def library_of(app: Flask) -> Library:
    """An app's Library (outside a request: the CLI, the warm-up thread)."""
    return app.extensions[KEY]["library"]


def current_library() -> Library:
    """The current app's Library."""
    return current_app.extensions[KEY]["library"]


def search_answer(params: Mapping[str, str]) -> dict[str, Any]:
    """The current app's search answer; one given while meaning loads is not kept in memory
    (the same question asked later is answered by meaning too). SearchParamError as search."""
    data = current_search().search(params)
    if data["meaning"] == "loading":
        not_kept()
    return data


def current_timing() -> Timing:
    """The current app's timing sequences."""
    return current_app.extensions[KEY]["timing"]


def current_search() -> SearchService:
    """The current app's search service."""
    return current_app.extensions[KEY]["search"]
