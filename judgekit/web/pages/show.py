"""Showing a rule to a player: an entry's address as a QR code, for the player's own phone.

The address is the one other devices open (BASE_URL, as /phone shows it), never the request's
Host header. The code is drawn here (segno) on its own page, so an entry page costs nothing more
for a judge who never shows it, and the page reads without JavaScript. The judge pack has no
such page: it cannot know the laptop's address (its entry pages say so instead).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, redirect, render_template
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from judgekit import urls
from judgekit.web.context import current_library as library
from judgekit.web.handout import qr_svg_inline
from judgekit.web.lookup import find_entry

bp = Blueprint("show", __name__)


@bp.get("/show/<any(rules, rulings):area>/<document>/<version>/<entry_id>")
def entry(area: str, document: str, version: str, entry_id: str) -> ResponseReturnValue:
    """GET /show/<area>/<document>/<version>/<entry_id>: the entry's address as a QR code."""
    lib = library()
    found = find_entry(document, version, entry_id)
    path = lib.entry_url(found)
    kind = lib.corpus.documents[found.document].kind
    if not path.startswith(f"/{area}/"):  # the other area's address: one redirect to this one
        return redirect(urls.show_page(kind, found.document, found.version, found.id), 308)
    base_url = current_app.config["BASE_URL"]
    address = base_url.rstrip("/") + path
    local_host = urls.only_this_computer(base_url)
    # No code for an address a player's phone cannot open: only this computer's, or no host.
    opens = not local_host and bool(urlsplit(base_url).netloc)
    return render_template(
        "show/entry.html",
        entry=found,
        citation=lib.citation_title(found),
        entry_url=path,
        address=address,
        local_host=local_host,
        # segno writes the markup and escapes the address in it.
        qr=Markup(qr_svg_inline(address)) if opens else None,
    )
