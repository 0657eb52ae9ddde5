"""The mission-attempt calculator's inputs: the query parameters, validated, with exact messages."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from judgekit.render.text import quoted

DILEMMA_TYPES = ("planet", "space", "dual")
MISSION_TYPES = ("planet", "space")
REQUIREMENTS = ("met", "unmet")
FLAGS = {"dup": "duplicate", "duplicate": "duplicate", "placed": "placed"}
MAX_COUNT = 999
MAX_COST = 99
MAX_MODIFIER = 99
MAX_DILEMMAS = 100
MAX_DIGITS = 9  # more is out of every range, and said so without reading the number
FIRST_COPY = "dilemma 1 is marked :dup (a second copy), but no dilemma is revealed before it"
PARAMS = (
    "personnel",
    "overcome",
    "modifiers",
    "mission",
    "dilemmas",
    "no_personnel_after",
    "requirements",
)


class CalcError(ValueError):
    """A bad calculator parameter; the message says which and why."""


@dataclass(frozen=True)
class Dilemma:
    """A revealed dilemma as the calculator needs it."""

    type: str
    cost: int
    duplicate: bool = False
    placed: bool = False  # its own text places it elsewhere (e.g. "place on mission"): not overcome

    @property
    def token(self) -> str:
        """The dilemma in the parameter syntax: TYPE:COST[:dup][:placed]."""
        flags = (":dup" if self.duplicate else "") + (":placed" if self.placed else "")
        return f"{self.type}:{self.cost}{flags}"


@dataclass(frozen=True)
class CalcInput:
    """The calculator's parameters, validated."""

    personnel: int
    overcome: int
    mission: str | None = None
    dilemmas: tuple[Dilemma, ...] = ()
    no_personnel_after: int | None = None
    requirements: str | None = None
    modifiers: int = 0  # Version 4 step 2.b: "plus or minus any modifiers" to the number drawn


def _number(args: Mapping[str, str], name: str, low: int, high: int, required: bool) -> int | None:
    raw = (args.get(name) or "").strip()
    if not raw:
        if required:
            raise CalcError(f"{name} is required")
        return None
    if not re.fullmatch(r"[-+]?\d+", raw):
        raise CalcError(f"{name} must be a whole number, not {quoted(raw)}")
    if len(raw.lstrip("+-").lstrip("0")) > MAX_DIGITS:  # and int() of a huge one costs, or fails
        size = "small" if raw.startswith("-") else "large"
        raise CalcError(f"{name} is too {size}: {quoted(raw)} (it must be from {low} to {high})")
    value = int(raw)
    if not low <= value <= high:
        raise CalcError(f"{name} must be from {low} to {high}, not {value}")
    return value


def _dilemma(position: int, token: str) -> Dilemma:
    parts = re.split(r"\s*:\s*|\s+", token.lower())
    flags = [FLAGS.get(p) for p in parts[2:]]
    if len(parts) < 2 or len(parts) > 4 or None in flags or len(set(flags)) < len(flags):
        # The message the API has always given; ":placed" is explained beside the form's field.
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
    return Dilemma(kind, int(cost), "duplicate" in flags, "placed" in flags)


def parse_dilemmas(raw: str) -> tuple[Dilemma, ...]:
    """Parse `planet:2, dual:1:dup, space:0:placed, …` (colons or spaces inside, commas between)."""
    tokens = [t.strip() for t in re.split(r"[,;\n]", raw or "") if t.strip()]
    if len(tokens) > MAX_DILEMMAS:
        raise CalcError(f"at most {MAX_DILEMMAS} dilemmas, not {len(tokens)}")
    dilemmas = tuple(_dilemma(position, token) for position, token in enumerate(tokens, 1))
    if dilemmas and dilemmas[0].duplicate:
        raise CalcError(FIRST_COPY)
    return dilemmas


def parse_input(args: Mapping[str, str]) -> CalcInput:
    """Validate the calculator's query parameters; raise CalcError with the first problem."""
    personnel = _number(args, "personnel", 1, MAX_COUNT, True)
    overcome = _number(args, "overcome", 0, MAX_COUNT, False) or 0
    modifiers = _number(args, "modifiers", -MAX_MODIFIER, MAX_MODIFIER, False) or 0
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
    return CalcInput(personnel, overcome, mission, dilemmas, after, requirements, modifiers)
