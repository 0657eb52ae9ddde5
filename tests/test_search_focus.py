"""Snippets of answers found by meaning (issue #27): a result whose place owes to meaning shows
what its nearest chunk holds (focus.py): the sentence holding a table-talk saying's rule, or the
paragraph; answers by words keep their snippets. On the fixture corpus tests/data/search/talk
(its Battle section: three paragraphs, a saying of the middle one's second sentence)."""

from __future__ import annotations

import pytest

from judgekit.checks.loader import load_corpus
from judgekit.meaning.passages import _chunked
from judgekit.render.library import Library
from judgekit.search import ranking
from judgekit.search.analysis import stems
from judgekit.search.focus import _rule_span, _words
from judgekit.search.service import SearchService
from judgekit.search.snippets import sentences_of, snippet, snippet_plain

from .conftest import DATA
from .test_meaning import _question, _ranked

TALK = DATA / "search" / "talk"
SAYING = "can they go after my boat a second time once it has fled"
RULE = "A ship that retreats cannot be attacked again during that turn."
REWARD = "If no ship of the winning side was damaged, the winner draws one card as a reward."


@pytest.fixture(scope="module")
def svc():
    service = SearchService.for_library(Library(load_corpus(TALK)), None)
    if service.load_meaning() != "ready":
        pytest.skip("search by meaning is not installed here")
    return service


def _battle(svc, q: str, meaning: str = "1") -> tuple[dict, dict]:
    answer = svc.search({"q": q, "meaning": meaning})
    found = [r for r in answer["results"] if r["id"] == "battle" and r["document"] == "game"]
    assert found, [r["id"] for r in answer["results"]]
    return answer, found[0]


def test_through_a_saying_the_snippet_is_the_sentence_of_its_rule(svc):
    answer, battle = _battle(svc, SAYING)
    assert answer["by_meaning"]
    shown = snippet_plain(battle["snippet"])
    # The rulebook's sentence, not the judge's saying (editorial: never shown).
    assert shown.startswith(f"…{RULE}"), shown
    assert "fled" not in shown
    # By words alone the snippet is the sentence holding the question's word ("once").
    _, by_words = _battle(svc, SAYING, meaning="0")
    assert RULE not in snippet_plain(by_words["snippet"])
    assert "[Once] the battle starts" in snippet_plain(by_words["snippet"])


def test_through_a_paragraph_the_snippet_comes_from_that_paragraph(svc):
    q = "what do i win if none of my ships got hurt"
    outcome = svc.index.search(q)
    hit = next(h for h in outcome.hits if h.id == "battle" and h.document == "game")
    flat, starts = sentences_of(hit.text)
    reward = flat.index("The side whose total is lower")
    # Nearest by meaning: the third paragraph's chunk (no saying is near), its three sentences.
    assert hit.by_meaning and hit.focus == (starts.index(reward), len(starts) - 1)
    _, battle = _battle(svc, q)
    assert REWARD in snippet_plain(battle["snippet"]).replace("[", "").replace("]", "")
    _, by_words = _battle(svc, q, meaning="0")
    assert REWARD not in snippet_plain(by_words["snippet"]).replace("[", "").replace("]", "")


def test_words_only_answers_and_results_placed_by_words_keep_their_snippets(svc):
    outcome = svc.index.search(SAYING, meaning=False)
    assert all(h.focus is None and not h.by_meaning for h in outcome.hits)
    # The first result (by the rules' words, and not raised by meaning) has the same snippet
    # either way.
    q = "are personnel aboard a retreating ship stopped"
    answer, by_words = svc.search({"q": q}), svc.search({"q": q, "meaning": "0"})
    assert answer["by_meaning"]
    assert answer["results"][0]["id"] == by_words["results"][0]["id"] == "battle"
    assert answer["results"][0]["snippet"] == by_words["results"][0]["snippet"]


def test_words_found_only_in_what_judges_say_owe_the_snippet_to_meaning(svc):
    # The saying's own words find Battle by words (its sayings are a field of the index), first
    # either way: its snippet is the saying's rule, as if meaning alone had found it.
    answer, by_words = svc.search({"q": SAYING}), svc.search({"q": SAYING, "meaning": "0"})
    assert answer["results"][0]["id"] == by_words["results"][0]["id"] == "battle"
    assert snippet_plain(answer["results"][0]["snippet"]).startswith(f"…{RULE}")
    ranked = _ranked([(0, 5.0), (0, 4.0)])
    out = ranking.fuse(ranked, list(ranked), _question([0.65, 0.6]), [1.0] * 2, [1.0] * 2, {0})
    assert {item[2]: ranking.owes_to_meaning(item) for item in out} == {0: True, 1: False}


def test_a_place_owes_to_meaning_when_meaning_raised_it_or_found_it_alone():
    ranked = _ranked([(0, 5.0), (0, 4.0), (0, 3.9)])
    near = [0.6, 0.3, 0.62, 0.65]  # item 3: found by no word
    out = ranking.fuse(ranked, list(ranked), _question(near), [1.0] * 4, [1.0] * 4)
    owes = {item[2]: ranking.owes_to_meaning(item) for item in out}
    order = [item[2] for item in out]
    assert order[:2] == [0, 2]  # 0 keeps its place by words; 2 rose above 1
    assert owes == {0: False, 2: True, 1: False, 3: True}


def test_a_chunk_knows_the_paragraphs_it_holds():
    title, short, long = [1, 2], [5] * 10, [7] * 300
    parts = [part for _, part in _chunked(title, [short, short, long, short], room=100)]
    # Two short paragraphs joined, the long one in windows, the last alone.
    assert parts[0] == (0, 1)
    assert set(parts[1:-1]) == {(2, 2)} and len(parts) > 3
    assert parts[-1] == (3, 3)


def test_a_rule_is_found_in_the_text_with_icons_shown_as_labels():
    flat = "Staffing. A personnel with a Command icon can stand in for a Staff icon. Done."
    words = _words(flat)
    begin, end = _rule_span(words, "A personnel with a {icon:command} icon can stand in")
    assert flat[begin:].startswith("A personnel with a Command")
    assert _rule_span(words, "A personnel with no icon") is None


def test_the_question_s_words_win_only_where_they_clearly_answer_elsewhere():
    text = (
        "Ships move between missions by paying range. "
        "Every mission has a span printed on it, and some have more than one. "
        "Headquarters missions never have a span of their own at all. "
        "Personnel aboard a ship travel with it wherever it goes. "
        "A captured ship stays captured until the end of the game."
    )
    last = len(sentences_of(text)[1]) - 1
    # Two of the question's words in the first sentence, none where meaning points: the words.
    both = snippet_plain(snippet(text, set(stems("move range")), focus=(last, last)))
    assert both.startswith("Ships [move]"), both
    # One word only: meaning's sentence (the words still marked wherever the window shows them).
    one = snippet_plain(snippet(text, set(stems("range")), focus=(last, last)))
    assert one.startswith("…") and "A captured ship stays captured" in one, one
    assert snippet_plain(snippet(text, set(stems("range")))).startswith("Ships move")
    # None of the words (a result found by meaning alone): meaning's sentence all the same.
    assert "A captured ship stays captured" in snippet(text, set(), focus=(last, last))
    assert snippet(text, set()).startswith("Ships move")


def test_a_server_s_warm_up_works_out_every_chunk_s_sentences(svc):
    svc.warm()
    focus = svc.index.focus
    assert len(focus._kept) == focus.passages.count
    assert focus.table().shape == (len(focus.passages.owners), 2)
