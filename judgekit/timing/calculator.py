"""The mission-attempt calculator: dilemmas drawn, the cost limit, and each revealed dilemma's fate.

The arithmetic is every version's: the personnel attempting less the overcome dilemmas beneath the
mission is both the number of dilemmas drawn and the total cost the opponent may spend. What differs
by version comes from the timing file's `calculator` block (see rules/FORMAT.md):
  - Version 4 checks each revealed dilemma for duplication, type and cost (glossary step 3.f); only a
    dilemma that passes has its cost deducted, and a revealed second copy is overcome.
  - The 2003 rulebooks forbid choosing a second copy, the wrong type or more than the allowed total
    cost; at reveal they say what happens to a wrong-type or over-cost dilemma, not to a second copy.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from judgekit.render.text import quoted
from judgekit.timing.model import CalculatorConfig

DILEMMA_TYPES = ("planet", "space", "dual")
MISSION_TYPES = ("planet", "space")
REQUIREMENTS = ("met", "unmet")
MAX_COUNT = 999
MAX_COST = 99
MAX_DILEMMAS = 100
PARAMS = ("personnel", "overcome", "mission", "dilemmas", "no_personnel_after", "requirements")


class CalcError(ValueError):
    """A bad calculator parameter; the message says which and why."""


@dataclass(frozen=True)
class Dilemma:
    """A revealed dilemma as the calculator needs it."""

    type: str
    cost: int
    duplicate: bool = False

    @property
    def token(self) -> str:
        """The dilemma in the parameter syntax: TYPE:COST[:dup]."""
        return f"{self.type}:{self.cost}" + (":dup" if self.duplicate else "")


@dataclass(frozen=True)
class CalcInput:
    """The calculator's parameters, validated."""

    personnel: int
    overcome: int
    mission: str | None = None
    dilemmas: tuple[Dilemma, ...] = ()
    no_personnel_after: int | None = None
    requirements: str | None = None


@dataclass(frozen=True)
class DilemmaResult:
    """What happens to one revealed dilemma and to the rest of the stack."""

    position: int
    dilemma: Dilemma
    outcome: str  # faced | overcome | not-allowed
    reasons: tuple[str, ...]  # calculator rules that applied: duplicate, type, cost, no_personnel
    spent: int  # the running total after this dilemma
    rest: str  # continue | overcome: what happens to the dilemmas after it
    message: str


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

    def count(self, outcome: str) -> int:
        """How many dilemmas had this outcome."""
        return sum(1 for r in self.results if r.outcome == outcome)


def _number(args: Mapping[str, str], name: str, low: int, high: int, required: bool) -> int | None:
    raw = (args.get(name) or "").strip()
    if not raw:
        if required:
            raise CalcError(f"{name} is required")
        return None
    if not re.fullmatch(r"-?\d{1,9}", raw):
        raise CalcError(f"{name} must be a whole number, not {quoted(raw)}")
    value = int(raw)
    if not low <= value <= high:
        raise CalcError(f"{name} must be from {low} to {high}, not {value}")
    return value


def parse_dilemmas(raw: str) -> tuple[Dilemma, ...]:
    """Parse `planet:2, dual:1:dup, …` (a colon or spaces inside each, commas between)."""
    tokens = [t.strip() for t in re.split(r"[,;\n]", raw or "") if t.strip()]
    if len(tokens) > MAX_DILEMMAS:
        raise CalcError(f"at most {MAX_DILEMMAS} dilemmas, not {len(tokens)}")
    dilemmas = []
    for position, token in enumerate(tokens, 1):
        parts = re.split(r"\s*:\s*|\s+", token.lower())
        flag = parts[2] if len(parts) == 3 else ""
        if len(parts) not in (2, 3) or flag not in ("", "dup", "duplicate"):
            raise CalcError(
                f"dilemma {position} {quoted(token)} must be TYPE:COST or TYPE:COST:dup, e.g. planet:2"
            )
        kind, cost = parts[0], parts[1]
        if kind not in DILEMMA_TYPES:
            raise CalcError(
                f"dilemma {position} has unknown type {quoted(kind)} (planet, space or dual)"
            )
        if not re.fullmatch(r"\d{1,2}", cost):
            raise CalcError(
                f"dilemma {position} has cost {quoted(cost)}; costs are whole numbers from 0 to {MAX_COST}"
            )
        dilemmas.append(Dilemma(kind, int(cost), bool(flag)))
    return tuple(dilemmas)


