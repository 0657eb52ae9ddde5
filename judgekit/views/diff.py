"""The diff pages."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("diff", __name__)
