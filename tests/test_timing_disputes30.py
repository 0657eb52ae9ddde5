"""Issue 30's missing sequences: the disputes judges have, in each 2E version whose text supports
them (or the editors' word that it does not, with the nearest rule), and First Edition's timing
rulings on a page of their own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .conftest import ROOT
from .test_timing import edit, problems
from .test_timing_api import SEQUENCES, flat, step_of

# The sequences issue 30 added, in the versions whose text supports them.
NEW = {
    key: SEQUENCES[key]
    for key in ("game-end-in-attempt", "dilemma-actions", "counters", "end-of-turn", "stopped")
    + ("beaming",)
}
DISPUTES = [
    "game-ends-in-attempt",
    "prevent-between-actions",
    "outside-play-and-draw",
    "simultaneous-triggers",
    "seven-counters",
    "end-of-turn-order",
    "stopped-orders",
    "dilemma-after-empty",
    "beaming",
]


@pytest.mark.parametrize("sequence", NEW)
def test_each_new_sequence_is_derived_in_the_versions_that_print_it(client, sequence):
    index = client.get("/api/timing").get_json()
    listed = next(s for s in index["sequences"] if s["id"] == sequence)
    assert listed["versions"] == NEW[sequence]
    for version in NEW[sequence]:
        data = client.get(f"/api/timing/{sequence}?version={version}").get_json()
        assert data["official"] is False and data["note"]
        for step in flat(data["steps"]):
            assert step["cites"][0]["resolved"], (version, step["number"])
            assert step["label_editorial"]  # the editors' numbers, marked so
            # Where a step or its branches lead resolves to a page.
            for url in [b["url"] for b in step["branches"]] + [s["url"] for s in step["also_see"]]:
                assert client.get(url).status_code == 200, url
        assert client.get(data["url"]).status_code == 200


@pytest.fixture()
def real_copy(tmp_path: Path) -> Path:
    """A writable copy of the real corpus (rules and rulings) to break."""
    root = tmp_path / "corpus"
    for part in ("rules", "rulings"):
        shutil.copytree(ROOT / part, root / part)
    return root


def _problems(root: Path) -> list[str]:
    """The timing problems of a corpus copy, without their file and line."""
    return [p.split(":", 2)[-1].strip() for p in problems(root)]


@pytest.mark.parametrize(
    ("name", "old", "new", "problem"),
    [
        (
            "rules/2e-rulebook/4.timing.yaml",
            "dilemma that does this will kill, stop, or place those personnel",
            "dilemma that does this will kill or place those personnel",
            "text of step '3' is not verbatim in 'facing-dilemmas'",
        ),
        (
            "rules/2e-rulebook/1.1.timing.yaml",
            "text: A stopped personnel cannot help staff a ship.",
            "text: A stopped personnel can help staff a ship.",
            "text of step '2' is not verbatim in 'staffing-ships'",
        ),
        (
            "rulings/1e-current-rulings/2000-02-28.timing.yaml",
            "This interrupt plays as a ship",
            "This interrupt plays when a ship",
            "text of note 'wormhole' is not verbatim in 'wormhole'",
        ),
    ],
)
def test_the_verbatim_checks_cover_the_new_files(real_copy, name, old, new, problem):
    assert _problems(real_copy) == []
    edit(real_copy, name, old, new)
    assert _problems(real_copy) == [problem]


def test_scoring_that_can_end_the_game_links_the_win_check(client):
    for version in NEW["game-end-in-attempt"]:
        score = step_of(client, "game-end-in-attempt", version, "1")
        assert ("win", "1") in [(s["sequence"], s["number"]) for s in score["also_see"]]
    # Where the attempt is scored, the sequence is linked.
    for version, number in [("1.1", "4.a"), ("call-to-arms", "4.a"), ("4", "5.d")]:
        complete = step_of(client, "mission-attempt", version, number)
        linked = [(s["sequence"], s["number"]) for s in complete["also_see"]]
        assert sorted(linked) == [("game-end-in-attempt", "1"), ("win", "1")]


def test_version_4_waits_for_pending_card_text_and_1_1_does_not(client):
    pending = step_of(client, "game-end-in-attempt", "4", "2.a")
    assert pending["text"].startswith("If a player would normally win the game, do not check")
    assert pending["note"].startswith("An interpretation (the editors’):")
    assert [b["goto"] for b in pending["branches"]] == ["3", "end"]
    ends = step_of(client, "game-end-in-attempt", "call-to-arms", "3")
    four = next(c for c in ends["counterparts"] if c["version"] == "4")
    assert "until all pending card text has been resolved" in four["changed"][0]
    assert [b["goto"] for b in step_of(client, "game-end-in-attempt", "1.1", "2")["branches"]] == [
        "3",
        "end",
    ]


def test_a_response_after_a_dilemma_action_links_back_to_the_attempt(client):
    after = step_of(client, "dilemma-actions", "4", "4")
    assert after["triggers"] == ["When/While . . . facing a dilemma"]
    assert [(s["sequence"], s["number"]) for s in after["also_see"]] == [("mission-attempt", "5")]
    # Step 5 is where a response adding a dilemma goes back to facing dilemmas.
    assert [b["goto"] for b in step_of(client, "mission-attempt", "4", "5")["branches"]] == [
        "5.a",
        "3",
    ]
    assert [b["goto"] for b in after["branches"]] == ["2", "4.a"]
    assert ("dilemma-actions", "1") in [
        (s["sequence"], s["number"])
        for s in step_of(client, "mission-attempt", "4", "3.i")["also_see"]
    ]


def test_the_index_answers_each_dispute_in_every_version(client):
    disputes = client.get("/api/timing").get_json()["disputes"]
    assert [d["id"] for d in disputes] == DISPUTES
    absent = {
        (d["id"], v["version"]): [c["url"] for c in v["nearest"]]
        for d in disputes
        for v in d["versions"]
        if not v["steps"]
    }
    assert absent == {
        ("prevent-between-actions", "1.1"): ["/rules/2e-rulebook/1.1/when-and-while"],
        ("prevent-between-actions", "call-to-arms"): [
            "/rules/2e-rulebook/call-to-arms/gl-response-actions"
        ],
        ("simultaneous-triggers", "1.1"): ["/rules/2e-rulebook/1.1/when-and-while"],
        ("dilemma-after-empty", "1.1"): ["/rules/2e-rulebook/1.1/checking-requirements"],
        ("dilemma-after-empty", "call-to-arms"): [
            "/rules/2e-rulebook/call-to-arms/checking-requirements"
        ],
    }
    html = client.get("/timing").get_data(as_text=True)
    for dispute in disputes:
        assert [v["version"] for v in dispute["versions"]] == ["1.1", "call-to-arms", "4"]
        for version in dispute["versions"]:
            for step in version["steps"]:
                assert client.get(step["url"]).status_code == 200
                assert f'<a href="{step["url"].replace("&", "&amp;")}">' in html
            for cite in version["nearest"]:
                assert client.get(cite["url"]).status_code == 200
    assert html.count('<span class="tm-absent">No sequence <abbr') == len(absent)


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        (
            "    at: [beaming/order]\n",
            "    at: [beaming/nowhere]\n",
            "dispute 'beaming' of 4 names 'beaming/nowhere', no step of that version",
        ),
        (
            "    at: [beaming/order]\n",
            "",
            "dispute 'beaming' needs either 'at' or both 'absent' and 'nearest'",
        ),
        (
            '    title: "Beaming"\n',
            '    title: "Beam"\n',
            "dispute 'beaming' of 4 is titled 'Beaming' elsewhere",
        ),
    ],
)
def test_a_dispute_names_real_steps_or_says_why_none(real_copy, old, new, problem):
    edit(real_copy, "rules/2e-rulebook/4.timing.yaml", old, new)
    assert problem in " | ".join(_problems(real_copy))


def test_every_version_answers_every_dispute(real_copy):
    path = "rules/2e-rulebook/1.1.timing.yaml"
    text = (real_copy / path).read_text()
    start = text.index("  - id: beaming\n")
    (real_copy / path).write_text(text[:start] + text[text.index("sequences:\n") :])
    assert _problems(real_copy) == [
        "timing answers no dispute 'beaming' (answered elsewhere)",
    ]


def test_no_sequence_may_take_the_first_edition_page_address(real_copy):
    edit(
        real_copy,
        "rules/2e-rulebook/4.timing.yaml",
        "  - id: beaming\n    title: Beaming\n",
        "  - id: first-edition\n    title: Beaming\n",
    )
    assert "sequence id 'first-edition' is a page's address" in " | ".join(_problems(real_copy))


# -- First Edition: the Current Rulings' timing rulings, grouped by situation ------------------


def test_the_first_edition_page_groups_the_rulings_by_situation(client):
    data = client.get("/api/timing/first-edition").get_json()
    assert data["edition"] == "1E" and data["documents"] == ["1e-current-rulings"]
    groups = {g["title"]: [n["id"] for n in g["notes"]] for g in data["situations"]}
    assert list(groups) == [
        "Mission and scouting attempts",
        "Solving a mission",
        "Ship movement",
        "Battle",
        "Responses",
        "The start and the end of the turn",
        "Durations and choices made at the time",
    ]
    assert groups["Ship movement"][0] == "wormhole"
    assert groups["Battle"][0] == "tactic-placement"
    notes = {n["id"]: n for g in data["situations"] for n in g["notes"]}
    assert notes["wormhole"]["ruling"]["url"] == "/rulings/1e-current-rulings/2000-02-28/wormhole"
    assert notes["tactic-placement"]["text"].startswith(
        "when you choose a Tactic card you place (not play) it face down on the table."
    )
    assert {n["edition"] for n in notes.values()} == {"1E"}

    html = client.get("/timing/first-edition").get_data(as_text=True)
    assert '<link rel="alternate" type="application/json" href="/api/timing/first-edition">' in html
    assert 'id="note-wormhole"' in html and 'id="note-tactic-placement"' in html
    # Every heading is the editors' (marked), the rulings' words quoted; no Second Edition link.
    assert "/rules/2e-rulebook" not in html
    main = html.split("<main", 1)[1]
    for group in data["situations"]:
        assert f"{group['title']} <abbr" in main
    # Reachable from the stepper's index, which no longer holds the notes themselves.
    index = client.get("/timing").get_data(as_text=True)
    assert '<a href="/timing/first-edition">' in index
    assert 'id="note-wormhole"' not in index


def test_between_a_dilemmas_actions_the_attempts_printed_windows_are_open(client):
    for number in ("2", "4"):
        windows = step_of(client, "dilemma-actions", "4", number)["windows"]
        assert [(w["sequence"], w["number"]) for w in windows] == [
            ("mission-attempt", "3.h"),
            ("response-actions", "3"),
        ]
    # Elsewhere in Version 4's derived sequences, the general rule only.
    assert [w["generic"] for w in step_of(client, "dilemma-actions", "4", "3")["windows"]] == [True]


def test_a_sequence_says_where_a_version_supports_none(client):
    data = client.get("/api/timing/dilemma-actions?version=4").get_json()
    assert [(a["version"], a["dispute"]) for a in data["absent_in"]] == [
        ("1.1", "prevent-between-actions"),
        ("call-to-arms", "prevent-between-actions"),
    ]
    assert data["absent_in"][0]["absent"].startswith("1.1 has no rule on “prevent” responses")
    html = client.get("/timing/dilemma-actions?version=4&step=2").get_data(as_text=True)
    assert '<details class="tm-absent-in"><summary>Not in v1.1, Call to Arms <abbr' in html
    assert "<p>v1.1: 1.1 has no rule on “prevent” responses" in html
    assert '<a href="/rules/2e-rulebook/1.1/when-and-while">' in html
    # A sequence every version holds says nothing of the kind.
    assert client.get("/api/timing/beaming?version=4").get_json()["absent_in"] == []


def test_asking_for_a_version_that_supports_none_says_why(client):
    response = client.get("/api/timing/dilemma-actions?version=call-to-arms")
    assert response.status_code == 404
    data = response.get_json()
    assert data["message"] == (
        "sequence 'dilemma-actions' has no version 'call-to-arms' (known: 4); Call to Arms (the "
        "editors' reading): Call to Arms has no rule on when “prevent” responses are taken and "
        "does not break a dilemma into actions: its glossary says only that a response action "
        "may prevent another action, whose costs remain paid."
    )
    assert [n["url"] for n in data["nearest"]] == [
        "/rules/2e-rulebook/call-to-arms/gl-response-actions",
        "/timing/dilemma-actions?version=4",
    ]
    # A version no dispute speaks of gets the plain answer.
    assert client.get("/api/timing/dilemma-actions?version=9").get_json()["message"] == (
        "sequence 'dilemma-actions' has no version '9' (known: 4)"
    )


@pytest.mark.parametrize(
    ("sequence", "number", "old", "words"),
    [
        ("game-end-in-attempt", "2", "2", "needs the winner to command them"),
        ("counters", "2", "1", "(except an interrupt)"),
        ("beaming", "2", "2", "says “unstopped” in the beaming rule itself"),
    ],
)
@pytest.mark.parametrize("version", ["1.1", "call-to-arms"])
def test_where_the_versions_differ_the_step_says_how(client, sequence, number, old, words, version):
    four = step_of(client, sequence, "4", number)
    pair = next(c for c in four["counterparts"] if c["version"] == version)
    assert [s["number"] for s in pair["steps"]] == [old]
    assert len(pair["changed"]) == 1 and words in pair["changed"][0]
