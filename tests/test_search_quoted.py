"""Ranking timing steps and card items beside the rules they come from (tests/data/search/quoted).

A step's words are quoted from the entries it cites: the entry comes first. A card item holds
only its name: one word of a longer name is not the card asked for.
"""

from __future__ import annotations

import pytest

from judgekit.checks.loader import load_corpus
from judgekit.render.library import Library
from judgekit.search import ranking
from judgekit.search.index import Filters
from judgekit.search.service import SearchService
from judgekit.search.steps import step_heirs
from judgekit.timing.load import sequences_for

from .conftest import DATA

QUOTED = DATA / "search" / "quoted"


@pytest.fixture(scope="module")
def service() -> SearchService:
    return SearchService.for_library(Library(load_corpus(QUOTED)), None)


def ids(service, query, **filters):
    return [(h.kind, h.id) for h in service.index.search(query, Filters(**filters)).hits]


def test_a_step_stores_the_entries_it_quotes(service):
    index = service.index
    stopped = index.meta[index.by_key["book/1/combat.stopped"]]
    assert stopped["cites"] == ["book/1/combat"]
    assert index.meta[index.by_key["book/1/combat"]]["cites"] == []


@pytest.mark.parametrize(
    "query", ["personnel stopped", "what happens when my personnel are stopped"]
)
def test_the_entry_a_step_quotes_comes_just_before_the_step(service, query):
    # The step's short text quotes the entry's sentence word for word: on its own it would
    # score higher than the longer entry.
    assert ids(service, query)[:2] == [("section", "combat"), ("step", "combat.stopped")]


def test_a_step_comes_first_when_its_entry_is_filtered_out(service):
    assert ids(service, "personnel stopped", kind="step")[0] == ("step", "combat.stopped")


def test_one_word_of_a_longer_card_name_finds_the_rule_first(service):
    # "hq" is HQ: Combat Room's first word, and the vocabulary's word for headquarters missions.
    assert ids(service, "hq") == [
        ("section", "headquarters"),
        ("card", "2e.hq-combat-room"),
        ("section", "card-list"),
    ]


@pytest.mark.parametrize("query", ["combat room", "hq combat", "hq combat room"])
def test_half_a_card_name_or_more_finds_the_card_first(service, query):
    assert ids(service, query)[0] == ("card", "2e.hq-combat-room")


def test_an_older_step_renamed_in_a_newer_version_continues_as_it():
    corpus = load_corpus(DATA / "timing")  # v2's "begin" was v1's "count"; "reveal" is merged
    assert step_heirs(corpus, sequences_for(corpus)) == {
        ("demo-rulebook", "1", "attempt", "count"): ("demo-rulebook/step/attempt.begin",),
        ("demo-rulebook", "1", "attempt", "reveal"): ("demo-rulebook/step/attempt.check-dilemma",),
    }


def _items(cites: dict[int, frozenset[str]]) -> ranking.Items:
    """Three items: entries "a" (0) and "b" (1), and a step (2), all in force."""
    topics = ["a", "b", "s"]
    return ranking.Items(
        texts=["", "", ""],
        keys=topics,
        topics=topics,
        live_topics=topics,
        successors=[(), (), ()],
        parents=[-1, -1, -1],
        places=[("book", "1")] * 3,
        shown_first=[(True, 0)] * 3,
        hit_fields=[()] * 3,
        version_entry=[("1", t) for t in topics],
        cited=cites,
        base=[1.0] * 3,
        editions=["2E"] * 3,
        card_words={},
    )


def test_a_step_whose_quoted_entry_matched_counts_a_share_of_its_value():
    # The step's words are entry a's: it adds none of its own, so entry b, scoring a little
    # less than the step on its own, is not put below a second showing of a's words.
    items = _items({2: frozenset({"a"})})
    ranked = [[0, 1.0, 0, 2], [0, 0.5, 2, 2], [0, 0.45, 1, 2]]
    assert [item[2] for item in ranking.quoted_first(items, ranked)] == [0, 1, 2]
    assert ranked[2][1] == 0.5 * ranking.QUOTING_SHARE
    # Above its entry, it goes below it (never above its share of its own value).
    ranked = [[0, 1.2, 2, 2], [0, 1.0, 0, 2], [0, 0.45, 1, 2]]
    assert [item[2] for item in ranking.quoted_first(items, ranked)] == [0, 2, 1]
    assert ranked[1][1] == min(1.2 * ranking.QUOTING_SHARE, 1.0 * ranking.QUOTE_SHARE)


def test_a_step_whose_quoted_entry_did_not_match_keeps_its_value():
    items = _items({2: frozenset({"a"})})
    ranked = [[0, 0.5, 2, 2], [0, 0.45, 1, 2]]
    assert [item[2] for item in ranking.quoted_first(items, ranked)] == [2, 1]
    assert ranked[0][1] == 0.5
