"""The judge pack from a running server: its zip at /pack.zip, its status, and a QR code.

The zip is one file shared by every worker process (judgekit/web/zipjob.py): until it is
built, /pack.zip answers 503 with Retry-After and a short page, never a stand-in file.
"""

from __future__ import annotations

from flask import Blueprint, Flask, Response, current_app, jsonify, send_file, url_for
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import ServiceUnavailable

from judgekit.web import zipjob
from judgekit.web.context import library_of
from judgekit.web.handout import qr_svg
from judgekit.web.memory import not_kept
from judgekit.web.zipstatus import ZipStatus

bp = Blueprint("pack", __name__)
_JOB = "judgekit.pack_zip"


@bp.record_once
def _give_the_app_its_zip(state) -> None:
    # When the app is made, so before `judgekit serve` forks: every worker shares the job's run.
    app = state.app
    # The zip is built from the held corpus alone (a pack never holds a draft): its key too.
    app.extensions[_JOB] = zipjob.pack_zip_for(app.config, library_of(app).corpus.held_digest)


def zip_job(app: Flask) -> zipjob.PackZip:
    """The app's pack zip (one file shared by every process serving the app)."""
    return app.extensions[_JOB]


def start_zip_build(app: Flask) -> None:
    """Start preparing the zip in the background (`judgekit serve` calls it in each process)."""
    zip_job(app).start()


@bp.get("/pack.zip")
def pack_zip() -> ResponseReturnValue:
    """GET /pack.zip: the whole reference as static files, once it is built (503 until then)."""
    job = zip_job(current_app)
    opened = job.open_zip()
    if opened is None:
        job.start()
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
    job = zip_job(current_app)
    job.start()
    not_kept()
    response = jsonify(job.status().shape(url_for("pack.pack_zip")))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.app_template_global("pack_zip_status")
def pack_zip_status() -> ZipStatus:
    """The zip's status for the home page; a page showing it is not kept until it is ready."""
    status = zip_job(current_app).status()
    if status.state != "ready":
        not_kept()
    return status


@bp.get("/qr.svg")
def qr() -> ResponseReturnValue:
    """GET /qr.svg: a QR code of the address other judges open."""
    address = current_app.config["BASE_URL"].rstrip("/") + "/"
    return Response(qr_svg(address), mimetype="image/svg+xml")
