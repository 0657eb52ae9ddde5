"""The judge pack from a running server: its zip at /pack.zip, its status, and a QR code.

The zip is one file shared by every worker process (judgekit/pack/zipjob.py): until it is
built, /pack.zip answers 503 with Retry-After and a short page, never a stand-in file.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, send_file, url_for
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import ServiceUnavailable

from judgekit.pack import zipjob
from judgekit.pack.handout import qr_svg
from judgekit.web.memory import not_kept

bp = Blueprint("pack", __name__)
# Every app gets its zip job when it is made: before `judgekit serve` forks its workers.
bp.record_once(lambda state: zipjob.init_app(state.app))


@bp.get("/pack.zip")
def pack_zip() -> ResponseReturnValue:
    """GET /pack.zip: the whole reference as static files, once it is built (503 until then)."""
    job = zipjob.zip_job(current_app)
    job.start()
    opened = job.open_zip()
    if opened is None:
        status = job.status()
        raise ServiceUnavailable(status.message, retry_after=status.retry_after or None)
    return send_file(
        opened,
        mimetype="application/zip",
        as_attachment=True,
        download_name=zipjob.ZIP_NAME,
        etag=job.key,
        max_age=0,
    )


@bp.get("/api/pack")
def pack_status() -> ResponseReturnValue:
    """GET /api/pack: whether the zip is ready (the home page's link asks while it is not)."""
    job = zipjob.zip_job(current_app)
    job.start()
    not_kept()
    response = jsonify(job.status().shape(url_for("pack.pack_zip")))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.app_template_global("pack_zip_status")
def pack_zip_status() -> zipjob.ZipStatus:
    """The zip's status for the home page; a page showing it is not kept until it is ready."""
    status = zipjob.zip_job(current_app).status()
    if status.state != "ready":
        not_kept()
    return status


@bp.get("/qr.svg")
def qr() -> ResponseReturnValue:
    """GET /qr.svg: a QR code of the address other judges open."""
    address = current_app.config["BASE_URL"].rstrip("/") + "/"
    return Response(qr_svg(address), mimetype="image/svg+xml")
