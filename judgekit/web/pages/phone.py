"""The phone page (/phone): how a judge at a venue gets judgekit onto a phone, and keeps it there.

It says which address works over the venue's Wi-Fi and which keeps working without it (the pack
published with ``judgekit serve --pack-url``, or PACK_URL in the configuration), with their QR
codes; without a published pack it says plainly that this address cannot work offline.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue

from judgekit.shapes.phone import pack_address, phone_dict
from judgekit.web.handout import qr_svg

bp = Blueprint("phone", __name__)


@bp.record_once
def _check_pack_url(state: BlueprintSetupState) -> None:
    # A mistyped PACK_URL stops the start-up: a QR code to nowhere would be handed out all day.
    pack_address(state.app.config.get("PACK_URL"))


@bp.app_template_global()
def phone_links() -> dict[str, Any]:
    """The phone page's data, for any template (the home page's "Other judges" box)."""
    config = current_app.config
    return phone_dict(config["BASE_URL"], config.get("PACK_URL", ""))


@bp.get("/phone")
def page() -> ResponseReturnValue:
    """GET /phone."""
    return render_template("phone/page.html", data=phone_links())


@bp.get("/phone/pack-qr.svg")
def pack_qr() -> ResponseReturnValue:
    """GET /phone/pack-qr.svg: a QR code of the published pack's address."""
    pack = phone_links()["pack"]
    if pack is None:
        abort(404, description="no published judge pack is named (judgekit serve --pack-url)")
    return Response(qr_svg(pack["url"]), mimetype="image/svg+xml")
