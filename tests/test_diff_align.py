"""Sentence alignment on the fixture corpus in tests/data/diff/align, and sentence splitting."""

from __future__ import annotations

import random

import pytest

from judgekit.checks.loader import load_corpus
from judgekit.compare.align import _Matcher, alignment, change_rows
from judgekit.compare.diff import anchor, compare, history, primary
from judgekit.compare.history import tributaries
from judgekit.compare.sentences import (
    IN_ORDER_MOST,
    likeness,
    similarity,
    split_sentences,
    units,
)
from judgekit.corpus.typography import normalize_typography
from judgekit.render.library import Library
from judgekit.shapes.compare import build_all, comparison_dict
from judgekit.shapes.history import history_dict

from .conftest import DATA

ALIGN = DATA / "diff" / "align"
PAIRING = DATA / "diff" / "pairing"


@pytest.fixture(scope="module")
def alib() -> Library:
    """A Library over the alignment fixture corpus."""
    return Library(load_corpus(ALIGN))


def rows_of(
    lib: Library, old_id: str | None, new_id: str | None, old="1", new="2", doc="align-book"
):
    """(status, edited, from entry, from text, to entry, to text) of one change's rows."""
    doc = lib.corpus.document(doc)
    comparison = compare(lib, doc.version(old), doc.version(new))
    for n, change in enumerate(comparison.changes):
        ids = (change.old.id if change.old else None, change.new.id if change.new else None)
        if ids == (old_id, new_id):
            return [
                (
                    r.status,
                    r.edited,
                    r.old.entry if r.old else None,
                    r.old.text if r.old else None,
                    r.new.entry if r.new else None,
                    r.new.text if r.new else None,
                )
                for r in change_rows(lib, comparison, n)
            ]
    raise AssertionError(f"no change {old_id} -> {new_id}")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("One. Two! Three? four.", ["One.", "Two!", "Three? four."]),
        (
            "The ship U.S.S. Galaxy moves. Then stops.",
            ["The ship U.S.S. Galaxy moves.", "Then stops."],
        ),
        ("Use an icon (e.g. Staff). Done.", ["Use an icon (e.g. Staff).", "Done."]),
        ("He said “Go.” Then left.", ["He said “Go.”", "Then left."]),
        ("Span 2. 3 more.", ["Span 2.", "3 more."]),
        ("", []),
    ],
)
def test_split_sentences(text, expected):
    assert split_sentences(text) == expected


def test_units_mark_list_items_and_paragraphs():
    found = units("x", "Intro. More.\n\n- First item. Still first.\n\n- Second item.")
    assert [(u.text, u.item, u.paragraph) for u in found] == [
        ("Intro.", False, False),
        ("More.", False, False),
        ("First item.", True, True),
        ("Still first.", False, False),
        ("Second item.", True, True),
    ]
    assert [u.index for u in found] == [0, 1, 2, 3, 4]


def test_similarity():
    a, b, c = units("x", "Add 2 when the quadrant icons differ. Add two if quadrants differ. Draw.")
    assert similarity(a, a) == 1.0
    assert similarity(a, b) == pytest.approx(2 * 3 / (5 + 4))  # add, quadrant, differ
    assert similarity(a, c) == 0.0


def test_edited_sentence(alib):
    assert rows_of(alib, "edits", "edits") == [
        (
            "edited",
            True,
            "edits",
            "Each player draws seven cards.",
            "edits",
            "Each player draws eight cards.",
        ),
        (
            "same",
            False,
            "edits",
            "The first player is chosen at random.",
            "edits",
            "The first player is chosen at random.",
        ),
        (
            "same",
            False,
            "edits",
            "Play then proceeds clockwise.",
            "edits",
            "Play then proceeds clockwise.",
        ),
    ]


def test_sentence_moved_within_the_entry(alib):
    assert [r[:3] + r[4:5] for r in rows_of(alib, "mover", "mover")] == [
        ("moved", False, "mover", "mover"),  # "Place your headquarters mission." went first
        ("same", False, "mover", "mover"),
        ("same", False, "mover", "mover"),
    ]
    assert rows_of(alib, "mover", "mover")[0][5] == "Place your headquarters mission."


def test_merge_of_two_entries(alib):
    whole = rows_of(alib, "combat", "combat")
    assert whole == [
        ("same", False, "combat", "Ships may battle.", "combat", "Ships may battle."),
        (
            "moved",
            False,
            "gl-battle",
            "A ship attacks another ship.",
            "combat",
            "A ship attacks another ship.",
        ),
        # What the merge dropped sits after the sentence before it in its own entry.
        ("removed", False, "gl-battle", "Each attacking ship must be staffed.", None, None),
        (
            "same",
            False,
            "combat",
            "Damage is dealt in order.",
            "combat",
            "Damage is dealt in order.",
        ),
    ]
    # The merged-in entry's own change shows what became of each of its sentences.
    assert rows_of(alib, "gl-battle", "combat") == whole[1:3]


