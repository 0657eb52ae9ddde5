"""The Current Rulings pages."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("rulings", __name__)
