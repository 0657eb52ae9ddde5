"""Static files under content-hashed names, kept by browsers for a year.

``url_for('static', filename='css/judgekit.css')`` gives ``/static/css/judgekit.1a2b3c4d5e.css``;
the name changes whenever the file does, so a judge's phone never runs yesterday's script
against today's page. The plain name is still served, with the short default lifetime.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from flask import Flask, abort, current_app, send_from_directory
from flask.typing import ResponseReturnValue

HASHED = re.compile(r"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{10})(?P<ext>\.[A-Za-z0-9]+)$")
YEAR = 365 * 24 * 3600


def file_hash(folder: Path, filename: str) -> str | None:
    """The first ten hex digits of a static file's SHA-256, or None if there is no such file."""
    path = (folder / filename).resolve()
    if not path.is_relative_to(folder.resolve()) or not path.is_file():
        return None
    return hashlib.sha256(path.read_bytes()).hexdigest()[:10]


class Assets:
    """The hash of each static file, computed once (the package's files do not change)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._hashes: dict[str, str | None] = {}

    def hashed_name(self, filename: str) -> str:
        """``css/x.css`` as ``css/x.<hash>.css``; unknown files keep their name."""
        if filename not in self._hashes:
            self._hashes[filename] = file_hash(self.folder, filename)
        digest = self._hashes[filename]
        if digest is None:
            return filename
        stem, dot, ext = filename.rpartition(".")
        return f"{stem}.{digest}.{ext}" if dot else f"{filename}.{digest}"

    def plain_name(self, filename: str) -> tuple[str, bool]:
        """The file a requested name stands for, and whether the name carried its current hash."""
        match = HASHED.match(filename)
        if match:
            plain = match["stem"] + match["ext"]
            if self.hashed_name(plain) == filename:
                return plain, True
        return filename, False


def serve_static(filename: str) -> ResponseReturnValue:
    """A static file: a year's lifetime under its hashed name, the default under its plain one."""
    assets: Assets = current_app.extensions["judgekit.assets"]
    plain, hashed = assets.plain_name(filename)
    if hashed:
        response = send_from_directory(assets.folder, plain, max_age=YEAR)
        response.cache_control.immutable = True
        response.cache_control.public = True
        return response
    if HASHED.match(filename):
        abort(404, description=f"no static file {filename!r} (an older release's name?)")
    return send_from_directory(assets.folder, plain)


def init_app(app: Flask) -> None:
    """Build static URLs with hashed names and serve them."""
    assets = Assets(Path(app.static_folder))
    app.extensions["judgekit.assets"] = assets
    app.view_functions["static"] = serve_static

    @app.url_defaults
    def _hash_static(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "filename" in values:
            values["filename"] = assets.hashed_name(values["filename"])
