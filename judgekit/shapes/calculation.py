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


def _step_cites(built: dict[str, dict[str, Any]], number: str) -> list[dict[str, Any]]:
    """Every section a step cites, each once: the one its words are quoted from, then those
    holding the rest of its rule (1.1's step 2 is quoted from "Facing dilemmas", but the
    subtraction of overcome dilemmas and the 8 − 3 = 5 example are in "When your attempt fails")."""
    out: dict[str, dict[str, Any]] = {}
    for cite in built[number]["cites"]:
        if cite.get("resolved"):
            out.setdefault(
                cite["url"],
                {
                    "step": number,
                    "citation": cite["citation"],
                    "page_editorial": cite["page_editorial"],
                    "url": cite["url"],
                },
            )
    return list(out.values())


def _citations(
    built: dict[str, dict[str, Any]], steps: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Every section the part's steps cite: the rules the part rests on."""
    out: dict[str, dict[str, Any]] = {}
    for ref in steps:
        for cite in _step_cites(built, ref["number"]):
            # Two steps citing one section cite it once, from the first of them.
            out.setdefault(cite["url"], dict(cite))
    return list(out.values())


def number_citations(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Number the sections the parts cite, each once, in the order first cited (``n`` on each
    part's citations): the page lists them once under the answer and each line refers to its
    numbers, so a rule cited by every dilemma is not written out on every line."""
    cited: dict[str, dict[str, Any]] = {}
    for part in parts:
        for cite in part["citations"]:
            if cite["url"] not in cited:
                cited[cite["url"]] = {
                    "n": len(cited) + 1,
                    **{k: cite[k] for k in ("citation", "page_editorial", "url")},
                }
            cite["n"] = cited[cite["url"]]["n"]
    return list(cited.values())


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
        "cites": {n: _step_cites(built, n) for n in numbers.values()},
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
    end = {"result": calc.end, "message": calc.end_message, "steps": end_steps}
    end.update(_basis(built, end_steps))
    dilemmas = [_dilemma(built, calc, r, steps) for r in calc.results]
    cited = number_citations([start, *dilemmas, end])
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
        "dilemmas": dilemmas,
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
        "end": end,
        # Every section the answer cites, once each, numbered as its parts' citations give ``n``.
        "cited": cited,
        "notes": list(calc.notes),
        "rules": rules,
    }
