"""Issue 30's rules review, item by item: each step, branch, badge and calculator answer it found
wrong, pinned on the real corpus with its expected answer."""

from __future__ import annotations

import pytest


def flat(steps):
    for step in steps:
        yield step
        yield from flat(step["children"])


def step_of(client, sequence, version, number):
    data = client.get(f"/api/timing/{sequence}?version={version}").get_json()
    return next(s for s in flat(data["steps"]) if s["number"] == number)


def test_win_check_meets_the_pending_card_text_rule_before_the_game_ends(client):
    conditions = step_of(client, "win", "4", "1")
    assert [(b["if"], b["goto"]) for b in conditions["branches"]] == [
        ("All three are met", "1.a"),
        ("Not all three", "3"),
    ]
    pending = step_of(client, "win", "4", "1.a")
    assert [b["goto"] for b in pending["branches"]] == ["2", "3"]


CALC = "/api/timing/mission-attempt/calculate"


@pytest.mark.parametrize("version", ["1.1", "call-to-arms"])
def test_no_personnel_before_the_first_dilemma_is_the_editors_reading(client, version):
    # 1.1 and Call to Arms speak only of personnel "killed or stopped by dilemmas".
    note = step_of(client, "mission-attempt", version, "3")["note"]
    assert note.startswith("An interpretation (the editors’):")
    assert "before the first dilemma the text is silent" in note
    html = client.get(f"/timing/mission-attempt?version={version}&step=3").get_data(as_text=True)
    assert "An interpretation (the editors’):" in html
    query = f"version={version}&personnel=2&mission=planet&dilemmas=planet:1,planet:0"
    first = client.get(f"{CALC}?{query}&no_personnel_after=0").get_json()
    assert [(d["outcome"], d["basis"]) for d in first["dilemmas"]] == [
        ("overcome", "interpretation"),
        ("overcome", "interpretation"),
    ]
    assert [p["point"] for p in first["dilemmas"][0]["points"]] == ["no_personnel_first"]
    html = client.get(
        f"/timing/mission-attempt?{query}&no_personnel_after=0"
    ).get_data(as_text=True)
    assert html.count("Interpretation <abbr") == 2
    # After a dilemma, the text says it: a rule.
    later = client.get(f"{CALC}?{query}&no_personnel_after=1").get_json()
    assert [d["basis"] for d in later["dilemmas"]] == ["rule", "rule"]


def test_no_personnel_before_the_first_dilemma_is_a_rule_in_version_4(client):
    # v4 3.a: "If there are no personnel still involved in the mission attempt" - at every pass.
    query = "version=4&personnel=2&mission=planet&dilemmas=planet:1&no_personnel_after=0"
    assert [d["basis"] for d in client.get(f"{CALC}?{query}").get_json()["dilemmas"]] == ["rule"]
