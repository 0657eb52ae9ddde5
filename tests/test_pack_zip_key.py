"""The pack zip's cache key names everything the pack is made of, so a stale zip is never served."""

from __future__ import annotations

import shutil

from judgekit import resources
from judgekit.web import zipjob

from .conftest import MINI


def _key(tmp_path) -> str:
    config = {"CORPUS_DIR": str(MINI), "BASE_URL": "http://192.168.1.20:8000"}
    return zipjob.PackZip(tmp_path / "cache", str(MINI), config, "digest", 30.0).key


def test_a_changed_template_or_static_file_is_another_zip(tmp_path, monkeypatch):
    # The pages are rendered from the templates and carry the static files: changing either
    # (a new release that touches no Python, or a template edited in a checkout) must not serve
    # the zip built before.
    templates = tmp_path / "templates"
    static = tmp_path / "package" / "static"
    shutil.copytree(resources.templates_dir(), templates)
    shutil.copytree(resources.PACKAGE / "static", static)
    monkeypatch.setattr(resources, "templates_dir", lambda: templates)
    monkeypatch.setattr(resources, "static_dir", lambda: static)
    first = _key(tmp_path)
    assert _key(tmp_path) == first  # the same files, the same zip

    page = templates / "base.html"
    page.write_text(page.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    second = _key(tmp_path)
    assert second != first

    script = next(static.rglob("*.js"))
    script.write_text(script.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert _key(tmp_path) not in (first, second)