def test_split_of_an_entry(alib):
    stayed = rows_of(alib, "dilemmas", "dilemmas")
    assert [(r[0], r[4]) for r in stayed] == [
        ("same", "dilemmas"),
        ("moved", "dilemma-costs"),
        ("moved", "dilemma-costs"),
    ]
    split_off = rows_of(alib, "dilemmas", "dilemma-costs")
    assert split_off == [
        (
            "moved",
            False,  # the apostrophe is typography
            "dilemmas",
            "A dilemma's cost is paid from the dilemma pile.",
            "dilemma-costs",
            "A dilemma’s cost is paid from the dilemma pile.",
        ),
        (
            "moved",
            False,
            "dilemmas",
            "Overcome dilemmas stay under the mission.",
            "dilemma-costs",
            "Overcome dilemmas stay under the mission.",
        ),
    ]


def test_added_and_removed_sentences(alib):
    assert rows_of(alib, "upkeep", "upkeep") == [
        (
            "same",
            False,
            "upkeep",
            "Discard down to eight cards.",
            "upkeep",
            "Discard down to eight cards.",
        ),
        ("removed", False, "upkeep", "Then draw a card for the U.S.S. Enterprise.", None, None),
        ("added", False, None, None, "upkeep", "Score any bonus points."),
    ]


COST_LIMIT = (
    "The total cost of the dilemmas he or she chooses cannot be higher than the number of "
    "personnel you have attempting the mission."
)
SUBTRACTION = (
    "If you attempt a mission where there are overcome dilemmas underneath it, the number of "
    "those dilemmas is subtracted from that total first."
)
RESTATED = "That number is also the total cost in dilemmas your opponent can spend on dilemmas."


def test_a_sentence_pairs_with_the_one_restating_it_not_one_sharing_more_words():
    # The subtraction sentence shares five of the cost limit's words (attempt, mission, dilemma,
    # number, total), the restatement four; but only the restatement says "total cost ...
    # dilemmas" in that order, and it is the rule the cost limit became.
    lib = Library(load_corpus(PAIRING))
    rows = rows_of(lib, "facing-dilemmas", "facing-dilemmas", doc="pairing-book")
    assert rows == [
        ("added", False, None, None, "facing-dilemmas", SUBTRACTION),
        ("edited", True, "facing-dilemmas", COST_LIMIT, "facing-dilemmas", RESTATED),
    ]
    cost, subtraction, restated = units("x", " ".join((COST_LIMIT, SUBTRACTION, RESTATED)))
    assert similarity(cost, subtraction) > similarity(cost, restated)  # what misled the pairing
    assert likeness(cost, subtraction) < likeness(cost, restated)


def test_likeness():
    a, b, c = units(
        "x", "Add 2 when the quadrant icons differ. Differ quadrant icons, add 2 points. Draw."
    )
    assert likeness(a, a) == 1.0 and likeness(a, c) == 0.0
    # b holds a's five words and one more (Dice 10/11); in order, only "quadrant icon" (4/11).
    assert similarity(a, b) == pytest.approx(10 / 11)
    assert likeness(a, b) == pytest.approx((10 / 11 + 4 / 11) / 2)


def test_icon_spacing_is_typography(alib):
    doc = alib.corpus.document("align-book")
    change = next(
        c
        for c in compare(alib, doc.version("1"), doc.version("2")).changes
        if c.new and c.new.id == "typography"
    )
    assert change.typography_only and not change.text_changed
    assert alib.plain(change.old) == "The ship needs Command Staff. Don't forget it."
    rows = rows_of(alib, "typography", "typography")
    assert [r[0] for r in rows] == ["same", "same"]


def test_backward_reads_the_other_way(alib):
    rows = rows_of(alib, "combat", "combat", old="2", new="1")
    assert [(r[0], r[2], r[4]) for r in rows] == [
        ("same", "combat", "combat"),
        ("moved", "combat", "gl-battle"),  # split off, going back in time
        ("same", "combat", "combat"),
    ]
    assert rows_of(alib, "combat", "gl-battle", old="2", new="1")[0][0] == "moved"


