"""The word diff and the version comparison, on strings and the tiny corpus in tests/data/diff."""

from __future__ import annotations

import random

import pytest

from judgekit.checks.loader import load_corpus
from judgekit.compare.diff import compare, history, marked_new, split_pair
from judgekit.compare.worddiff import (
    diff_html,
    has_changes,
    inline_html,
    side_html,
    tokenize,
    word_diff,
)
from judgekit.corpus.typography import normalize_typography
from judgekit.render.library import Library

from .conftest import DATA

DIFF = DATA / "diff"


@pytest.fixture(scope="module")
def dlib() -> Library:
    """A Library over the diff fixture corpus."""
    return Library(load_corpus(DIFF))


def changes_by_id(lib: Library, old: str, new: str) -> dict[tuple, object]:
    doc = lib.corpus.document("demo-book")
    result = compare(lib, doc.version(old), doc.version(new))
    return {(c.old.id if c.old else None, c.new.id if c.new else None): c for c in result.changes}


# -- word diff ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "old, new, casefold",
    [
        ('Don\'t say "never".', "Don’t say “never”.", False),  # curly against straight quotes
        ("a - b", "a – b", False),  # dash styles
        ("a—b", "a - b", False),
        ("Range  is\n\nused", "Range is used", False),  # spacing
        ("Star Trek™ CCG®", "Star Trek CCG", False),  # trademark marks
        ("Star Trek [™] (TM)", "Star Trek", False),
        ("- first\n- second", "• first\n• second", False),  # list bullets
        ("1. first\n2. second", "first\nsecond", False),
        ("Order – Beam Personnel", "ORDER - BEAM PERSONNEL", True),  # case in headings
        ("wait…", "wait...", False),
    ],
)
def test_typography_is_not_a_change(old, new, casefold):
    assert normalize_typography(old, casefold) == normalize_typography(new, casefold)
    assert not has_changes(word_diff(old, new, casefold=casefold))
    shown = word_diff(old, new, typography=True, casefold=casefold)
    assert all(s.typo for s in shown if s.op != "equal")


def test_case_in_text_is_a_change():
    segments = word_diff("Beam personnel", "beam personnel")
    assert [s.op for s in segments] == ["delete", "insert", "equal"]


def test_word_diff_marks_words():
    segments = word_diff("You may draw a card.", "You must draw a card.")
    assert [(s.op, s.old, s.new) for s in segments] == [
        ("equal", "You", "You"),
        ("delete", " may", ""),
        ("insert", "", " must"),
        ("equal", " draw a card.", " draw a card."),
    ]
    assert inline_html(segments) == "You <del>may</del> <ins>must</ins> draw a card."
    assert side_html(segments) == (
        "You <del>may</del> draw a card.",
        "You <ins>must</ins> draw a card.",
    )


def test_typography_shown_is_flagged():
    html = diff_html("it's a card - yes", "it’s a card — yes", typography=True)
    assert html["inline"] == (
        '<del class="typo" title="typography only">it&#x27;s</del> '
        '<ins class="typo" title="typography only">it’s</ins> a card '
        '<del class="typo" title="typography only">-</del> '
        '<ins class="typo" title="typography only">—</ins> yes'
    )
    # Hidden, the words read as the new version prints them.
    assert diff_html("it's a card - yes", "it’s a card — yes")["inline"] == "it’s a card — yes"


def test_word_diff_escapes_everything():
    html = diff_html('<b class="x">&amp;</b>', "<script>alert('x')</script> & more")
    for part in html.values():
        assert "<script" not in part and "<b " not in part
    assert html["inline"] == (
        "<del>&lt;b class=&quot;x&quot;&gt;&amp;amp;&lt;/b&gt;</del> "
        "<ins>&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; more</ins>"
    )


def test_paragraph_breaks_are_kept():
    html = diff_html("One.\n\nTwo.", "One.\n\nTwo and three.")
    assert html["inline"] == "One.\n\n<del>Two.</del> <ins>Two and three.</ins>"


