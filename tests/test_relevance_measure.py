"""The relevance measure: a question that names no version is answered by its rule's later
restatement (`also`), a version-specific one only by its own entry."""

from __future__ import annotations

import pytest

from .benchmarks.map_blind_quotes import NAMES_OLDER, also_of, in_force_of
from .relevance_metrics import answering, rank_of

RESULTS = [
    {"document": "2e-rulebook", "version": "4", "id": "mission"},
    {"document": "2e-rulebook", "version": "1.1", "id": "mission"},
]


def test_rank_of_takes_the_first_answering_entry():
    assert rank_of(RESULTS, "2e-rulebook/1.1/mission") == 2
    assert rank_of(RESULTS, "2e-rulebook/1.1/mission", ["2e-rulebook/4/mission"]) == 1
    assert rank_of(RESULTS, "2e-rulebook/1.1/beaming") is None


@pytest.mark.parametrize(
    ("category", "strict", "counted"),
    [("paraphrase", False, True), ("version-specific", False, False), ("number", True, False)],
)
def test_also_counts_unless_the_question_names_its_version_or_strict(category, strict, counted):
    item = {"category": category, "expect": "2e-rulebook/1.1/mission", "also": ["x/4/mission"]}
    assert answering(item, strict) == (("x/4/mission",) if counted else ())


def test_also_is_the_rule_in_the_later_versions_only(corpus):
    # 1.1 prints "missions cards"; Call to Arms and Version 4 restate the rule (a 90 % share).
    quote = "Each player has exactly five missions cards, representing the places"
    assert also_of(corpus, "2e-rulebook/1.1/mission", quote) == [
        "2e-rulebook/call-to-arms/mission",
        "2e-rulebook/4/mission",
    ]
    assert also_of(corpus, "2e-rulebook/4/mission", "Each player has exactly five mission") == []
    assert also_of(corpus, "2e-rulebook/1.1/mission", "nothing any version says at all") == []


@pytest.mark.parametrize(
    ("category", "strict", "in_force", "counted"),
    [
        ("paraphrase", False, True, ("x/4/also", "x/4/read")),
        ("paraphrase", False, False, ("x/4/also",)),  # the measure as before: `also` alone
        ("version-specific", False, True, ()),
        ("number", True, True, ()),
    ],
)
def test_in_force_counts_only_when_asked_and_never_for_a_named_version(
    category, strict, in_force, counted
):
    item = {"category": category, "expect": "x/1.1/a", "also": ["x/4/also"], "in_force": "x/4/read"}
    assert answering(item, strict, in_force) == counted


def test_in_force_is_the_version_4_entry_holding_the_readers_quote(corpus):
    read = {"q": "?", "v4_quote": "nothing any version says at all"}
    assert in_force_of(corpus, read) is None
    read["v4_quote"] = "You cannot beam aboard an opponent’s ship"
    assert in_force_of(corpus, read) == "2e-rulebook/4/beaming"
    assert in_force_of(corpus, {"q": "?", "v4_quote": None}) is None


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("1.1: draw then play, how many counters left", True),
        ("opponent sets his hand aside when i attempt? (CTA)", True),
        ("win mid turn, do I finish turn? (old book)", True),
        ("call to arms - what is beaming used for", True),
        ("do I have to show the card I downloaded", False),
        ("how many cards in a deck, 60?", False),
    ],
)
def test_a_question_naming_an_older_version_gets_no_in_force_answer(question, names):
    assert bool(NAMES_OLDER.search(question)) == names
