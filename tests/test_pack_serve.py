"""`judgekit serve` hands the reference out: a QR code of its address and the pack's zip."""

from __future__ import annotations

import errno
import io
import os
import re
import shutil
import sys
import time
import zipfile
from pathlib import Path

import pytest

import judgekit
from judgekit import create_app
from judgekit.web.handout import print_qr, qr_svg
from judgekit.web.pages.pack import zip_job
from judgekit.web.zipstatus import ZipStatus, reason_of

from .conftest import BlockedRequests, guarded_context, serving, wait_until

PACK_CORPUS = Path(__file__).parent / "data" / "pack"
ADDRESS = "http://192.168.1.20:8000"


@pytest.fixture()
def make_client(tmp_path):
    """Test clients on apps whose pack zip jobs are stopped when the test ends."""
    apps = []

    def make(**config):
        settings = {"CORPUS_DIR": str(PACK_CORPUS), "BASE_URL": ADDRESS}
        settings["PACK_CACHE_DIR"] = str(tmp_path / "pack")
        apps.append(create_app({"TESTING": True, **settings, **config}))
        return apps[-1].test_client()

    yield make
    for app in apps:
        zip_job(app).close()


@pytest.fixture()
def served(make_client):
    return make_client()


def test_qr_code_of_the_address(served):
    response = served.get("/qr.svg")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.data == qr_svg(ADDRESS + "/")
    assert response.data.startswith(b"<svg") and b"<title>http://192.168.1.20:8000/</title>" in (
        response.data
    )
    assert qr_svg(ADDRESS + "/") != qr_svg("http://192.168.1.21:8000/")


def test_home_page_shows_the_qr_code_and_the_zip_once_it_is_built(served):
    html = served.get("/").get_data(as_text=True)
    assert '<img class="pack-qr" src="/qr.svg"' in html
    assert 'alt="QR code of http://192.168.1.20:8000/"' in html
    # Until the zip is built: what is happening, no link to a file that is not there yet.
    assert 'href="/pack.zip"' not in html
    assert 'data-status-url="/api/pack" data-state="preparing"' in html
    assert "The judge pack is being prepared" in html and "Reload this page" in html
    assert re.search(r'<script src="/static/js/pack-download\.[0-9a-f]+\.js" defer>', html)
    preparing = served.get("/")  # not kept while it changes: no ETag, and no-store
    assert preparing.headers["Cache-Control"] == "no-store" and "ETag" not in preparing.headers
    _wait_for_zip(served)
    html = served.get("/").get_data(as_text=True)
    assert '<a href="/pack.zip" download>Download the judge pack</a>' in html
    assert "pack-download.js" not in html and "being prepared" not in html
    kept = served.get("/")  # kept once the zip is ready
    assert kept.headers["Cache-Control"] == "no-cache" and kept.headers["ETag"]


@pytest.mark.parametrize(
    ("base_url", "warned"),
    [(ADDRESS, False), ("http://127.0.0.1:8000", True), ("http://localhost:8000", True)],
)
def test_home_page_warns_when_the_qr_code_names_this_computer(base_url, warned):
    client = create_app(
        {"TESTING": True, "CORPUS_DIR": str(PACK_CORPUS), "BASE_URL": base_url}
    ).test_client()
    html = client.get("/").get_data(as_text=True)
    assert ("Only this computer can open" in html) == warned
    assert ("on this network." in html) != warned


def test_terminal_qr_code():
    out = io.StringIO()
    print_qr(ADDRESS + "/", out)
    lines = out.getvalue().splitlines()
    assert len(lines) > 10 and any("█" in line or "▀" in line for line in lines)


def _wait_for_zip(client, seconds: float = 120):
    """Ask for /pack.zip until it is built (bounded); every answer meanwhile is a 503."""
    deadline = time.monotonic() + seconds
    while True:
        response = client.get("/pack.zip")
        if response.status_code == 200:
            return response
        assert response.status_code == 503, response.status_code
        assert time.monotonic() < deadline, "the pack was not built in time"
        time.sleep(0.2)


def _job(client):
    return zip_job(client.application)


def _settled(job, seconds: float = 30) -> None:
    """Wait (bounded) until the job's thread has finished its turn."""
    deadline = time.monotonic() + seconds
    while job._thread is not None and job._thread.is_alive():
        assert time.monotonic() < deadline, "the build's thread did not end"
        time.sleep(0.05)


