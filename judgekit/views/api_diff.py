"""The diff part of the JSON API (routes on the api blueprint)."""

from __future__ import annotations

from .api import bp  # noqa: F401
