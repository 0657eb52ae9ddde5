"""Addresses cut short, as a judge types or truncates them (web/partial.py, and the pages' own
views for the glossary's and the comparisons' addresses): the one page they can mean, or a 404
that says what the address lacks and links what completes it; never the generic 404, never a 500.
"""

from __future__ import annotations

import re

import pytest

from .test_hostile_input import sane

GENERIC = "The requested URL was not found on the server"
# A real value for each of the routes' parts, to cut every route's address short.
VALUES = {
    "document": "2e-rulebook",
    "version": "4",
    "entry_id": "beaming",
    "term": "battle",
    "edition": "2e",
    "card_id": "uss-galaxy",
    "sequence_id": "mission-attempt",
    "pair": "1.1..4",
    "old": "1.1",
    "new": "4",
    "event_id": "1",
    "number": "1",
    "area": "rules",
    "filename": "css/search.css",
}
VARIABLE = re.compile(r"<(?:[^:>]+:)?(\w+)>")


def _message(response) -> str:
    if response.mimetype == "application/json":
        return response.get_json()["message"]
    found = re.search(r'<p class="error-message">(.*?)</p>', response.get_data(as_text=True))
    return found.group(1) if found else ""


def _links(response) -> list[str]:
    if response.mimetype == "application/json":
        return [n["url"] for n in response.get_json().get("nearest", [])]
    body = response.get_data(as_text=True)
    listed = re.search(r'<ul class="suggestions">(.*?)</ul>', body, re.S)
    return re.findall(r'href="([^"]*)"', listed.group(1)) if listed else []


def _cut_short(app) -> list[str]:
    """Every proper beginning of every GET route's address (values filled in), with and without
    a slash at its end."""
    paths = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or "GET" not in rule.methods:
            continue
        parts = [VARIABLE.sub(lambda m: VALUES[m.group(1)], p) for p in rule.rule.split("/") if p]
        for n in range(1, len(parts)):
            paths |= {"/" + "/".join(parts[:n]), "/" + "/".join(parts[:n]) + "/"}
    return sorted(paths)


def test_no_address_cut_short_gets_the_generic_404(app):
    """Each route of each blueprint, cut after each of its parts: a page, a redirect, or a 404
    in the site's words (what the address lacks), never werkzeug's "not found on the server"."""
    client = app.test_client()
    generic = []
    for path in _cut_short(app):
        response = client.get(path)
        sane(response, path)
        assert response.status_code in (200, 302, 303, 308, 404, 405), path
        if response.status_code == 404 and GENERIC in _message(response):
            generic.append(path)
    assert len(_cut_short(app)) > 60
    assert generic == []


@pytest.mark.parametrize(
    ("path", "location"),
    [
        # The list of what is held: the home page.
        ("/rules", "/"),
        ("/rules/", "/"),
        ("/rulings/", "/"),
        ("/rules?edition=2E", "/?edition=2E"),
        ("/pack", "/phone"),  # the page that offers the judge pack
        # A glossary term's address without its term: the version's glossary.
        ("/rules/2e-rulebook/4/term", "/rules/2e-rulebook/4/glossary"),
        ("/rules/2e-rulebook/4/term/", "/rules/2e-rulebook/4/glossary"),
        ("/rules/2e-rulebook/call-to-arms/term/", "/rules/2e-rulebook/call-to-arms/glossary"),
        ("/rules/2e-rulebook/4/term/Battle/", "/rules/2e-rulebook/4/term/Battle"),
        # One version to compare: what it changed from the one before it, the query kept.
        ("/diff/2e-rulebook/4", "/diff/2e-rulebook/call-to-arms..4"),
        ("/diff/2e-rulebook/v4?view=side", "/diff/2e-rulebook/call-to-arms..4?view=side"),
        ("/diff/2e-rulebook/call-to-arms", "/diff/2e-rulebook/1.1..call-to-arms"),
        # Its JSON alike: the JSON twin of the comparison the page opens, versions as judges
        # write them, the query kept; the page's pair as the page writes it, that pair's JSON.
        ("/api/diff/2e-rulebook/4", "/api/diff/2e-rulebook/call-to-arms/4"),
        ("/api/diff/2e-rulebook/v4", "/api/diff/2e-rulebook/call-to-arms/4"),
        (
            "/api/diff/2e-rulebook/V4?typography=show",
            "/api/diff/2e-rulebook/call-to-arms/4?typography=show",
        ),
        ("/api/diff/2e-rulebook/cta", "/api/diff/2e-rulebook/1.1/call-to-arms"),
        ("/api/diff/2e-rulebook/1.1..4", "/api/diff/2e-rulebook/1.1/4"),
        ("/api/diff/2e-rulebook/v1.1..version-4", "/api/diff/2e-rulebook/1.1/4"),
    ],
)
def test_an_address_that_can_mean_one_page_opens_it(client, path, location):
    response = client.get(path)
    assert (response.status_code, response.location) == (308, location)


