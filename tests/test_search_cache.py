"""The on-disk index cache: reuse, rebuild when the YAML changes, never serve a bad cache."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import threading
from pathlib import Path

import pytest

from judgekit.checks.loader import load_corpus
from judgekit.render.library import Library
from judgekit.search.cache import META, cache_key, load_or_build
from judgekit.search.service import SearchService

from .conftest import DATA

SEARCH = DATA / "search"


def open_index(root: Path, cache: Path | None):
    """What the app does at start-up: key the cache by the corpus digest, load or build."""
    service = SearchService.for_library(Library(load_corpus(root)), cache)
    service.index  # noqa: B018
    return service


def first_ids(service, query="dilemma"):
    return [r["id"] for r in service.search({"q": query})["results"]]


@pytest.fixture()
def corpus_copy(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(SEARCH, root)
    return root


def entries(cache: Path) -> list[Path]:
    return sorted(p for p in cache.iterdir() if p.is_dir() and not p.name.startswith("."))


def test_built_once_then_opened_from_the_cache(corpus_copy, tmp_path):
    cache = tmp_path / "cache"
    built = open_index(corpus_copy, cache)
    assert built.how == "built"
    again = open_index(corpus_copy, cache)
    assert again.how == "cache"
    assert (
        first_ids(again)
        == first_ids(built)
        == [
            "gl-dilemma",
            "dilemmas",
            "facing-dilemmas",
            "dilemmas-timing",
            "gl-attempting-missions",
            "gl-stopped",
        ]
    )
    assert again.index.speller.correct("dilema") == ["dilemma"]  # the vocabulary is cached too
    assert len(entries(cache)) == 1
    assert not list(cache.glob(".*.tmp-*"))


def test_changed_yaml_gets_a_new_index(corpus_copy, tmp_path):
    cache = tmp_path / "cache"
    open_index(corpus_copy, cache)
    path = corpus_copy / "rules" / "book" / "2.yaml"
    path.write_text(path.read_text().replace("A card your opponent", "A quadrotriticale card"))
    changed = open_index(corpus_copy, cache)
    assert changed.how == "built"
    assert first_ids(changed, "quadrotriticale") == ["gl-dilemma"]
    assert len(entries(cache)) == 2  # the old one stays for a while (another process may use it)


@pytest.mark.parametrize(
    "damage",
    [
        "truncate a segment file",
        "garble the metadata",
        "claim another key",
        "claim another count",
        "delete the table of contents",
    ],
)
def test_a_corrupt_or_stale_cache_is_rebuilt_not_served(corpus_copy, tmp_path, damage):
    cache = tmp_path / "cache"
    open_index(corpus_copy, cache)
    (entry,) = entries(cache)
    meta = json.loads((entry / META).read_text())
    if damage == "truncate a segment file":
        segment = max(
            (p for p in entry.iterdir() if p.suffix == ".seg"), key=lambda p: p.stat().st_size
        )
        segment.write_bytes(segment.read_bytes()[:100])
    elif damage == "garble the metadata":
        (entry / META).write_text("{not json")
    elif damage == "claim another key":
        (entry / META).write_text(json.dumps({**meta, "key": "0" * 32}))
    elif damage == "claim another count":
        (entry / META).write_text(json.dumps({**meta, "doc_count": 3}))
    else:
        for toc in entry.glob("*.toc"):
            toc.unlink()
    rebuilt = open_index(corpus_copy, cache)
    assert rebuilt.how == "built"
    assert first_ids(rebuilt)[0] == "gl-dilemma"
    assert open_index(corpus_copy, cache).how == "cache"  # and the rebuilt one is good


def test_an_unwritable_cache_folder_falls_back_to_memory(corpus_copy, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    service = open_index(corpus_copy, blocker / "cache")
    assert service.how == "memory"
    assert first_ids(service)[0] == "gl-dilemma"


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes anywhere")
def test_a_read_only_install_uses_its_cache_or_memory(corpus_copy, tmp_path):
    cache = tmp_path / "cache"
    open_index(corpus_copy, cache)
    for path in [cache, *cache.rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        assert open_index(corpus_copy, cache).how == "cache"
        path = corpus_copy / "rules" / "book" / "2.yaml"
        path.write_text(path.read_text() + "\n")
        assert open_index(corpus_copy, cache).how == "memory"
    finally:
        for path in [cache, *cache.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)


def test_no_cache_folder_means_memory(corpus_copy):
    assert open_index(corpus_copy, None).how == "memory"


def test_the_key_covers_the_corpus_and_the_extra_sources():
    assert cache_key("a") != cache_key("b")
    assert cache_key("a") != cache_key("a", "step")
    assert len(cache_key("a")) == 32


def _open_in_process(args):
    root, cache = args
    return open_index(Path(root), Path(cache)).how


def test_processes_starting_together_build_once(corpus_copy, tmp_path):
    cache = tmp_path / "cache"
    with multiprocessing.get_context("fork").Pool(4) as pool:
        hows = pool.map(_open_in_process, [(str(corpus_copy), str(cache))] * 4)
    assert sorted(hows) == ["built", "cache", "cache", "cache"]
    assert len(entries(cache)) == 1
    assert not list(cache.glob(".*.tmp-*"))


def test_load_or_build_without_a_folder_builds_in_memory():
    from judgekit.search.sources import entry_docs

    lib = Library(load_corpus(SEARCH))
    index, how = load_or_build(None, "k", 16, lambda: entry_docs(lib))
    assert how == "memory" and index.doc_count() == 16


def test_a_running_index_survives_its_cache_folder_being_removed(corpus_copy, tmp_path):
    cache = tmp_path / "cache"
    open_index(corpus_copy, cache)
    service = open_index(corpus_copy, cache)
    assert service.how == "cache"
    shutil.rmtree(cache)  # pruned by another process, or a rebuild elsewhere
    answers = []
    thread = threading.Thread(target=lambda: answers.append(first_ids(service)))
    thread.start()
    thread.join()
    assert answers and answers[0][0] == "gl-dilemma"


def test_a_cache_that_cannot_be_written_serves_from_memory(corpus_copy, tmp_path, monkeypatch):
    """What a read-only install sees even when the tests run as root."""
    cache = tmp_path / "cache"
    open_index(corpus_copy, cache)

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("judgekit.search.cache.tempfile.mkdtemp", refuse)
    assert open_index(corpus_copy, cache).how == "cache"  # reading needs no writing
    path = corpus_copy / "rules" / "book" / "2.yaml"
    path.write_text(path.read_text() + "\n")  # a new corpus: its entry cannot be written
    service = open_index(corpus_copy, cache)
    assert service.how == "memory"
    assert first_ids(service)[0] == "gl-dilemma"


def _key_of(root: Path, scratch: Path) -> str:
    """The cache entry name the app uses for this corpus: build once in a scratch folder."""
    open_index(root, scratch)
    (entry,) = entries(scratch)
    return entry.name


@pytest.mark.parametrize("stray", ["file", "link to a file", "empty folder", "folder with files"])
def test_a_lock_that_is_not_a_file_is_repaired_and_reported(corpus_copy, tmp_path, caplog, stray):
    cache = tmp_path / "cache"
    cache.mkdir()
    lock = cache / ".build.lock"
    found = "a folder"
    if stray == "empty folder":
        lock.mkdir()
    elif stray == "folder with files":
        (lock / "inside").mkdir(parents=True)
        (lock / "inside" / "x").write_text("x")
    else:
        target = tmp_path / "elsewhere"
        target.write_text("not ours")
        if stray == "file":
            lock.write_text("a lock file left by another build")
            found = None  # an ordinary lock file: nothing to repair
        else:
            lock.symlink_to(target)
            found = "a link"
    with caplog.at_level("WARNING", logger="judgekit.search.cache"):
        service = open_index(corpus_copy, cache)
    assert service.how == "built"
    assert first_ids(service)[0] == "gl-dilemma"
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    if found is None:
        assert warnings == []
    else:
        assert warnings == [f"search index cache: {lock} was {found}, not a lock file; removed it"]
    assert lock.is_file() and not lock.is_symlink()
    assert open_index(corpus_copy, cache).how == "cache"


@pytest.mark.parametrize("stray", ["file", "link"])
def test_a_file_where_the_entry_folder_should_be_is_repaired_and_reported(
    corpus_copy, tmp_path, caplog, stray
):
    cache = tmp_path / "cache"
    cache.mkdir()
    entry = cache / _key_of(corpus_copy, tmp_path / "scratch")
    (tmp_path / "elsewhere").write_text("not an index")
    if stray == "file":
        entry.write_text("not an index")
    else:
        entry.symlink_to(tmp_path / "elsewhere")
    with caplog.at_level("WARNING", logger="judgekit.search.cache"):
        service = open_index(corpus_copy, cache)
    assert service.how == "built"
    assert first_ids(service)[0] == "gl-dilemma"
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    found = "a file" if stray == "file" else "a link"
    assert warnings == [f"search index cache: {entry} was {found}, not a cache folder; removed it"]
    assert entry.is_dir() and not entry.is_symlink()
    assert (tmp_path / "elsewhere").read_text() == "not an index"  # a link's target is left alone
    assert open_index(corpus_copy, cache).how == "cache"


def test_warm_up_does_the_first_queries_work_ahead_and_changes_no_answer(corpus_copy):
    cold = open_index(corpus_copy, None)
    queries = ["dilemma", "beam personnel", "opponent", "d"]
    before = [cold.search({"q": q}) for q in queries]
    warmed = open_index(corpus_copy, None)
    count = warmed.warm()
    index = warmed.index
    assert count == index.doc_count() == len(index.meta)
    # Every term's scores are read: a query now never asks Whoosh.
    reader = index.searcher().reader()
    assert sum(len(list(reader.lexicon(f))) for f in ("title", "text")) == len(index.scores._scores)
    index.searcher = None  # any further read of Whoosh would fail
    index.scores._searcher = None
    assert [warmed.search({"q": q}) for q in queries] == before


def test_a_lock_held_by_a_stuck_process_is_reported_and_not_waited_on_forever(
    corpus_copy, tmp_path, caplog, monkeypatch
):
    fcntl = pytest.importorskip("fcntl")
    monkeypatch.setattr("judgekit.search.cache.LOCK_WAIT", 1)
    cache = tmp_path / "cache"
    cache.mkdir()
    lock = cache / ".build.lock"
    with open(lock, "a+b") as held:  # another open file: flock excludes it as another process
        fcntl.flock(held, fcntl.LOCK_EX)
        with caplog.at_level("WARNING", logger="judgekit.search.cache"):
            service = open_index(corpus_copy, cache)
    assert service.how == "memory"
    assert first_ids(service)[0] == "gl-dilemma"
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warnings[0] == (
        f"search index cache: {lock} is held by another process building the index; "
        "waiting up to 1 s"
    )
    assert "still held after 1 s" in warnings[1] and "indexing in memory" in warnings[1]
