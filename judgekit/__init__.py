"""judgekit: an offline rules reference for Star Trek CCG tournament judges."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask

from .library import Library
from .loader import default_root, load_corpus

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then test_config overrides; the corpus is loaded once here."""
    app = Flask(__name__, template_folder=str(TEMPLATES), static_folder="static")
    app.config.from_mapping(
        CORPUS_DIR=str(default_root()),
        JSON_SORT_KEYS=False,
        SEND_FILE_MAX_AGE_DEFAULT=3600,
    )
    app.config.from_prefixed_env("JUDGEKIT")
    if test_config:
        app.config.from_mapping(test_config)
    app.json.sort_keys = False
    app.json.ensure_ascii = False

    corpus = load_corpus(app.config["CORPUS_DIR"])
    app.extensions["judgekit"] = Library(corpus)

    from .views import register

    register(app)
    return app


def library() -> Library:
    """The current app's Library."""
    from flask import current_app

    return current_app.extensions["judgekit"]