@pytest.mark.parametrize(
    ("path", "says", "links"),
    [
        (
            "/rules/2e-rulebook/1.1/term/",
            "2E Rulebook v1.1 has no glossary: a glossary term's address is "
            "/rules/<document>/<version>/term/<term>, in a version that has one",
            ["/rules/2e-rulebook/4/glossary", "/rules/2e-rulebook/call-to-arms/glossary"],
        ),
        (
            "/rulings/1e-current-rulings/2000-02-28/term",
            "1E Current Rulings 2/28/00 has no glossary",
            ["/rules/2e-rulebook/4/glossary", "/rules/2e-rulebook/call-to-arms/glossary"],
        ),
        (
            "/history/2e-rulebook",
            "This address is cut short: a rule's history is at /history/2e-rulebook/<rule id>. "
            "Open the rule and follow its “History” link, or compare two versions whole.",
            ["/rules/2e-rulebook/4/", "/diff/2e-rulebook"],
        ),
        (
            "/history/",
            "a rule's history is at /history/<document>/<rule id>.",
            [
                "/rules/2e-rulebook/4/",
                "/rulings/1e-current-rulings/2000-02-28/",
                "/diff/2e-rulebook",
            ],
        ),
        (
            "/show/rules/2e-rulebook/4/",
            "This address is cut short: a rule shown to a player is at "
            "/show/rules/2e-rulebook/4/<rule id>. Open the rule and tap “Show to a player”.",
            ["/rules/2e-rulebook/4/"],
        ),
        (
            "/show/cards/1e",
            "a card shown to a player is at /show/cards/1e/<card id>.",
            ["/cards?edition=1E"],
        ),
        (
            "/show",
            "“Show to a player” shows one rule, card or published ruling.",
            ["/rules/2e-rulebook/4/", "/rulings/1e-current-rulings/2000-02-28/"],
        ),
        (
            "/diff/2e-rulebook/1.1",
            "v1.1 is the first held here, so nothing came before it",
            ["/diff/2e-rulebook/1.1..call-to-arms", "/diff/2e-rulebook/1.1..4"],
        ),
        (
            "/diff/2e-rulebook/..4",
            "a comparison names two versions, from..to: '..4' names one",
            ["/diff/2e-rulebook/1.1..4", "/diff/2e-rulebook/call-to-arms..4"],
        ),
        (  # a version as judges write it, on either side
            "/diff/2e-rulebook/v4..",
            "a comparison names two versions, from..to: 'v4..' names one",
            ["/diff/2e-rulebook/4..1.1", "/diff/2e-rulebook/4..call-to-arms"],
        ),
        (
            "/diff/2e-rulebook/..cta",
            "a comparison names two versions, from..to: '..cta' names one",
            ["/diff/2e-rulebook/1.1..call-to-arms", "/diff/2e-rulebook/4..call-to-arms"],
        ),
        ("/diff/2e-rulebook/..x", "unknown version 'x' of '2e-rulebook'", []),
        (
            "/diff/2e-rulebook/..",
            "a comparison names two versions, from..to: '..' names none",
            ["/diff/2e-rulebook"],
        ),
        (
            "/diff/1e-current-rulings/2000-02-28",
            "1E Current Rulings has one version held here, so there is nothing to compare it with",
            ["/rulings/1e-current-rulings/2000-02-28/"],
        ),
        (
            "/api/entries/2e-rulebook/4",
            "This address is cut short: an entry's JSON is at /api/entries/2e-rulebook/4/<entry "
            "id>. Each version's JSON lists its entries' ids.",
            ["/api/documents/2e-rulebook/4"],
        ),
        (
            "/api/documents/2e-rulebook",
            "a version's JSON is at /api/documents/2e-rulebook/<version>.",
            [
                "/api/documents/2e-rulebook/4",
                "/api/documents/2e-rulebook/call-to-arms",
                "/api/documents/2e-rulebook/1.1",
            ],
        ),
        (
            "/api/diff/2e-rulebook/v1.1",
            "a comparison's JSON names two versions, /api/diff/<document>/<from>/<to>: v1.1 is the "
            "first held here, so nothing came before it",
            ["/api/diff/2e-rulebook/1.1/call-to-arms", "/api/diff/2e-rulebook/1.1/4"],
        ),
        (
            "/api/diff/1e-current-rulings/2000-02-28",
            "1E Current Rulings has one version held here, so there is nothing to compare it with",
            ["/api/documents/1e-current-rulings/2000-02-28"],
        ),
        (
            "/api/diff/2e-rulebook/..v4",
            "'..v4' names one; its comparisons with each other version held are linked here",
            ["/api/diff/2e-rulebook/1.1/4", "/api/diff/2e-rulebook/call-to-arms/4"],
        ),
        ("/api/diff/2e-rulebook/..", "'..' names none", ["/api/diff/2e-rulebook"]),
        (
            "/api/diff/2e-rulebook/v5",
            "expected two versions as /api/diff/<document>/<from>/<to>, e.g. "
            "/api/diff/2e-rulebook/1.1/4; got 'v5'",
            [],
        ),
        ("/api/diff/2e-rulebook/v4..x", "unknown version 'x' of '2e-rulebook'", []),
        (  # the API's addresses stay exact: a slash at the end is named, not redirected
            "/api/diff/2e-rulebook/4/",
            "no such address: the API's addresses have no slash at their end "
            "('/api/diff/2e-rulebook/4')",
            ["/api/diff/2e-rulebook/4"],
        ),
        ("/api/cards/2e/", "a card's JSON is at /api/cards/2e/<card id>.", ["/api/cards"]),
        (
            "/api/timing/",
            "no such address: the API's addresses have no slash at their end ('/api/timing')",
            ["/api/timing"],
        ),
        ("/api", "the API's addresses are listed.", ["/api/documents", "/api/search"]),
    ],
)
def test_an_address_cut_short_says_what_it_lacks_and_links_what_completes_it(
    client, path, says, links
):
    response = client.get(path)
    sane(response, path)
    assert response.status_code == 404
    assert says in _message(response).replace("&#39;", "'").replace("&lt;", "<").replace(
        "&gt;", ">"
    )
    assert set(links) <= set(_links(response)), _links(response)


