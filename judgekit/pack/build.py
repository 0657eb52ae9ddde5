"""``judgekit build``: every page and JSON answer of the app written as static files.

The app renders each address in ``judgekit.web.sitemap.all_paths`` through its own test client,
from the same templates and data as the server; each answer is written where ``paths.pack_file``
puts it, with its links made relative, beside the static files under their hashed names, the
web app manifest, the service worker and the pack's version.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import zipfile
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import permutations
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from flask import Flask

from judgekit import urls
from judgekit.corpus.model import Version
from judgekit.pack import offline
from judgekit.pack.bundle import SCRIPTS, STYLES, write_bundles
from judgekit.pack.meaning import MeaningUnavailable, is_meaning_part, write_meaning
from judgekit.pack.paths import canonical, pack_file, relative_link, relink
from judgekit.pack.reading import reading_links
from judgekit.pack.search import STEMMER, search_data, write_search_data
from judgekit.pack.views import ViewsError, render_views
from judgekit.render.library import Library
from judgekit.timing.links import sequence_api_url, sequence_url
from judgekit.timing.model import Timing
from judgekit.web.context import library_of
from judgekit.web.sitemap import all_paths
from judgekit.web.zipstatus import PAGES, ZIPPING

PACK_ZIP = "pack.zip"
# The limit for the whole pack (what a phone stores); `judgekit build` reports against it.
SIZE_LIMIT = 25_000_000
SEARCH_API = "/api/search"
# Told how far a build has come: its stage (PAGES, then ZIPPING), how many done of how many.
ProgressReport = Callable[[str, int, int], None]


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
    folders: dict[str, int] = field(default_factory=dict)  # bytes by top folder ("" for root)
    meaning_size: int = 0  # the optional part (meaning/), not in size: a judge stores it if asked
    meaning_note: str = ""  # why the pack has no search by meaning ("" when it has)

    @property
    def over_limit(self) -> bool:
        """Whether the pack is bigger than a phone should be asked to store (SIZE_LIMIT)."""
        return self.size > SIZE_LIMIT


def pack_app(root: str | None = None, base_url: str | None = None, meaning: bool = False) -> Flask:
    """The app as the pack renders it: nothing kept in memory, the pack's head on every page;
    with meaning, its search service loads the model (embedding what its cache lacks), and the
    build writes the pack's search by meaning (meaning.py)."""
    from judgekit import create_app

    config: dict[str, Any] = {
        "TESTING": True,
        "PAGE_CACHE_BYTES": 0,
        "PACK": True,
        "SEARCH_PRELOAD": False,
        # The pack's pages hold no search answer (its search runs in the browser); with
        # meaning, the build takes the server's model and vectors for the pack (meaning.py).
        "SEARCH_MEANING": "now" if meaning else "off",
        "BASE_URL": base_url or "",
        "DRAFT_DIR": "",  # never a draft, even one named in the environment (build refuses it)
    }
    if root:
        config["CORPUS_DIR"] = root
    app = create_app(config)
    # The search page's line for a browser without JavaScript (templates/pack/_noscript.html).
    app.add_template_global(reading_links, "pack_reading")
    return app


def document_homes(lib: Library) -> list[str]:
    """Each document's own address, which sends the reader to the version in force."""
    return [f"/{lib.area(doc)}/{quote(doc.id, safe='')}/" for doc in lib.corpus.held()]


def short_addresses(lib: Library) -> list[str]:
    """The addresses cut short that the server sends on to one page (web/partial.py and the
    pages' views), as the pack's pages that send the reader there: ``/rules/``, each glossary's
    ``…/term/``, each later version's ``/diff/<document>/<version>``."""
    out = [f"/{area}/" for area in sorted({lib.area(doc) for doc in lib.corpus.held()})]
    for doc in lib.corpus.held():
        out += [
            urls.version_page(doc.kind, doc.id, v.id) + "term/"
            for v in doc.versions
            if lib.glossary(v)
        ]
        out += [
            urls.compare_document_page(doc.id) + f"/{quote(v.id, safe='')}"
            for v in doc.versions[1:]
        ]
    return out


