"""An unknown timing step or sequence: a 404 naming what was asked and the nearest real ones.

Unit tests on the timing fixture corpus (tests/data/timing); pages and the API on it and on the
real corpus, with exact messages.
"""

from __future__ import annotations

import html
import re
import subprocess
import sys

import pytest

from judgekit import create_app
from judgekit.checks.loader import load_corpus
from judgekit.timing.load import load_sequences
from judgekit.timing.nearest import nearest_sequences, nearest_steps, step_name

from .conftest import DATA

TIMING = DATA / "timing"


@pytest.fixture(scope="module")
def timing():
    """The fixture corpus's sequences."""
    return load_sequences(load_corpus(TIMING))


@pytest.fixture(scope="module")
def tclient():
    """A test client on the timing fixture corpus."""
    return create_app({"TESTING": True, "CORPUS_DIR": str(TIMING)}).test_client()


def error_of(response) -> tuple[int, str, list[tuple[str, str]]]:
    """A 404 page's status, message (as read) and suggested links (address, words)."""
    page = response.get_data(as_text=True)
    message = re.search(r'<p class="error-message">(.*?)</p>', page, re.S).group(1)
    links = re.findall(r'<li><a href="([^"]+)">(.*?)</a>', page.split('class="suggestions"')[-1])
    found = [(html.unescape(u), html.unescape(t)) for u, t in links]
    return response.status_code, html.unescape(message), found if "suggestions" in page else []


@pytest.mark.parametrize(
    ("asked", "labels"),
    [
        ("1.b", ["1", "1.a"]),  # a sub-step that does not exist: its parent, then its siblings
        ("1.A", ["1.a", "1"]),  # letter case aside, then its parent
        ("chek", ["2"]),  # a title (here the text) word, misspelt
        ("check-dilema", ["2"]),  # an id, misspelt
        ("Begins", ["1.a", "1"]),  # a word: the shorter name first
        ("3", []),  # a number far from every number
        ("zz", []),
        ("   ", []),
    ],
)
def test_nearest_steps(timing, asked, labels):
    seq = timing.get("attempt", "2")
    assert [s.label for s in nearest_steps(seq, asked)] == labels


def test_nearest_sequences(timing):
    assert [s.id for s in nearest_sequences(timing, "atempt")] == ["attempt"]
    assert [s.id for s in nearest_sequences(timing, "Missions")] == ["attempt"]
    assert nearest_sequences(timing, "xyz") == []


def test_step_name_is_the_title_or_the_start_of_the_text(timing):
    seq = timing.get("attempt", "1")
    assert step_name(seq.find("reveal")) == "Your opponent reveals the top dilemma."
    assert step_name(seq.find("2.a")) == (
        "If your opponent selects a dilemma of the wrong type, it is…"
    )


def test_unknown_step_names_the_nearest(tclient):
    assert error_of(tclient.get("/timing/attempt?step=1.b")) == (
        404,
        "unknown step '1.b' in 'attempt' 2; nearest: step 1 “Active player begins a mission "
        "attempt”, step 1.a ““When . . . begins” triggers process.”",
        [
            ("/timing/attempt?version=2&step=1", "Step 1: Active player begins a mission attempt"),
            (
                "/timing/attempt?version=2&step=1.a",
                "Step 1.a: “When . . . begins” triggers process.",
            ),
        ],
    )


def test_unknown_step_with_nothing_near_links_the_main_steps(tclient):
    assert error_of(tclient.get("/timing/attempt?version=1&step=zz")) == (
        404,
        "unknown step 'zz' in 'attempt' 1; no step is near it, its main steps are 1, 2, 3",
        [
            (
                "/timing/attempt?version=1&step=1",
                "Step 1: When you begin a mission attempt, count your personnel.",
            ),
            ("/timing/attempt?version=1&step=2", "Step 2: Your opponent reveals the top dilemma."),
            (
                "/timing/attempt?version=1&step=3",
                "Step 3: If you cannot meet the requirements, your personnel are…",
            ),
        ],
    )


def test_unknown_sequence_names_the_nearest(tclient):
    assert error_of(tclient.get("/timing/atempt")) == (
        404,
        "unknown timing sequence 'atempt'; nearest: Attempting missions (attempt); known: attempt",
        [("/timing/attempt?version=2", "Attempting missions")],
    )
    # Nothing near: every sequence is linked (there are few).
    assert error_of(tclient.get("/timing/xyz")) == (
        404,
        "unknown timing sequence 'xyz' (known: attempt)",
        [("/timing/attempt?version=2", "Attempting missions")],
    )


