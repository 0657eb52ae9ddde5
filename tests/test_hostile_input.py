"""Hostile input on every route of the real app: odd paths, query values, methods and headers.

The house standard: any input gets a clear answer and breaks nothing. Every response here is
checked by ``sane``: never a 5xx, never the injected markup unescaped in HTML, and on /api an
error is always ``{"error", "status", "message"}``. The routes come from ``app.url_map``, so a new
route fails ``test_every_route_is_attacked`` until it is added to ``VALID`` below.
"""

from __future__ import annotations

import re

import pytest
from markupsafe import escape
from werkzeug.test import EnvironBuilder, run_wsgi_app

from judgekit.search import analysis as search_text

XSS = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'

# One working set of path arguments per endpoint (ids that every version of a document holds).
BOOK, RULINGS = "2e-rulebook", "1e-current-rulings"
VALID: dict[str, tuple[dict[str, str], dict[str, str], int]] = {
    # endpoint: (path arguments, query, status of a GET)
    "rules.home": ({}, {}, 200),
    "rules.document_home": ({"document": BOOK}, {}, 302),
    "rules.version": ({"document": BOOK, "version": "4"}, {}, 200),
    "rules.entry": ({"document": BOOK, "version": "4", "entry_id": "beaming"}, {}, 200),
    "rulings.document_home": ({"document": RULINGS}, {}, 302),
    "rulings.version": ({"document": RULINGS, "version": "2000-02-28"}, {}, 200),
    "rulings.entry": (
        {"document": RULINGS, "version": "2000-02-28", "entry_id": "away-team"},
        {},
        200,
    ),
    "rules.term": ({"document": BOOK, "version": "4", "term": "Stopped"}, {}, 302),
    "api.documents": ({}, {}, 200),
    "api.term": ({"document": BOOK, "version": "4", "term": "stopped"}, {}, 200),
    "api.version": ({"document": BOOK, "version": "4"}, {}, 200),
    "api.entry": ({"document": BOOK, "version": "4", "entry_id": "beaming"}, {}, 200),
    "api_compare.history": ({"document": BOOK, "entry_id": "beaming"}, {}, 200),
    "api_search.search": ({}, {"q": "beam"}, 200),
    "api_timing.timing_index": ({}, {}, 200),
    "api_timing.timing_first_edition": ({}, {}, 200),
    "api_timing.timing_sequence": ({"sequence_id": "mission-attempt"}, {}, 200),
    "api_timing.timing_calculate": ({"sequence_id": "mission-attempt"}, {"personnel": "5"}, 200),
    "api_compare.diff_pairs": ({"document": BOOK}, {}, 200),
    "api_compare.diff_versions": ({"document": BOOK, "old": "1.1", "new": "4"}, {}, 200),
    "api_compare.diff_marked": ({"document": RULINGS, "version": "2000-02-28"}, {}, 200),
    "diff.index": ({}, {}, 200),
    "diff.document": ({"document": BOOK}, {}, 200),
    "diff.compare": ({"document": BOOK, "pair": "1.1..4"}, {}, 200),
    "diff.marked": ({"document": RULINGS, "version": "2000-02-28"}, {}, 200),
    "diff.history": ({"document": BOOK, "entry_id": "beaming"}, {}, 200),
    "search.search": ({}, {"q": "beam"}, 200),
    "search.results": ({}, {"q": "beam"}, 200),
    "search.edition": ({}, {"choice": "2E", "next": "/search"}, 303),
    "timing.index": ({}, {}, 200),
    "timing.first_edition": ({}, {}, 200),
    "timing.sequence": ({"sequence_id": "mission-attempt"}, {}, 200),
    "static": ({"filename": "css/judgekit.css"}, {}, 200),
    "cards.index": ({}, {"q": "borg", "edition": "2e"}, 200),
    "cards.edition_index": ({"edition": "2e"}, {}, 308),
    "cards.card": ({"edition": "2e", "card_id": "uss-galaxy"}, {}, 200),
    "api_cards.cards": ({}, {}, 200),
    "api_cards.card": ({"edition": "1e", "card_id": "devidian-door"}, {}, 200),
    "pack.qr": ({}, {}, 200),
    "pack.pack_zip": ({}, {}, 503),  # built in the background; 503 + Retry-After until ready
    "pack.pack_status": ({}, {}, 200),
    "phone.page": ({}, {}, 200),
    "phone.pack_qr": ({}, {}, 404),  # no published pack named (test_phone.py names one)
    "show.card": ({"edition": "2e", "card_id": "uss-galaxy"}, {}, 200),
    "show.published": ({"number": "1"}, {}, 404),  # no event running
    "show.entry": (
        {"area": "rules", "document": BOOK, "version": "4", "entry_id": "beaming"},
        {},
        200,
    ),
    "api_phone.phone": ({}, {}, 200),
    # The event's rulings: no event runs here; GETs of write-only routes are 405s; the client is
    # this computer (127.0.0.1, Host localhost), so the laptop's pages answer.
    "events.event": ({}, {"q": "beam", "round": "2"}, 200),
    "events.join": ({}, {}, 405),
    "events.leave": ({}, {}, 405),
    "events.new_ruling": ({}, {"cite": "entry:2e-rulebook/4/beaming"}, 401),
    "events.record": ({}, {}, 302),  # its GET is rulings': the event's page
    "events.rulings": ({}, {}, 302),
    "events.ruling": ({"number": "1"}, {}, 401),
    "events.revise": ({"number": "1"}, {}, 405),
    "events.published": ({}, {}, 200),
    "events.published_ruling": ({"number": "1"}, {}, 404),  # no event running
    "events.export_json": ({}, {}, 401),
    "events.export_csv": ({}, {}, 401),
    "events.printable": ({}, {}, 401),
    "events.desk": ({}, {}, 200),
    "events.change_code": ({}, {}, 405),
    "events.remove_judge": ({}, {}, 405),
    "events.let_back_in": ({}, {}, 405),
    "events.clear_guesses": ({}, {}, 405),
    "events.new_event": ({}, {}, 200),
    "events.create_event": ({}, {}, 200),  # its GET is new_event's form
    "api_events.event": ({"event_id": "1"}, {"q": "beam"}, 404),
    "api_events.ruling": ({"event_id": "1", "number": "1"}, {}, 401),
    "api_events.record": ({"event_id": "1"}, {}, 405),
    "api_events.revise": ({"event_id": "1", "number": "1"}, {}, 405),
    "api_events.join": ({"event_id": "1"}, {}, 405),
    "api_events.session": ({}, {}, 200),
    "api_events.published": ({"event_id": "1"}, {}, 404),
    "api_events.published_ruling": ({"event_id": "1", "number": "1"}, {}, 404),
    "api_events.remove_judge": ({"event_id": "1"}, {}, 405),
}


