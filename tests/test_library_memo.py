"""The Library's caches: each is owned by the one module that declares its Memo."""

from __future__ import annotations

import importlib

import pytest

from judgekit.corpus.read import read_corpus
from judgekit.render.library import Library, Memo

from .conftest import MINI
from .test_architecture import MODULES, package_of


def _memos_by_module() -> dict[str, list[Memo]]:
    found = {}
    for name in MODULES:
        if name.endswith("__main__"):  # running it is what importing it does
            continue
        module = importlib.import_module(name)
        found[name] = [value for value in vars(module).values() if isinstance(value, Memo)]
    return found


def test_every_cache_is_declared_and_used_by_its_owner_only():
    found = _memos_by_module()
    # A Memo seen in another module's names was imported there: that module could write it.
    strangers = {
        f"{m.owner}:{m.name} in {name}" for name, ms in found.items() for m in ms if m.owner != name
    }
    assert strangers == set()
    memos = [m for ms in found.values() for m in ms]
    assert len(memos) == len(set(memos)) >= 16
    # The layers that cache: the pages' JSON, rendering, comparing; not the corpus or search.
    assert {package_of(m.owner) for m in memos} == {
        "judgekit.shapes",
        "judgekit.render",
        "judgekit.compare",
    }


def test_a_cache_is_named_by_its_memo_not_a_bare_name():
    lib = Library(read_corpus(MINI))
    mine, theirs = Memo("judgekit.a", "same name"), Memo("judgekit.b", "same name")
    lib.memo(mine)["key"] = 1
    assert lib.memo(mine) == {"key": 1} and lib.memo(theirs) == {}
    assert lib.memo(Memo("judgekit.a", "same name")) is lib.memo(mine)
    with pytest.raises(TypeError, match="named by a Memo"):
        lib.memo("same name")
