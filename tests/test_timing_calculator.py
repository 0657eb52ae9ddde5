"""The mission-attempt calculator, pure: parameter parsing and the attempt in each version's rules."""

from __future__ import annotations

import pytest

from judgekit.timing.calculator import (
    CalcError,
    CalcInput,
    Dilemma,
    calculate,
    parse_dilemmas,
    parse_input,
)
from judgekit.timing.model import CalculatorConfig

V4 = CalculatorConfig("overcome", "faced")  # Version 4: checks at reveal, deducts what passes
Y2003 = CalculatorConfig("not-allowed", "chosen")  # 1.1 / Call to Arms: limits what is chosen


def run(
    config, personnel, overcome=0, mission="planet", dilemmas="", after=None, requirements=None
):
    inp = CalcInput(personnel, overcome, mission, parse_dilemmas(dilemmas), after, requirements)
    return calculate(config, inp)


def outcomes(calc):
    return [(r.outcome, r.reasons, r.spent, r.rest) for r in calc.results]


@pytest.mark.parametrize("config", [V4, Y2003])
@pytest.mark.parametrize(
    ("personnel", "overcome", "drawn"),
    [(8, 3, 5), (8, 0, 8), (1, 0, 1), (3, 3, 0), (3, 5, 0)],
)
def test_start_draws_and_limits_personnel_less_overcome(config, personnel, overcome, drawn):
    # "eight personnel ... three dilemmas already overcome ... draws only five ... 5 is the total cost"
    calc = run(config, personnel, overcome)
    assert (calc.dilemmas_drawn, calc.cost_limit, calc.difference) == (
        drawn,
        drawn,
        personnel - overcome,
    )


def test_start_message_and_notes():
    calc = run(V4, 8, 3)
    assert calc.start == (
        "8 personnel attempting − 3 overcome beneath the mission = 5: your opponent draws "
        "5 dilemmas and may spend a total cost of 5."
    )
    assert calc.notes == ()
    assert run(V4, 3, 5).notes == (
        "The overcome dilemmas (5) outnumber the personnel (3): no dilemmas are drawn and nothing "
        "may be spent.",
    )
    assert run(V4, 2, 0, dilemmas="planet:0,dual:0,space:0").notes[0] == (
        "3 dilemmas revealed but 2 drawn: only card text can add dilemmas to the stack."
    )


@pytest.mark.parametrize(
    ("personnel", "overcome", "modifiers", "notes"),
    [
        (
            6,
            2,
            -9,
            (
                # The limit is 0 or 4 (the text does not say): not "nothing may be spent".
                "The modifiers (-9) bring the number (4) below zero (-5): no dilemmas are drawn.",
            ),
        ),
        (
            6,
            2,
            -4,
            ("The modifiers (-4) bring the number (4) to 0: no dilemmas are drawn.",),
        ),
        (
            2,
            2,
            -1,
            (
                "The modifiers (-1) bring the number (0) below zero (-1): no dilemmas are "
                "drawn and nothing may be spent.",
            ),
        ),
        (
            3,
            5,
            -1,
            (
                "The overcome dilemmas (5) outnumber the personnel (3): no dilemmas are "
                "drawn and nothing may be spent.",
            ),
        ),
        (3, 5, 4, ()),  # the modifiers lift it to 2
        (3, 5, 2, ()),  # and to 0: the start line says 0 are drawn
        (6, 2, -3, ()),
        (2, 2, 0, ()),  # 0 drawn, as the start line says: nothing took it below
    ],
)
def test_the_note_names_what_took_the_number_to_nothing(personnel, overcome, modifiers, notes):
    inp = CalcInput(personnel, overcome, "planet", (), modifiers=modifiers)
    calc = calculate(V4, inp)
    assert calc.notes == notes
    assert calc.dilemmas_drawn == max(0, personnel - overcome + modifiers)


STACK = "planet:2, space:1, dual:2:dup, planet:3"


def test_version_4_checks_duplication_type_and_cost_at_reveal():
    calc = run(V4, 8, 3, "planet", STACK)
    assert outcomes(calc) == [
        ("faced", (), 2, "continue"),
        ("overcome", ("type",), 2, "continue"),  # not deducted: only a passing dilemma is
        ("overcome", ("duplicate",), 2, "continue"),
        ("faced", (), 5, "continue"),  # 2 + 3 = 5, not greater than 5
    ]
    assert [r.message for r in calc.results] == [
        "Faced. Its cost is deducted: 2 of 5 spent, 3 left.",
        "Overcome without being faced: it is a space dilemma at a planet mission.",
        "Overcome without being faced: it is a second copy of the same dilemma in this attempt.",
        "Faced. Its cost is deducted: 5 of 5 spent, 0 left.",
    ]
    assert (calc.count("faced"), calc.count("overcome"), calc.spent) == (2, 2, 5)