def test_keys_are_the_normalized_text():
    """The tokens' keys joined are exactly normalize_typography: diffs and entry pages agree."""
    pieces = ["a", "Trek", " ", "  ", "\n", "\n\n", "-", "–", "—", "•", "*", "1.", "2)", "™"]
    pieces += ["®", "(TM)", "[™]", "“", "”", "’", "'", '"', "…", "\u00ad", "\u00a0", ".", "x-y"]
    rnd = random.Random(7)
    for _ in range(4000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 10)))
        for casefold in (False, True):
            keys = " ".join(t.key for t in tokenize(text, casefold) if t.key)
            assert keys == normalize_typography(text, casefold), repr(text)


# -- pairing -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pair, known, expected",
    [
        ("1.1..4", ["1.1", "call-to-arms", "4"], ("1.1", "4")),
        ("call-to-arms..4", ["1.1", "call-to-arms", "4"], ("call-to-arms", "4")),
        ("4..1.1", ["1.1", "4"], ("4", "1.1")),
        ("1.0..1.1", ["1.0", "1.1"], ("1.0", "1.1")),
        ("1..2..3", ["1..2", "3"], ("1..2", "3")),  # the split into known ids wins
        ("1.1...4", ["1.1", "4"], ("1.1", ".4")),  # none known: the first split, to report
        ("1.1", ["1.1"], None),
        ("", [], None),
    ],
)
def test_split_pair(pair, known, expected):
    assert split_pair(pair, known) == expected


def test_each_status(dlib):
    changes = changes_by_id(dlib, "1.0", "1.1")
    flags = {
        key: (c.status, c.moved, c.renamed, c.text_changed, c.typography_only, c.relation)
        for key, c in changes.items()
    }
    assert flags == {
        (None, "added-one"): ("added", False, False, False, False, None),
        ("typo", "typo"): ("changed", False, False, False, True, None),
        ("wording", "wording"): ("changed", False, False, True, False, None),
        ("renamed", "renamed"): ("renamed", False, True, False, False, None),
        ("renamed-changed", "renamed-changed"): ("renamed", False, True, True, False, None),
        ("removed-one", None): ("removed", False, False, False, False, None),
        ("mover", "mover"): ("moved", True, False, False, False, None),
        ("gl-moving-a-ship", "moving-a-ship"): ("moved", True, True, True, False, "merged into"),
        ("range", "range"): ("changed", False, False, True, False, None),
        ("gl-range", "range"): ("moved", True, False, True, False, "merged into"),
        ("glossary", "glossary"): ("changed", False, False, True, False, None),
        # 2's wording continues 1.1's gl-draw: that lineage does not reach back to 1.0.
        (None, "gl-draw"): ("added", False, False, False, False, None),
    }


def test_summary_and_order(dlib):
    doc = dlib.corpus.document("demo-book")
    result = compare(dlib, doc.version("1.0"), doc.version("1.1"))
    assert result.summary() == {
        "changed": 3,
        "added": 2,
        "removed": 1,
        "renamed": 2,
        "moved": 3,
        "text_changed": 6,
        "typography_only": 1,
        "unchanged": 4,  # intro (Markdown only), same, typo (typography only), orders
        "total": 11,
    }
    # Reading order of 1.1; the removed entry after the entry before it in 1.0.
    assert [c.id for c in result.listed()] == [
        "added-one",
        "wording",
        "renamed",
        "renamed-changed",
        "removed-one",
        "mover",
        "moving-a-ship",
        "range",
        "range",
        "glossary",
        "gl-draw",
    ]
    assert [c.id for c in result.listed(typography=True)][:2] == ["added-one", "typo"]


def test_backward_mirrors_forward(dlib):
    forward = changes_by_id(dlib, "1.0", "1.1")
    backward = changes_by_id(dlib, "1.1", "1.0")
    swap = {"added": "removed", "removed": "added"}
    assert {(b, a): swap.get(c.status, c.status) for (a, b), c in forward.items()} == {
        key: c.status for key, c in backward.items()
    }
    assert backward[("moving-a-ship", "gl-moving-a-ship")].relation == "merged from"
    doc = dlib.corpus.document("demo-book")
    assert compare(dlib, doc.version("1.1"), doc.version("1.0")).direction == "backward"


def test_markdown_is_not_a_change(dlib):
    # *game* against **game**: the plain text is the same.
    assert ("intro", "intro") not in changes_by_id(dlib, "1.0", "1.1")


