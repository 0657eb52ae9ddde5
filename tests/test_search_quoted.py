"""Ranking timing steps and card items beside the rules they come from (tests/data/search/quoted).

A step's words are quoted from the entries it cites: the entry comes first. A card item holds
only its name: one word of a longer name is not the card asked for.
"""

from __future__ import annotations

import pytest

from judgekit.checks.loader import load_corpus
from judgekit.render.library import Library
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