def test_2003_limits_the_chosen_total_and_forbids_second_copies():
    calc = run(Y2003, 8, 3, "planet", STACK)
    assert outcomes(calc) == [
        ("faced", (), 2, "continue"),
        ("overcome", ("type",), 3, "continue"),  # chosen, so its cost counts
        ("not-allowed", ("duplicate",), 5, "continue"),
        # 5 + 3 = 8 > 5 only if the copy counted: the text does not say what a revealed copy does.
        ("undetermined", ("cost",), 5, "undetermined"),
    ]
    assert [(r.basis, r.points) for r in calc.results] == [
        ("rule", ()),
        ("interpretation", ("unfaced_cost",)),  # "the dilemmas he or she chooses": a reading
        ("undetermined", ("copy", "unfaced_cost")),
        ("undetermined", ("copy", "unfaced_cost")),
    ]
    assert [(o, rest, spent) for o, rest, spent, _ in calc.results[3].readings] == [
        ("overcome", "overcome", (4, 5)),
        ("faced", "continue", (5,)),
    ]
    assert calc.results[3].readings[1][3] == (
        "a second copy revealed anyway is overcome without being faced; a dilemma overcome without "
        "being faced does not count toward the total cost",
    )
    assert calc.results[2].message == (
        "Not allowed: your opponent cannot choose more than one copy of the same dilemma. "
        "This version does not say what happens when one is revealed anyway. Undetermined by the "
        "text: overcome without being faced or faced, depending on how it is read."
    )
    assert calc.results[3].message == (
        "Undetermined by the text: overcome without being faced or faced, depending on how it is read."
    )
    assert calc.results[0].message == "Faced. The chosen dilemmas so far cost 2 of the 5 allowed."


@pytest.mark.parametrize("config", [V4, Y2003])
def test_over_the_cost_limit_overcomes_the_rest_regardless_of_cost(config):
    calc = run(config, 5, 0, "space", "space:4, dual:2, space:0, planet:0")
    assert outcomes(calc) == [
        ("faced", (), 4, "continue"),
        ("overcome", ("cost",), 4, "overcome"),
        ("overcome", ("cost",), 4, "overcome"),
        ("overcome", ("cost",), 4, "overcome"),
    ]
    assert calc.results[2].message == (
        "Overcome without being faced: an earlier dilemma broke the cost limit."
    )


def test_whether_a_failed_duplicate_over_the_limit_overcomes_the_rest_is_undetermined_in_v4():
    calc = run(V4, 2, 0, "planet", "planet:1, planet:2:dup, dual:0")
    assert outcomes(calc) == [
        ("faced", (), 1, "continue"),
        ("overcome", ("duplicate", "cost"), 1, "undetermined"),
        ("undetermined", ("cost",), 1, "undetermined"),
    ]
    # What every reading says, then the cost check as one reading's, never as fact (a judge's
    # tryout read "would make the total 3" as the rule).
    assert calc.results[1].message == (
        "Overcome without being faced: it is a second copy of the same dilemma in this attempt. "
        "Whether the cost check applies to it as well (its cost 2 would make the total 3, more "
        "than the 2 allowed), overcoming the remaining dilemmas too, is undetermined by the text."
    )
    assert calc.results[1].points == ("cost_after_fail",)


@pytest.mark.parametrize("config", [V4, Y2003])
def test_a_wrong_type_over_the_limit_states_the_cost_check_as_undetermined(config):
    # 2003: whether a chosen dilemma overcome unfaced still counts toward the total; Version 4:
    # whether the cost check follows a failed type check. Either way not a settled "would make".
    calc = run(config, 2, 0, "planet", "planet:1, space:2, dual:0")
    assert calc.results[1].basis == "undetermined"
    assert calc.results[1].message == (
        "Overcome without being faced: it is a space dilemma at a planet mission. Whether the "
        "cost check applies to it as well (its cost 2 would make the total 3, more than the 2 "
        "allowed), overcoming the remaining dilemmas too, is undetermined by the text."
    )


