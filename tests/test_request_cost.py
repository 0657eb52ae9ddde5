"""Every request's cost is bounded, whatever its length (issue #26).

For each route and each input a request gives it: the longest value it accepts, one character
more, and an attack from the reliability battery. Each answer is checked (status and message) and
so is its cost: the CPU time of the request in this process (``time.process_time``), its peak
Python allocation and what it leaves allocated (``tracemalloc``), and the size of the answer.

The bounds are ceilings, not speed targets: far above what these requests take (milliseconds,
a few megabytes) so that a loaded machine never fails them, and far below what the code before
issue #26 took on the same input (seconds of CPU for a 404's nearest matches, hundreds of
megabytes for a comparison's pair, a 405 KB error page for a 100 KB address).
"""

from __future__ import annotations

import html
import re
import time
import tracemalloc
from urllib.parse import quote, urlencode

import pytest
from werkzeug.exceptions import NotFound

from judgekit import create_app
from judgekit.compare.diff import split_pair
from judgekit.nearness import MAX_ASKED, close_matches, near_enough
from judgekit.web.errors import MAX_MESSAGE_CHARS, http_error
from judgekit.web.limits import MAX_PARAMS, MAX_PATH_PART, MAX_URL_CHARS

from .test_hostile_input import VALID, path_of

MAX_CPU_S = 0.5
MAX_PEAK = 16 * 1024 * 1024
MAX_KEPT = 4 * 1024 * 1024  # the test client itself keeps its last 128 URLs (urlsplit's cache)
ERROR_BYTES = 8 * 1024  # an error page is a few KB: no echo of a long input
KNOWN_2E = "(known: 1.1, call-to-arms, 4)"
MAIN_STEPS = "no step is near it, its main steps are 1, 2, 3, 4, 5"


WARM_UP = (
    "/search?q=warm",
    "/api/search?q=warm",
    "/rules/2e-rulebook/4/warm",
    "/diff/2e-rulebook/warm..up",
    "/cards/2e/warm",
    "/timing/warm",
    "/timing/mission-attempt?step=warm",
    "/api/timing/mission-attempt/calculate?personnel=5",
)


@pytest.fixture(scope="module")
def client():
    """The real corpus with no page memory, so that each request is answered afresh; its
    first-use work (loading the search index, the card tables...) done before any is measured."""
    client = create_app({"TESTING": True, "PAGE_CACHE_BYTES": 0}).test_client()
    for path in WARM_UP:
        client.get(path)
    return client


_MESSAGE = re.compile(
    r'<p class="(?:error-message|notice search-error|tm-calc-error|notice)"[^>]*>(.*?)</p>', re.S
)


def message_of(response) -> str | None:
    """An error's message: the JSON's, or the page's error paragraph as read."""
    if response.is_json:
        return response.get_json().get("message")
    found = _MESSAGE.search(response.get_data(as_text=True))
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1))) if found else None


def timed(client, path: str):
    """The answer, and the CPU time this process spent on it."""
    start = time.process_time()
    response = client.get(path)
    return response, time.process_time() - start


