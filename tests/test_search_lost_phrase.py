"""A quoted phrase no passage holds, and a named version's two sections (real corpus).

A judge quoting a card's wording ("dilemma cost limit", "beam up") where the rulebook words it
otherwise means its words: they are searched, and the page says so. A version named in the question
that holds both a rule gone from the version in force and the rule it went into shows them as two
results ("same dilemma twice in Call to Arms": When Your Attempt Fails and Facing Dilemmas).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from judgekit.search.analysis import parse_query
from judgekit.search.query import lost, unquote


def test_unquote_drops_only_the_lost_phrases_quotes():
    query = '"beam up" my "away team" now'
    assert unquote(query, ("beam up",)) == ' beam up  my "away team" now'
    assert [p.text for p in parse_query(unquote(query, ("beam up",))) if p.phrase] == ["away team"]


def test_a_phrase_no_passage_holds_is_searched_as_words(client):
    data = client.get("/api/search", query_string={"q": '"dilemma cost limit"'}).get_json()
    assert data["unquoted"] == ["dilemma cost limit"]
    assert data["total"] > 0  # as a phrase: nothing at all
    top = [r["id"] for r in data["results"][:3]]
    assert "facing-dilemmas" in top, top


def test_a_phrase_held_keeps_its_quotes(client):
    data = client.get("/api/search", query_string={"q": '"beam personnel"'}).get_json()
    assert data["unquoted"] == []
    assert data["results"][0]["id"] == "beaming"


def test_the_page_and_the_command_say_the_phrase_was_searched_as_words(client):
    page = client.get("/search", query_string={"q": '"beam up" my away team'}).get_data(
        as_text=True
    )
    assert 'class="search-unquoted"' in page
    assert "No passage holds “beam up” word for word" in page
    out = subprocess.run(
        [sys.executable, "-m", "judgekit.commands", "search", '"beam up" my away team'],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "No passage holds “beam up” word for word" in out


def test_a_named_version_shows_both_sections_of_a_rule_that_went_into_another(client):
    data = client.get(
        "/api/search", query_string={"q": "same dilemma twice in call to arms"}
    ).get_json()
    top = [(r["version"], r["id"]) for r in data["results"][:3]]
    assert ("call-to-arms", "facing-dilemmas") in top, top
    assert ("call-to-arms", "when-your-attempt-fails") in top, top
    for result in data["results"]:
        # A result's chips are other versions, never another section of its own version.
        assert all(o["version"] != result["version"] for o in result["also_in"]), json.dumps(
            result["also_in"]
        )


def test_without_a_version_named_the_rule_gone_still_joins_its_heir(client):
    data = client.get("/api/search", query_string={"q": "same dilemma twice"}).get_json()
    first = data["results"][0]
    assert (first["version"], first["id"]) == ("4", "facing-dilemmas")
    assert {(o["version"], o["id"]) for o in first["also_in"]} >= {
        ("call-to-arms", "when-your-attempt-fails")
    }


def test_lost_reads_the_groups_found():
    class G:
        def __init__(self, text, phrase, terms):
            self.part = type("P", (), {"text": text, "phrase": phrase})()
            self.terms = terms

    class P:
        groups = [G("beam up", True, {"beam": 1, "up": 1}), G("team", False, {"team": 1})]

    nowhere, somewhere = (lambda g: False), (lambda g: True)
    assert lost(P(), {1: [1.0, 0b10, 0, 0]}, nowhere) == ("beam up",)
    assert lost(P(), {1: [1.0, 0b11, 0, 0]}, nowhere) == ()
    assert lost(P(), {1: [1.0, 0b10, 0, 0]}, somewhere) == ()  # held where the filters kept out


def test_a_phrase_the_other_game_holds_keeps_its_quotes(client):
    # "dilemma pile" is 2E's: searched in 1E it finds nothing there, and the page offers 2E; it
    # is not said to be in no passage.
    for params in ({"edition": "1E"}, {"document": "1e-current-rulings"}):
        data = client.get("/api/search", query_string={"q": '"dilemma pile"', **params}).get_json()
        assert data["unquoted"] == [], params


def test_a_phrase_quoted_twice_is_named_once(client):
    data = client.get(
        "/api/search", query_string={"q": '"dilemma cost limit" or "dilemma cost limit"'}
    ).get_json()
    assert data["unquoted"] == ["dilemma cost limit"]


@pytest.mark.parametrize(
    "query",
    [
        "Overcoming Dilemmas in Call to Arms",
        "staffing ships cta",
        "when your attempt fails in call to arms",
        "the 2003 rules on range",
        "While 1.1",
    ],
)
def test_the_count_is_the_results_collapse_gives(client, query):
    # Counted two ways: every result collapsed (100 shown), and from every match without
    # collapsing them (count_topics, when a few are shown): the same rule for a named version.
    every = client.get("/api/search", query_string={"q": query, "limit": "100"}).get_json()
    few = client.get("/api/search", query_string={"q": query, "limit": "3"}).get_json()
    assert every["total"] == len(every["results"]) == few["total"]
