"""The judge pack from a running server: its zip at /pack.zip and a QR code of the address."""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, send_file
from flask.typing import ResponseReturnValue

from judgekit.web.handout import qr_svg, start_zip_build, zip_build

bp = Blueprint("pack", __name__)


@bp.get("/pack.zip")
def pack_zip() -> ResponseReturnValue:
    """GET /pack.zip: the whole reference as static files, once it is built."""
    build = zip_build(current_app)
    if build.state == "idle":
        start_zip_build(current_app)
    if build.state == "failed":
        # Not a 5xx: the server is fine; the corpus could not be built into a pack.
        abort(409, description=f"the judge pack could not be built: {build.error}")
    if build.state != "ready":
        # 202: the request is taken, the answer is not ready yet.
        response = Response(
            "The judge pack is being built; try again in a minute.\n", 202, mimetype="text/plain"
        )
        response.headers["Retry-After"] = "30"
        return response
    return send_file(
        build.zip_path,
        mimetype="application/zip",
        as_attachment=True,
        download_name="judgekit-pack.zip",
        max_age=0,
    )


@bp.get("/qr.svg")
def qr() -> ResponseReturnValue:
    """GET /qr.svg: a QR code of the address other judges open."""
    address = current_app.config["BASE_URL"].rstrip("/") + "/"
    return Response(qr_svg(address), mimetype="image/svg+xml")
