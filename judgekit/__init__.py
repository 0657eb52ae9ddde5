"""judgekit: an offline rules reference for Star Trek CCG tournament judges."""

from __future__ import annotations

from typing import Any

from flask import Flask

# First, before any part of judgekit loads numpy: it sets how many threads BLAS may start.
import judgekit.meaning  # noqa: F401, I001
from judgekit.corpus.read import default_root
from judgekit.resources import templates_dir


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then overrides, then each part's explicit ``init_app``."""
    from judgekit import web
    from judgekit.web import context

    app = Flask(__name__, template_folder=str(templates_dir()), static_folder="static")
    app.config.from_mapping(
        CORPUS_DIR=str(default_root()),
        JSON_SORT_KEYS=False,
        SEND_FILE_MAX_AGE_DEFAULT=3600,
        # The address other judges open: citations and permalinks are built from it.
        BASE_URL="http://127.0.0.1:8000",
    )
    app.config.from_prefixed_env("JUDGEKIT")
    if test_config:
        app.config.from_mapping(test_config)
    context.init_app(app)
    web.init_app(app)
    return app