def test_api_unknown_sequence_lists_the_nearest(tclient):
    response = tclient.get("/api/timing/atempt")
    assert response.status_code == 404
    assert response.get_json() == {
        "error": "Not Found",
        "status": 404,
        "message": "unknown timing sequence 'atempt'; nearest: Attempting missions (attempt); "
        "known: attempt",
        "nearest": [
            {
                "title": "Attempting missions",
                "where": "timing sequence, v2",
                "url": "/timing/attempt?version=2",
            }
        ],
    }


def test_hostile_step_is_escaped(tclient):
    response = tclient.get("/timing/attempt?step=%3Cscript%3Ealert(1)%3C/script%3E")
    page = response.get_data(as_text=True)
    assert response.status_code == 404 and "<script>alert" not in page
    assert (
        "unknown step &#39;&lt;script&gt;alert(1)&lt;/script&gt;&#39; in &#39;attempt&#39; 2"
        in page
    )


@pytest.mark.parametrize("asked", ["1" + "a" * 98 + "!", "1a" * 49 + "!", "9" * 99 + "."])
def test_a_step_number_is_read_in_linear_time(asked):
    # A number's pattern once read "1aaa…!" in time doubling with each letter (a nested repeat):
    # one request of 100 characters would have held a worker for ever. In a process of its own,
    # so that a regression fails here instead of hanging the suite.
    code = (
        "import sys; from judgekit.checks.loader import load_corpus;"
        "from judgekit.timing.load import load_sequences;"
        "from judgekit.timing.nearest import nearest_steps;"
        f"seq = load_sequences(load_corpus({str(TIMING)!r})).get('attempt', '2');"
        "print(len(nearest_steps(seq, sys.argv[1])))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, asked], capture_output=True, text=True, timeout=20
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"  # near nothing


def test_real_corpus_unknown_step(client):
    assert error_of(client.get("/timing/mission-attempt?step=4.x")) == (
        404,
        "unknown step '4.x' in 'mission-attempt' 4; nearest: step 4 “Overcoming Dilemmas”, "
        "step 4.a “After all dilemma actions are processed, if the Active…”, "
        "step 4.b “Repeat the process beginning at “Facing Dilemmas”.”",
        [
            ("/timing/mission-attempt?version=4&step=4", "Step 4: Overcoming Dilemmas"),
            (
                "/timing/mission-attempt?version=4&step=4.a",
                "Step 4.a: After all dilemma actions are processed, if the Active…",
            ),
            (
                "/timing/mission-attempt?version=4&step=4.b",
                "Step 4.b: Repeat the process beginning at “Facing Dilemmas”.",
            ),
        ],
    )
    status, message, links = error_of(client.get("/timing/mission-attempt?step=dilemas"))
    assert (status, links[:3]) == (
        404,
        [
            ("/timing/mission-attempt?version=4&step=2", "Step 2: Draw Dilemmas"),
            ("/timing/mission-attempt?version=4&step=3", "Step 3: Facing Dilemmas"),
            ("/timing/mission-attempt?version=4&step=4", "Step 4: Overcoming Dilemmas"),
        ],
    )
    assert message.startswith(
        "unknown step 'dilemas' in 'mission-attempt' 4; nearest: step 2 “Draw Dilemmas”, "
        "step 3 “Facing Dilemmas”, step 4 “Overcoming Dilemmas”, "
    )


def test_real_corpus_unknown_sequence(client):
    known = (
        "mission-attempt, turn, response-actions, play-interrupt, combat, engagement, move-ship, "
        "win, setup, game-end-in-attempt, counters, end-of-turn, stopped, beaming, play-card, "
        "modifications, dilemma-actions"
    )
    assert error_of(client.get("/timing/misison-attempt")) == (
        404,
        "unknown timing sequence 'misison-attempt'; nearest: Attempting missions "
        "(mission-attempt), When the game ends during a mission attempt (game-end-in-attempt); "
        f"known: {known}",
        [
            ("/timing/mission-attempt?version=4", "Attempting missions"),
            (
                "/timing/game-end-in-attempt?version=4",
                "When the game ends during a mission attempt",
            ),
        ],
    )
    assert error_of(client.get("/timing/engagment?step=2"))[1:] == (
        "unknown timing sequence 'engagment'; nearest: Engagement (ships) and damage "
        f"(engagement); known: {known}",
        [("/timing/engagement?version=4", "Engagement (ships) and damage")],
    )