@pytest.mark.parametrize("config", [V4, Y2003])
def test_no_personnel_left_overcomes_the_remaining_dilemmas(config):
    calc = run(config, 6, 0, "planet", "planet:1, planet:1, dual:1", after=1)
    assert outcomes(calc) == [
        ("faced", (), 1, "overcome"),
        ("overcome", ("no_personnel",), 1, "overcome"),
        ("overcome", ("no_personnel",), 1, "overcome"),
    ]
    assert calc.results[0].message.endswith(
        "No personnel are left: the remaining dilemmas are overcome."
    )
    assert (calc.end, calc.end_rules) == ("failed", ("no_personnel", "unmet"))
    assert calc.end_message == "No personnel are left to complete the mission: the attempt fails."
    everyone_gone_first = run(config, 6, 0, "planet", "planet:1, dual:3", after=0)
    assert [r.outcome for r in everyone_gone_first.results] == ["overcome", "overcome"]


@pytest.mark.parametrize(
    ("requirements", "end", "rules", "message"),
    [
        (
            "met",
            "scored",
            ("met",),
            "The requirements are met: the mission is completed and its points are scored.",
        ),
        (
            "unmet",
            "failed",
            ("unmet",),
            "The requirements are not met: the attempt fails and all the personnel still in it are "
            "stopped.",
        ),
        (
            None,
            "pending",
            ("met", "unmet"),
            "Check the mission requirements: if they are met, the mission is scored; if not, all the "
            "personnel still in the attempt are stopped.",
        ),
    ],
)
def test_the_end(requirements, end, rules, message):
    calc = run(V4, 4, 0, "planet", "dual:1", requirements=requirements)
    assert (calc.end, calc.end_rules, calc.end_message) == (end, rules, message)


def test_requirements_are_not_checked_without_personnel():
    calc = run(V4, 4, 0, "planet", "dual:1", after=1, requirements="met")
    assert calc.end == "failed"
    assert calc.notes == ("The requirements were not checked: no personnel are left to meet them.",)


def test_parse_input_accepts_forms_of_the_dilemma_list():
    inp = parse_input(
        {
            "personnel": " 7 ",
            "overcome": "",
            "mission": "Space",
            "dilemmas": "space:2; DUAL 1 dup,\nplanet : 0 : duplicate",
            "no_personnel_after": "2",
            "requirements": "unmet",
        }
    )
    assert inp == CalcInput(
        7,
        0,
        "space",
        (Dilemma("space", 2), Dilemma("dual", 1, True), Dilemma("planet", 0, True)),
        2,
        "unmet",
    )
    assert [d.token for d in inp.dilemmas] == ["space:2", "dual:1:dup", "planet:0:dup"]
    assert parse_input({"personnel": "3"}) == CalcInput(3, 0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({}, "personnel is required"),
        ({"personnel": "  "}, "personnel is required"),
        ({"personnel": "eight"}, "personnel must be a whole number, not 'eight'"),
        ({"personnel": "2.5"}, "personnel must be a whole number, not '2.5'"),
        ({"personnel": "0"}, "personnel must be from 1 to 999, not 0"),
        ({"personnel": "x" * 5000}, "personnel must be a whole number, not '" + "x" * 40 + "…'"),
        ({"personnel": "1000"}, "personnel must be from 1 to 999, not 1000"),
        (
            {"personnel": "99999999999"},
            "personnel is too large: '99999999999' (it must be from 1 to 999)",
        ),
        ({"personnel": "5", "overcome": "-1"}, "overcome must be from 0 to 999, not -1"),
        (
            {"personnel": "5", "mission": "headquarters"},
            "mission must be planet or space, not 'headquarters'",
        ),
        (
            {"personnel": "5", "dilemmas": "planet:1"},
            "mission is required with dilemmas (planet or space)",
        ),
        (
            {"personnel": "5", "mission": "planet", "dilemmas": "planet"},
            "dilemma 1 'planet' must be TYPE:COST or TYPE:COST:dup, e.g. planet:2",
        ),
        (
            {"personnel": "5", "mission": "planet", "dilemmas": "planet:1, dual:2:twice"},
            "dilemma 2 'dual:2:twice' must be TYPE:COST or TYPE:COST:dup, e.g. planet:2",
        ),
        (
            {"personnel": "5", "mission": "planet", "dilemmas": "moon:1"},
            "dilemma 1 has unknown type 'moon' (planet, space or dual)",
        ),
        (
            {"personnel": "5", "mission": "planet", "dilemmas": "planet:x"},
            "dilemma 1 has cost 'x'; costs are whole numbers from 0 to 99",
        ),
        (
            {"personnel": "5", "mission": "planet", "dilemmas": "planet:-1"},
            "dilemma 1 has cost '-1'; costs are whole numbers from 0 to 99",
        ),
        (
            {"personnel": "5", "dilemmas": ",".join(["dual:0"] * 101)},
            "at most 100 dilemmas, not 101",
        ),
        (
            {
                "personnel": "5",
                "mission": "planet",
                "dilemmas": "planet:1",
                "no_personnel_after": "2",
            },
            "no_personnel_after must be from 0 to 1, not 2",
        ),
        (
            {"personnel": "5", "no_personnel_after": "1"},
            "no_personnel_after must be from 0 to 0, not 1",
        ),
        (
            {"personnel": "5", "requirements": "maybe"},
            "requirements must be met or unmet, not 'maybe'",
        ),
    ],
)
def test_bad_parameters_have_exact_messages(args, message):
    with pytest.raises(CalcError) as info:
        parse_input(args)
    assert str(info.value) == message