def parse_input(args: Mapping[str, str]) -> CalcInput:
    """Validate the calculator's query parameters; raise CalcError with the first problem."""
    personnel = _number(args, "personnel", 1, MAX_COUNT, True)
    overcome = _number(args, "overcome", 0, MAX_COUNT, False) or 0
    dilemmas = parse_dilemmas(args.get("dilemmas") or "")
    mission = (args.get("mission") or "").strip().lower() or None
    if mission is not None and mission not in MISSION_TYPES:
        raise CalcError(f"mission must be planet or space, not {quoted(mission)}")
    if dilemmas and mission is None:
        raise CalcError("mission is required with dilemmas (planet or space)")
    after = _number(args, "no_personnel_after", 0, len(dilemmas), False)
    requirements = (args.get("requirements") or "").strip().lower() or None
    if requirements is not None and requirements not in REQUIREMENTS:
        raise CalcError(f"requirements must be met or unmet, not {quoted(requirements)}")
    return CalcInput(personnel, overcome, mission, dilemmas, after, requirements)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _why(rule: str, dilemma: Dilemma, inp: CalcInput, total: int, limit: int) -> str:
    if rule == "duplicate":
        return "it is a second copy of the same dilemma in this attempt"
    if rule == "type":
        return f"it is a {dilemma.type} dilemma at a {inp.mission} mission"
    if rule == "cost":
        return (
            f"its cost {dilemma.cost} would make the total {total}, more than the {limit} allowed"
        )
    return "no personnel are left in the attempt"


def calculate(config: CalculatorConfig, inp: CalcInput) -> Calculation:
    """Run the attempt: the start numbers, each revealed dilemma in order, and the end."""
    difference = inp.personnel - inp.overcome
    limit = drawn = max(0, difference)
    start = (
        f"{inp.personnel} personnel attempting − {inp.overcome} overcome beneath the mission "
        f"= {difference}: your opponent draws {_plural(drawn, 'dilemma')} and may spend "
        f"a total cost of {limit}."
    )
    notes = []
    if difference < 0:
        notes.append(
            f"The overcome dilemmas ({inp.overcome}) outnumber the personnel ({inp.personnel}): "
            "no dilemmas are drawn and nothing may be spent."
        )
    if len(inp.dilemmas) > drawn:
        notes.append(
            f"{_plural(len(inp.dilemmas), 'dilemma')} revealed but {drawn} drawn: "
            "only card text can add dilemmas to the stack."
        )
    spent, results, rest_reason = 0, [], None
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
            results.append(
                DilemmaResult(
                    position,
                    dilemma,
                    "overcome",
                    (rest_reason,),
                    spent,
                    "overcome",
                    f"Overcome without being faced: {why}.",
                )
            )
            continue
        reasons = []
        if dilemma.duplicate:
            reasons.append("duplicate")
        if dilemma.type != "dual" and dilemma.type != inp.mission:
            reasons.append("type")
        if spent + dilemma.cost > limit:
            reasons.append("cost")
        total = spent + dilemma.cost
        stated = [
            r for r in reasons if not (r == "duplicate" and config.duplicate == "not-allowed")
        ]
        if "cost" not in reasons and (config.cost_counts == "chosen" or not reasons):
            # Version 4 deducts only a dilemma that passes; 2003 limits what was chosen.
            spent = total
        if stated:
            outcome = "overcome"
            whys = "; ".join(_why(r, dilemma, inp, total, limit) for r in stated)
            message = f"Overcome without being faced: {whys}."
            if "cost" in stated:
                rest_reason = "cost"
                message += " All remaining dilemmas are overcome too, regardless of their cost."
        elif reasons:
            outcome = "not-allowed"
            message = (
                "Not allowed: your opponent cannot choose more than one copy of the same dilemma. "
                "This version does not say what happens when one is revealed anyway."
            )
        else:
            outcome = "faced"
            if config.cost_counts == "chosen":
                message = f"Faced. The chosen dilemmas so far cost {spent} of the {limit} allowed."
            else:
                message = (
                    f"Faced. Its cost is deducted: {spent} of {limit} spent, {limit - spent} left."
                )
        rest = "overcome" if rest_reason == "cost" else "continue"
        if (
            inp.no_personnel_after == position
            and rest == "continue"
            and position < len(inp.dilemmas)
        ):
            rest = "overcome"
            message += " No personnel are left: the remaining dilemmas are overcome."
        results.append(
            DilemmaResult(position, dilemma, outcome, tuple(reasons), spent, rest, message)
        )
    end, rules, message = _end(inp, notes)
    return Calculation(
        inp,
        difference,
        drawn,
        limit,
        start,
        tuple(results),
        spent,
        end,
        rules,
        message,
        tuple(notes),
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