@pytest.mark.parametrize(
    "version",
    ["1.1", "v1.1", "call-to-arms", "CTA", "4", "v4", "version-4", "aug-2003", "v5", "..4", "4.."],
)
@pytest.mark.parametrize("document", ["2e-rulebook", "1e-current-rulings"])
def test_a_comparisons_json_cut_short_answers_as_its_page(client, document, version):
    """/api/diff/<document>/<version> answers as /diff/<document>/<version>: a 308 to the JSON
    twin of the comparison the page opens, or a 404 in the page's words linking the JSON of
    what the page links."""
    page = client.get(f"/diff/{document}/{version}")
    api = client.get(f"/api/diff/{document}/{version}")
    sane(api, version)
    assert api.status_code == page.status_code and page.status_code in (308, 404)
    if page.status_code == 308:
        old, new = page.location.rsplit("/", 1)[1].split("..")
        assert api.location == f"/api/diff/{document}/{old}/{new}"
        assert client.get(api.location).status_code == 200
        return
    # The page's words, with the JSON's addresses for the page's.
    said = _message(api).replace(
        "a comparison's JSON names two versions, /api/diff/<document>/<from>/<to>",
        "a comparison names two versions, from..to",
    )
    said = said.replace("/api/diff/<document>/<from>/<to>", "<from>..<to>")
    said = re.sub(r"/api/diff/([^/ ]+)/([^/ ]+)/([^/ ;]+)", r"/diff/\1/\2..\3", said)
    assert said == _message(page).replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">")
    twins = [
        re.sub(r"^/diff/([^/]+)/(.+)\.\.(.+)$", r"/api/diff/\1/\2/\3", u) for u in _links(page)
    ]
    twins = [u.replace("/rulings/", "/api/documents/").rstrip("/") for u in twins]
    # Where neither links what completes it (a version unknown), the page adds the 404 page's
    # guesses (suggest.py), pages only.
    assert _links(api) == (twins if "nearest" in api.get_json() else [])
    for url in _links(api):
        assert client.get(url).status_code == 200, url