def traced(client, path: str) -> tuple[int, int]:
    """Asked again, traced (tracing slows Python down several times): the peak allocation, and
    what the app still holds once the answer is dropped."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        client.get(path)
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - before, kept - before


def assert_bounded(client, path: str, max_bytes: int):
    """The cost ceilings every request stays under (CPU first: a slow one fails fast); returns
    the answer."""
    response, cpu = timed(client, path)
    assert cpu <= MAX_CPU_S, f"{cpu:.2f} s of CPU"
    assert len(response.data) <= max_bytes, f"{len(response.data):,} bytes answered"
    peak, kept = traced(client, path)
    assert peak <= MAX_PEAK, f"{peak / 1e6:.0f} MB allocated at the peak"
    assert kept <= MAX_KEPT, f"{kept / 1e6:.1f} MB still allocated after"
    return response


def padded(path: str, length: int) -> str:
    """``path`` with an ignored parameter that makes the address ``length`` characters long."""
    path += "&" if "?" in path else "?"
    return path + "pad=" + "x" * (length - len(path) - 4)


WORDS = "ab+" * 2600  # 2,600 words: each would be scored against every title's words
A100, A101 = "a" * MAX_ASKED, "a" * (MAX_ASKED + 1)
PART, OVER = "a" * MAX_PATH_PART, "a" * (MAX_PATH_PART + 1)
DILEMMAS = ",".join(["space:99:placed"] + ["space:99:dup:placed"] * 99)
CALC = "/api/timing/mission-attempt/calculate?personnel=5&mission=planet"
TOO_LONG = "no page has a name of {:,} characters (at most 512)"

# (case, path, status, message or None for a page without one, largest answer in bytes)
CASES = [
    # The whole address: the longest accepted, one character more, the battery's 100 KB.
    ("url-longest", padded("/api/search?q=beam", MAX_URL_CHARS), 200, None, 64_000),
    (
        "url-over",
        padded("/api/search?q=beam", MAX_URL_CHARS + 1),
        414,
        "the address is 8,193 characters long (at most 8,192)",
        ERROR_BYTES,
    ),
    (
        "url-over-page",
        padded("/search?q=beam", MAX_URL_CHARS + 1),
        414,
        "the address is 8,193 characters long (at most 8,192)",
        ERROR_BYTES,
    ),
    (
        "url-100k",
        "/rules/" + "x" * 100_000,
        414,
        "the address is 100,007 characters long (at most 8,192)",
        ERROR_BYTES,
    ),
    # Query parameters: as many as accepted, one more, thousands.
    (
        "params-most",
        "/api/search?q=beam" + "".join(f"&p{n}=1" for n in range(MAX_PARAMS - 1)),
        200,
        None,
        64_000,
    ),
    (
        "params-over",
        "/api/search?q=beam" + "".join(f"&p{n}=1" for n in range(MAX_PARAMS)),
        400,
        "65 query parameters (at most 64)",
        ERROR_BYTES,
    ),
    (
        "params-thousands",
        "/search?q=beam" + "&q=x" * 2000,
        400,
        "2,001 query parameters (at most 64)",
        ERROR_BYTES,
    ),
    # A path part: the longest a name may be, one more, the battery's comparison of 6 KB.
    (
        "entry-longest",
        f"/api/entries/2e-rulebook/4/{PART}",
        404,
        f"unknown entry '{'a' * 80}…' in '2e-rulebook' '4'",
        ERROR_BYTES,
    ),
    ("entry-over", f"/rules/2e-rulebook/4/{OVER}", 404, TOO_LONG.format(513), ERROR_BYTES),
    (
        "term-longest",
        f"/rules/2e-rulebook/4/term/{PART}",
        404,
        f"no glossary term '{'a' * 80}…' in '2e-rulebook' '4'",
        ERROR_BYTES,
    ),
    (
        "pair-longest",
        "/diff/2e-rulebook/" + ".." * (MAX_PATH_PART // 2),
        404,
        f"unknown version '{'.' * 80}…' of '2e-rulebook' {KNOWN_2E}",  # the side named, cut
        ERROR_BYTES,
    ),
    (
        "pair-battery",
        "/diff/2e-rulebook/" + ".." * 3000,
        404,
        TOO_LONG.format(6000),
        ERROR_BYTES,
    ),
    (
        "diff-form",
        "/diff?document=2e-rulebook&to=4&from=" + "a" * 5000,
        404,
        f"unknown version '{'a' * 80}…' of '2e-rulebook' {KNOWN_2E}",
        ERROR_BYTES,
    ),
    # A path that no route takes: the 404 page's nearest pages read its first parts.
    ("no-route", "/x/" + "/".join([A100] * 70), 404, None, ERROR_BYTES),
    # Cards: the longest name scored for similar cards, one more, the battery's 5,000.
    ("card-longest", f"/cards/2e/{A100}", 404, f"There is no 2E card {'a' * 80}….", ERROR_BYTES),
    ("card-over", f"/cards/2e/{A101}", 404, f"There is no 2E card {'a' * 80}….", ERROR_BYTES),
    ("card-battery", "/cards/2e/" + "a" * 5000, 404, TOO_LONG.format(5000), ERROR_BYTES),
    (
        "card-api",
        f"/api/cards/2e/{PART}",
        404,
        f"unknown 2E card '{'a' * 80}…'",
        ERROR_BYTES,
    ),
    # Timing: a sequence and a step named at the longest scored, one more, the battery's.
    (
        "sequence-longest",
        f"/api/timing/{quote(('ab ' * 34)[:MAX_ASKED])}",
        404,
        None,
        ERROR_BYTES,
    ),
    ("sequence-battery", "/timing/" + "a" * 5000, 404, TOO_LONG.format(5000), ERROR_BYTES),
    (
        "step-longest",
        f"/timing/mission-attempt?step={A100}",
        404,
        f"unknown step '{'a' * 80}…' in 'mission-attempt' 4; {MAIN_STEPS}",
        ERROR_BYTES,
    ),
    (
        "step-over",
        f"/timing/mission-attempt?step={A101}",
        404,
        f"unknown step '{'a' * 80}…' in 'mission-attempt' 4; {MAIN_STEPS}",
        ERROR_BYTES,
    ),
    (
        "step-words",
        f"/timing/mission-attempt?step={WORDS}",
        404,
        f"unknown step '{('ab ' * 27)[:80]}…' in 'mission-attempt' 4; {MAIN_STEPS}",
        ERROR_BYTES,
    ),
    (
        "step-numbers",
        "/timing/mission-attempt?step=" + "1." * 4000,
        404,
        f"unknown step '{'1.' * 40}…' in 'mission-attempt' 4; {MAIN_STEPS}",
        ERROR_BYTES,
    ),
    # The calculator: the largest numbers and most dilemmas it takes, and beyond.
    ("calc-most", f"{CALC}&dilemmas={DILEMMAS}", 200, None, 256_000),
    (
        "calc-dilemmas-over",
        f"{CALC}&dilemmas={DILEMMAS},dual:0",
        400,
        "at most 100 dilemmas, not 101",
        ERROR_BYTES,
    ),
    (
        "calc-9-digits",
        "/timing/mission-attempt?personnel=999999999",
        400,
        "personnel must be from 1 to 999, not 999999999",
        64_000,
    ),
    (
        "calc-11-digits",
        f"{CALC}&overcome=12345678901",
        400,
        "overcome is too large: '12345678901' (it must be from 0 to 999)",
        ERROR_BYTES,
    ),
    (
        "calc-huge",
        f"{CALC}&modifiers=-" + "9" * 5000,
        400,
        f"modifiers is too small: '-{'9' * 39}…' (it must be from -99 to 99)",
        ERROR_BYTES,
    ),
    # Filters that read only their first 200 characters, given 8,000.
    ("cards-filter", "/cards?q=" + WORDS, 200, None, 256_000),
    ("timing-filter", "/timing/mission-attempt?q=" + WORDS, 200, None, 128_000),
    # Search: the longest question and largest limit it takes, and one more.
    ("search-longest", "/search?q=" + quote(("beam personnel " * 34)[:500]), 200, None, 128_000),
    (
        "search-over",
        "/api/search?q=" + "a" * 501,
        400,
        "the question is too long to search: 501 characters, and a search reads at most 500. "
        "Ask it in fewer words (a card's name, or a few words of the rule), or send its first "
        "part: the search page searches the first 500 characters and says what it left out",
        ERROR_BYTES,
    ),
    ("search-limit", "/api/search?q=dilemma&limit=100", 200, None, 256_000),
    (
        "search-limit-over",
        "/api/search?q=beam&limit=" + "9" * 5000,
        400,
        f"limit must be a whole number from 1 to 100, not '{'9' * 40}…'",
        ERROR_BYTES,
    ),
    (
        "edition",
        "/search/edition?choice=" + "a" * 5000,
        400,
        f"There is no edition or version {'a' * 80}… to judge. Choose one of these:",
        ERROR_BYTES,
    ),
]


@pytest.mark.parametrize(
    ("path", "status", "message", "max_bytes"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_each_input_has_a_bounded_cost(client, path, status, message, max_bytes):
    response = assert_bounded(client, path, max_bytes)
    assert (response.status_code, message_of(response) if message else None) == (status, message)


PART_CASES = [
    pytest.param(endpoint, arg, id=f"{endpoint}-{arg}")
    for endpoint, (args, _, _) in sorted(VALID.items())
    for arg in args
]


@pytest.mark.parametrize(("endpoint", "arg"), PART_CASES)
def test_every_path_part_has_a_bounded_cost(client, endpoint, arg):
    query = VALID[endpoint][1]
    for part, message in ((PART, None), (OVER, TOO_LONG.format(MAX_PATH_PART + 1))):
        path = path_of(client.application, endpoint, **{arg: part})
        path += "?" + urlencode(query) if query else ""
        response = assert_bounded(client, path, ERROR_BYTES)
        assert response.status_code == 404
        if message:
            assert message_of(response) == message


def test_json_errors_keep_their_shape(client):
    for path in (padded("/api/search?q=beam", MAX_URL_CHARS + 1), f"/api/entries/x/4/{OVER}"):
        response = client.get(path)
        assert set(response.get_json()) == {"error", "status", "message"}
        assert response.get_json()["status"] == response.status_code


def test_split_pair_is_linear():
    pair = ".." * 5000  # the quadratic parser built every split: 5,000 copies of 10 KB
    tracemalloc.start()
    try:
        assert split_pair(pair, ["1.1", "4"]) == ("", ".." * 4999)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= 1024 * 1024, f"{peak / 1e6:.0f} MB"


def test_a_name_over_the_limit_is_near_nothing():
    assert close_matches(A100, [A100, "b"], limit=5, cutoff=0.6) == [A100]
    assert close_matches(A101, [A101, "b"], limit=5, cutoff=0.6) == []
    assert (near_enough(A100), near_enough(A101), near_enough("")) == (True, False, False)


def test_any_error_message_is_cut_short(client):
    long = NotFound("x" * 100_000)
    with client.application.test_request_context("/api/x"):
        answer, status, _ = http_error(long)
        message = answer.get_json()["message"]
    assert (status, len(message), message[-1]) == (404, MAX_MESSAGE_CHARS + 1, "…")
    with client.application.test_request_context("/x"):
        page, status, _ = http_error(long)
    assert status == 404 and len(page) <= ERROR_BYTES