def path_of(app, endpoint: str, **args: str) -> str:
    """The rule's path with its arguments put in as given (already URL-encoded, not escaped)."""
    (rule,) = app.url_map.iter_rules(endpoint)
    values = {**VALID[endpoint][0], **args}
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", lambda m: values[m.group(1)], rule.rule)


def sane(response, path: str):
    """What every answer must be, whatever was asked; returns the body."""
    problem = flaw(response, path)
    assert problem is None, (path[:200], problem)
    return response.get_data(as_text=True)


def flaw(response, path: str) -> str | None:
    """What is wrong with an answer (a 5xx, markup reflected, a malformed API error), or None."""
    body = response.get_data(as_text=True)
    # The pack's zip, not built yet, is the one 503 expected: "try again in N s", not a crash.
    waiting = response.status_code == 503 and "Retry-After" in response.headers
    if response.status_code >= 500 and not (waiting and path.startswith("/pack.zip")):
        return f"{response.status_code}: {body[:300]}"
    if response.mimetype == "text/html" and (XSS in body or "<img src=x" in body):
        return "markup reflected unescaped"
    if path.startswith("/api/") and response.status_code >= 400:
        data = response.get_json()
        # "nearest": the real pages a 404 names (timing sequences), a list of links.
        keys = set(data) - ({"nearest"} if isinstance(data.get("nearest"), list) else set())
        if keys != {"error", "status", "message"} or data["status"] != response.status_code:
            return f"malformed API error {data}"
    return None


def outcomes(answers) -> dict[str, object]:
    """Each case's status, or what was wrong with its answer: one dict to compare at once."""
    return {name: flaw(response, path) or response.status_code for name, path, response in answers}


def test_every_route_is_attacked(app):
    routes = {rule.endpoint: set(rule.arguments) for rule in app.url_map.iter_rules()}
    assert routes == {endpoint: set(args) for endpoint, (args, _, _) in VALID.items()}


@pytest.mark.parametrize("endpoint", sorted(VALID))
def test_every_route_answers_its_valid_arguments(app, client, endpoint):
    _, query, status = VALID[endpoint]
    path = path_of(app, endpoint)
    get = client.get(path, query_string=query)
    sane(get, path)
    assert get.status_code == status
    head = client.head(path, query_string=query)
    assert head.status_code == status and head.data == b""
    assert head.headers["Content-Type"] == get.headers["Content-Type"]


# -- path segments ------------------------------------------------------------------------------
SEGMENTS = {
    "dotdot": "..",
    "encoded-dotdot": "%2e%2e",
    "nul": "%00",
    "bad-utf8": "%ff",
    "overlong": "a" * 5000,
    "script": XSS,  # its "/" makes it two segments, as a browser would send it
    "img": "%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
    "unicode": "é🖖🚀",
    "control": "%01%0a%1f%7f",
    "rtl-override": "%E2%80%AE4",
    "quotes": "%22%27",
    "percent": "%25",
    "lone-percent": "%",
    "dotted": "1.1.",
    "dot": ".",
}
SEGMENT_CASES = [
    pytest.param(endpoint, arg, id=f"{endpoint}-{arg}")
    for endpoint in sorted(VALID)
    for arg in VALID[endpoint][0]
]


