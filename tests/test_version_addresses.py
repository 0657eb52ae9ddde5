"""A version written in an address as judges write it ("v4", "V4", "version-4", "cta"): a 308 to
the version's own id, the rest of the path and the query kept (web/version_names.py); a name of
no held version, or of several, is the page's own 404 or 400, never a guess."""

from __future__ import annotations

import pytest

from judgekit import create_app


@pytest.fixture(scope="module")
def client():
    return create_app({"TESTING": True, "SEARCH_MEANING": "off"}).test_client()


@pytest.mark.parametrize(
    ("asked", "sent"),
    [
        ("/rules/2e-rulebook/v4/", "/rules/2e-rulebook/4/"),
        ("/rules/2e-rulebook/V4/gl-dilemmas?a=1&b=2", "/rules/2e-rulebook/4/gl-dilemmas?a=1&b=2"),
        ("/rules/2e-rulebook/version-4/", "/rules/2e-rulebook/4/"),
        ("/rules/2e-rulebook/cta/beaming", "/rules/2e-rulebook/call-to-arms/beaming"),
        ("/rules/2e-rulebook/Call-To-Arms/", "/rules/2e-rulebook/call-to-arms/"),
        ("/rules/2e-rulebook/v4/term/dilemmas", "/rules/2e-rulebook/4/term/dilemmas"),
        ("/rulings/1e-current-rulings/feb-28-2000/", "/rulings/1e-current-rulings/2000-02-28/"),
        ("/show/rules/2e-rulebook/v4/gl-dilemmas", "/show/rules/2e-rulebook/4/gl-dilemmas"),
        ("/diff/2e-rulebook/v1.1..v4?view=side", "/diff/2e-rulebook/1.1..4?view=side"),
        ("/diff/2e-rulebook/cta..4", "/diff/2e-rulebook/call-to-arms..4"),
        ("/search?q=battle&version=v4", "/search?q=battle&version=4"),
        ("/search/results?q=battle&version=CTA", "/search/results?q=battle&version=call-to-arms"),
        ("/timing/mission-attempt?version=v4&step=2", "/timing/mission-attempt?version=4&step=2"),
        # The API alike: a script's "v4" answers from version 4.
        ("/api/entries/2e-rulebook/v1.1/beaming", "/api/entries/2e-rulebook/1.1/beaming"),
        ("/api/diff/2e-rulebook/cta/v4", "/api/diff/2e-rulebook/call-to-arms/4"),
        (
            "/api/search?q=battle&version=version-4&limit=2",
            "/api/search?q=battle&version=4&limit=2",
        ),
    ],
)
def test_a_version_as_judges_write_it_is_sent_to_its_id(client, asked, sent):
    answer = client.get(asked)
    assert (answer.status_code, answer.headers["Location"]) == (308, sent)
    assert client.get(asked, follow_redirects=True).status_code == 200


@pytest.mark.parametrize(
    ("asked", "status"),
    [
        ("/rules/2e-rulebook/v5/", 404),  # no such version
        ("/rules/2e-rulebook/2003/", 404),
        ("/rules/2e-rulebook/aug-2003/", 404),  # names two versions (1.1, Call to Arms): no guess
        ("/rules/2e-rulebook/v/", 404),
        ("/rules/2e-rulebook/vv4/", 404),  # no fuzzy matching
        ("/rulings/1e-current-rulings/v4/", 404),  # another document's version
        ("/api/search?q=battle&version=v5", 400),
        ("/api/search?q=battle&version=v4&document=1e-current-rulings", 400),
        ("/rules/2e-rulebook/4/", 200),  # an id is its own address
    ],
)
def test_a_name_of_no_held_version_or_of_several_is_not_guessed(client, asked, status):
    assert client.get(asked).status_code == status


def test_a_form_sent_to_a_version_name_is_not_redirected(client):
    # Only reading is redirected: a POST is answered where it was sent.
    assert client.post("/rules/2e-rulebook/v4/").status_code != 308
