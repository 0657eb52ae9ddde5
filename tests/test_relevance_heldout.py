"""The held-out relevance questions (issue #11): written blind from the corpus, kept in their own file.

`tests/relevance_heldout.yaml` was written before its author read the tested questions, the
vocabularies or the search code, and measured once before any fix (the blind figures are in
BENCHMARKS.md, "Held-out questions"). Fixes followed, so the set is no longer held out; it now guards
those fixes: hit@3 >= 0.85 in every category and >= 0.90 overall, on the server; the pack's own
search gives the server's answer to each exactly (tests/golden, tests/node). Run `python tests/benchmarks/bench_search.py --relevance --questions
tests/relevance_heldout.yaml --misses` for the table.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .relevance_metrics import CATEGORIES, check_targets, load_questions, measure, server_search

HELD_OUT = Path(__file__).parent / "relevance_heldout.yaml"
QUESTIONS = load_questions(HELD_OUT)
OVERALL, PER_CATEGORY = 0.90, 0.85
_TYPOGRAPHY = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "\\": None, "*": None})


def _plain(text: str) -> str:
    """Text compared up to typography: quotes, Markdown emphasis, list marks and spacing."""
    text = re.sub(r"^\s*(?:-|\d+\.|[a-z]\.)\s+", " ", text.translate(_TYPOGRAPHY), flags=re.M)
    return re.sub(r"\s+", " ", text).strip().lower()


def test_the_set_is_big_enough_in_every_category_and_both_games():
    assert len(QUESTIONS) >= 90
    assert len({q["q"] for q in QUESTIONS}) == len(QUESTIONS)
    for item in QUESTIONS:
        assert set(item) <= {"q", "expect", "quote", "params", "category"}, item
        assert item["expect"].count("/") == 2 and item["quote"], item
    for name in CATEGORIES:
        assert sum(q["category"] == name for q in QUESTIONS) >= 10, name
    first = sum(q["expect"].startswith("1e-") for q in QUESTIONS)
    assert 20 <= first <= len(QUESTIONS) // 2


def test_every_expected_entry_holds_its_quote_word_for_word(corpus):
    for item in QUESTIONS:
        entry = corpus.entry(*item["expect"].split("/"))
        assert entry is not None, item["expect"]
        for part in item["quote"].split("..."):
            assert _plain(part) in _plain(entry.markdown), (item["q"], part)


@pytest.fixture(scope="module")
def measured(app):
    return measure(server_search(app.test_client()), QUESTIONS)


def test_hit_at_3_meets_the_targets_overall_and_in_every_category(measured):
    check_targets(measured, OVERALL, PER_CATEGORY)
