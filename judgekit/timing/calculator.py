"""The mission-attempt calculator: dilemmas drawn, the cost limit, each revealed dilemma's fate,
and what each part of the answer rests on.

The arithmetic is every version's: the personnel attempting less the overcome dilemmas beneath the
mission is both the number of dilemmas drawn and the total cost the opponent may spend. What differs
by version comes from the timing file's `calculator` block (see rules/FORMAT.md):
  - Version 4 checks each revealed dilemma for duplication, type and cost (glossary step 3.f); only a
    dilemma that passes has its cost deducted, and a revealed second copy is overcome.
  - The 2003 rulebooks forbid choosing a second copy, the wrong type or more than the allowed total
    cost; at reveal they say what happens to a wrong-type or over-cost dilemma, not to a second copy.

Where the text does not decide, the calculator does not pick silently: it runs the attempt under
each reading (`Reading`) and marks a part "interpretation" (the readings agree on the outcome) or
"undetermined" (they do not). Input parsing is calcinput's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import product

from judgekit.timing.calcinput import (
    PARAMS,
    CalcError,
    CalcInput,
    Dilemma,
    parse_dilemmas,
    parse_input,
)
from judgekit.timing.model import CalculatorConfig
from judgekit.timing.readings import DEFAULT, POINTS, Reading

__all__ = [
    "PARAMS",
    "POINTS",
    "CalcError",
    "CalcInput",
    "Calculation",
    "Dilemma",
    "DilemmaResult",
    "Reading",
    "calculate",
    "parse_dilemmas",
    "parse_input",
]


REST_OVERCOME = " All remaining dilemmas are overcome too, regardless of their cost."


@dataclass(frozen=True)
class DilemmaResult:
    """What happens to one revealed dilemma and to the rest of the stack."""

    position: int
    dilemma: Dilemma
    outcome: str  # faced | overcome | not-allowed | undetermined
    reasons: tuple[str, ...]  # calculator rules that applied: duplicate, type, cost, no_personnel
    spent: int  # the running total after this dilemma
    rest: str  # continue | overcome: what happens to the dilemmas after it
    message: str
    basis: str = "rule"  # rule | interpretation | undetermined
    points: tuple[str, ...] = ()  # the open questions (POINTS) this part rests on
    # Undetermined: each distinct fate with the readings that give it.
    readings: tuple[tuple[str, str, tuple[int, ...], tuple[str, ...]], ...] = ()
    placed: bool = False  # faced, then placed elsewhere by its own text: not overcome
    whys: tuple[tuple[str, str], ...] = ()  # each reason stated, with its words in the message


@dataclass(frozen=True)
class Calculation:
    """The whole attempt as far as the parameters tell it."""

    input: CalcInput
    difference: int
    dilemmas_drawn: int
    cost_limit: int
    start: str
    results: tuple[DilemmaResult, ...]
    spent: int
    end: str  # scored | failed | pending
    end_rules: tuple[str, ...]
    end_message: str
    notes: tuple[str, ...]
    cost_limit_readings: tuple[int, ...] = ()  # more than one: the limit is undetermined
    beneath_after: tuple[int, ...] = ()  # overcome dilemmas beneath the mission afterwards
    start_points: tuple[str, ...] = ()  # open questions the start numbers rest on
    # The total spent under each reading (more than one: it is undetermined, or the editors'
    # reading; ``spent`` is the default reading's, which the page shows dilemma by dilemma).
    spent_readings: tuple[int, ...] = ()

    def count(self, outcome: str) -> int:
        """How many dilemmas had this outcome."""
        return sum(1 for r in self.results if r.outcome == outcome)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _why(rule: str, dilemma: Dilemma, inp: CalcInput, total: int, limit: str) -> str:
    if rule == "duplicate":
        return "it is a second copy of the same dilemma in this attempt"
    if rule == "type":
        return f"it is a {dilemma.type} dilemma at a {inp.mission} mission"
    if rule == "cost":
        return (
            f"its cost {dilemma.cost} would make the total {total}, more than the {limit} allowed"
        )
    return "no personnel are left in the attempt"


def _is_v4(config: CalculatorConfig) -> bool:
    return config.cost_counts == "faced"


def _limit(config: CalculatorConfig, inp: CalcInput, reading: Reading) -> int:
    announced = max(0, inp.personnel - inp.overcome)
    if _is_v4(config) and reading.limit_modified:
        return max(0, announced + inp.modifiers)
    # 1.1 and Call to Arms tie the limit to the personnel attempting, not to the number drawn.
    return announced


def _fate_v4(
    d: Dilemma, inp: CalcInput, spent: int, limit: int, r: Reading, shown: str
) -> DilemmaResult:
    wrong = d.type != "dual" and d.type != inp.mission
    reasons = [n for n, bad in (("duplicate", d.duplicate), ("type", wrong)) if bad]
    points: tuple[str, ...] = ()
    if spent + d.cost > limit:
        if reasons:
            points = ("cost_after_fail",)
        if not reasons or r.cost_after_fail:
            reasons.append("cost")
    total = spent + d.cost
    if not reasons:
        message = f"Faced. Its cost is deducted: {total} of {limit} spent, {limit - total} left."
        if shown != str(limit):  # the limit is undetermined: say what was spent, not what is left
            message = f"Faced. Its cost is deducted: {total} spent of the {shown} allowed."
        return DilemmaResult(0, d, "faced", (), total, "continue", message)
    whys = tuple((n, _why(n, d, inp, total, shown)) for n in reasons)
    message = f"Overcome without being faced: {'; '.join(w for _, w in whys)}."
    rest = "overcome" if "cost" in reasons else "continue"
    if rest == "overcome":
        message += REST_OVERCOME
    return DilemmaResult(
        0, d, "overcome", tuple(reasons), spent, rest, message, points=points, whys=whys
    )


def _fate_2003(
    d: Dilemma, inp: CalcInput, spent: int, limit: int, r: Reading, shown: str
) -> DilemmaResult:
    wrong = d.type != "dual" and d.type != inp.mission
    total = spent + d.cost
    over = total > limit and (not wrong or r.unfaced_counts)
    flags = (("duplicate", d.duplicate), ("type", wrong), ("cost", over))
    reasons = tuple(name for name, bad in flags if bad)
    stated = [n for n in reasons if n != "duplicate"]
    if over or wrong:
        whys = tuple((n, _why(n, d, inp, total, shown)) for n in stated)
        message = f"Overcome without being faced: {'; '.join(w for _, w in whys)}."
        counted = total if (wrong and not over and r.unfaced_counts) else spent
        if over:
            message += REST_OVERCOME
        points = ("unfaced_cost",) if wrong and d.cost else ()
        rest = "overcome" if over else "continue"
        return DilemmaResult(
            0, d, "overcome", reasons, counted, rest, message, points=points, whys=whys
        )
    if d.duplicate:
        message = (
            "Not allowed: your opponent cannot choose more than one copy of the same dilemma. "
            "This version does not say what happens when one is revealed anyway."
        )
        outcome = "faced" if r.copy_faced else "not-allowed"
        counted = total if (r.copy_faced or r.unfaced_counts) else spent
        points = ("copy",) if r.copy_faced or not d.cost else ("copy", "unfaced_cost")
        return DilemmaResult(0, d, outcome, reasons, counted, "continue", message, points=points)
    message = f"Faced. The chosen dilemmas so far cost {total} of the {limit} allowed."
    return DilemmaResult(0, d, "faced", (), total, "continue", message)


def _run(
    config: CalculatorConfig, inp: CalcInput, reading: Reading, shown: str
) -> list[DilemmaResult]:
    limit = _limit(config, inp, reading)
    fate = _fate_v4 if _is_v4(config) else _fate_2003
    spent, rest_reason, results = 0, None, []
    for position, dilemma in enumerate(inp.dilemmas, 1):
        if rest_reason is None and inp.no_personnel_after is not None:
            if position > inp.no_personnel_after:
                rest_reason = "no_personnel"
        if rest_reason is not None:
            why = (
                "an earlier dilemma broke the cost limit"
                if rest_reason == "cost"
                else "no personnel are left in the attempt"
            )
            message = f"Overcome without being faced: {why}."
            # 1.1 and Call to Arms overcome what remains once the personnel are "killed or
            # stopped by dilemmas": before the first, that is the editors' reading; after one,
            # that the dilemma, not some other card, left no personnel is.
            unrun = inp.no_personnel_after == 0 and not _is_v4(config)
            how = rest_reason == "no_personnel" and not unrun and not _is_v4(config)
            results.append(
                DilemmaResult(
                    position,
                    dilemma,
                    "overcome",
                    (rest_reason,),
                    spent,
                    "overcome",
                    message,
                    points=(
                        ("no_personnel_first",) if unrun else ("no_personnel_how",) if how else ()
                    ),
                )
            )
            continue
        result = replace(fate(dilemma, inp, spent, limit, reading, shown), position=position)
        if _clamped_limit(config, inp):
            result = replace(result, points=result.points + ("below_zero",))
        spent = result.spent
        if result.rest == "overcome":
            rest_reason = "cost"
        elif inp.no_personnel_after == position and position < len(inp.dilemmas):
            message = (
                result.message + " No personnel are left: the remaining dilemmas are overcome."
            )
            how = () if _is_v4(config) else ("no_personnel_how",)
            result = replace(result, rest="overcome", message=message, points=result.points + how)
        if result.outcome == "faced" and dilemma.placed:
            result = replace(
                result,
                placed=True,
                message=result.message
                + " Its text placed it elsewhere, so it is not overcome and not beneath the mission.",
            )
        results.append(result)
    return results


def _clamped_limit(config: CalculatorConfig, inp: CalcInput) -> bool:
    # Each dilemma's cost check rests on a limit the editors took from below zero to 0.
    return config.below_zero == "reading" and inp.personnel < inp.overcome


def _start_points(config: CalculatorConfig, inp: CalcInput) -> tuple[str, ...]:
    """The editors' "minimum 0" where the version's words give none and a number went below it."""
    below = min(inp.personnel - inp.overcome, inp.personnel - inp.overcome + inp.modifiers) < 0
    return ("below_zero",) if config.below_zero == "reading" and below else ()


def _readings(config: CalculatorConfig, inp: CalcInput) -> list[Reading]:
    """Every combination of the readings that can matter to this version and input."""
    if _is_v4(config):
        limits = (True, False) if inp.modifiers else (True,)
        return [
            Reading(cost_after_fail=c, limit_modified=m) for c, m in product((True, False), limits)
        ]
    return [
        Reading(copy_faced=f, unfaced_counts=u) for f, u in product((False, True), (True, False))
    ]


def _beneath(inp: CalcInput, results: list[DilemmaResult]) -> int:
    # Faced dilemmas are overcome when their instructions are carried out, unless placed elsewhere;
    # a second copy "not allowed" ends beneath the mission whether faced or overcome.
    return inp.overcome + sum(1 for r in results if not r.placed)


WORDS = {
    "faced": "faced",
    "overcome": "overcome without being faced",
    "not-allowed": "overcome without being faced",
}


def _group(
    at: dict[Reading, DilemmaResult], points: set[str]
) -> tuple[tuple[str, str, tuple[int, ...], tuple[str, ...]], ...]:
    # Each distinct fate (outcome and what happens to the rest), the totals and readings giving it.
    groups: dict[tuple[str, str], list[Reading]] = {}
    for reading, res in at.items():
        groups.setdefault((res.outcome, res.rest), []).append(reading)
    return tuple(
        (
            outcome,
            rest,
            tuple(sorted({at[r].spent for r in readings})),
            tuple(dict.fromkeys("; ".join(r.choices(points)) for r in readings)),
        )
        for (outcome, rest), readings in groups.items()
    )


def _rest_undetermined(result: DilemmaResult, at: list[DilemmaResult]) -> str:
    """A dilemma overcome under every reading, the rest of the stack only under some: what every
    reading says, then what only some add (the cost check, say), as undetermined, never as fact."""
    fewest = min(at, key=lambda res: len(res.whys))
    agreed = {name for name, _ in fewest.whys}
    extra = [w for res in at for name, w in res.whys if name not in agreed]
    if not fewest.whys or not extra:
        said = result.message.replace(REST_OVERCOME, "")
        return (
            f"{said} Whether the remaining dilemmas are overcome too is undetermined by the text."
        )
    return (
        f"{fewest.message.replace(REST_OVERCOME, '')} Whether the cost check applies to it as well "
        f"({'; '.join(dict.fromkeys(extra))}), overcoming the remaining dilemmas too, is "
        "undetermined by the text."
    )


def _merge(runs: dict[Reading, list[DilemmaResult]], points: set[str]) -> list[DilemmaResult]:
    """The default reading's results, each marked with its basis across every reading."""
    merged, seen = [], set(points)
    for i, result in enumerate(runs[DEFAULT]):
        at = {r: run[i] for r, run in runs.items()}
        for res in at.values():
            seen.update(res.points)
        groups = _group(at, seen)
        spents = {res.spent for res in at.values()}
        open_points = tuple(p for p in POINTS if p in seen)
        if len(groups) > 1:
            outcomes = {g[0] for g in groups}
            words = " or ".join(dict.fromkeys(WORDS[g[0]] for g in groups))
            if len({WORDS[o] for o in outcomes}) > 1:
                message = f"Undetermined by the text: {words}, depending on how it is read."
            else:
                message = _rest_undetermined(result, list(at.values()))
            if result.outcome == "not-allowed":
                message = f"{result.message} {message}"
            outcome = (
                result.outcome
                if len(outcomes) == 1 or result.outcome == "not-allowed"
                else "undetermined"
            )
            rest = result.rest if len({g[1] for g in groups}) == 1 else "undetermined"
            merged.append(
                replace(
                    result,
                    outcome=outcome,
                    rest=rest,
                    basis="undetermined",
                    points=open_points,
                    readings=groups,
                    message=message,
                )
            )
        elif result.points or len(spents) > 1:
            merged.append(
                replace(result, basis="interpretation", points=result.points or open_points)
            )
        else:
            merged.append(result)
    return merged


