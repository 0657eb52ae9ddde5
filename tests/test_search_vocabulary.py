"""A judge's vocabulary, the speller, edition lean, number questions, sub-sections and older
versions, on the fixture corpus tests/data/search/vocab."""

from __future__ import annotations

import shutil

import pytest

from judgekit.checks.loader import load_corpus
from judgekit.checks.validate import run_check
from judgekit.render.library import Library
from judgekit.search.query import strip_edition
from judgekit.search.service import SearchService
from judgekit.search.vocabulary import (
    find_said,
    lean_of,
    load_vocabulary,
    vocabulary_problems,
)

from .conftest import DATA

VOCAB = DATA / "search" / "vocab"


@pytest.fixture(scope="module")
def svc() -> SearchService:
    service = SearchService.for_library(Library(load_corpus(VOCAB)), None)
    service.index  # noqa: B018
    return service


def top(svc, q, **params) -> list[str]:
    return [
        f"{r['document']}/{r['version']}/{r['id']}"
        for r in svc.search({"q": q, **params})["results"]
    ]


# -- the data and its check --------------------------------------------------------------------
def test_the_files_load_with_ids_editions_and_lean_words():
    vocab = load_vocabulary(VOCAB)
    assert vocab.problems == ()
    assert [(t.edition, t.id) for t in vocab.terms] == [
        ("2E", "hq"),
        ("2E", "hand-size"),
        ("2E", "mulligan"),
        ("2E", "fight"),
        ("2E", "repair"),
        ("1E", "hq"),
    ]
    assert vocab.lean == {"2E": ("counters", "engagement"), "1E": ("away team", "battle")}


def test_every_target_is_in_its_editions_rules():
    assert vocabulary_problems(load_corpus(VOCAB)) == []


def test_a_target_the_rules_never_use_is_a_check_problem(tmp_path):
    root = tmp_path / "corpus"
    shutil.copytree(VOCAB, root)
    path = root / "rules" / "vocabulary.yaml"
    path.write_text(
        path.read_text().replace("means: [engagement]", "means: [engagement, dogfight]")
    )
    # "away team" is a 1E word: a 2E target must be found in the 2E rules.
    path.write_text(path.read_text().replace("means: [repaired]", "means: [away team]"))
    assert vocabulary_problems(load_corpus(root, strict=False)) == [
        f"{path}:13: fight: 'dogfight' is not in the 2E rules",
        f"{path}:16: repair: 'away team' is not in the 2E rules",
    ]
    assert f"{path}:13: fight: 'dogfight' is not in the 2E rules" in run_check(root)


def test_a_malformed_term_is_reported_with_its_line(tmp_path):
    root = tmp_path / "corpus"
    shutil.copytree(VOCAB, root)
    path = root / "rulings" / "vocabulary.yaml"
    path.write_text(path.read_text() + "  - id: hq\n    say: hq\n    means: []\n")
    assert vocabulary_problems(load_corpus(root, strict=False)) == [
        f"{path}:7: id 'hq' must be a unique [a-z0-9-] word"
    ]


def test_the_real_vocabulary_passes_the_check(corpus):
    assert vocabulary_problems(corpus) == []


def test_a_digit_finds_the_number_the_rulebook_spells_out(corpus):
    vocab = load_vocabulary(corpus.root)
    (match,) = find_said(vocab, ["ship", "3", "time"], "2E")
    assert (match.start, [t.id for t in match.terms]) == (1, ["number-3"])
    assert match.terms[0].means == ("three", "third")


def test_say_phrases_match_the_longest_run_of_query_terms():
    vocab = load_vocabulary(VOCAB)
    (match,) = find_said(vocab, ["big", "hand", "size"], None)
    assert (match.start, match.end, [t.id for t in match.terms]) == (1, 3, ["hand-size"])
    assert [t.edition for m in find_said(vocab, ["hq"], None) for t in m.terms] == ["2E", "1E"]
    assert [t.edition for m in find_said(vocab, ["hq"], "1E") for t in m.terms] == ["1E"]
    assert lean_of(vocab, ["away", "team", "stop"]) == "1E"
    assert lean_of(vocab, ["engag", "battl"]) is None  # one word of each: no lean


# -- expansion ---------------------------------------------------------------------------------
def test_a_judges_words_find_the_rulebooks_words(svc):
    data = svc.search({"q": "hand size"})
    assert top(svc, "hand size")[0] == "game/2/discard-excess"
    assert data["suggestion"] is None  # "size" is English: not a misspelling of "side"
    assert data["not_in_rules"] == ["size"]
    assert data["read_as"] == [
        {"words": "hand size", "means": ["seven cards in your hand", "discard excess"]}
    ]


def test_a_word_the_rules_never_use_answers_with_the_nearest_rules(svc):
    data = svc.search({"q": "mulligan"})
    assert data["not_in_rules"] == ["mulligan"]
    assert [r["id"] for r in data["results"]] == ["setup"]
    assert data["suggestion"] is None


def test_an_unknown_word_outside_the_vocabulary_is_said_plainly(svc):
    data = svc.search({"q": "sideboard"})
    assert (data["total"], data["not_in_rules"], data["read_as"]) == (0, ["sideboard"], [])


def test_the_judges_own_word_weighs_more_than_its_expansion(svc):
    # "fight" is in the engagement rule itself and expands to "engagement": one entry, found
    # by its own word; "attack" is only ever an expansion and finds the same rule.
    assert top(svc, "attack") == ["game/2/engagement"]
    own = svc.index.search("fight")
    expanded = svc.index.search("attack")
    assert own.hits[0].score > expanded.hits[0].score