@pytest.mark.parametrize(("endpoint", "arg"), SEGMENT_CASES)
def test_hostile_path_segments_are_404s(app, client, endpoint, arg):
    answers = []
    for name, segment in SEGMENTS.items():
        path = path_of(app, endpoint, **{arg: segment})
        answers.append((name, path, client.get(path, query_string=VALID[endpoint][1])))
    assert outcomes(answers) == dict.fromkeys(SEGMENTS, 404)


NOT_FOUND = (
    "The requested URL was not found on the server. "
    "If you entered the URL manually please check your spelling and try again."
)


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (f"/api/documents/{XSS}/4", NOT_FOUND),  # its "/" makes two segments: no route
        ("/api/documents/%3Cb%3E/4", "unknown document '<b>'"),
        (
            f"/api/documents/{BOOK}/1.1.",
            "unknown version '1.1.' of '2e-rulebook' (known: 1.1, call-to-arms, 4)",
        ),
        (
            f"/api/documents/{BOOK}/%2e%2e",
            "unknown version '..' of '2e-rulebook' (known: 1.1, call-to-arms, 4)",
        ),
        (f"/api/entries/{BOOK}/4/%00", "unknown entry '\\x00' in '2e-rulebook' '4'"),
        (f"/api/entries/{BOOK}/4/%ff", "unknown entry '\ufffd' in '2e-rulebook' '4'"),
        (f"/api/history/{BOOK}/é🖖", "unknown entry 'é🖖' in '2e-rulebook' (in no version)"),
        ("/api/diff/1e-glossary", "unknown document '1e-glossary'"),
        (
            f"/api/diff/{BOOK}/4/new",
            "'2e-rulebook' is a rulebook: only rulings documents mark entries new or changed (*)",
        ),
        (
            "/api/timing/%22%3E",
            "unknown timing sequence '\">' (known: mission-attempt, turn, response-actions, play-interrupt, combat, engagement, move-ship, win, setup, game-end-in-attempt, counters, end-of-turn, stopped, beaming, play-card, modifications, dilemma-actions)",
        ),
        ("/api/timing/turn/calculate", "sequence 'turn' 4 has no calculator"),
    ],
)
def test_api_404_messages(client, path, message):
    response = client.get(path)
    sane(response, path)
    assert response.status_code == 404
    data = response.get_json()
    if "nearest" in data:
        # Nothing is near a hostile name: every sequence is linked (test_timing_nearest.py).
        assert [n["url"].split("?")[0] for n in data.pop("nearest")][:2] == [
            "/timing/mission-attempt",
            "/timing/turn",
        ]
    assert data == {"error": "Not Found", "status": 404, "message": message}


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/rules/%3Cb%3E/4/beaming", "unknown document '<b>'"),
        (
            "/rules/2e-rulebook/%3Cb%3E/",
            "unknown version '<b>' of '2e-rulebook' (known: 1.1, call-to-arms, 4)",
        ),
        (
            "/rulings/1e-current-rulings/2000-02-28/%27%3E",
            "unknown entry \"'>\" in '1e-current-rulings' '2000-02-28'",
        ),
        ("/history/2e-rulebook/%3Cb%3E", "unknown entry '<b>' in '2e-rulebook' (in no version)"),
        (
            "/timing/%3Cb%3E",
            "unknown timing sequence '<b>' (known: mission-attempt, turn, response-actions, play-interrupt, combat, engagement, move-ship, win, setup, game-end-in-attempt, counters, end-of-turn, stopped, beaming, play-card, modifications, dilemma-actions)",
        ),
    ],
)
def test_page_404_messages_are_escaped(client, path, message):
    response = client.get(path)
    body = sane(response, path)
    assert response.status_code == 404
    assert f'<p class="error-message">{escape(message)}</p>' in body
    assert "<b>" not in body.split("<main")[1]


