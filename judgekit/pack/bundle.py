"""One stylesheet and one script for every page of the pack, instead of five and four.

On a phone over a slow network each file a page needs first costs a round trip, and a browser
opens only a few connections to one host: the pack's pages name one stylesheet (the site's,
search's, comparison's, timing's and the pack's, in the order the server's pages list them) and
one deferred script (the pack's, the live search and the site's, in the order they run on the
server's pages). Page-specific files (cards.css, timing.js, ...) stay as they are, and so does the
pack's search (pack-search.js): the search page names it, other pages load it when first wanted.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Flask

STYLES = ("css/judgekit.css", "css/search.css", "css/diff.css", "css/timing.css", "css/pack.css")
# The pack's search (pack-search.js) is not here: pack.js loads it when first wanted.
SCRIPTS = ("js/pack.js", "js/search.js", "js/judgekit.js")
# At the depth of the files they replace: pack.js finds the pack's root two folders up.
NAMES = {"css": "css/pack-bundle", "js": "js/pack-bundle"}


def _joined(folder: Path, names: tuple[str, ...], separator: str) -> bytes:
    parts = [(folder / name).read_text(encoding="utf-8").rstrip() for name in names]
    return (separator.join(parts) + "\n").encode("utf-8")


def write_bundles(app: Flask, out: Path) -> list[str]:
    """Write the two bundles under content-hashed names; the pages name them from then on."""
    folder = Path(app.static_folder)
    bodies = {
        "css": _joined(folder, STYLES, "\n"),
        # Each file is its own function; the semicolon ends a file that lacks one.
        "js": _joined(folder, SCRIPTS, "\n;\n"),
    }
    written, config = [], {}
    for kind, body in bodies.items():
        name = f"{NAMES[kind]}.{hashlib.sha256(body).hexdigest()[:10]}.{kind}"
        target = out / "static" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body)
        written.append(f"static/{name}")
        config[kind] = f"/static/{name}"
    app.config["PACK_BUNDLE"] = config
    return written
