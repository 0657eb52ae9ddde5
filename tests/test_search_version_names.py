"""How a question names a version: its initials, its year beside a word for a rulebook, its
release date as judges write it."""

from __future__ import annotations

import pytest

from judgekit.search.query import strip_versions, version_names

NAMES = version_names(
    [
        ("book", "call-to-arms", "Call to Arms", "2003-08"),
        ("book", "1.1", "v1.1", "2003-08-19"),
        ("book", "4", "v4", "2015-04"),
        ("rulings", "2000-02-28", "2/28/00", "2000-02-28"),
    ]
)


@pytest.mark.parametrize(
    ("typed", "versions"),
    [
        ("CTA rulebook: can I respond later?", {("book", "call-to-arms")}),
        ("in CtA could he pick it", {("book", "call-to-arms")}),
        (
            "does the winner finish his turn in the 2003 rulebook",
            {("book", "call-to-arms"), ("book", "1.1")},
        ),
        ("the 2015 rules on range", {("book", "4")}),
        ("2000 rulings on doorways", {("rulings", "2000-02-28")}),
    ],
)
def test_initials_and_a_year_name_versions(typed, versions):
    blanked, mentioned = strip_versions(typed, NAMES)
    assert mentioned == versions
    assert len(blanked) == len(typed)
    assert "CTA" not in blanked.upper() and "2003" not in blanked and "2015" not in blanked


@pytest.mark.parametrize(
    ("typed", "versions"),
    [
        ("the 08/19/2003 rules: who carries equipment", {("book", "1.1")}),  # not 2003's two
        ("8/19/03 rulebook", {("book", "1.1")}),
        ("August 19th, 2003 rules", {("book", "1.1")}),
        ("Aug 2003 rules: range", {("book", "call-to-arms"), ("book", "1.1")}),
        ("in the April 2015 rules, strength below zero", {("book", "4")}),
        ("apr. 2015: range", {("book", "4")}),
        ("Feb 28, 2000 rulings", {("rulings", "2000-02-28")}),
        ("02/28/2000 on doorways", {("rulings", "2000-02-28")}),
        ("the 2015 glossary on modifiers", {("book", "4")}),
    ],
)
def test_a_release_date_names_its_versions(typed, versions):
    blanked, mentioned = strip_versions(typed, NAMES)
    assert mentioned == versions
    assert not any(ch.isdigit() for ch in blanked), blanked  # the whole date is no word to find


@pytest.mark.parametrize(
    ("typed", "versions"),
    [
        ("may 2003", set()),  # no version released in May 2003
        ("19 counters in 2003", set()),
        ("pay 2003 counters", set()),  # a year only beside a word for a rulebook
        ("the 2003 costs", set()),
        ("actable", set()),  # the initials inside a word are no name
        ("v4 and 2/28/00", {("book", "4"), ("rulings", "2000-02-28")}),  # no initials of these
        ("v4 rules", {("book", "4")}),
    ],
)
def test_a_number_or_a_word_is_no_version(typed, versions):
    assert strip_versions(typed, NAMES)[1] == versions


@pytest.mark.parametrize("typed", ["battle in CTA", "battle in call to arms", "v4 battle"])
def test_a_version_named_keeps_the_other_games_title_from_the_exact_tier(client, typed):
    """'battle in CTA' asks 2E (a version of it is named): 1E's ruling titled Battle, an exact
    title, must not come first over 2E's answer; 'battle' alone still finds it first."""
    first = client.get("/api/search", query_string={"q": typed}).get_json()["results"][0]
    assert first["edition"] == "2E", first["url"]
    alone = client.get("/api/search", query_string={"q": "battle"}).get_json()["results"][0]
    assert alone["edition"] == "1E" and alone["title"].lower() == "battle"


@pytest.mark.parametrize(
    "typed, first",
    [
        (
            "1.1 rulebook: already completed that planet, can I go back and attempt it again later",
            "1.1/checking-requirements",
        ),
        (
            "1.1 online rules: do dilemmas overcome stay under the mission after completing it",
            "1.1/checking-requirements",
        ),
    ],
)
def test_a_version_named_comes_first_by_meaning_too(client, typed, first):
    """A version named raises its passages by meaning as by words (ranking.MENTIONED_NEAR): Version
    4's glossary, near in meaning, no longer comes first over the named version's own rule."""
    found = client.get("/api/search", query_string={"q": typed}).get_json()["results"][0]
    assert f"{found['version']}/{found['id']}" == first