@pytest.mark.parametrize(
    ("path", "status", "location"),
    [
        ("/rules/2e-rulebook", 308, "/rules/2e-rulebook/"),
        ("/rules/2e-rulebook/4", 308, "/rules/2e-rulebook/4/"),
        ("/rules/2e-rulebook/1.1", 308, "/rules/2e-rulebook/1.1/"),
        ("/rules//2e-rulebook/4/", 308, "/rules/2e-rulebook/4/"),
        ("/rules/2e-rulebook/4//beaming", 308, "/rules/2e-rulebook/4/beaming"),
        ("/api//documents", 308, "/api/documents"),
        ("//", 308, "/"),
        ("/rules/2e-rulebook/", 302, "/rules/2e-rulebook/4/"),
        ("/rules/1e-current-rulings/2000-02-28/", 308, "/rulings/1e-current-rulings/2000-02-28/"),
        ("/rulings/2e-rulebook/4/beaming", 308, "/rules/2e-rulebook/4/beaming"),
        ("/rules/2e-rulebook/1.1/", 200, None),
        ("/api/documents/2e-rulebook/1.1", 200, None),
        ("/api/diff/2e-rulebook/1.1/call-to-arms", 200, None),
        ("/api/entries/2e-rulebook/1.1/beaming", 200, None),
        ("/rules/2e-rulebook/4/beaming/", 308, "/rules/2e-rulebook/4/beaming"),  # issue #12
        ("/rules/2e-rulebook/1.1./", 404, None),
        ("/rules/2e-rulebook/1..1/", 404, None),
        ("/rules//", 308, "/"),  # the list of what is held (web/partial.py)
        ("/api/documents/", 404, None),
        ("/api/diff/2e-rulebook/1.1/4/", 404, None),
        ("/api/timing/mission-attempt/calculate/", 404, None),
        ("/search/", 308, "/search"),
        ("/timing/", 308, "/timing"),
        ("/timing/mission-attempt/", 308, "/timing/mission-attempt"),
        ("/diff/", 308, "/diff"),
        ("/diff/2e-rulebook/1.1..4/", 308, "/diff/2e-rulebook/1.1..4"),
        ("/history/2e-rulebook/", 404, None),
        ("/history/2e-rulebook/beaming/", 308, "/history/2e-rulebook/beaming"),
        ("/cards/", 308, "/cards"),
        ("/cards/2e/", 308, "/cards?edition=2E"),
        ("/search/?q=beam&edition=2E", 308, "/search?q=beam&edition=2E"),
        (
            "/timing/mission-attempt/?version=4&step=2",
            308,
            "/timing/mission-attempt?version=4&step=2",
        ),
        ("/timing//", 308, "/timing"),
        ("/timing/" + "x" * 512 + "/", 308, "/timing/" + "x" * 512),
        ("/timing/" + "x" * 513 + "/", 404, None),  # the request limits hold (web/limits.py)
        ("/api/timing/", 404, None),
        ("/rules/", 308, "/"),
        ("/static/", 404, None),
        ("/static/..%2f..%2fpyproject.toml", 404, None),
        ("/static/css/../../__init__.py", 404, None),
        ("/static/css/judgekit.css%00.js", 404, None),
    ],
)
def test_slashes_and_dotted_ids(client, path, status, location):
    response = client.get(path)
    sane(response, path)
    assert response.status_code == status
    assert response.location == location


# -- /diff/<doc>/<a>..<b> -----------------------------------------------------------------------
KNOWN_2E = "(known: 1.1, call-to-arms, 4)"
LINKED = "its comparisons with each other version held are linked here"


@pytest.mark.parametrize(
    ("pair", "status", "message"),
    [
        ("1.1..4", 200, None),
        ("4..1.1", 200, None),
        ("4..4", 200, None),
        ("call-to-arms..4", 200, None),
        # No side given: the document's comparisons linked; an empty side is never "unknown".
        (
            "..",
            404,
            "a comparison names two versions, from..to: '..' names none; the comparisons of 2E "
            "Rulebook are linked here",
        ),
        ("...", 404, f"unknown version '.' of '2e-rulebook' {KNOWN_2E}"),
        ("....", 404, f"unknown version '..' of '2e-rulebook' {KNOWN_2E}"),
        # One side given: that version's comparisons linked (web/lookup.py: find_pair).
        ("4..", 404, f"a comparison names two versions, from..to: '4..' names one; {LINKED}"),
        ("..4", 404, f"a comparison names two versions, from..to: '..4' names one; {LINKED}"),
        ("4..4..4", 404, f"unknown version '4..4' of '2e-rulebook' {KNOWN_2E}"),
        ("1.1...4", 404, f"unknown version '.4' of '2e-rulebook' {KNOWN_2E}"),
        ("1.1..1.1..4", 404, f"unknown version '1.1..4' of '2e-rulebook' {KNOWN_2E}"),
        ("x..4", 404, f"unknown version 'x' of '2e-rulebook' {KNOWN_2E}"),
        ("%3Cb%3E..4", 404, f"unknown version '<b>' of '2e-rulebook' {KNOWN_2E}"),
        # One version: what it changed from the one before it; the first has none before it.
        ("4", 308, None),
        (
            "1.1",
            404,
            "a comparison names two versions, from..to: v1.1 is the first held here, so nothing"
            " came before it; its comparisons with each later version are linked",
        ),
        (
            "%00",
            404,
            "expected two versions as <from>..<to>, e.g. /diff/2e-rulebook/1.1..4; got '\\x00'",
        ),
    ],
)
def test_diff_pairs(client, pair, status, message):
    path = f"/diff/{BOOK}/{pair}"
    response = client.get(path)
    body = sane(response, path)
    assert response.status_code == status
    if message:
        assert f'<p class="error-message">{escape(message)}</p>' in body


def test_a_pair_of_a_one_version_document(client):
    response = client.get(f"/diff/{RULINGS}/2000-02-28..2000-02-28")
    sane(response, "/diff")
    assert response.status_code == 200
    response = client.get(f"/diff/{RULINGS}/1.1..4")
    body = sane(response, "/diff")
    assert response.status_code == 404
    assert escape("unknown version '1.1' of '1e-current-rulings' (known: 2000-02-28)") in body


