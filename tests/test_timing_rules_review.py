"""The rules review of every step and calculator case after issue 30's fixes (tests/timing_review.md):
what it found, pinned on the real corpus. The calculator's cases are in calculator_cases.json."""

from __future__ import annotations

import pytest

from .test_timing_api import step_of

CALC = "/api/timing/mission-attempt/calculate"


@pytest.mark.parametrize(
    ("version", "number", "words"),
    [
        ("1.1", "3.b", "wrong type whose cost would also make the total higher"),
        ("call-to-arms", "3.b", "wrong type whose cost would also make the total higher"),
        ("4", "3.f", "fails the duplication or type check and whose cost is also more"),
    ],
)
def test_a_dilemma_failing_two_checks_is_open_and_the_step_says_so(client, version, number, words):
    # The branches send a wrong-type dilemma on and an over-cost one to the requirements; one that
    # is both is not decided by the text, and the calculator shows both readings.
    note = step_of(client, "mission-attempt", version, number)["note"]
    assert note.startswith("The editors' reading, where the text does not decide:")
    assert words in note


# Version 4 with a modifier: the limit is 1 or 2 by reading (the text does not decide).
UNDETERMINED = {
    "version": "4",
    "personnel": "3",
    "overcome": "1",
    "modifiers": "-1",
    "mission": "planet",
    "dilemmas": "planet:1",
}


def test_an_undetermined_limit_leaves_nothing_said_to_be_left(client):
    answer = client.get(
        CALC,
        query_string=UNDETERMINED,
    ).get_json()
    first = answer["dilemmas"][0]
    assert first["message"] == "Faced. Its cost is deducted: 1 spent of the 1 or 2 allowed."
    assert (first["remaining"], answer["cost_remaining"]) == (None, None)


def test_the_page_shows_both_limits_in_the_spent_column(client):
    page = client.get(
        "/timing/mission-attempt",
        query_string=UNDETERMINED,
    ).get_data(as_text=True)
    assert "<td>1 / 1 or 2</td>" in page
