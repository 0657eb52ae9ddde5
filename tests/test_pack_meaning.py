"""`judgekit build` writes search by meaning as a part of its own (pack/meaning.py): the server's
files, named by their content, listed with their sizes and sha256 in meaning/manifest.js, in the
pack's search item order, and neither stored by the service worker nor zipped."""

from __future__ import annotations

import hashlib
import json
import zipfile
from datetime import UTC, datetime

import pytest
from safetensors.numpy import load_file

from judgekit.meaning.weights import ModelMissing, find
from judgekit.pack.build import build, pack_app
from tests.conftest import PACK_CORPUS

WHEN = datetime(2026, 11, 23, 7, 0, tzinfo=UTC)


def _installed() -> bool:
    try:
        find()
    except ModelMissing:
        return False
    return True


@pytest.mark.skipif(not _installed(), reason="the model's package is not installed")
def test_the_meaning_part_is_the_servers_and_apart_from_the_pack(tmp_path):
    app = pack_app(str(PACK_CORPUS), meaning=True)
    out = tmp_path / "judgekit-pack"
    result = build(app, out, zip_path=tmp_path / "judgekit-pack.zip", when=WHEN)
    text = (out / "meaning" / "manifest.js").read_text(encoding="utf-8")
    manifest = json.loads(text.removeprefix("self.JUDGEKIT_MEANING = ").rstrip().rstrip(";"))
    files = manifest["files"]
    for part in files.values():
        data = (out / part["name"]).read_bytes()
        assert len(data) == part["size"] and hashlib.sha256(data).hexdigest() == part["sha256"]
        assert part["sha256"][:12] in part["name"]
    assert result.meaning_size == manifest["size"] == sum(p["size"] for p in files.values())
    assert result.meaning_note == ""
    # The server's vectors, by the server index's item numbers: the pack's search items.
    index = app.extensions["judgekit"]["search"].index
    passages = load_file(str(out / files["passages"]["name"]))
    assert manifest["items"] == int(passages["count"][0]) == len(index.meta)
    assert (passages["vectors"] == index.meaning.passages.vectors).all()
    assert (passages["owners"] == index.meaning.passages.owners).all()
    # Not in the pack's size, its service worker's list or its zip (its manifest is).
    assert result.size == sum(result.folders.values())
    stored = (out / "sw.js").read_text(encoding="utf-8")
    zipped = zipfile.ZipFile(tmp_path / "judgekit-pack.zip").namelist()
    for part in files.values():
        assert part["name"] not in stored and f"judgekit-pack/{part['name']}" not in zipped
    assert "meaning/manifest.js" in stored and "judgekit-pack/meaning/manifest.js" in zipped
    home = (out / "index.html").read_text(encoding="utf-8")
    assert 'name="judgekit-pack-meaning"' in home


def test_a_pack_without_meaning_says_why(tmp_path):
    result = build(pack_app(str(PACK_CORPUS)), tmp_path / "pack", when=WHEN)
    assert result.meaning_size == 0 and result.meaning_note == "left out (--no-meaning)"
    assert not (result.out / "meaning").exists()
    home = (result.out / "index.html").read_text(encoding="utf-8")
    assert 'name="judgekit-pack-meaning"' not in home
