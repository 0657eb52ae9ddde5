"""Table talk: how judges ask about each rule, checked against the rules and embedded with its
entry for search by meaning, on the fixture corpus tests/data/search/talk."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from judgekit.checks.loader import load_corpus
from judgekit.checks.validate import validate
from judgekit.meaning.passages import item_chunks
from judgekit.render.library import Library
from judgekit.search.ranking import COORD_POWER, TALK_COUNT, _coord
from judgekit.search.service import SearchService
from judgekit.search.tabletalk import load_table_talk, table_talk_problems

from .conftest import DATA, ROOT

TALK = DATA / "search" / "talk"


@pytest.fixture(scope="module")
def corpus():
    return load_corpus(TALK)


def test_a_saying_applies_to_the_versions_whose_entry_holds_its_rule(corpus):
    talk = load_table_talk(TALK)
    old, new = (corpus.entry("game", v, "damage") for v in ("1", "2"))
    # Version 2 dropped the hull sentence: its sayings stay with version 1.
    assert "when do i get to pull the hits off my ship" in talk.phrases(old)
    assert "when do i get to pull the hits off my ship" not in talk.phrases(new)
    assert talk.phrases(new) == ("how many hits before my ship blows up",)
    assert talk.phrases(corpus.entry("game", "2", "cards")) == ()


def test_the_fixture_and_the_real_table_talk_pass_the_check(corpus):
    assert table_talk_problems(corpus) == []
    real = load_corpus(ROOT)
    assert table_talk_problems(real) == []
    assert len(load_table_talk(ROOT).sayings) > 100


def _with_talk(tmp_path, name: str, text: str):
    root = tmp_path / "corpus"
    shutil.copytree(TALK, root)
    (root / name).write_text(text, encoding="utf-8")
    return root


BAD_2E = """edition: 2E
asked:
  - entry: game/damage
    rule: "A ship with four damage cards is destroyed."
    say: [how many hits]
  - entry: game/nowhere
    rule: "A ship with three damage cards is destroyed."
    say: [how many hits]
  - entry: rul/stopped
    rule: "A stopped ship cannot move, and its Away Team cannot beam."
    say: [tapped ship beam]
  - entry: game/damage
    rule: "A ship with three damage cards is destroyed."
    say: [ab]
  - entry: game/damage
    rule: "A ship with three damage cards is destroyed."
    say: [how many hits]
    note: extra
"""


def test_every_wrong_item_is_reported_with_its_file_and_line(tmp_path):
    root = _with_talk(tmp_path, "rules/table-talk.yaml", BAD_2E)
    _, problems = validate(root)
    where = str(root / "rules" / "table-talk.yaml")
    # Its shape first (as read), then against the corpus.
    assert problems == [
        f"{where}:12: each saying must be text of 3 to 200 characters",
        f"{where}:15: an item has entry, rule and say",
        f"{where}:3: the rule is not the words of game/damage",
        f"{where}:6: no held entry game/nowhere",
        f"{where}:9: rul is 1E, not 2E",
    ]


def test_a_file_of_the_wrong_game_is_refused(tmp_path):
    root = _with_talk(tmp_path, "rulings/table-talk.yaml", "edition: 2E\nasked: []\n")
    _, problems = validate(root)
    assert problems == [f"{root / 'rulings' / 'table-talk.yaml'}: needs `edition: 1E` and `asked:`"]


def test_each_saying_is_a_chunk_of_its_own():
    def pieces(text: str) -> list[int]:
        return [len(word) for word in text.split()]

    out = item_chunks(pieces, "Damage", "A ship is destroyed.\nRepair it.", ("how many hits",))
    assert out[-1] == [3, 4, 4]
    assert len(out) == len(item_chunks(pieces, "Damage", "A ship is destroyed.\nRepair it.")) + 1


def test_a_judge_saying_it_finds_the_entry_by_meaning():
    svc = SearchService.for_library(Library(load_corpus(TALK)), None)
    if svc.load_meaning() != "ready":
        pytest.skip("search by meaning is not installed here")
    index = svc.index
    near = index.meaning.nearness("when do i get to pull the hits off my ship")
    key = {m["key"]: i for i, m in enumerate(index.meta)}
    # The saying's own words embed to its own vector: the entry is as near as can be.
    assert near[key["game/1/damage"]] == pytest.approx(1.0, abs=1e-4)
    assert near[key["game/2/damage"]] < 0.99
    assert int(np.argmax(near)) == key["game/1/damage"]


@pytest.fixture(scope="module")
def by_words():
    """The fixture's search by words alone (the sayings are a field of the index too)."""
    svc = SearchService.for_library(Library(load_corpus(TALK)), None)

    def search(q: str, **params: str) -> dict:
        return svc.search({"q": q, "meaning": "0", **params})

    return search


def test_a_word_only_judges_say_finds_the_entry_whose_rule_they_say_it_of(by_words):
    # "banged" is in no rule: only in a saying of version 1's hull sentence, which 2 dropped.
    answer = by_words("banged")
    keys = [f"{r['document']}/{r['version']}/{r['id']}" for r in answer["results"]]
    assert keys == ["game/1/damage"]
    assert answer["not_in_rules"] == []
    # The saying is never shown: the snippet is the rule's words.
    assert "banged" not in answer["results"][0]["snippet"].lower()


@pytest.mark.parametrize(
    ("found", "said", "share"),
    [
        (0b01, 0b00, 0.5),
        (0b01, 0b10, (1 + TALK_COUNT) / 2),
        (0b11, 0b11, 1.0),
        (0, 0b01, TALK_COUNT / 2),
    ],
)
def test_a_word_found_only_in_the_sayings_counts_talk_count_of_one(found, said, share):
    coord = [(k / 2) ** COORD_POWER for k in range(3)]
    assert _coord(coord, 2, found, said) == pytest.approx(share**COORD_POWER)
