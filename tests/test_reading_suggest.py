"""The 404 page's closest matches, on the tiny reading corpus."""

from __future__ import annotations

import re

import pytest

from judgekit.checks.loader import load_corpus
from judgekit.render.library import Library
from judgekit.web.suggest import closest_pages, slug

from .conftest import DATA


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library(load_corpus(DATA / "reading"))


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        # a typo in an entry id, within a known version
        (
            "/rules/demo-book/1/gl-atempting-missions",
            ["/rules/demo-book/1/gl-attempting-missions", "/rules/demo-book/1/gl-missions"],
        ),
        # an unknown version: that page in every version held (newest first), then the versions
        (
            "/rules/demo-book/9/introduction",
            [
                "/rules/demo-book/2/introduction",
                "/rules/demo-book/1/introduction",
                "/rules/demo-book/2/",
                "/rules/demo-book/1/",
            ],
        ),
        # a page only one version holds, by its id or its title (never a page merely near it)
        (
            "/rules/demo-book/v5/order-move",
            ["/rules/demo-book/2/order-move", "/rules/demo-book/2/", "/rules/demo-book/1/"],
        ),
        ("/rules/demo-book/v5/staffin", ["/rules/demo-book/2/", "/rules/demo-book/1/"]),
        # a version this document does not hold, spelled as a word: the page where it is held
        (
            "/rules/demo-book/call-to-arms/staffing",
            ["/rules/demo-book/1/staffing", "/rules/demo-book/2/", "/rules/demo-book/1/"],
        ),
        # a typo in the document id, and a title rather than an id
        ("/rules/demo-bok/2/missions", ["/rules/demo-book/2/missions-section"]),
        ("/rulings/demo-rulings/2000-02-28/androd", ["/rulings/demo-rulings/2000-02-28/android"]),
        # no document at all: every document, versions in force first
        ("/range", ["/rules/demo-book/1/gl-range"]),
        # not in the version asked for, but in another version of the document
        ("/rules/demo-book/2/attempting", ["/rules/demo-book/1/gl-attempting-missions"]),
        # a glossary term without its gl- prefix, percent-encoded spaces
        ("/rules/demo-book/1/playing%20a%20card", ["/rules/demo-book/1/gl-playing-a-card"]),
        # only a document: its versions, newest first
        ("/rules/demo-book/1/", ["/rules/demo-book/1/"]),
        ("/rules/demo-book", ["/rules/demo-book/2/", "/rules/demo-book/1/"]),
        # junk: nothing, and quickly
        ("/x/" + "a" * 5000, []),
        ("/rules/%ff%00/..%2f..%2fetc", []),
    ],
)
def test_closest_pages(lib, path, expected):
    assert [s.url for s in closest_pages(lib, path)] == expected


def test_suggestion_fields(lib):
    (first, *_) = closest_pages(lib, "/rules/demo-book/1/gl-atempting-missions")
    assert (first.title, first.where) == ("attempting missions", "Demo Book v1")


def test_one_version_of_each_rule_and_limit(lib):
    found = closest_pages(lib, "/introduction", limit=5)
    assert [s.url for s in found] == [
        "/rules/demo-book/2/introduction",
        "/rulings/demo-rulings/2000-02-28/introduction",
    ]
    assert [s.url for s in closest_pages(lib, "/mission", limit=2)] == [
        "/rules/demo-book/2/missions-section",  # equal scores: the version in force first
        "/rules/demo-book/1/gl-missions",
    ]


def test_slug():
    assert slug("Order – Beam Personnel!") == "order-beam-personnel"


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        # A term's address (a 404 only for a term not held under that name: the page reads
        # "missions" here as the section's title): the version's glossary entries first.
        (
            "/rules/demo-book/1/term/missions",
            [
                "/rules/demo-book/1/gl-missions",
                "/rules/demo-book/1/gl-attempting-missions",
                "/rules/demo-book/1/missions-section",
            ],
        ),
        # no glossary entry named near it: those whose words use it
        ("/rules/demo-book/1/term/score", ["/rules/demo-book/1/gl-attempting-missions"]),
        ("/rules/demo-book/1/term/ship", ["/rules/demo-book/1/gl-range"]),
        # an entry's address: the rulebook's own order, the section first
        (
            "/rules/demo-book/1/missions",
            [
                "/rules/demo-book/1/missions-section",
                "/rules/demo-book/1/gl-missions",
                "/rules/demo-book/1/gl-attempting-missions",
            ],
        ),
    ],
)
def test_a_terms_address_offers_the_versions_glossary_first(lib, path, expected):
    assert [s.url for s in closest_pages(lib, path)] == expected


def test_a_version_not_held_offers_that_page_in_each_version_held(client):
    """A judge types v5, which judgekit does not hold: the 404 offers Beaming in each version held
    and the versions, not a page merely near the word ("examine" for "beaming")."""
    html = client.get("/rules/2e-rulebook/v5/beaming").get_data(as_text=True)
    offered = re.findall(r'<li><a href="([^"]+)">', html.split('class="suggestions"')[1])
    assert offered == [
        "/rules/2e-rulebook/4/beaming",
        "/rules/2e-rulebook/call-to-arms/beaming",
        "/rules/2e-rulebook/1.1/beaming",
        "/rules/2e-rulebook/4/",
        "/rules/2e-rulebook/call-to-arms/",
        "/rules/2e-rulebook/1.1/",
    ]
