"""Comparing versions: which entry a removed rule is paired with, and which recorded lineage
holds between two versions (the guards fixture corpus, tests/data/guards)."""

from __future__ import annotations

import pytest

from judgekit.checks.loader import load_corpus
from judgekit.compare.diff import change_of, compare, history
from judgekit.render.library import Library

from .conftest import DATA

BOOK = "line-book"


@pytest.fixture(scope="module")
def glib() -> Library:
    """A Library over the guards fixture corpus."""
    return Library(load_corpus(DATA / "guards"))


def _compare(lib: Library, old: str, new: str):
    doc = lib.corpus.document(BOOK)
    return compare(lib, doc.version(old), doc.version(new))


def _pairs(comparison) -> set[tuple[str | None, str | None, str]]:
    return {(c.old and c.old.id, c.new and c.new.id, c.status) for c in comparison.changes}


def test_a_removed_rule_pairs_with_where_it_moved_not_with_a_rule_it_merged_into(glib):
    # "gone" continues both as "keeper" (which has its own pair) and as "mover" (new in 2).
    comparison = _compare(glib, "1", "2")
    assert change_of(comparison, "gone").new.id == "mover"
    assert (None, "mover", "added") not in _pairs(comparison)


def test_a_split_rule_keeps_its_own_line(glib):
    # "offshoot" split off "splitter" and comes before it in version 2.
    comparison = _compare(glib, "1", "2")
    assert change_of(comparison, "splitter").new.id == "splitter"
    steps = history(glib, BOOK, "splitter")
    assert [s.entry.id for s in steps] == ["splitter", "splitter", "splitter"]


def test_lineage_holds_only_between_versions_around_it(glib):
    # Version 3 records that "heir" took in version 1's "retired": not a merge from 1 to 2,
    # though version 2 already has an "heir".
    assert ("retired", None, "removed") in _pairs(_compare(glib, "1", "2"))
    assert (None, "heir", "added") in _pairs(_compare(glib, "1", "2"))
    assert change_of(_compare(glib, "1", "3"), "retired").new.id == "heir"
    # Going back in time the same holds.
    assert (None, "retired", "added") in _pairs(_compare(glib, "2", "1"))


def test_lineage_points_only_at_older_versions(glib):
    # "odd" records lineage to its own version and to a newer one: neither is lineage.
    odd = glib.corpus.entry(BOOK, "2", "odd")
    assert glib.related(odd) == []
    keeper = glib.corpus.entry(BOOK, "2", "keeper")
    assert [(t.version, t.id, how) for t, how in glib.related(keeper)] == [
        ("1", "gone", "merged from")
    ]
    intro = glib.corpus.entry(BOOK, "2", "intro")
    assert glib.related(intro) == []
