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
