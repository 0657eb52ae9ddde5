"""Search text analysis: stemming, query parsing, spelling and snippets (no index, no Flask)."""

from __future__ import annotations

import pytest

from judgekit.search.analysis import (
    Speller,
    clean_query,
    edit_distance,
    game_stem,
    parse_query,
    positions,
    proximity,
    stems,
    title_key,
)
from judgekit.search.query import DEEP_CORRECTIONS, word_groups
from judgekit.search.snippets import _snippet, snippet, snippet_plain


@pytest.mark.parametrize(
    ("words", "stem"),
    [
        ("stop stopped stopping stops", "stop"),
        ("staff staffed staffing", "staff"),
        ("respond responding response responses", "respond"),
        ("draw draws drew drawn drawing", "draw"),
        ("commandeer commandeering commandeered", "commandeer"),
        ("dilemma dilemmas", "dilemma"),
        ("opponent's opponent’s opponents", "oppon"),
    ],
)
def test_forms_of_a_game_word_share_one_term(words, stem):
    assert {game_stem(w) for w in words.split()} == {stem}


def test_commandeer_is_not_command():
    assert game_stem("commandeer") != game_stem("command")


def test_stems_drop_stop_words_and_keep_numbers():
    assert stems("The opponent draws 5 dilemmas, and you may not respond.") == [
        "oppon",
        "draw",
        "5",
        "dilemma",
        "respond",
    ]


def test_title_key_ignores_case_number_and_little_words():
    assert (
        title_key("Attempting Missions") == title_key("attempting a mission") == "attempt mission"
    )


def parts(query):
    return [(p.text, p.phrase, p.last) for p in parse_query(query)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("beam personnel", [("beam", False, False), ("personnel", False, True)]),
        ("beam personnel ", [("beam", False, False), ("personnel", False, False)]),
        ('"beam personnel" ship', [("beam personnel", True, False), ("ship", False, True)]),
        ('"beam personnel"', [("beam personnel", True, False)]),
        ('"unbalanced beam', [("unbalanced", False, False), ("beam", False, True)]),
        ("title:beam AND", [("title", False, False), ("beam", False, False)]),
        ("how many dilemmas do I draw", [("dilemmas", False, False), ("draw", False, True)]),
        ("when and while", [("while", False, True)]),
        ("+ - * : ( ) ~ ^", []),
        ('""', []),
        ("the and of", []),
    ],
)
def test_parse_query(query, expected):
    assert parts(query) == expected


def test_parse_query_caps_the_number_of_words():
    assert len(parse_query("dilemma " * 1000)) == 32


def test_clean_query_removes_control_characters_and_keeps_emoji():
    assert clean_query("beam\x00\x1b[31m per\u200bsonnel 🖖") == "beam [31m per sonnel 🖖"
    assert clean_query("ＢＥＡＭ “quoted”") == 'BEAM "quoted"'
    assert clean_query("beam ") == "beam "  # a trailing space: the last word is finished
    assert clean_query("   ") == ""


def test_edit_distance():
    assert edit_distance("dilema", "dilemma") == 1
    assert edit_distance("comandeer", "commandeer") == 1
    assert edit_distance("dilmema", "dilemma") == 1  # a transposition counts once
    assert edit_distance("abc", "xyz", limit=2) == 2


SPELLER = Speller(
    {"dilemma": 40, "dilemmas": 30, "commandeer": 2, "command": 50, "may": 90, "many": 3}
)


@pytest.mark.parametrize(
    ("typed", "fixed"),
    [
        ("dilema", ["dilemma"]),
        ("dilemmma", ["dilemma", "dilemmas"]),
        ("comandeer", ["commandeer"]),
        ("dilemma", []),  # known words are not corrected
        ("zq", []),  # too short to guess
        ("xyzzy", []),
        ("mny", ["many"]),  # not "may": a stop word would search nothing
    ],
)
def test_speller_corrects(typed, fixed):
    assert SPELLER.correct(typed) == fixed


def test_two_slips_in_one_word_are_corrected_only_when_asked_deep():
    # "dilemna"→"dilemma" is one substitution; "dalemna" two, which the deletes do not reach.
    assert SPELLER.correct("dalemna") == []
    assert SPELLER.correct("dalemna", deep=True) == ["dilemma"]
    assert SPELLER.correct("cammandeor", deep=True) == ["commandeer"]
    # Only where the deletes find none, and only words of the same first letter.
    assert SPELLER.correct("dilema", deep=True) == ["dilemma"]
    assert SPELLER.correct("xalemna", deep=True) == []