def view_pages(lib: Library) -> set[str]:
    """The comparisons and histories whose four views the pack writes as one page (views.py);
    a history of a document of one version has one view only, and is written as it is."""
    out = set()
    for doc in lib.corpus.held():
        for old, new in permutations(doc.versions, 2):
            out.add(urls.compare_page(doc.id, old.id, new.id))
        if len(doc.versions) > 1:
            ids = dict.fromkeys(e.id for v in doc.versions for e in v.walk())
            out.update(urls.history_page(doc.id, entry_id) for entry_id in ids)
    return out


def same_as_plain(timing: Timing) -> set[str]:
    """The stepper's addresses that name the version its plain address shows: each sequence's
    newest version, ``/timing/<id>?version=<newest>`` and its JSON. The server answers them as
    the plain ones, so the pack does not write them twice: a link to one opens the plain file
    (relative_link keeps the query), and pack.js stays there (the page's judgekit-pack-shows)."""
    out = set()
    for sequence_id in timing.ids():
        newest = timing.versions(sequence_id)[-1]
        out.update((canonical(sequence_url(newest)), canonical(sequence_api_url(newest))))
    return out


def server_only_json(lib: Library) -> set[str]:
    """The JSON twins the pack leaves to the server: each comparison's and each history's.
    They are the pack's largest files (every change's aligned sentences, again as JSON) and no
    pack page or script reads them; the pages they are twins of name no twin in the pack."""
    out = set()
    for doc in lib.corpus.held():
        for old, new in permutations(doc.versions, 2):
            out.add(urls.compare_api(doc.id, old.id, new.id))
        ids = dict.fromkeys(e.id for v in doc.versions for e in v.walk())
        out.update(urls.history_api(doc.id, entry_id) for entry_id in ids)
    return out


_ALTERNATE = re.compile(r'<link rel="alternate" type="application/json" href="(?P<url>[^"]*)">\n?')


def without_twins(html: str, dropped: Collection[str]) -> str:
    """A page without its JSON twin's link when the pack does not carry that JSON."""

    def keep(match: re.Match) -> str:
        return "" if urlsplit(match["url"]).path in dropped else match.group()

    return _ALTERNATE.sub(keep, html)


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


def _page(client, address: str) -> str:
    """A page the build lays over others: it must render, as it does on the server."""
    is_json, body, location = _render(client, address)
    if is_json or location is not None:
        raise BuildError(f"{address}: not a page")
    return body


def _answer(client, address: str, merged: Collection[str]) -> tuple[bool, str, str | None]:
    """(is JSON, body, redirect target) of an address; a page of views, all its views in one."""
    if address not in merged:
        return _render(client, address)
    try:
        return False, render_views(lambda a: _page(client, a), address), None
    except ViewsError as exc:
        raise BuildError(f"{address}: its views cannot share one page: {exc}") from exc


def write_answers(
    app: Flask,
    out: Path,
    addresses: Iterable[str],
    merged: Collection[str] = (),
    dropped: Collection[str] = (),
    progress: ProgressReport | None = None,
) -> list[str]:
    """Render and write each address (those in ``merged`` with all their views in one page,
    no link to a JSON twin in ``dropped``); returns the pack files written."""
    addresses = list(addresses)
    built = {canonical(a) for a in addresses}
    client = app.test_client()
    written = []
    for address in addresses:
        is_json, body, location = _answer(client, address, merged)
        target = pack_file(address, is_json)
        if location is not None:
            body = _redirect_page(relative_link(location, target, built))
        else:
            body = relink(body if is_json else without_twins(body, dropped), target, built, is_json)
        path = out / target
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
        written.append(target)
        if progress is not None:
            progress(PAGES, len(written), len(addresses))
    return written


# Static files no page of the pack names, so not carried (a phone stores every file carried): the
# bundles' parts (each page names the bundles instead: bundle.py), the server's own scripts (the
# event's forms, the venue network's notice, the zip's progress: a pack has none of them), and
# the stemmer, whose code search-more.js carries verbatim (search.py: stemmer_script; its
# LICENSE and VENDOR notes stay beside where it was).
MEANING_SCRIPT = "js/pack-meaning.js"
NOT_CARRIED = frozenset(
    (
        *STYLES,
        *SCRIPTS,
        "js/events.js",
        "css/events.css",
        "js/lan.js",
        "js/pack-download.js",
        STEMMER,
    )
)