def test_other_404s_keep_their_own_words(client):
    """An address that begins no route (or names something unknown) is not read as cut short."""
    assert "unknown document 'nope'" in _message(client.get("/api/entries/nope"))
    response = client.get("/rules/2e-rulebook/4/beamin")
    assert "unknown entry 'beamin'" in _message(response).replace("&#39;", "'")
    assert "/rules/2e-rulebook/4/beaming" in _links(response)


def test_the_ruling_forms_address_opened_is_the_events_page(client):
    """GET /event/rulings (the form posts there; typed, or the form's answer reloaded): the
    event's page, which lists its rulings, not a 405; with a slash too."""
    response = client.get("/event/rulings")
    assert (response.status_code, response.location) == (302, "/event")
    assert client.get("/event/rulings/", follow_redirects=True).request.path == "/event"


def test_an_api_address_with_a_slash_links_it_without_only_if_that_answers(client):
    """A slash at an API address's end: the address without it linked where it answers (the
    query kept); where it would not (an unknown version), no link, and what was given cut to 80
    characters."""
    response = client.get("/api/timing/?version=4")
    assert response.status_code == 404 and _links(response) == ["/api/timing?version=4"]
    # A version as judges write it: the address without the slash redirects to the version's.
    response = client.get("/api/documents/2e-rulebook/v4/")
    assert _links(response) == ["/api/documents/2e-rulebook/v4"]
    long = "/api/documents/2e-rulebook/" + "y" * 500
    response = client.get(long + "/")
    sane(response, long)
    said = _message(response)
    assert response.status_code == 404 and _links(response) == []
    assert "try it without the slash" in said and "y" * 81 not in said and len(said) < 250, said
    assert client.get(long).status_code == 404  # which is why it is not linked


@pytest.mark.parametrize(
    "path",
    [
        "/show/cards/%3Cscript%3E",
        "/show/event/published/",
        "/history/" + "x" * 500,
        "/api/entries/2e-rulebook/" + "%3Cb%3E" * 60,
        "/show/rules/2e-rulebook/" + "é" * 400,
        "/api/history/%00",
        "/api/cards/" + "y" * 500,
        "/api/events/1/rulings/%3Cb%3E" + "z" * 300,
        "/api/documents/2e-rulebook/" + "y" * 500 + "/",
        "/api/entries/2e-rulebook/4/" + "%3Cb%3E" * 60 + "/",
    ],
)
def test_a_hostile_address_cut_short_is_a_short_escaped_404(client, path):
    """What the address gave is quoted cut to 80 characters, escaped, never a 500."""
    response = client.get(path)
    body = sane(response, path)
    assert response.status_code == 404
    assert "<script>" not in body and "<b>" not in body
    assert len(_message(response)) < 400, _message(response)
