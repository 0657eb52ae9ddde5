"""The search pages."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("search", __name__)
