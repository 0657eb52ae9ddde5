"""The timing pages."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("timing", __name__)
