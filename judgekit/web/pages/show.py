"""Showing a player a page on the player's own phone: a rule's, a card's or a published ruling's
address as a QR code.

The address is the one other devices open (BASE_URL, as /phone shows it), never the request's
Host header. The code is drawn here (segno) on its own page, so the page shown costs nothing more
for a judge who never shows it, and the page reads without JavaScript. The judge pack has no
such page: it cannot know the laptop's address (its pages say so instead).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, current_app, redirect, render_template
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from judgekit import urls
from judgekit.render import card_index
from judgekit.render.glossary import label_external_refs
from judgekit.shapes import cards as card_shapes
from judgekit.shapes.events import public_ruling_dict
from judgekit.web.context import current_library as library
from judgekit.web.handout import qr_svg_inline
from judgekit.web.lookup import find_card, find_entry
from judgekit.web.memory import not_kept
from judgekit.web.pages.events import find_published

bp = Blueprint("show", __name__)


def _shown(
    what: str,
    title: str,
    citation: str,
    path: str,
    handed: Callable[[], dict[str, Any]],
    page_editorial: str | None = None,
) -> ResponseReturnValue:
    """The page showing ``path`` (what the player opens: "rule", "card", "ruling") as a QR code
    of its address as other devices open it, or why there is none; then what ``handed`` builds
    (what the page at ``path`` says) is shown large, for the judge to hand this device over
    instead. It is built only then: a page with a code shows no text. ``page_editorial``: why the
    citation's page is the editors' reading (its "ed." mark), if it is."""
    base_url = current_app.config["BASE_URL"]
    address = base_url.rstrip("/") + path
    local_host = urls.only_this_computer(base_url)
    # No code for an address a player's phone cannot open: only this computer's, or no host.
    opens = not local_host and bool(urlsplit(base_url).netloc)
    return render_template(
        "show/entry.html",
        what=what,
        title=title,
        citation=citation,
        page_editorial=page_editorial,
        back_url=path,
        address=address,
        local_host=local_host,
        # segno writes the markup and escapes the address in it.
        qr=Markup(qr_svg_inline(address)) if opens else None,
        handed=None if opens else handed(),
    )


@bp.get("/show/<any(rules, rulings):area>/<document>/<version>/<entry_id>")
def entry(area: str, document: str, version: str, entry_id: str) -> ResponseReturnValue:
    """GET /show/<area>/<document>/<version>/<entry_id>: the entry's address as a QR code."""
    lib = library()
    found = find_entry(document, version, entry_id)
    path = lib.entry_url(found)
    kind = lib.corpus.documents[found.document].kind
    if not path.startswith(f"/{area}/"):  # the other area's address: one redirect to this one
        return redirect(urls.show_page(kind, found.document, found.version, found.id), 308)

    def handed() -> dict[str, Any]:
        body = Markup(label_external_refs(lib.html(found)))  # the corpus's sanitized HTML
        return {"kind": "rule", "title": found.title, "html": body}

    return _shown(
        "rule", found.title, lib.citation_title(found), path, handed, lib.page_editorial(found)
    )


@bp.get("/show/cards/<edition>/<card_id>")
def card(edition: str, card_id: str) -> ResponseReturnValue:
    """GET /show/cards/<edition>/<card_id>: the card's page's address as a QR code."""
    found = find_card(edition, card_id)
    path = card_index.card_url(found)
    if path != urls.card_page(edition, card_id):  # "2E" for "2e": one redirect to its own
        return redirect("/show" + path, 308)

    def handed() -> dict[str, Any]:
        detail = card_shapes.card_detail(library(), found)
        return {"kind": "card", "card": detail, "groups": card_shapes.card_groups(detail)}

    return _shown(
        "card", found.full_title, f"{found.edition} card {found.full_title}", path, handed
    )


@bp.get("/show/event/published/<int(max=999999999):number>")
def published(number: int) -> ResponseReturnValue:
    """GET /show/event/published/<n>: a published ruling's page's address as a QR code."""
    not_kept()  # a ruling is shown only while it is published
    event, ruling = find_published(number)
    title = f"Ruling {number}: table {ruling.now.table}, round {ruling.now.round}"
    path = urls.published_ruling_page(number)

    def handed() -> dict[str, Any]:
        return {"kind": "ruling", "ruling": public_ruling_dict(library(), ruling)}

    return _shown("ruling", title, f"{event.name}, {title}", path, handed)