def test_a_questions_first_unknown_words_alone_are_corrected_deep():
    """Each deep correction tries every known word of a letter: a question's first
    DEEP_CORRECTIONS unknown words get one, so a question of many costs no more."""
    # A short unknown word ("xyzzy") could not be corrected deep: it takes none of them.
    parts = parse_query(" ".join(["xyzzy"] + ["dalemna"] * (DEEP_CORRECTIONS + 2)))
    groups = word_groups(parts, SPELLER, lambda word: word in SPELLER)
    fixed = [g.correction for g in groups]
    assert fixed == [None] + ["dilemma"] * DEEP_CORRECTIONS + [None, None]


def test_speller_completes_commonest_first():
    assert SPELLER.complete("dil") == ["dilemma", "dilemmas"]
    assert SPELLER.complete("comm") == ["command", "commandeer"]
    assert SPELLER.complete("dilemma") == ["dilemmas"]
    assert SPELLER.complete("q") == []


def test_snippet_marks_every_form_and_escapes_the_rest():
    text = "If <all> your personnel are stopped & killed, stop.\n\nStopping is final."
    assert snippet(text, frozenset({"stop"})) == (
        "If &lt;all&gt; your personnel are <mark>stopped</mark> &amp; killed, "
        "<mark>stop</mark>. <mark>Stopping</mark> is final."
    )


def test_snippet_of_a_text_holding_private_use_characters_keeps_them_and_its_marks():
    # The marks stand in as two private-use characters while the window is escaped: a text
    # holding the first of them must neither lose it nor get a stray mark.
    text = "\ue000 \ue001 stop & \ue002 go"
    assert snippet(text, frozenset({"stop"})) == ("\ue000 \ue001 <mark>stop</mark> &amp; \ue002 go")


def test_snippet_windows_a_long_text_around_the_matches():
    text = "filler " * 100 + "the dilemma stack is face down " + "tail " * 100
    marked = snippet(text, frozenset({"dilemma"}), width=120)
    assert marked.startswith("…") and marked.endswith("…")
    assert "<mark>dilemma</mark> stack is face down" in marked
    assert len(snippet_plain(marked)) <= 124


def test_snippet_without_matches_is_the_beginning():
    assert snippet("one two three", frozenset({"zzz"})) == "one two three"
    assert snippet("", frozenset({"zzz"})) == ""


def test_snippet_is_kept_by_the_terms_a_text_holds_not_by_the_query():
    # Two queries whose terms differ only where the text holds none of them share one snippet;
    # a query holding one more of the text's terms gets its own.
    text = "Draw a card, then discard a card; a dilemma is never drawn."
    before = _snippet.cache_info().hits
    first = snippet(text, frozenset({"draw", "seed"}))
    assert snippet(text, frozenset({"draw", "beam", "mission"})) == first
    assert _snippet.cache_info().hits == before + 1
    assert first == (
        "<mark>Draw</mark> a card, then discard a card; a dilemma is never <mark>drawn</mark>."
    )
    assert snippet(text, frozenset({"draw", "dilemma"})) == (
        "<mark>Draw</mark> a card, then discard a card; a <mark>dilemma</mark> is never "
        "<mark>drawn</mark>."
    )


def test_snippet_plain():
    assert snippet_plain("a <mark>b</mark> &amp; c") == "a [b] & c"


@pytest.mark.parametrize(
    ("seq", "number", "factor"),
    [
        (["beam", "personnel"], False, 2.0),  # side by side: double
        (["beam", "x", "x", "x", "x", "x", "x", "personnel"], False, 1.25),  # 2 words in 8
        (["personnel", "x", "beam", "personnel"], False, 2.0),  # the closest pair counts
        (["beam", "x", "beam"], False, 1.0),  # one of the two words: no bonus
        ([], False, 1.0),
        (["beam", "20"], True, 1.5),  # "how many": a numeral is one more word (2 of 3 here)
        (["beam", "personnel", "seven"], True, 2.0),
    ],
)
def test_proximity(seq, number, factor):
    groups = {"beam": 0b01, "personnel": 0b10}  # word 0 and word 1 of the query
    assert proximity(positions(seq), groups, 2 + number, number) == pytest.approx(factor)