def test_same_version_has_no_changes(dlib):
    version = dlib.corpus.version("demo-book", "1.1")
    result = compare(dlib, version, version)
    assert result.changes == () and result.unchanged == len(version.entries) == 13
    assert result.direction == "same" and result.summary()["total"] == 0


def test_heading_case_only_is_typography(dlib):
    changes = changes_by_id(dlib, "1.1", "2")
    glossary = changes[("glossary", "glossary")]
    assert (glossary.status, glossary.renamed, glossary.typography_only) == ("changed", False, True)
    listed = compare(dlib, *_versions(dlib, "1.1", "2")).listed()
    assert [(c.old.id if c.old else None, c.new.id if c.new else None) for c in listed] == [
        ("added-one", None),
        ("wording", "wording"),
        ("gl-draw", "wording"),
    ]


def test_lineage_spans_versions_between(dlib):
    """A link declared between 1.0 and 1.1 holds from 1.0 to 2, where both ids live on."""
    changes = changes_by_id(dlib, "1.0", "2")
    merged = changes[("gl-moving-a-ship", "moving-a-ship")]
    assert (merged.status, merged.relation) == ("moved", "merged into")
    assert changes_by_id(dlib, "2", "1.0")[("moving-a-ship", "gl-moving-a-ship")].relation == (
        "merged from"
    )
    # gl-draw lives only in 1.1, so neither 1.0 nor 2 has it.
    assert not [key for key in changes if "gl-draw" in key]
    assert changes_by_id(dlib, "1.1", "2")[("gl-draw", "wording")].relation == "merged into"


def _versions(lib, *ids):
    doc = lib.corpus.document("demo-book")
    return [doc.version(i) for i in ids]


def test_text_changed_agrees_with_entry_pages(dlib):
    """'changed' in other_versions exactly when the diff says the wording changed."""
    for old, new in [("1.0", "1.1"), ("1.1", "2"), ("1.0", "2")]:
        changes = changes_by_id(dlib, old, new)
        for entry in dlib.corpus.version("demo-book", old).walk():
            other = {o.version: o for o in dlib.other_versions(entry)}[new]
            if other.status not in ("same", "changed"):
                continue
            change = changes.get((entry.id, entry.id))
            assert (other.status == "changed") == bool(change and change.text_changed), entry.id


# -- history -------------------------------------------------------------------------------------


def steps_of(lib, entry_id):
    return [
        (s.version.id, s.status, s.entry.id if s.entry else None)
        for s in history(lib, "demo-book", entry_id)
    ]


@pytest.mark.parametrize(
    "entry_id, expected",
    [
        (
            "wording",
            [
                ("1.0", "added", "wording"),
                ("1.1", "changed", "wording"),
                ("2", "changed", "wording"),
            ],
        ),
        (
            "added-one",
            [("1.0", "absent", None), ("1.1", "added", "added-one"), ("2", "removed", None)],
        ),
        (
            "removed-one",
            [("1.0", "added", "removed-one"), ("1.1", "removed", None), ("2", "absent", None)],
        ),
        (
            "typo",
            [("1.0", "added", "typo"), ("1.1", "unchanged", "typo"), ("2", "unchanged", "typo")],
        ),
        # Followed through its merge into the main text.
        (
            "gl-moving-a-ship",
            [
                ("1.0", "added", "gl-moving-a-ship"),
                ("1.1", "moved", "moving-a-ship"),
                ("2", "unchanged", "moving-a-ship"),
            ],
        ),
        (
            "moving-a-ship",
            [
                ("1.0", "absent", None),
                ("1.1", "moved", "moving-a-ship"),
                ("2", "unchanged", "moving-a-ship"),
            ],
        ),
        (
            "gl-draw",
            [("1.0", "absent", None), ("1.1", "added", "gl-draw"), ("2", "moved", "wording")],
        ),
        (
            "mover",
            [("1.0", "added", "mover"), ("1.1", "moved", "mover"), ("2", "unchanged", "mover")],
        ),
    ],
)
def test_history(dlib, entry_id, expected):
    assert steps_of(dlib, entry_id) == expected


def test_history_of_unknown_entry(dlib):
    assert history(dlib, "demo-book", "no-such-entry") is None


def test_marked_new(dlib):
    version = dlib.corpus.version("demo-rulings", "r1")
    assert [e.id for e in marked_new(version)] == ["ferengi-ingenuity", "zz-top"]