def test_anchors_and_parts(alib):
    doc = alib.corpus.document("align-book")
    comparison = compare(alib, doc.version("1"), doc.version("2"))
    found = {
        (c.old.id if c.old else None, c.new.id): (anchor(comparison, c), primary(comparison, c))
        for c in comparison.changes
    }
    assert found[("combat", "combat")] == ("combat", True)
    assert found[("gl-battle", "combat")] == ("gl-battle--combat", False)
    assert found[("dilemmas", "dilemma-costs")] == ("dilemma-costs", True)
    # Built once: the same groups on every call.
    assert alignment(alib, comparison) is alignment(alib, comparison)


def _lines(lib, entry_id):
    steps = history(lib, "align-book", entry_id)
    return [
        (t.id, [(s.version.id, s.status, s.entry.id if s.entry else None) for s in t.steps])
        for t in tributaries(lib, "align-book", steps)
    ]


def test_history_follows_a_merge(alib):
    assert _lines(alib, "combat") == [
        ("gl-battle", [("1", "added", "gl-battle"), ("2", "moved", "combat")]),
    ]


def test_history_follows_a_split(alib):
    # The entry split off has the entry it was split from in its history; that one lives on.
    assert _lines(alib, "dilemma-costs") == [
        ("dilemmas", [("1", "added", "dilemmas"), ("2", "changed", "dilemmas")]),
    ]
    assert _lines(alib, "edits") == []


def test_history_json_of_a_merge(alib):
    doc = alib.corpus.document("align-book")
    data = history_dict(alib, doc, "combat", history(alib, "align-book", "combat"))
    assert data["merged_in"] == [{"id": "gl-battle", "title": "battle"}]
    first, second = data["versions"]
    assert [(t["line_id"], t["status"], t["joined"]) for t in first["merged"]] == [
        ("gl-battle", "added", False)
    ]
    joined = second["merged"][0]
    assert (joined["joined"], joined["relation"], joined["change_anchor"]) == (
        True,
        "merged into",
        "gl-battle--combat",
    )
    assert [(r["status"], r["from"]) for r in joined["alignment"]] == [
        ("moved", "A ship attacks another ship."),
        ("removed", "Each attacking ship must be staffed."),
    ]
    assert [r["status"] for r in second["alignment"]] == ["same", "moved", "removed", "same"]


def test_build_all_builds_each_comparison_once(alib):
    assert build_all(alib) == 2 * 2 * 2  # 2 versions squared, typography hidden and shown
    doc = alib.corpus.document("align-book")
    comparison = compare(alib, doc.version("1"), doc.version("2"))
    assert comparison_dict(alib, comparison) is comparison_dict(alib, comparison)
    assert [c["anchor"] for c in comparison_dict(alib, comparison)["changes"]][:2] == [
        "edits",
        "mover",
    ]


def test_unit_keys_are_the_normalized_text():
    """A sentence's key is exactly normalize_typography of its words, whatever they hold."""
    pieces = [
        "Word",
        "a",
        " ",
        "  ",
        ".",
        ". ",
        "“",
        "’",
        "'",
        "-",
        " - ",
        "–",
        "™",
        "(TM)",
        "1.",
        "…",
    ]
    pieces += ["\u00a0", "x", "2) ", "* ", "U.S.S. ", "!", "?", "(", ")", ",", "&", "<b>"]
    rnd = random.Random(13)
    for _ in range(3000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 12)))
        for unit in units("x", text):
            assert unit.key == normalize_typography(unit.text), repr(unit.text)


def test_the_entry_s_own_counterpart_wins_only_a_tie():
    """A sentence of an entry merged in that reads more like the newer one takes it over the
    entry's own; between equally alike ones, the entry's own wins."""
    (new,) = units("rules", "Each player draws seven cards, then shuffles the deck.")
    closer = "Each player draws seven cards, then shuffles the deck twice."  # 0.92
    (own,) = units("rules", "Each player draws seven cards from the deck.")  # 0.91
    (merged,) = units("merged", closer)
    matcher = _Matcher([own, merged], [new], {"rules": "rules"})
    matcher.alike()
    assert matcher.pairs == {1: 0}
    (own,) = units("rules", closer)
    matcher = _Matcher([merged, own], [new], {"rules": "rules"})
    matcher.alike()
    assert matcher.pairs == {1: 0}


def test_likeness_of_run_on_sentences_is_their_shared_words():
    """A draft's unsplit paragraph makes a "sentence" of hundreds of words: the words in order
    (their product's cost) are not counted beyond IN_ORDER_MOST pairs, shared words alone."""
    words = [f"rule{n}" for n in range(150)]
    first, second = " ".join(words), " ".join(["Dilemma", *reversed(words[:120])])
    a, b = units("x", f"Rule {first}. {second}.")
    assert len(a.words) * len(b.words) > IN_ORDER_MOST
    assert likeness(a, b) == similarity(a, b)
