"""Drafts (issue #32): a draft folder read on top of the corpus, marked on every page and in the
JSON, checked, refused where it would replace a held file, kept out of packs and caches, and
accepted into the corpus (tests/data/drafts)."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import urllib.request
from pathlib import Path

import pytest

from judgekit import commands, create_app
from judgekit.checks.accept import accept_draft
from judgekit.checks.validate import validate
from judgekit.corpus import drafts
from judgekit.corpus.read import CorpusError, read_corpus
from judgekit.pack.build import BuildError, build, pack_app
from judgekit.web.pages.pack import zip_job

from .conftest import DATA, spawn_serve

HERE = DATA / "drafts"
CORPUS = HERE / "corpus"
V2 = HERE / "v2"
NEW_DOC = HERE / "new-doc"
DRAFT_WORDS = "Draft: not accepted into judgekit"
EXE = Path(sys.executable).with_name("judgekit")


def _app(draft: Path | None = None, **config):
    return create_app(
        {
            "TESTING": True,
            "CORPUS_DIR": str(CORPUS),
            "DRAFT_DIR": str(draft) if draft else "",
            "SEARCH_CACHE_DIR": "",
            "SEARCH_MEANING": "off",
            **config,
        }
    )


@pytest.fixture(scope="module")
def draft_client():
    """A test client on the fixture corpus with the v2 draft on top."""
    return _app(V2).test_client()


@pytest.fixture(scope="module")
def held_client():
    """A test client on the fixture corpus alone."""
    return _app().test_client()


def _copy(src: Path, dest: Path) -> Path:
    shutil.copytree(src, dest)
    return dest


def _files(root: Path) -> dict[str, bytes]:
    """Every file under root with its bytes: what a refusal must leave as it was."""
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


# -- loading --------------------------------------------------------------------------------------


def test_a_draft_adds_its_version_marked_as_a_draft():
    corpus = read_corpus(CORPUS, V2)
    doc = corpus.document("tiny-book")
    assert [(v.id, v.draft) for v in doc.versions] == [("1", False), ("2", True)]
    assert corpus.draft == str(V2)
    assert [v.id for v in corpus.drafts()] == ["2"]
    renamed = corpus.entry("tiny-book", "2", "moving-a-ship")
    assert [(c.ref, c.relation) for c in renamed.continues] == [("1/movement", "renamed")]
    # Its companion is read from the draft folder, beside it.
    assert [c.entry for c in doc.version("2").corrections] == ["battle"]


def test_without_a_draft_the_corpus_holds_no_draft():
    corpus = read_corpus(CORPUS)
    assert [v.id for v in corpus.versions()] == ["1"]
    assert corpus.drafts() == [] and corpus.draft == ""
    assert corpus.digest == corpus.held_digest


def test_a_draft_may_add_a_new_document():
    corpus = read_corpus(CORPUS, NEW_DOC)
    version = corpus.version("tiny-rulings", "r1")
    assert version is not None and version.draft
    assert not corpus.version("tiny-book", "1").draft


# -- refusals -------------------------------------------------------------------------------------


def _refused(root: Path, draft: Path) -> str:
    with pytest.raises(CorpusError) as caught:
        read_corpus(root, draft)
    return "\n".join(caught.value.problems)


def test_a_draft_never_replaces_a_held_version(tmp_path):
    draft = _copy(V2, tmp_path / "draft")
    folder = draft / "rules" / "tiny-book"
    (folder / "1.yaml").write_text((CORPUS / "rules/tiny-book/1.yaml").read_text())
    problems = _refused(CORPUS, draft)
    assert f"{folder / '1.yaml'}:1: {CORPUS / 'rules/tiny-book/1.yaml'} is held already" in problems


def test_a_draft_holds_document_yaml_only_for_a_new_document(tmp_path):
    draft = _copy(V2, tmp_path / "draft")
    shutil.copy(CORPUS / "rules/tiny-book/document.yaml", draft / "rules/tiny-book")
    assert "tiny-book is held already" in _refused(CORPUS, draft)


def test_a_draft_of_a_document_not_held_needs_its_document_yaml(tmp_path):
    draft = _copy(NEW_DOC, tmp_path / "draft")
    (draft / "rulings/tiny-rulings/document.yaml").unlink()
    assert "the corpus holds no rulings/tiny-rulings" in _refused(CORPUS, draft)


def test_a_draft_adds_no_file_beside_a_held_version(tmp_path):
    draft = _copy(V2, tmp_path / "draft")
    shutil.copy(V2 / "rules/tiny-book/2.corrections.yaml", draft / "rules/tiny-book/1.pages.yaml")
    assert "a companion of version '1', which the draft does not hold" in _refused(CORPUS, draft)


def test_an_empty_or_missing_draft_is_refused(tmp_path):
    (tmp_path / "empty" / "rules").mkdir(parents=True)
    (tmp_path / "empty" / "import-report.md").write_text("# nothing placed\n")
    assert "the draft holds no version" in _refused(CORPUS, tmp_path / "empty")
    assert "no such folder" in _refused(CORPUS, tmp_path / "missing")


def test_a_draft_holds_only_corpus_files(tmp_path):
    draft = _copy(V2, tmp_path / "draft")
    (draft / "rules/tiny-book/notes.txt").write_text("not YAML")
    assert "notes.txt:0: not a corpus file" in _refused(CORPUS, draft)


# -- check ----------------------------------------------------------------------------------------


def _broken_draft(tmp_path: Path) -> Path:
    """The v2 draft whose renamed entry continues an entry version 1 does not hold."""
    draft = _copy(V2, tmp_path / "broken")
    path = draft / "rules/tiny-book/2.yaml"
    path.write_text(path.read_text().replace('"1/movement"', '"1/no-such-entry"'))
    return draft


def test_check_with_a_draft_passes_on_a_good_one(capsys):
    assert commands.main(["--root", str(CORPUS), "check", "--draft", str(V2)]) == 0
    out = capsys.readouterr().out
    assert "ok: 2 versions, 6 entries, 1 recorded corrections" in out
    assert "draft: tiny-book 2 (3 entries)" in out


def test_check_with_a_draft_names_the_drafts_file_and_line(tmp_path, capsys):
    draft = _broken_draft(tmp_path)
    assert commands.main(["--root", str(CORPUS), "check", "--draft", str(draft)]) == 1
    out = capsys.readouterr().out
    path = draft / "rules/tiny-book/2.yaml"
    line = path.read_text().splitlines().index("  - id: moving-a-ship") + 1
    assert f"{path}:{line}: " in out and "no-such-entry" in out


def test_check_runs_the_content_checks_on_the_draft(tmp_path):
    draft = _misquoting_draft(tmp_path)
    path = draft / "rules/tiny-book/2.corrections.yaml"
    _, problems = validate(CORPUS, draft=draft)
    assert any(p.startswith(f"{path}:") and "'Ships may fight.' is not in" in p for p in problems)


# -- pages and JSON -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/", "/rules/tiny-book/1/setup", "/search?q=ship", "/timing", "/cards"],
)
def test_every_page_says_a_draft_is_loaded(draft_client, held_client, path):
    page = draft_client.get(path)
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert f"<strong>{DRAFT_WORDS}.</strong>" in text and "data-draft-banner" in text
    assert str(V2) in text
    assert "data-draft-banner" not in held_client.get(path).get_data(as_text=True)


def test_the_drafts_pages_mark_it_and_escape_its_words(draft_client):
    for path in ("/rules/tiny-book/2/", "/rules/tiny-book/2/battle"):
        text = draft_client.get(path).get_data(as_text=True)
        assert f'class="badge badge-draft" title="{DRAFT_WORDS}.' in text
        assert "<b>&amp; more</b>" not in text
        assert "v2 (April 2015) (draft)" in text  # the version named, in its breadcrumb
    version_page = draft_client.get("/rules/tiny-book/2/").get_data(as_text=True)
    assert "<h1>Tiny Book, Version 2 &lt;b&gt;&amp;amp; more&lt;/b&gt;</h1>" in version_page


def test_the_json_says_which_version_is_a_draft(draft_client, held_client):
    v2 = draft_client.get("/api/documents/tiny-book/2")
    data = v2.get_json()
    assert data["draft"] is True and data["status"] == DRAFT_WORDS
    assert data["draft_note"].startswith(f"{DRAFT_WORDS}. v2 is read from the draft folder")
    assert data["title"] == "Tiny Book, Version 2 <b>&amp; more</b>"
    assert b"<b>" not in v2.data  # JSON writes < and > as \u escapes
    assert draft_client.get("/api/entries/tiny-book/2/battle").get_json()["draft"] is True
    v1 = draft_client.get("/api/documents/tiny-book/1").get_json()
    assert v1["draft"] is False and v1["draft_note"] is None
    assert v1["status"].endswith(f", a draft ({DRAFT_WORDS.lower()})")
    assert held_client.get("/api/documents/tiny-book/1").get_json()["draft"] is False
    assert held_client.get("/api/documents/tiny-book/2").status_code == 404


def test_the_comparison_and_history_against_the_held_version(draft_client):
    page = draft_client.get("/diff/tiny-book/1..2").get_data(as_text=True)
    assert "Moving a Ship" in page and "Battle" in page
    assert page.count(f'class="badge badge-draft" title="{DRAFT_WORDS}.') == 1  # only v2's side
    data = draft_client.get("/api/diff/tiny-book/1/2").get_json()
    assert (data["from_version"]["draft"], data["to_version"]["draft"]) == (False, True)
    history = draft_client.get("/api/history/tiny-book/moving-a-ship").get_json()
    # The renamed rule's line runs back into version 1's "Movement", through its continues.
    assert history["merged_in"] == [{"id": "movement", "title": "Movement"}]
    steps = [(v["version"], v["id"], v["draft"]) for v in history["versions"]]
    assert steps == [("1", None, False), ("2", "moving-a-ship", True)]
    moved = [c for c in data["changes"] if c["status"] == "moved"]
    assert [c["relation"] for c in moved] == ["renamed to"]
    assert "badge-draft" in draft_client.get("/history/tiny-book/moving-a-ship").get_data(
        as_text=True
    )


def test_search_finds_the_draft_and_says_so(draft_client, held_client):
    results = draft_client.get("/api/search?q=battle").get_json()["results"]
    found = [r for r in results if r["document"] == "tiny-book" and r["id"] == "battle"]
    assert found and found[0]["version"] == "2" and found[0]["draft"] is True
    assert found[0]["status"] == DRAFT_WORDS
    held = held_client.get("/api/search?q=battle").get_json()["results"]
    assert all(r["version"] != "2" for r in held)


# -- caches ---------------------------------------------------------------------------------------


def test_caches_never_mix_a_draft_and_the_held_corpus(tmp_path):
    cache = tmp_path / "search"
    with_draft = _app(V2, SEARCH_CACHE_DIR=str(cache))
    held = _app(SEARCH_CACHE_DIR=str(cache))  # the same cache folder, after the draft's
    lib_draft = with_draft.extensions["judgekit"]["library"]
    lib_held = held.extensions["judgekit"]["library"]
    assert lib_draft.corpus.digest != lib_held.corpus.digest
    assert lib_draft.corpus.held_digest == lib_held.corpus.digest
    # The index on disk is the held corpus's, not the draft's kept under the same key.
    found = held.test_client().get("/api/search?q=battle").get_json()["results"]
    assert all(r["version"] != "2" for r in found)
    assert len([p for p in cache.iterdir() if p.is_dir()]) == 2  # an index for each
    # Pages kept in memory are tagged by the corpus read: a draft's never answers for the held.
    tags = [
        app.test_client().get("/rules/tiny-book/1/").headers["ETag"].split("-")[0]
        for app in (with_draft, held)
    ]
    assert tags[0] != tags[1]
    # The pack's zip is built from the held corpus alone (its child process reads no draft and
    # refuses a corpus whose digest is not the one it was given): keyed by the held digest.
    assert zip_job(with_draft).digest == zip_job(held).digest == lib_held.corpus.digest


# -- the judge pack -------------------------------------------------------------------------------


def test_a_pack_is_never_built_with_a_draft(tmp_path, monkeypatch):
    app = _app(V2, PAGE_CACHE_BYTES=0, PACK=True)
    with pytest.raises(BuildError, match="a draft is loaded"):
        build(app, tmp_path / "pack")
    assert not (tmp_path / "pack").exists()
    # A draft named in the environment is not read by the pack's app.
    monkeypatch.setenv("JUDGEKIT_DRAFT_DIR", str(V2))
    assert pack_app(str(CORPUS)).extensions["judgekit"]["library"].corpus.draft == ""


# -- accepting ------------------------------------------------------------------------------------


def test_accepting_copies_the_draft_into_the_corpus(tmp_path):
    root = _copy(CORPUS, tmp_path / "corpus")
    written = accept_draft(V2, root)
    folder = root / "rules/tiny-book"
    assert sorted(written) == [folder / "2.corrections.yaml", folder / "2.yaml"]
    for path in written:
        assert path.read_bytes() == (V2 / path.relative_to(root)).read_bytes()
    assert not list(root.rglob("import-report.*")) and not list(root.rglob("decisions.yaml"))
    assert not list(root.rglob("*.part"))
    corpus, problems = validate(root)
    assert problems == []
    assert [(v.id, v.draft) for v in corpus.versions()] == [("1", False), ("2", False)]


def test_accepting_a_new_document(tmp_path):
    root = _copy(CORPUS, tmp_path / "corpus")
    written = accept_draft(NEW_DOC, root)
    assert {p.name for p in written} == {"document.yaml", "r1.yaml"}
    assert validate(root)[1] == []


def _misquoting_draft(tmp_path: Path) -> Path:
    """The v2 draft whose correction names words its entry does not hold: it reads, but a
    content check of `judgekit check` fails."""
    draft = _copy(V2, tmp_path / "misquoting")
    path = draft / "rules/tiny-book/2.corrections.yaml"
    path.write_text(path.read_text().replace("Ships may battle.", "Ships may fight."))
    return draft


@pytest.mark.parametrize("kind", ["broken", "misquoting", "held", "empty"])
def test_a_refused_draft_writes_nothing(tmp_path, kind):
    root = _copy(CORPUS, tmp_path / "corpus")
    if kind == "broken":
        draft = _broken_draft(tmp_path)
    elif kind == "misquoting":
        draft = _misquoting_draft(tmp_path)
    elif kind == "held":
        accept_draft(V2, root)  # the same version accepted already
        draft = V2
    else:
        draft = tmp_path / "empty"
        (draft / "rules").mkdir(parents=True)
    before = _files(root)
    with pytest.raises(CorpusError) as caught:
        accept_draft(draft, root)
    assert caught.value.problems
    assert _files(root) == before


def test_a_failure_midway_leaves_the_corpus_as_it_was(tmp_path, monkeypatch):
    root = _copy(CORPUS, tmp_path / "corpus")
    before = _files(root)
    real_link = os.link
    calls = []

    def link_then_fail(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real_link(src, dst)

    monkeypatch.setattr(drafts.os, "link", link_then_fail)
    with pytest.raises(CorpusError, match="nothing was accepted"):
        accept_draft(V2, root)
    assert len(calls) == 2  # the first file was in place when the second failed
    assert _files(root) == before


# -- `judgekit serve --draft` as a real process ---------------------------------------------------


def test_serve_with_a_draft_previews_it(tmp_path):
    proc, port, _ = spawn_serve(
        [str(EXE), "--root", str(CORPUS), "serve", "--workers", "1", "--draft", str(V2)],
        env={
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "JUDGEKIT_PACK_CACHE_DIR": str(tmp_path / "pack"),
        },
    )
    try:
        said = [proc.stdout.readline().decode() for _ in range(2)]
        assert any(line.startswith("previewing the draft tiny-book 2 from ") for line in said)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/rules/tiny-book/2/", timeout=30) as r:
            page = r.read().decode()
        assert DRAFT_WORDS in page and "badge-draft" in page
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)
