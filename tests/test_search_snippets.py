"""What an answer shows, on the fixture corpus tests/data/search/snippets: a long section's
snippet is the sentence that answers (by the judge's words, their forms and the vocabulary's
rulebook words), and ordinary words no rule uses are not announced as "not in the rules".
tests/node/snippets.test.mjs holds the pack to the same."""

from __future__ import annotations

import pytest

from judgekit.checks.loader import load_corpus
from judgekit.render.library import Library
from judgekit.search.service import SearchService
from judgekit.search.snippets import snippet_plain

from .conftest import DATA

SNIPPETS = DATA / "search" / "snippets"


@pytest.fixture(scope="module")
def svc() -> SearchService:
    return SearchService.for_library(Library(load_corpus(SNIPPETS)), None)


def first_snippet(svc: SearchService, q: str) -> str:
    """The first result's snippet, marks as [brackets]."""
    return snippet_plain(svc.search({"q": q})["results"][0]["snippet"])


def test_a_long_sections_snippet_is_the_sentence_that_answers_not_its_first_match(svc):
    # Its first matches are about building the stack; the answer is about the second copy.
    answer = svc.search({"q": "he put two of the same obstacle in his stack"})
    assert answer["results"][0]["id"] == "facing-obstacles"
    shown = first_snippet(svc, "he put two of the same obstacle in his stack")
    assert shown.startswith("…If your opponent reveals more than one copy of the [same] [obstacle]")


def test_a_snippet_reads_the_judges_words_as_the_vocabularys_rulebook_words(svc):
    # "guys" is the crew (rules/vocabulary.yaml): the sentence holding "crew" answers; without
    # it, an earlier sentence holds as much of the question.
    guys = first_snippet(svc, "my guys are stopped, what about the stack")
    assert guys.startswith("…If the [crew] is [stopped]")
    assert first_snippet(svc, "stopped stack").startswith("…A [stopped] card stays [stopped]")


def test_ordinary_words_no_rule_uses_are_not_announced(svc):
    assert svc.search({"q": "put"})["total"] == 0  # no rule uses it
    assert svc.search({"q": "he put two of the same obstacle in his stack"})["not_in_rules"] == []


def test_shorthand_typed_on_a_phone_is_not_announced(svc):
    """A phone's "hw" is "how" (issue #27's tryout: "“hw”: not in the rules")."""
    assert svc.search({"q": "hw do i face an obstacle"})["not_in_rules"] == []
    assert svc.search({"q": "obstacle stack thx"})["not_in_rules"] == []


def test_a_content_word_no_rule_uses_is_announced(svc):
    assert svc.search({"q": "teleporter obstacle"})["not_in_rules"] == ["teleporter"]


def test_an_ordinary_word_the_vocabulary_reads_is_announced_with_its_reading(svc):
    answer = svc.search({"q": "my guys are stopped, what about the stack"})
    assert answer["not_in_rules"] == ["guys"]
    assert answer["read_as"] == [{"words": "guys", "means": ["crew"]}]