# -- query parameters ---------------------------------------------------------------------------
VALUES = {
    "empty": "",
    "blank": "   ",
    "negative": "-1",
    "zero": "0",
    "huge": "1e100",
    "bignum": "9" * 400,
    "word": "abc",
    "script": XSS,
    "img": IMG,
    "quotes": "'\"",
    "unicode": "é🖖🚀",
    "nul": "\x00",
    "control": "\x01\x1f\x7f",
    "overlong": "a" * 5000,
}
BLANK = ("empty", "blank")
SEARCH = ("/api/search", "/search", "/search/results")
CALC = {"personnel": "5"}
# (paths, fixed query, parameter, status of a hostile value, {value name: other status})
PARAM_SPECS = [
    (("/api/search",), {}, "q", 200, {"overlong": 400}),
    # The pages search an overlong question's first 500 characters, and say so.
    (("/search", "/search/results"), {}, "q", 200, {}),
    (SEARCH, {"q": "beam"}, "limit", 400, dict.fromkeys(BLANK, 200)),
    (SEARCH, {"q": "beam"}, "version", 400, dict.fromkeys(BLANK, 200)),
    (SEARCH, {"q": "beam"}, "document", 400, dict.fromkeys(BLANK, 200)),
    (SEARCH, {"q": "beam"}, "kind", 400, dict.fromkeys(BLANK, 200)),
    (SEARCH, {"q": "beam"}, "edition", 400, dict.fromkeys(BLANK, 200)),
    (SEARCH, {"q": "beam"}, "all_versions", 400, dict.fromkeys((*BLANK, "zero"), 200)),
    (("/search", "/search/results"), {"q": "beam"}, "compact", 200, {}),
    (("/timing/mission-attempt",), {}, "version", 404, {"empty": 200}),
    (("/timing/mission-attempt",), {}, "step", 404, {"empty": 200}),
    (("/timing/mission-attempt",), {}, "personnel", 400, dict.fromkeys(BLANK, 200)),
    (("/api/timing/mission-attempt",), {}, "version", 404, {"empty": 200}),
    (("/api/timing/mission-attempt/calculate",), CALC, "version", 404, {"empty": 200}),
    (("/api/timing/mission-attempt/calculate",), {}, "personnel", 400, {}),
    *(
        (
            ("/timing/mission-attempt", "/api/timing/mission-attempt/calculate"),
            {**CALC, "mission": "planet"} if param == "dilemmas" else CALC,
            param,
            400,
            dict.fromkeys(ok, 200),
        )
        for param, ok in [
            ("overcome", (*BLANK, "zero")),
            ("dilemmas", BLANK),
            ("mission", BLANK),
            ("requirements", BLANK),
            ("no_personnel_after", (*BLANK, "zero")),
        ]
    ),
    (("/diff/2e-rulebook/1.1..4", "/history/2e-rulebook/beaming"), {}, "view", 400, {}),
    (
        (
            "/diff/2e-rulebook/1.1..4",
            "/history/2e-rulebook/beaming",
            "/api/diff/2e-rulebook/1.1/4",
            "/api/history/2e-rulebook/beaming",
        ),
        {},
        "typography",
        400,
        {},
    ),
    (("/diff",), {"from": "1.1", "to": "4"}, "document", 404, dict.fromkeys(BLANK, 400)),
    (("/diff",), {"document": BOOK, "to": "4"}, "from", 404, dict.fromkeys(BLANK, 400)),
    (("/diff",), {"document": BOOK, "from": "1.1", "to": "4"}, "view", 400, {}),
    (("/diff",), {"document": BOOK, "from": "1.1", "to": "4"}, "typography", 400, {}),
    (("/diff",), {}, "view", 200, {}),  # nothing to compare yet: the picker
    (
        ("/", "/timing", "/api/timing", "/api/documents", f"/diff/{RULINGS}/2000-02-28/new"),
        {},
        "q",
        200,
        {},
    ),
]
PARAM_CASES = [
    pytest.param(path, fixed, param, status, overrides, id=f"{path}-{param}")
    for paths, fixed, param, status, overrides in PARAM_SPECS
    for path in paths
]


@pytest.mark.parametrize(("path", "fixed", "param", "status", "overrides"), PARAM_CASES)
def test_hostile_query_values(client, path, fixed, param, status, overrides):
    answers = [
        (name, path, client.get(path, query_string={**fixed, param: value}))
        for name, value in VALUES.items()
    ]
    assert outcomes(answers) == {name: overrides.get(name, status) for name in VALUES}


