"""The relevance measure: a question that names no version is answered by its rule's later
restatement (`also`), a version-specific one only by its own entry."""

from __future__ import annotations

import pytest

from .benchmarks.map_blind_quotes import also_of
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
