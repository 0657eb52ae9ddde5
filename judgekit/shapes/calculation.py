"""The mission-attempt calculator's JSON: every part of the answer says what it rests on.

`basis` is "rule" (with the citations of the steps that state it), "interpretation" (the reading
the calculator took and why the text does not decide; every reading gives the same outcome) or
"undetermined" (the readings and what each gives).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from judgekit.timing.calculator import Calculation, DilemmaResult
from judgekit.timing.model import Sequence
from judgekit.timing.readings import POINTS


def _citations(
    built: dict[str, dict[str, Any]], steps: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The first (quoted) cite of each step: the rule the part rests on."""
    out: dict[str, dict[str, Any]] = {}
    for ref in steps:
        cites = built[ref["number"]]["cites"]
        first = cites[0] if cites else None
        if first and first.get("resolved"):
            # Two steps quoting one entry cite it once, from the first of them.
            cite = {
                "step": ref["number"],
                "citation": first["citation"],
                "page_editorial": first["page_editorial"],
                "url": first["url"],
            }
            out.setdefault(first["url"], cite)
    return list(out.values())


def _point(p: str) -> dict[str, str]:
    return {
        "point": p,
        "reading": POINTS[p].reading,
        "other": POINTS[p].other,
        "why": POINTS[p].why,
    }


def _points(points: tuple[str, ...]) -> list[dict[str, str]]:
    return [_point(p) for p in points]


def points_data() -> dict[str, dict[str, str]]:
    """Every open question in the words the server's answers give it, in the order they list them."""
    return {p: _point(p) for p in POINTS}


def calculator_data(seq: Sequence, built: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """One version's calculator for the judge pack: its rules, each rule's step, label and citation.

    The pack's calculator builds each part's basis from these, as ``_basis`` does from ``built``.
    """
    config = seq.calculator
    numbers = {rule: built[seq.find(key).number]["number"] for rule, key in config.steps.items()}
    return {
        "duplicate": config.duplicate,
        "cost_counts": config.cost_counts,
        "below_zero": config.below_zero,
        "steps": numbers,
        "labels": {n: built[n]["label"] for n in numbers.values()},
        "cites": {n: (_citations(built, [built[n]]) or [None])[0] for n in numbers.values()},
    }


def _basis(
    built: dict[str, dict[str, Any]], steps: list[dict[str, Any]], r: DilemmaResult | None = None
) -> dict[str, Any]:
    basis = {"basis": r.basis if r else "rule", "citations": _citations(built, steps)}
    if r and r.basis != "rule":
        basis["points"] = _points(r.points)
    if r and r.readings:
        basis["readings"] = [
            {"outcome": outcome, "rest": rest, "spent": list(spent), "if": list(readings)}
            for outcome, rest, spent, readings in r.readings
        ]
    return basis


def _dilemma(
    built: dict[str, dict[str, Any]],
    calc: Calculation,
    r: DilemmaResult,
    steps: Callable[[tuple[str, ...]], list[dict[str, Any]]],
) -> dict[str, Any]:
    refs = steps(r.reasons or ("cost",))
    return {
        "position": r.position,
        "type": r.dilemma.type,
        "cost": r.dilemma.cost,
        "duplicate": r.dilemma.duplicate,
        "placed": r.dilemma.placed,
        "outcome": r.outcome,
        "reasons": list(r.reasons),
        "spent": r.spent,
        # None when the limit is undetermined: what is left depends on the reading.
        "remaining": calc.cost_limit - r.spent if len(calc.cost_limit_readings) == 1 else None,
        "rest": r.rest,
        "message": r.message,
        "steps": refs,
        # Overcome dilemmas go beneath the mission; one its own text placed elsewhere does not.
        "beneath": None if (r.dilemma.placed and r.basis == "undetermined") else not r.placed,
        **_basis(built, refs, r),
    }


def calculation_dict(
    seq: Sequence, built: dict[str, dict[str, Any]], calc: Calculation
) -> dict[str, Any]:
    """GET /api/timing/mission-attempt/calculate: the numbers, each dilemma, the end, each basis.

    ``built`` is the sequence's serialized steps by number (the rules' citations are theirs).
    """
    config = seq.calculator
    inp = calc.input

    def steps(rules: tuple[str, ...]) -> list[dict[str, Any]]:
        found = dict.fromkeys(
            built[seq.find(config.steps[rule]).number]["number"] for rule in rules
        )
        return [{k: built[n][k] for k in ("id", "number", "label", "url")} for n in found]

    rules = {
        rule: {k: built[seq.find(key).number][k] for k in ("id", "number", "url", "text", "cites")}
        for rule, key in config.steps.items()
    }
    start_steps = steps(("draw", "cost_limit"))
    start = {"message": calc.start, "steps": start_steps, **_basis(built, start_steps)}
    if len(calc.cost_limit_readings) > 1:
        start.update(basis="undetermined", points=_points(("limit_modified",)))
    elif calc.start_points:
        start.update(basis="interpretation", points=_points(calc.start_points))
    end_steps = steps(calc.end_rules)
    beneath = list(calc.beneath_after)
    spent_determined = len(calc.spent_readings) <= 1
    return {
        "sequence": seq.id,
        "version": seq.version,
        "official": seq.official,
        "personnel": inp.personnel,
        "overcome": inp.overcome,
        "modifiers": inp.modifiers,
        "mission": inp.mission,
        "dilemmas_param": ",".join(d.token for d in inp.dilemmas),
        "no_personnel_after": inp.no_personnel_after,
        "requirements": inp.requirements,
        "difference": calc.difference,
        "dilemmas_drawn": calc.dilemmas_drawn,
        "cost_limit": calc.cost_limit,
        "cost_limit_readings": list(calc.cost_limit_readings),
        "cost_limit_determined": len(calc.cost_limit_readings) == 1,
        "start": start,
        "dilemmas": [_dilemma(built, calc, r, steps) for r in calc.results],
        # A total only where every reading spends the same: else null, and what each spends.
        "cost_spent": calc.spent if spent_determined else None,
        "cost_spent_readings": list(calc.spent_readings),
        "cost_spent_determined": spent_determined,
        "cost_remaining": (
            calc.cost_limit - calc.spent
            if len(calc.cost_limit_readings) == 1 and spent_determined
            else None
        ),
        "faced": calc.count("faced"),
        "overcome_unfaced": calc.count("overcome"),
        "not_allowed": calc.count("not-allowed"),
        "undetermined": calc.count("undetermined"),
        "placed": sum(1 for r in calc.results if r.placed),
        "beneath_after": beneath[0] if len(beneath) == 1 else None,
        "beneath_after_readings": beneath,
        "end": {
            "result": calc.end,
            "message": calc.end_message,
            "steps": end_steps,
            **_basis(built, end_steps),
        },
        "notes": list(calc.notes),
        "rules": rules,
    }