def test_rulebook_example_rests_on_the_rule():
    # "eight personnel ... three dilemmas already overcome ... draws only five ... total cost of 5"
    for config in (V4, Y2003):
        calc = run(config, 8, 3, "planet", "planet:2, dual:3")
        assert (calc.dilemmas_drawn, calc.cost_limit, calc.cost_limit_readings) == (5, 5, (5,))
        assert [(r.outcome, r.basis) for r in calc.results] == [
            ("faced", "rule"),
            ("faced", "rule"),
        ]
        assert calc.beneath_after == (5,)  # 3 before, and the 2 faced and overcome


def test_version_4_modifiers_change_the_draw_and_leave_the_limit_undetermined():
    inp = CalcInput(5, 0, "planet", parse_dilemmas("planet:3, planet:2, dual:1"), modifiers=2)
    calc = calculate(V4, inp)
    assert (calc.dilemmas_drawn, calc.cost_limit_readings) == (7, (7, 5))
    assert calc.start == (
        "5 personnel attempting − 0 overcome beneath the mission +2 modifiers = 7: your opponent "
        "draws 7 dilemmas and may spend a total cost of 7 or 5 (undetermined)."
    )
    assert [(r.outcome, r.basis) for r in calc.results] == [
        ("faced", "rule"),
        ("faced", "rule"),  # 5 is within either limit
        ("undetermined", "undetermined"),  # 6: within 7, over 5
    ]
    assert calc.results[2].points == ("limit_modified",)
    assert calc.results[2].message == (
        "Undetermined by the text: faced or overcome without being faced, depending on how it is read."
    )


def test_2003_modifiers_change_the_draw_not_the_limit():
    # 1.1: "cannot be higher than the number of personnel you have attempting the mission"
    calc = calculate(Y2003, CalcInput(5, 0, modifiers=-2))
    assert (calc.dilemmas_drawn, calc.cost_limit, calc.cost_limit_readings) == (3, 5, (5,))


def test_a_dilemma_placed_elsewhere_is_not_overcome_or_beneath_the_mission():
    calc = run(V4, 6, 1, "space", "space:1:placed, dual:2, planet:1")
    assert [(r.outcome, r.placed) for r in calc.results] == [
        ("faced", True),
        ("faced", False),
        ("overcome", False),
    ]
    assert calc.results[0].message == (
        "Faced. Its cost is deducted: 1 of 5 spent, 4 left. Its text placed it elsewhere, so it is "
        "not overcome and not beneath the mission."
    )
    assert calc.beneath_after == (3,)  # 1 before + the faced dual + the wrong-type planet
    unfaced = run(V4, 2, 0, "space", "planet:1:placed")
    assert (unfaced.results[0].placed, unfaced.beneath_after) == (False, (1,))


def test_placed_and_modifiers_parse():
    inp = parse_input(
        {
            "personnel": "4",
            "modifiers": "-1",
            "mission": "planet",
            "dilemmas": "dual:1, dual:1:dup:placed",
        }
    )
    assert inp.modifiers == -1 and inp.dilemmas[1] == Dilemma("dual", 1, True, True)
    assert inp.dilemmas[1].token == "dual:1:dup:placed"
    with pytest.raises(CalcError, match="^modifiers must be from -99 to 99, not 100$"):
        parse_input({"personnel": "4", "modifiers": "100"})