def _until_failed(client, seconds: float = 60) -> None:
    """Wait (bounded) until the build has failed once."""
    deadline = time.monotonic() + seconds
    while _job(client).status().state != "failed":
        assert time.monotonic() < deadline, "the build did not fail"
        time.sleep(0.05)


def _temporary(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob(".tmp-*")) if folder.exists() else []


def test_pack_zip_is_a_503_until_it_is_built_then_the_zip_with_one_top_folder(served):
    first = served.get("/pack.zip")
    assert first.status_code == 503
    assert first.headers["Retry-After"] == "20"
    assert first.mimetype == "text/html" and "Content-Disposition" not in first.headers
    assert "The judge pack is being prepared" in first.get_data(as_text=True)
    response = _wait_for_zip(served)
    assert response.mimetype == "application/zip"
    assert "judgekit-pack.zip" in response.headers["Content-Disposition"]
    with zipfile.ZipFile(io.BytesIO(response.data)) as archive:
        names = set(archive.namelist())
        page = archive.read("judgekit-pack/rules/demo-rulebook/2/attempting/index.html").decode()
        home = archive.read("judgekit-pack/index.html").decode()
    # One top folder: unzipped, the pack is one folder, not every file loose.
    assert {name.split("/")[0] for name in names} == {"judgekit-pack"}
    assert {f"judgekit-pack/{n}" for n in ("index.html", "sw.js", "pack.json")} <= names
    # Citations in the zip link to the address the server gives out.
    assert f"{ADDRESS}/rules/demo-rulebook/2/attempting" in page
    # The pack's own home page offers no QR code: it has no server.
    assert "pack-qr" not in home and "judgekit" in home
    again = served.get("/pack.zip")
    assert again.status_code == 200 and again.data == response.data
    # The zip is kept in the cache folder, and nothing temporary is left beside it.
    job = _job(served)
    _settled(job)
    assert _temporary(job.folder) == []
    assert [p.name for p in job.folder.glob("*.zip")] == [job.zip_path.name]


def test_another_app_on_the_same_corpus_serves_the_zip_already_built(served, make_client):
    built = _wait_for_zip(served).data
    response = make_client().get("/pack.zip")  # no build: the cache folder has it
    assert response.status_code == 200 and response.data == built
    # Another address is another zip: its citations would name the other address.
    assert make_client(BASE_URL="http://192.168.1.21:8000").get("/pack.zip").status_code == 503


def test_status_json_says_preparing_then_ready_and_is_never_kept(served):
    preparing = served.get("/api/pack")
    assert preparing.status_code == 200 and preparing.headers["Cache-Control"] == "no-store"
    assert preparing.get_json() == {
        "state": "preparing",
        "url": None,
        "size": None,
        "retry_after": 20,
        "message": "The judge pack is being prepared; it is ready in a minute or two.",
        "progress": None,
    }
    size = len(_wait_for_zip(served).data)
    ready = served.get("/api/pack")
    assert "X-Judgekit-Cache" not in ready.headers
    assert ready.get_json() == {
        "state": "ready",
        "url": "/pack.zip",
        "size": size,
        "retry_after": None,
        "message": f"The judge pack is ready ({size / 1e6:.1f} MB).",
        "progress": None,
    }