def copy_static(app: Flask, out: Path) -> list[str]:
    """Every static file a pack page may name (not NOT_CARRIED) under its content-hashed name,
    as the pages name it."""
    assets = app.extensions["judgekit.assets"]
    folder = Path(app.static_folder)
    written = []
    # The service worker's code goes to the root, behind the pack's version (offline.py).
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.name != "sw.js"):
        named = path.relative_to(folder).as_posix()
        if named in NOT_CARRIED or (named == MEANING_SCRIPT and not app.config.get("PACK_MEANING")):
            continue  # (search by meaning's script only in a pack that has it)
        name = assets.hashed_name(named)
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


def _zip(
    out: Path, files: list[str], zip_path: Path, progress: ProgressReport | None = None
) -> None:
    """The pack's files under one top folder named as ``out``: unzipped, it is one folder."""
    with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as archive:
        for done, name in enumerate(files, 1):
            archive.write(out / name, f"{out.name}/{name}")
            if progress is not None:
                progress(ZIPPING, done, len(files))


def build(
    app: Flask,
    out: Path,
    *,
    zip_path: Path | None = None,
    when: datetime | None = None,
    progress: ProgressReport | None = None,
) -> BuildResult:
    """Write the whole pack into ``out`` (emptied first); a zip of it too if asked; ``progress``
    is told how far it has come. A corpus with a draft loaded is refused (BuildError): a pack
    is for judges, and a draft is not accepted into judgekit."""
    lib = library_of(app)
    if lib.corpus.draft:
        raise BuildError(
            f"a draft is loaded ({lib.corpus.draft}): a judge pack holds only accepted versions; "
            "accept the draft first, or build without it"
        )
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    when = when or datetime.now(UTC)
    app.config["PACK_VERSION"] = pack_id(lib.corpus.digest, when)
    # The pages offer search by meaning when the pack will have it (its model loaded).
    search = app.extensions["judgekit"]["search"]
    wanted = app.config.get("SEARCH_MEANING", "off") != "off"
    app.config["PACK_MEANING"] = wanted and search.meaning.state == "ready"
    bundles = write_bundles(app, out)
    # The empty search's JSON too (the search page names it as its JSON twin), and the
    # documents' own addresses (redirects, so not in the server's warm-up list). A comparison's
    # and a history's other views (?view=, ?typography=) are in its one page (views.py).
    dropped = server_only_json(lib)
    twice = same_as_plain(app.extensions["judgekit"]["timing"])
    addresses = [
        *(
            a
            for a in all_paths(lib, app.extensions["judgekit"]["timing"])
            if a not in dropped and canonical(a) not in twice
        ),
        SEARCH_API,
        *document_homes(lib),
        *short_addresses(lib),
    ]
    files = write_answers(app, out, addresses, view_pages(lib), dropped, progress)
    files += copy_static(app, out) + bundles
    data = search_data(app)
    files += write_search_data(app, out, data)
    note = ""
    if not wanted:
        note = "left out (--no-meaning)"
    else:
        try:
            files += write_meaning(app, out, data["items"])
        except MeaningUnavailable as exc:
            note = str(exc)
    files += offline.write_calculators(app, out)
    version = pack_version(app, when)
    part = [name for name in files if is_meaning_part(name)]
    base = [name for name in files if not is_meaning_part(name)]
    # The service worker stores the base pack; the meaning part only when the judge asks.
    files = base + offline.write_offline_files(app, out, version, base)
    folders = folder_sizes(out, files)
    if zip_path is not None:
        _zip(out, files, zip_path, progress)
    extra = sum((out / name).stat().st_size for name in part)
    return BuildResult(
        out, len(files), sum(folders.values()), version, zip_path, folders, extra, note
    )


def folder_sizes(out: Path, files: list[str]) -> dict[str, int]:
    """Bytes by top folder (api/ by its own folders: its twins differ most), largest first."""
    sizes: dict[str, int] = {}
    for name in files:
        parts = name.split("/")
        depth = 2 if parts[0] == "api" and len(parts) > 2 else 1
        folder = "/".join(parts[:depth]) if len(parts) > 1 else ""
        sizes[folder] = sizes.get(folder, 0) + (out / name).stat().st_size
    return dict(sorted(sizes.items(), key=lambda item: -item[1]))