LONG = "9" * 40 + "…"
TOO_LONG = (
    "the question is too long to search: {} characters, and a search reads at most 500. Ask it "
    "in fewer words (a card's name, or a few words of the rule), or send its first part: the "
    "search page searches the first 500 characters and says what it left out"
)
VERSIONS_2E = (
    "2E Rulebook v4 (April 2015) as version=4, 2E Rulebook Call to Arms (August 2003) as"
    " version=call-to-arms, 2E Rulebook v1.1 (Version 1.1 from 08/19/2003) as version=1.1"
)
SEARCH_MESSAGES = [
    ({"q": "a" * 5000}, TOO_LONG.format("5,000")),
    ({"q": "a" * 501}, TOO_LONG.format("501")),
    ({"limit": "1e100"}, "limit must be a whole number from 1 to 100, not '1e100'"),
    ({"limit": "9" * 400}, f"limit must be a whole number from 1 to 100, not '{LONG}'"),
    ({"limit": "0"}, "limit must be a whole number from 1 to 100, not '0'"),
    ({"limit": "-1"}, "limit must be a whole number from 1 to 100, not '-1'"),
    ({"limit": "101"}, "limit must be a whole number from 1 to 100, not '101'"),
    ({"limit": "５"}, "limit must be a whole number from 1 to 100, not '５'"),
    (
        {"version": XSS},
        f"unknown version '{XSS}'; the versions held: {VERSIONS_2E}, 1E Current Rulings 2/28/00"
        " as version=2000-02-28",
    ),
    (
        {"document": BOOK, "version": "2000-02-28"},
        f"unknown version '2000-02-28' of 2E Rulebook; the versions held: {VERSIONS_2E}",
    ),
    ({"document": "1e-glossary"}, "document '1e-glossary' is not held in judgekit"),
    (
        {"document": IMG},
        f"unknown document '{IMG}'; the documents held: 2E Rulebook as document=2e-rulebook, 1E"
        " Current Rulings as document=1e-current-rulings",
    ),
    ({"kind": "\x00"}, "unknown kind '\\x00' (known: section, glossary, ruling, step, card)"),
    ({"edition": "3e"}, "unknown edition '3e' (known: 2E, 1E)"),
    ({"all_versions": "-1"}, "all_versions must be 1 or 0, not '-1'"),
]


@pytest.mark.parametrize(("params", "message"), SEARCH_MESSAGES)
def test_search_400_messages(client, params, message):
    response = client.get("/api/search", query_string={"q": "beam", **params})
    sane(response, "/api/search")
    assert response.status_code == 400
    assert response.get_json() == {"error": "Bad Request", "status": 400, "message": message}
    for page in ("/search", "/search/results"):
        response = client.get(page, query_string={"q": "beam", **params})
        body = sane(response, page)
        if "q" in params:  # the pages search its first 500 characters, and say so
            assert response.status_code == 200
            assert "is longer than a search reads (500 characters): it was searched up to" in body
            continue
        assert response.status_code == 400
        assert f'<p class="notice search-error" role="alert">{escape(message)}</p>' in body


CALC_MESSAGES = [
    ({"personnel": ""}, "personnel is required"),
    ({"personnel": "1e100"}, "personnel must be a whole number, not '1e100'"),
    ({"personnel": "9" * 400}, f"personnel is too large: '{LONG}' (it must be from 1 to 999)"),
    ({"personnel": "-1"}, "personnel must be from 1 to 999, not -1"),
    ({"personnel": "1000"}, "personnel must be from 1 to 999, not 1000"),
    ({"overcome": "-1"}, "overcome must be from 0 to 999, not -1"),
    ({"overcome": XSS}, f"overcome must be a whole number, not '{XSS}'"),
    ({"mission": "é🖖🚀"}, "mission must be planet or space, not 'é🖖🚀'"),
    ({"requirements": IMG}, f"requirements must be met or unmet, not '{IMG}'"),
    ({"dilemmas": "planet:1"}, "mission is required with dilemmas (planet or space)"),
    (
        {"mission": "planet", "dilemmas": XSS},
        f"dilemma 1 '{XSS}' must be TYPE:COST or TYPE:COST:dup, e.g. planet:2",
    ),
    (
        {"mission": "planet", "dilemmas": "planet:1, <b>:2"},
        "dilemma 2 has unknown type '<b>' (planet, space or dual)",
    ),
    (
        {"mission": "planet", "dilemmas": "planet:1e100"},
        "dilemma 1 has cost '1e100'; costs are whole numbers from 0 to 99",
    ),
    (
        {"mission": "planet", "dilemmas": ",".join(["dual:0"] * 101)},
        "at most 100 dilemmas, not 101",
    ),
    (
        {"mission": "planet", "dilemmas": "planet:1", "no_personnel_after": "2"},
        "no_personnel_after must be from 0 to 1, not 2",
    ),
]


@pytest.mark.parametrize(("params", "message"), CALC_MESSAGES)
def test_calculator_400_messages(client, params, message):
    path = "/api/timing/mission-attempt/calculate"
    response = client.get(path, query_string={**CALC, **params})
    sane(response, path)
    assert response.status_code == 400
    assert response.get_json() == {"error": "Bad Request", "status": 400, "message": message}
    page = "/timing/mission-attempt"
    response = client.get(page, query_string={**CALC, **params})
    body = sane(response, page)
    if params.get("personnel") == "":  # no calculator parameter left: the plain stepper
        assert response.status_code == 200
    else:
        assert response.status_code == 400
        assert escape(message) in body


