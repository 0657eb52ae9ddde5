"""The web layer: one blueprint per area of pages, one per area of the JSON API, and errors."""

from __future__ import annotations

from flask import Flask

from judgekit.web import (
    alternate,
    assets,
    errors,
    judges,
    memory,
    partial,
    protect,
    slashes,
    version_names,
)
from judgekit.web.api import cards as api_cards
from judgekit.web.api import compare as api_compare
from judgekit.web.api import events as api_events
from judgekit.web.api import phone as api_phone
from judgekit.web.api import reading as api_reading
from judgekit.web.api import search as api_search
from judgekit.web.api import timing as api_timing
from judgekit.web.context import library_of
from judgekit.web.pages import (
    cards,
    compare,
    events,
    pack,
    phone,
    rules,
    rulings,
    search,
    show,
    timing,
)

BLUEPRINTS = (
    rules,
    rulings,
    search,
    compare,
    timing,
    cards,
    phone,
    show,
    api_reading,
    api_search,
    api_compare,
    api_timing,
    api_cards,
    api_phone,
    pack,
    events,
    api_events,
)


def init_app(app: Flask) -> None:
    """Checks and headers first, then the blueprints and error pages, then serving from memory."""
    protect.init_app(app)
    slashes.init_app(app)
    version_names.init_app(app)
    partial.init_app(app)
    assets.init_app(app)
    judges.init_app(app)
    for module in BLUEPRINTS:
        app.register_blueprint(module.bp)
    errors.init_app(app)
    alternate.init_app(app)
    memory.init_app(app, library_of(app).corpus.digest)