def _corpus_copy(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(PACK_CORPUS, root)
    return root


def _no_traceback_nor_path(text: str, *paths: Path) -> None:
    assert "Traceback" not in text and 'File "' not in text
    for path in (*paths, Path(judgekit.__file__).parent, Path(sys.executable).parent):
        assert str(path) not in text


def test_a_failed_build_is_a_503_without_traceback_and_is_tried_again(make_client, tmp_path):
    root = _corpus_copy(tmp_path)
    folder = tmp_path / "pack"
    client = make_client(CORPUS_DIR=str(root), PACK_RETRY_SECONDS=2)
    # The rules change on disk after the server loaded them: the build must not zip other rules.
    book = next(root.rglob("*.yaml"))
    original = book.read_bytes()
    book.write_bytes(original + b"\n# edited while serving\n")
    assert client.get("/pack.zip").status_code == 503
    _until_failed(client)
    failed = client.get("/pack.zip")
    assert failed.status_code == 503
    retry = int(failed.headers["Retry-After"])
    assert 0 < retry <= 2
    text = failed.get_data(as_text=True)
    assert "could not be built: the rules files changed on disk after the server started" in text
    _no_traceback_nor_path(text, root, folder, tmp_path)
    status = client.get("/api/pack").get_json()
    assert status["state"] == "failed" and status["url"] is None
    _no_traceback_nor_path(status["message"], root, folder, tmp_path)
    assert _temporary(folder) == []
    # Put back, the next try (after the delay, without any request) builds the zip.
    book.write_bytes(original)
    deadline = time.monotonic() + 60
    while not _job(client).zip_path.is_file():
        assert time.monotonic() < deadline, "the failed build was not tried again"
        time.sleep(0.2)
    assert client.get("/pack.zip").status_code == 200
    _settled(_job(client))
    assert _temporary(folder) == [] and not list(folder.glob("*.failed.json"))


def test_a_folder_that_cannot_be_written_is_a_clear_503(make_client, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    client = make_client(PACK_CACHE_DIR=str(blocker / "pack"))
    assert client.get("/pack.zip").status_code == 503
    _until_failed(client)
    response = client.get("/pack.zip")
    assert response.status_code == 503 and int(response.headers["Retry-After"]) > 0
    text = response.get_data(as_text=True)
    assert "the server cannot write the folder it keeps the pack in" in text
    _no_traceback_nor_path(text, blocker, tmp_path)


def test_disk_full_is_told_apart():
    full = OSError(errno.ENOSPC, "No space left on device")
    assert reason_of(full) == "disk-full"
    wrapped = RuntimeError("zip failed")
    wrapped.__cause__ = full
    assert reason_of(wrapped) == "disk-full"
    assert reason_of(PermissionError(errno.EACCES, "denied")) == ""
    assert ZipStatus("failed", 600, "disk-full").message == (
        "The judge pack could not be built: the server's disk is full (no space or no free file "
        "entries left). It is tried again in about 10 minutes."
    )


def test_leftovers_of_an_interrupted_build_are_removed_before_the_next(served):
    job = _job(served)
    job.folder.mkdir(parents=True)
    left = job.folder / ".tmp-killed"
    (left / "judgekit-pack" / "rules").mkdir(parents=True)
    (left / "pack.zip").write_bytes(b"half a zip")
    (job.folder / f".tmp-{job.key}-1234.json").write_text("{", encoding="utf-8")
    _wait_for_zip(served)
    _settled(job)
    assert _temporary(job.folder) == []


def test_the_home_page_line_becomes_the_link_when_the_zip_is_ready(browser, tmp_path):
    app = create_app(
        {"TESTING": True, "CORPUS_DIR": str(PACK_CORPUS), "PACK_CACHE_DIR": str(tmp_path)}
    )
    try:
        with serving(app) as base, guarded_context(browser, BlockedRequests()) as context:
            page = context.new_page()
            page.goto(base + "/")
            line = page.locator(".pack-download")
            assert "being prepared" in line.inner_text()
            assert page.locator('.pack-download a[href="/pack.zip"]').count() == 0
            # The page asks /api/pack (which starts the build) until the zip is ready.
            wait_until(page, "!!document.querySelector('.pack-download a[download]')", None, 120)
            assert page.get_attribute(".pack-download a", "href") == "/pack.zip"
            assert "Download the judge pack" in line.inner_text()
    finally:
        zip_job(app).close()


def test_without_javascript_the_line_says_the_zip_is_being_prepared(browser, tmp_path):
    app = create_app(
        {"TESTING": True, "CORPUS_DIR": str(PACK_CORPUS), "PACK_CACHE_DIR": str(tmp_path)}
    )
    with serving(app) as base:
        with guarded_context(browser, BlockedRequests(), java_script_enabled=False) as context:
            page = context.new_page()
            page.goto(base + "/")
            text = page.locator(".pack-download").inner_text()
            links = page.locator(".pack-download a").count()
    assert "The judge pack is being prepared" in text and "Reload this page" in text
    assert links == 0


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_process_forked_during_a_build_does_not_keep_the_build_lock(served):
    import fcntl

    job = _job(served)
    job.folder.mkdir(parents=True)
    with job._locked():  # as a build holds it, when `serve` starts (or restarts) a worker
        pid = os.fork()
        if pid == 0:  # the new worker lives on after the build ends
            time.sleep(5)
            os._exit(0)
    try:
        fd = os.open(job.folder / ".pack.lock", os.O_RDWR)
        try:  # the build has ended: the lock is free for the next, whatever the worker holds
            deadline = time.monotonic() + 2  # (once the new process has run its fork hooks)
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    assert time.monotonic() < deadline, "the forked process keeps the lock"
                    time.sleep(0.05)
        finally:
            os.close(fd)
    finally:
        os.waitpid(pid, 0)