@pytest.mark.parametrize(
    ("path", "status", "message"),
    [
        (
            "/api/timing/mission-attempt?version=1.1.",
            404,
            "sequence 'mission-attempt' has no version '1.1.' (known: 1.1, call-to-arms, 4)",
        ),
        (
            "/timing/mission-attempt?version=%20",
            404,
            "sequence 'mission-attempt' has no version ' ' (known: 1.1, call-to-arms, 4)",
        ),
        (
            "/timing/mission-attempt?step=%00",
            404,
            "unknown step '\\x00' in 'mission-attempt' 4; no step is near it, its main steps "
            "are 1, 2, 3, 4, 5",
        ),
        (
            "/timing/mission-attempt?step=%3Cb%3E&version=1.1",
            404,
            "unknown step '<b>' in 'mission-attempt' 1.1; no step is near it, its main steps "
            "are 1, 2, 3, 4, 5",
        ),
        (
            "/api/diff/2e-rulebook/1.1/4?typography=",
            400,
            "typography must be 'hide' or 'show', not ''",
        ),
        (
            "/history/2e-rulebook/beaming?view=%3Cb%3E",
            400,
            "view must be 'inline' or 'side', not '<b>'",
        ),
        ("/diff?document=%20&from=1.1&to=4", 400, "choose a document to compare"),
        ("/diff?document=2e-rulebook&from=4", 400, "choose two versions to compare: from and to"),
        (
            "/diff?document=2e-rulebook&from=4&to=%3Cb%3E",
            404,
            "unknown version '<b>' of '2e-rulebook' (known: 1.1, call-to-arms, 4)",
        ),
        ("/diff?document=1e-glossary&from=1&to=2", 404, "unknown document '1e-glossary'"),
    ],
)
def test_parameter_messages(client, path, status, message):
    response = client.get(path)
    body = sane(response, path)
    assert response.status_code == status
    if path.startswith("/api/"):
        assert response.get_json()["message"] == message
    else:
        assert f'<p class="error-message">{escape(message)}</p>' in body


def test_repeated_parameters_take_the_first(client):
    data = client.get("/api/search?q=beam&limit=2&limit=abc").get_json()
    assert len(data["results"]) == 2
    response = client.get("/api/search?q=beam&limit=abc&limit=2")
    assert response.status_code == 400
    calc = client.get("/api/timing/mission-attempt/calculate?personnel=5&personnel=-1").get_json()
    assert (calc["personnel"], calc["dilemmas_drawn"]) == (5, 5)
    response = client.get("/diff/2e-rulebook/1.1..4?view=side&view=%3Cb%3E")
    assert response.status_code == 200


def test_array_style_parameters_are_other_names(client):
    data = client.get("/api/search?q[]=beam&limit[]=abc").get_json()
    assert (data["query"], data["total"], data["results"]) == ("", 0, [])
    response = client.get("/api/timing/mission-attempt/calculate?personnel[]=5")
    assert response.status_code == 400
    assert response.get_json()["message"] == "personnel is required"


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        ("q=%ff%fe", 200),
        ("q=%", 200),
        ("q=%zz&limit=%", 400),
        ("%ff=%ff", 200),
        ("&&&=&", 200),
        ("q", 200),
    ],
)
def test_malformed_query_strings(client, raw, status):
    for path in ("/api/search", "/search", "/search/results"):
        response = client.get(f"{path}?{raw}")
        sane(response, path)
        assert response.status_code == status


def test_injected_markup_is_shown_escaped(client):
    body = client.get("/search", query_string={"q": XSS}).get_data(as_text=True)
    assert f"<q>{escape(XSS)}</q>" in body
    body = client.get(
        "/timing/mission-attempt", query_string={**CALC, "mission": "planet", "dilemmas": IMG}
    ).get_data(as_text=True)
    assert f'name="dilemmas" value="{escape(IMG)}"' in body
    # The search API writes <, > and ' as \u escapes: no browser could read it as HTML.
    raw = client.get("/api/search", query_string={"q": XSS}).get_data(as_text=True)
    assert "<" not in raw and r"\u003cscript\u003e" in raw


# -- the speller must not blow up on one long word ------------------------------------------------
def test_a_long_word_is_not_spell_checked(monkeypatch, app, client):
    """A 500-character query of compatibility characters grows to one 1,752-letter word under NFKC;
    its deletes of deletes took 13 s and 5 GB for a single request."""
    query = "".join(chr(0x3300 + (i * 7) % 88) for i in range(500))
    speller = app.extensions["judgekit"]["search"].index.speller

    def no_deletes(word):
        raise AssertionError(f"spell-checked a {len(word)}-letter word")

    monkeypatch.setattr(search_text, "_deletes", no_deletes)
    assert speller.correct("x" * (speller.longest + 3)) == []
    response = client.get("/api/search", query_string={"q": query})
    assert response.status_code == 200
    assert response.get_json()["suggestion"] is None


# -- methods ------------------------------------------------------------------------------------
METHODS = ("POST", "PUT", "DELETE", "PATCH", "TRACE")
NOT_ALLOWED = "The method is not allowed for the requested URL."