def _start_notes(inp: CalcInput, difference: int, limits: tuple[int, ...]) -> list[str]:
    # Say which of the two took the number to nothing: the overcome dilemmas, or the modifiers.
    total = difference + inp.modifiers
    if total > 0 or (total == 0 and inp.modifiers >= 0):
        return []  # the start line says it; no modifier took the number down to nothing
    # Nothing may be spent only where every reading's limit is 0: in 1.1 and Call to Arms the
    # modifiers change the number drawn, not the limit (and Version 4 does not say).
    spend = " and nothing may be spent" if set(limits) == {0} else ""
    if difference < 0:
        return [
            f"The overcome dilemmas ({inp.overcome}) outnumber the personnel ({inp.personnel}): "
            f"no dilemmas are drawn{spend}."
        ]
    where = "to 0" if total == 0 else f"below zero ({total})"
    return [
        f"The modifiers ({inp.modifiers:+d}) bring the number ({difference}) {where}: "
        f"no dilemmas are drawn{spend}."
    ]


def calculate(config: CalculatorConfig, inp: CalcInput) -> Calculation:
    """Run the attempt under every reading: the start numbers, each revealed dilemma, the end."""
    difference = inp.personnel - inp.overcome
    drawn = max(0, difference + inp.modifiers)
    readings = _readings(config, inp)
    limits = tuple(dict.fromkeys(_limit(config, inp, r) for r in readings))
    shown = " or ".join(map(str, limits))
    runs = {reading: _run(config, inp, reading, shown) for reading in readings}
    limit = limits[0]
    modified = f" {inp.modifiers:+d} modifiers" if inp.modifiers else ""
    start = (
        f"{inp.personnel} personnel attempting − {inp.overcome} overcome beneath the mission"
        f"{modified} = {difference + inp.modifiers}: your opponent draws "
        f"{_plural(drawn, 'dilemma')} and may spend a total cost of "
        + (f"{shown} (undetermined)" if len(limits) > 1 else shown)
        + "."
    )
    notes = _start_notes(inp, difference, limits)
    if len(inp.dilemmas) > drawn:
        notes.append(
            f"{_plural(len(inp.dilemmas), 'dilemma')} revealed but {drawn} drawn: "
            "only card text can add dilemmas to the stack."
        )
    open_points = {"limit_modified"} if len(limits) > 1 else set()
    results = _merge(runs, open_points)
    end, rules, message = _end(inp, notes)
    beneath = tuple(dict.fromkeys(_beneath(inp, run) for run in runs.values()))
    return Calculation(
        inp,
        difference,
        drawn,
        limit,
        start,
        tuple(results),
        results[-1].spent if results else 0,
        end,
        rules,
        message,
        tuple(notes),
        limits,
        beneath,
        _start_points(config, inp),
        tuple(sorted({run[-1].spent if run else 0 for run in runs.values()})),
    )


def _end(inp: CalcInput, notes: list[str]) -> tuple[str, tuple[str, ...], str]:
    if inp.no_personnel_after is not None:
        if inp.requirements:
            notes.append("The requirements were not checked: no personnel are left to meet them.")
        return (
            "failed",
            ("no_personnel", "unmet"),
            "No personnel are left to complete the mission: the attempt fails.",
        )
    if inp.requirements == "met":
        return (
            "scored",
            ("met",),
            "The requirements are met: the mission is completed and its points are scored.",
        )
    if inp.requirements == "unmet":
        return (
            "failed",
            ("unmet",),
            "The requirements are not met: the attempt fails and all the personnel still in it "
            "are stopped.",
        )
    return (
        "pending",
        ("met", "unmet"),
        "Check the mission requirements: if they are met, the mission is scored; if not, "
        "all the personnel still in the attempt are stopped.",
    )