def test_the_speller_corrects_only_unknown_words(svc):
    assert svc.search({"q": "dammage"})["suggestion"] == "damage"
    # "hand sise": the correction that makes a judge's phrase wins over commoner words.
    assert svc.search({"q": "hand sise"})["suggestion"] == "hand size"
    for word in ("hand size", "hull", "size", "mulligan", "hq"):
        assert svc.search({"q": word})["suggestion"] is None, word


# -- editions ----------------------------------------------------------------------------------
def test_every_result_says_its_game(svc):
    results = svc.search({"q": "stopped ship"})["results"]
    assert {(r["document"], r["edition"], r["edition_label"]) for r in results} == {
        ("game", "2E", "Second Edition"),
        ("rul", "1E", "First Edition"),
    }


def test_words_of_one_game_lean_the_ranking_toward_it(svc):
    assert top(svc, "stopped ship")[0] == "game/2/stopped-ships"  # no lean: 2E first
    assert top(svc, "stopped ship away team")[0] == "rul/2000-01-01/stopped"
    assert top(svc, "stopped ship battle")[:2] == [
        "rul/2000-01-01/battle",
        "rul/2000-01-01/stopped",
    ]


def test_a_word_of_the_other_game_leans_no_harder_than_the_default_lean(svc):
    # "away team" is 1E's word, but 2E's Damage holds the rest: judges of both games say it.
    assert top(svc, "away team damage cards")[0] == "game/2/damage"
    assert top(svc, "away team stopped ship")[0] == "rul/2000-01-01/stopped"


def test_a_game_named_in_the_question_keeps_to_it_and_is_no_word_to_find(svc):
    for q in ("1e stopped ship", "stopped ship (1E)", "First Edition: stopped ship"):
        data = svc.search({"q": q})
        assert top(svc, q)[0] == "rul/2000-01-01/stopped", q
        # Named as the judge's choice of game is: the other game's matches are left out.
        assert {r["edition"] for r in data["results"]} == {"1E"}, q
        assert data["not_in_rules"] == [] and data["suggestion"] is None, q
    assert {r["edition"] for r in svc.search({"q": "2e stopped ship battle"})["results"]} == {"2E"}
    assert top(svc, "stopped ship")[0] == "game/2/stopped-ships"  # named nothing: 2E first
    # A chosen edition outweighs the game named in the words.
    assert {r.split("/")[0] for r in top(svc, "1e stopped ship", edition="2E")} == {"game"}


def test_a_game_is_named_only_by_a_whole_word_and_only_one_game():
    assert strip_edition("1e tactic card") == ("   tactic card", "1E")
    assert strip_edition("beaming in 2nd ed") == ("beaming in       ", "2E")
    assert strip_edition("Second Edition: stopped") == ("              : stopped", "2E")
    # A sentence's full stop, or the abbreviation's, ends the name like any other punctuation.
    assert strip_edition("2nd ed. beaming") == ("      . beaming", "2E")
    assert strip_edition("stopped ship in 1e.") == ("stopped ship in   .", "1E")
    # Words in quotes are words to find, the game's name among them too.
    assert strip_edition('1e "2nd ed" stopped') == ('   "2nd ed" stopped', "1E")
    assert strip_edition('"second edition" rules') == ('"second edition" rules', None)
    assert strip_edition('"2e" 1e "x') == ('"2e"    "x', "1E")
    for q in ("1e vs 2e stopped", "v1.1e", "12e", "1 e", "second edition", "1E", "first", "1e.5"):
        assert strip_edition(q) == (q, None), q


def test_a_chosen_edition_returns_that_game_only(svc):
    found = top(svc, "stopped ship away team", edition="2E")
    assert found[0] == "game/2/stopped-ships"
    assert {r.split("/")[0] for r in found} == {"game"}
    assert {r.split("/")[0] for r in top(svc, "hq", edition="2E")} == {"game"}


# -- numbers, sub-sections, older versions, snippets -------------------------------------------
def test_a_number_question_prefers_the_passage_stating_the_number(svc):
    assert top(svc, "cards in hand")[0] == "game/2/hand-rules"
    assert top(svc, "how many cards in hand")[0] == "game/2/discard-excess"


def test_the_sub_section_that_answers_outranks_its_parent(svc):
    assert top(svc, "draw a card")[:2] == ["game/2/drawing-cards", "game/2/cards"]


def test_an_older_versions_passage_shows_beside_the_one_in_force(svc):
    (result,) = svc.search({"q": "damage hull"})["results"]
    assert (result["version"], result["in_force"]) == ("2", True)
    (older,) = result["also_in"]
    assert older["version"] == "1"
    assert older["snippet"] == (
        "A ship with three <mark>damage</mark> cards is destroyed. <mark>Damage</mark> cards "
        "stay on the <mark>hull</mark> until the ship is repaired at a headquarters mission."
    )
    (plain,) = svc.search({"q": "damage"})["results"]
    assert plain["also_in"][0]["snippet"] is None  # v1 matches no more words than v2


def test_ship_combat_is_an_engagement_in_the_real_rules(client):
    """2E calls a fight between ships an engagement and one between personnel combat: a judge
    asking about "ship combat" reads the engagement rules first, personnel combat next."""
    data = client.get("/api/search", query_string={"q": "ship combat who wins"}).get_json()
    assert [r["id"] for r in data["results"][:2]] == ["engagements", "combat"]
