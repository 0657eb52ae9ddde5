"""While the pack's zip is built, the server says how far the build has come: /api/pack, the
home page's line and the phone page's (with and without JavaScript), the 503 of /pack.zip."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator

import pytest

from judgekit import create_app
from judgekit.pack.build import build, pack_app
from judgekit.pack.zipchild import ProgressFile
from judgekit.web.pages.pack import zip_job
from judgekit.web.zipjob import PackZip
from judgekit.web.zipstatus import Progress, read_progress, write_progress

from .conftest import BlockedRequests, guarded_context, serving, wait_until
from .test_pack_serve import PACK_CORPUS, _settled, _temporary, _wait_for_zip, make_client  # noqa: F401


@contextlib.contextmanager
def building(job: PackZip) -> Iterator[None]:
    """Hold the job's build lock, as another process's running build does: the job's own turn
    waits for it, so the progress is what the test writes. The job is stopped before the lock is
    given back, so it builds nothing."""
    job.folder.mkdir(parents=True, exist_ok=True)
    with job._locked():
        try:
            yield
        finally:
            job.close()
    _settled(job)


def _line(html: str) -> str:
    return re.search(r'<p class="pack-download".*?</p>', html, re.S).group(0)


def test_the_status_the_pages_and_the_503_say_how_far_the_build_has_come(make_client):  # noqa: F811
    client = make_client()
    job = zip_job(client.application)
    with building(job):
        assert client.get("/api/pack").get_json()["progress"] is None
        write_progress(job.progress_path, Progress("pages", 840, 1935))
        status = client.get("/api/pack").get_json()
        assert status["state"] == "preparing" and status["url"] is None
        assert status["progress"] == {"stage": "pages", "done": 840, "total": 1935}
        said = "The judge pack is being prepared: 840 of 1,935 pages written."
        assert status["message"] == said
        for page in ("/", "/phone"):
            line = _line(client.get(page).get_data(as_text=True))
            assert said in line, page
            assert '<progress class="pack-progress" max="1935" value="840"></progress>' in line
            assert "Reload this page to check" in line and "<a " not in line
        zipped = client.get("/pack.zip")
        assert zipped.status_code == 503 and said in zipped.get_data(as_text=True)
        write_progress(job.progress_path, Progress("zip", 12, 1950))
        assert client.get("/api/pack").get_json()["message"] == (
            "The judge pack is being prepared: zipping, 12 of 1,950 files."
        )
        # A build that ended (or was killed) leaves no progress behind to show.
        job.progress_path.unlink()
        status = client.get("/api/pack").get_json()
        assert status["progress"] is None and "a minute or two" in status["message"]
        assert "<progress" not in _line(client.get("/").get_data(as_text=True))


@pytest.mark.parametrize("text", ["", "{", '{"stage": "pages", "done": 9, "total": 5}'])
def test_an_unreadable_progress_file_shows_no_progress(tmp_path, text):
    path = tmp_path / "progress.json"
    path.write_text(text, encoding="utf-8")
    assert read_progress(path) is None
    assert read_progress(tmp_path / "none.json") is None


def test_a_build_reports_its_pages_then_its_zip(tmp_path):
    calls: list[tuple[str, int, int]] = []
    result = build(
        pack_app(str(PACK_CORPUS), "https://judges.example/pack"),
        tmp_path / "out",
        zip_path=tmp_path / "pack.zip",
        progress=lambda *call: calls.append(call),
    )
    pages = [c for c in calls if c[0] == "pages"]
    zipping = [c for c in calls if c[0] == "zip"]
    assert calls == pages + zipping  # every page written before the zip
    assert [c[1] for c in pages] == list(range(1, len(pages) + 1))
    assert {c[2] for c in pages} == {len(pages)} and len(pages) > 50
    assert zipping[-1] == ("zip", result.files, result.files)
    assert len(zipping) == result.files


def test_the_build_process_writes_its_progress_now_and_then_and_at_each_end(tmp_path):
    path = tmp_path / ".tmp-key.progress.json"
    report = ProgressFile(path, every=3600)
    report("pages", 1, 10)
    assert read_progress(path) == Progress("pages", 1, 10)
    report("pages", 2, 10)  # too soon after the first: not written
    assert read_progress(path) == Progress("pages", 1, 10)
    report("pages", 10, 10)  # a stage's end is always written
    assert read_progress(path) == Progress("pages", 10, 10)
    report.remove()
    assert not path.exists() and list(tmp_path.iterdir()) == []


def test_a_real_build_of_the_server_shows_progress_then_the_link(make_client):  # noqa: F811
    client = make_client()
    job = zip_job(client.application)
    seen: list[dict] = []
    deadline = time.monotonic() + 180
    while (status := client.get("/api/pack").get_json())["state"] == "preparing":
        if status["progress"] is not None:
            seen.append(status["progress"])
        assert time.monotonic() < deadline, "the pack was not built in time"
        time.sleep(0.02)
    assert status["state"] == "ready", status
    assert seen, "no progress was shown while the zip was built"
    assert all(0 < p["done"] <= p["total"] for p in seen)
    _wait_for_zip(client)
    _settled(job)
    assert _temporary(job.folder) == []  # the progress file is gone with the build


@pytest.mark.browser
def test_the_home_page_line_shows_the_progress_without_a_reload(browser, tmp_path):
    app = create_app(
        {"TESTING": True, "CORPUS_DIR": str(PACK_CORPUS), "PACK_CACHE_DIR": str(tmp_path)}
    )
    job = zip_job(app)
    with serving(app) as base, building(job):
        write_progress(job.progress_path, Progress("pages", 3, 10))
        with guarded_context(browser, BlockedRequests()) as context:
            page = context.new_page()
            page.goto(base + "/")
            line = page.locator(".pack-download")
            assert "3 of 10 pages written" in line.inner_text()
            assert page.get_attribute(".pack-progress", "value") == "3"
            write_progress(job.progress_path, Progress("zip", 5, 12))
            wait_until(page, "document.querySelector('.pack-progress').value === 5", None, 30)
            assert "zipping, 5 of 12 files" in line.inner_text()
            assert page.evaluate("document.querySelector('.pack-progress').max") == 12
            assert "turns into the link" in line.inner_text()
            assert page.locator(".pack-download a").count() == 0
            job.progress_path.unlink()
            wait_until(page, "!document.querySelector('.pack-progress')", None, 30)
            assert "a minute or two" in line.inner_text()
        # On the narrowest phone the phone page's line, bar and all, scrolls nothing sideways.
        write_progress(job.progress_path, Progress("pages", 840, 1935))
        narrow = {"width": 320, "height": 640}
        with guarded_context(browser, BlockedRequests(), viewport=narrow) as context:
            page = context.new_page()
            page.goto(base + "/phone")
            assert page.locator(".pack-download .pack-progress").is_visible()
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
