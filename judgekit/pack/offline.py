"""What makes the pack installable and usable offline: the manifest, the service worker, its version.

The service worker (``sw.js`` at the pack's root, so its scope is the whole pack) is the
package's ``static/js/sw.js`` preceded by this build's version and list of files: a new build
changes its bytes, which is how a browser notices a newer pack on the next online visit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Flask

from judgekit.pack.paths import pack_file
from judgekit.shapes.calculation import calculator_data, points_data
from judgekit.shapes.timing import built_steps

MANIFEST = "manifest.webmanifest"
SERVICE_WORKER = "sw.js"
VERSION_FILE = "pack.json"
CALCULATORS = "timing-calculators.js"


def manifest(app: Flask) -> dict[str, Any]:
    """The web app manifest; its addresses are relative to itself, at the pack's root."""
    hashed = app.extensions["judgekit.assets"].hashed_name
    return {
        "name": "judgekit – Star Trek CCG rules reference",
        "short_name": "judgekit",
        "description": "The rulebooks and rulings for Star Trek CCG judges, offline.",
        "start_url": "index.html",
        "scope": "./",
        "display": "standalone",
        "background_color": "#fdfdfb",
        "theme_color": "#0b57b0",
        # PNG at the sizes Android's installer asks for, and the SVG for every other size.
        "icons": [
            {"src": f"static/{hashed('icon-192.png')}", "sizes": "192x192", "type": "image/png"},
            {"src": f"static/{hashed('icon-512.png')}", "sizes": "512x512", "type": "image/png"},
            {"src": f"static/{hashed('favicon.svg')}", "sizes": "any", "type": "image/svg+xml"},
        ],
    }


def service_worker(app: Flask, version: dict[str, Any], files: list[str]) -> str:
    """The service worker's source: this pack's version and files, then the worker itself."""
    code = (Path(app.static_folder) / "js" / "sw.js").read_text(encoding="utf-8")
    pack = {"version": version, "files": files}
    return f"self.JUDGEKIT_PACK = {json.dumps(pack, ensure_ascii=False)};\n{code}"


def write_offline_files(
    app: Flask, out: Path, version: dict[str, Any], files: list[str]
) -> list[str]:
    """Write the version, the manifest and the service worker; returns the files written."""
    (out / VERSION_FILE).write_text(json.dumps(version, indent=1), encoding="utf-8")
    (out / MANIFEST).write_text(json.dumps(manifest(app), indent=1), encoding="utf-8")
    # The worker stores the pages, the static files, the version and the manifest.
    stored = [*files, VERSION_FILE, MANIFEST]
    (out / SERVICE_WORKER).write_text(service_worker(app, version, stored), encoding="utf-8")
    # GitHub Pages runs Jekyll unless told not to; Jekyll drops files whose names start with _.
    (out / ".nojekyll").write_text("", encoding="utf-8")
    return [VERSION_FILE, MANIFEST, SERVICE_WORKER, ".nojekyll"]


def calculators(app: Flask) -> dict[str, Any]:
    """Each sequence version's calculator (rules, steps, citations) and the open questions' words."""
    lib, timing = app.extensions["judgekit"]["library"], app.extensions["judgekit"]["timing"]
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for seq in timing:
        if seq.calculator is not None:
            built = built_steps(lib, timing, seq)
            out.setdefault(seq.id, {})[seq.version] = calculator_data(seq, built)
    # Where each cited entry's page is in the pack (relative to its root), for the links.
    urls = {
        c["url"]
        for by_version in out.values()
        for data in by_version.values()
        for cites in data["cites"].values()
        for c in cites
    }
    files = {url: pack_file(url) for url in sorted(urls)}
    return {"points": points_data(), "sequences": out, "files": files}


def write_calculators(app: Flask, out: Path) -> list[str]:
    """Write ``timing-calculators.js``, which the pack's calculator reads (a script: file:// too)."""
    data = json.dumps(calculators(app), ensure_ascii=False, separators=(",", ":"))
    (out / CALCULATORS).write_text(f"self.JUDGEKIT_CALCULATORS = {data};\n", encoding="utf-8")
    return [CALCULATORS]
