"""How a question names a version: its initials, its year beside a word for a rulebook, its
release date as judges write it."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from judgekit.checks.validate import check_loaded
from judgekit.search.query import called_problems, strip_versions, version_names

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


CALLED = version_names(
    [
        ("book", "call-to-arms", "Call to Arms", "2003-08"),
        ("book", "1.1", "v1.1", "2003-08-19", ("web rules", "web rulebook")),
    ]
)


@pytest.mark.parametrize(
    ("typed", "versions"),
    [
        ("in the 2003 web rules how often can a when text be used", {("book", "1.1")}),
        ("web   rulebook: range", {("book", "1.1")}),
        ("the 2003 rules on range", {("book", "call-to-arms"), ("book", "1.1")}),
        ("cobweb rules", set()),  # a name inside a word is none
        ("web of lies", set()),
    ],
)
def test_a_name_the_editors_record_names_its_version_alone(typed, versions):
    """A version's ``called`` names (the editors': "the web rules" for 1.1, Decipher's web
    page) name that version, with its year before them or not: "2003" then names no other."""
    blanked, mentioned = strip_versions(typed, CALLED)
    assert mentioned == versions
    if versions == {("book", "1.1")}:
        assert "web" not in blanked and "2003" not in blanked


def test_the_web_rules_are_read_as_1_1_on_the_real_corpus(client):
    """Judges call 1.1 (the rulebook's page on Decipher's site) "the web rules": its passage
    comes first, and the page says how it read the words."""
    q = "in the 2003 web rules what happens when you fail a mission"
    found = client.get("/api/search", query_string={"q": q}).get_json()["results"][0]
    assert (found["version"], found["id"]) == ("1.1", "when-your-attempt-fails")
    page = client.get("/search", query_string={"q": q}).get_data(as_text=True)
    assert (
        "“2003 web rules” read as v1.1 (ed.: a name judges give it, not one the rulebook prints)"
        in page
    )


@pytest.mark.parametrize(
    ("called", "problem"),
    [
        ("Web  Rules", "is already a name of 2e-rulebook 1.1"),  # spaced and cased otherwise
        ("v4", "is already a name of 2e-rulebook 4"),  # another version's own name
        ("2003", "has no letter"),  # a bare number never names a version
    ],
)
def test_a_name_search_could_not_read_as_one_version_is_refused(corpus, called, problem):
    """`judgekit check` refuses a ``called`` name that a question would read as another version
    too, or that is a number ("cost 4" must not name v4); the corpus as held has none."""
    versions = [
        replace(v, called=(called,)) if v.id == "call-to-arms" else v for v in corpus.versions()
    ]
    problems = called_problems(SimpleNamespace(versions=lambda: versions))
    assert len(problems) == 1 and "call-to-arms.yaml:1: called" in problems[0], problems
    assert problem in problems[0]
    assert called_problems(corpus) == [] and "called_problems" in str(
        check_loaded.__code__.co_names
    )
