"""``judgekit build``: every page and JSON answer of the app written as static files.

The app renders each address in ``judgekit.web.sitemap.all_paths`` through its own test client,
from the same templates and data as the server; each answer is written where ``paths.pack_file``
puts it, with its links made relative, beside the static files under their hashed names, the
web app manifest, the service worker and the pack's version.
"""

from __future__ import annotations

import hashlib
import shutil
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import permutations
from pathlib import Path
from typing import Any
from urllib.parse import quote

from flask import Flask

from judgekit import urls
from judgekit.corpus.model import Version
from judgekit.pack import offline
from judgekit.pack.bundle import write_bundles
from judgekit.pack.paths import canonical, pack_file, relative_link, relink
from judgekit.pack.search import write_search_data
from judgekit.render.library import Library
from judgekit.timing.model import Timing
from judgekit.web.context import library_of
from judgekit.web.sitemap import all_paths

PACK_ZIP = "pack.zip"
SEARCH_API = "/api/search"


class BuildError(Exception):
    """A page the pack needs could not be rendered."""


@dataclass(frozen=True)
class BuildResult:
    """What a build wrote."""

    out: Path
    files: int
    size: int
    version: dict[str, Any]
    zip_path: Path | None


def pack_app(root: str | None = None, base_url: str | None = None) -> Flask:
    """The app as the pack renders it: nothing kept in memory, the pack's head on every page."""
    from judgekit import create_app

    config: dict[str, Any] = {
        "TESTING": True,
        "PAGE_CACHE_BYTES": 0,
        "PACK": True,
        "SEARCH_PRELOAD": False,
        "BASE_URL": base_url or "",
    }
    if root:
        config["CORPUS_DIR"] = root
    return create_app(config)


def document_homes(lib: Library) -> list[str]:
    """Each document's own address, which sends the reader to the version in force."""
    return [f"/{lib.area(doc)}/{quote(doc.id, safe='')}/" for doc in lib.corpus.held()]


def comparison_views(lib: Library) -> list[str]:
    """Every comparison side by side, with typography shown, and both (inline is the plain page)."""
    out = []
    for doc in lib.corpus.held():
        for old, new in permutations(doc.versions, 2):
            page = urls.compare_page(doc.id, old.id, new.id)
            out += [
                f"{page}?view=side",
                f"{page}?typography=show",
                f"{page}?view=side&typography=show",
            ]
    return out


HISTORY_VIEWS = ("view=side", "typography=show", "typography=show&view=side")


def history_views(lib: Library) -> list[str]:
    """Each history's other views (side by side, typography shown, both), for documents with
    more than one version: a single version's history has nothing to lay side by side."""
    out = []
    for doc in lib.corpus.held():
        if len(doc.versions) < 2:
            continue
        ids = dict.fromkeys(e.id for v in doc.versions for e in v.walk())
        for entry_id in ids:
            page = urls.history_page(doc.id, entry_id)
            out += [f"{page}?{view}" for view in HISTORY_VIEWS]
    return out


def _redirect_page(target: str) -> str:
    """A page that sends the reader on without a script (the pages allow no inline script)."""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="refresh" content="0; url={target}"><title>judgekit</title></head>'
        f'<body><p><a href="{target}">Continue</a></p></body></html>'
    )


def _render(client, address: str) -> tuple[bool, str, str | None]:
    """(is JSON, body, redirect target) for one address; a failure stops the build."""
    response = client.get(address)
    if response.status_code in (301, 302, 303, 307, 308):
        return False, "", response.headers["Location"]
    if response.status_code != 200:
        raise BuildError(f"{address}: the app answered {response.status_code}")
    return response.mimetype == "application/json", response.get_data(as_text=True), None


def write_answers(app: Flask, out: Path, addresses: Iterable[str]) -> list[str]:
    """Render and write each address; returns the pack files written."""
    addresses = list(addresses)
    built = {canonical(a) for a in addresses}
    client = app.test_client()
    written = []
    for address in addresses:
        is_json, body, location = _render(client, address)
        target = pack_file(address, is_json)
        if location is not None:
            body = _redirect_page(relative_link(location, target, built))
        else:
            body = relink(body, target, built, is_json)
        path = out / target
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
        written.append(target)
    return written


def copy_static(app: Flask, out: Path) -> list[str]:
    """Every static file under its content-hashed name, as the pages name it."""
    assets = app.extensions["judgekit.assets"]
    folder = Path(app.static_folder)
    written = []
    # The service worker's code goes to the root, behind the pack's version (offline.py).
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.name != "sw.js"):
        name = assets.hashed_name(path.relative_to(folder).as_posix())
        target = out / "static" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        written.append(f"static/{name}")
    return written


def pack_id(digest: str, when: datetime) -> str:
    """The pack's version id: the corpus hash, then the build time (a rebuild is a new pack)."""
    return f"{digest[:12]}-{when:%Y%m%d%H%M%S}"


def version_hash(version: Version, timing: Timing) -> str:
    """A short hash of a version's text and timing sequences (frozen dataclasses: stable reprs)."""
    sequences = [s for s in timing if (s.document, s.version) == (version.document, version.id)]
    return hashlib.sha256(repr((version, sequences)).encode()).hexdigest()[:12]


def pack_version(app: Flask, when: datetime) -> dict[str, Any]:
    """The pack's version: the corpus hash and date, and a hash of each version's text."""
    lib = library_of(app)
    timing = app.extensions["judgekit"]["timing"]
    versions = [
        {
            "document": version.document,
            "version": version.id,
            "title": lib.label(version),
            "hash": version_hash(version, timing),
        }
        for version in lib.corpus.versions()
    ]
    digest = lib.corpus.digest
    return {
        "id": pack_id(digest, when),
        "corpus": digest,
        "date": when.strftime("%Y-%m-%d"),
        "built": when.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "versions": versions,
    }


def _zip(out: Path, files: list[str], zip_path: Path) -> None:
    with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in files:
            archive.write(out / name, name)


def build(
    app: Flask, out: Path, *, zip_path: Path | None = None, when: datetime | None = None
) -> BuildResult:
    """Write the whole pack into ``out`` (emptied first); a zip of it too if asked."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    lib = library_of(app)
    when = when or datetime.now(UTC)
    app.config["PACK_VERSION"] = pack_id(lib.corpus.digest, when)
    bundles = write_bundles(app, out)
    # The empty search's JSON too (the search page names it as its JSON twin), the documents'
    # own addresses (redirects, so not in the server's warm-up list), and each comparison's and
    # history's other views, which the server renders from the query.
    addresses = [
        *all_paths(lib, app.extensions["judgekit"]["timing"]),
        SEARCH_API,
        *document_homes(lib),
        *comparison_views(lib),
        *history_views(lib),
    ]
    files = write_answers(app, out, addresses)
    files += copy_static(app, out) + bundles
    files += write_search_data(app, out)
    files += offline.write_calculators(app, out)
    version = pack_version(app, when)
    files += offline.write_offline_files(app, out, version, files)
    size = sum((out / name).stat().st_size for name in files)
    if zip_path is not None:
        _zip(out, files, zip_path)
    return BuildResult(out, len(files), size, version, zip_path)