def _refusal(response, path: str) -> object:
    """What a 405 says: its status, Allow header and message, or what is wrong with it."""
    problem = flaw(response, path)
    if problem:
        return problem
    if path.startswith("/api/"):
        said = response.get_json()
    else:
        said = NOT_ALLOWED in response.get_data(as_text=True)
    return response.status_code, sorted(response.allow), said


# The routes that write (the event's rulings): POST only, or POST beside a GET form.
WRITES = {
    endpoint
    for endpoint in VALID
    if endpoint.startswith(("events.", "api_events.")) and VALID[endpoint][2] == 405
} | {"events.create_event", "events.new_event", "events.record", "events.rulings"}


@pytest.mark.parametrize("endpoint", sorted(WRITES))
def test_a_write_from_nowhere_is_refused_and_other_methods_are_405(app, client, endpoint):
    path = path_of(app, endpoint)
    # No Origin or Referer (a script, a form on no page): refused before anything is read.
    answer = client.post(path, data="x=1", content_type="application/x-www-form-urlencoded")
    assert flaw(answer, path) is None and answer.status_code == 403
    assert "no Origin or Referer" in answer.get_data(as_text=True)
    gets = (
        ["GET", "HEAD"]
        if endpoint.endswith("new_event")
        or endpoint in ("events.create_event", "events.record", "events.rulings")
        else []
    )
    for method in ("PUT", "DELETE", "PATCH", "TRACE"):
        refused = client.open(path, method=method, data="x=1")
        assert _refusal(refused, path)[:2] == (405, sorted([*gets, "OPTIONS", "POST"])), method


@pytest.mark.parametrize("endpoint", sorted(set(VALID) - WRITES))
def test_other_methods_are_405(app, client, endpoint):
    path = path_of(app, endpoint)
    found = {
        method: _refusal(
            client.open(path, method=method, query_string=VALID[endpoint][1], data="x=1"), path
        )
        for method in METHODS
    }
    said = (
        {"error": "Method Not Allowed", "status": 405, "message": NOT_ALLOWED}
        if path.startswith("/api/")
        else True
    )
    assert found == dict.fromkeys(METHODS, (405, ["GET", "HEAD", "OPTIONS"], said))


# -- the Host header ----------------------------------------------------------------------------
def raw_get(app, path: str, host: str):
    """A request with this Host header, past the test client (which decodes it itself)."""
    environ = EnvironBuilder(path=path, headers={"Host": host}).get_environ()
    body, status, headers = run_wsgi_app(app, environ, buffered=True)
    return int(status.split()[0]), headers.get("Content-Type"), b"".join(body).decode()


BAD_HOST = "400 Bad Request: malformed Host header\n"
MALFORMED_HOSTS = ("a..b", ".", "x" * 64, "a." + "b" * 70 + ".c", XSS, "localhost:99999", "[::1")
ODD_HOSTS = ("xn--zz", "xn--a.com", "localhost:8000", "[::1]:8000", "192.168.1.20:8000", "")
HOST_PATHS = ("/", "/nope", "/rules/2e-rulebook/4/beaming", "/search?q=beam", "/api/documents")


@pytest.mark.parametrize("path", HOST_PATHS)
def test_a_malformed_host_is_a_400(app, path):
    found = {host: raw_get(app, path, host)[:2] for host in MALFORMED_HOSTS}
    kind = "application/json" if path.startswith("/api") else "text/plain; charset=utf-8"
    assert found == dict.fromkeys(MALFORMED_HOSTS, (400, kind))
    if not path.startswith("/api"):
        assert raw_get(app, path, "a..b")[2] == BAD_HOST


def test_an_odd_host_gets_the_page_with_links_from_the_configured_address(app):
    found = {}
    for host in ODD_HOSTS:
        status, _, body = raw_get(app, "/rules/2e-rulebook/4/beaming", host)
        found[host] = (status, host in body if host else False)
    assert found == dict.fromkeys(ODD_HOSTS, (200, False))
    body = raw_get(app, "/rules/2e-rulebook/4/beaming", "xn--zz")[2]
    assert f'href="{app.config["BASE_URL"]}/rules/2e-rulebook/4/beaming"' in body


@pytest.mark.parametrize(
    ("path_info", "status", "location"),
    [
        ("//evil.com", 404, None),
        ("//evil.com/rules/2e-rulebook", 404, None),
        ("/\\evil.com/", 404, None),
        ("/rules//evil.com/", 308, "/rules/evil.com/"),
        ("/rules/2e-rulebook//", 308, "/rules/2e-rulebook/"),
        ("/static//css/judgekit.css", 308, "/static/css/judgekit.css"),
    ],
)
def test_no_redirect_leaves_the_host(app, path_info, status, location):
    environ = EnvironBuilder(path="/", headers={"Host": "evil.example"}).get_environ()
    environ["PATH_INFO"] = path_info  # as a server passes it, not as the test client parses it
    _, answer, headers = run_wsgi_app(app, environ, buffered=True)
    assert (int(answer.split()[0]), headers.get("Location")) == (status, location)
