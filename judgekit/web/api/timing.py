"""The timing part of the JSON API (routes on the api blueprint); the stepper pages use these dicts."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from flask import Blueprint, abort, jsonify, request
from flask.typing import ResponseReturnValue

from judgekit.corpus.references import Target, resolve
from judgekit.render.library import Library
from judgekit.render.text import to_html, to_plain
from judgekit.shapes import reading as serialize
from judgekit.timing.calculator import CalcError, Calculation, calculate, parse_input
from judgekit.timing.check import find_paragraph
from judgekit.timing.model import (
    Cite,
    Sequence,
    Step,
    sequence_api_url,
    sequence_url,
)
from judgekit.web.context import current_library as library
from judgekit.web.context import current_timing as timing
from judgekit.web.lookup import find_sequence

bp = Blueprint("api_timing", __name__, url_prefix="/api")

ACTOR_LABELS = {
    "active": "Active player",
    "opponent": "Opponent",
    "each": "Each player in turn",
    "game": "The rules",
}
KIND_LABELS = {"action": "Action", "check": "Check", "response": "Response window"}


def _url(seq: Sequence, at: Step | None = None, **params: Any) -> str:
    return sequence_url(seq, at, **params)


def cite_dict(lib: Library, seq: Sequence, cite: Cite) -> dict[str, Any]:
    """A step's citation: the entry, and the cited paragraph's text when the cite names one."""
    found = resolve(lib.corpus, cite.target, seq.document, seq.version)
    entry = lib.get(found) if isinstance(found, Target) and not found.external else None
    if entry is None:
        return {"target": cite.target, "resolved": False, "title": cite.target, "url": None}
    data = {
        **serialize.ref(lib, found),
        "target": cite.target,
        "resolved": True,
        "citation": lib.citation_title(entry),
        "para": cite.para,
        "block": None,
        "text": None,
        "html": None,
    }
    matches = find_paragraph(entry, cite.para) if cite.para else []
    if len(matches) == 1:
        kind, markdown = matches[0]
        link = lib.linker(entry)
        data["block"] = kind
        data["text"] = to_plain(markdown, lib.corpus.icons, link)
        data["html"] = to_html(markdown, lib.corpus.icons, link)
    return data


def _step_ref(seq: Sequence, step: Step | None) -> dict[str, Any] | None:
    if step is None:
        return None
    return {"id": step.id, "number": step.number, "url": _url(seq, step)}


def step_dict(lib: Library, seq: Sequence, step: Step) -> dict[str, Any]:
    """GET /api/timing/<id>: one step and its sub-steps."""
    others = [
        {"version": other.version, "official": other.official, **_step_ref(other, found)}
        for other in timing().versions(seq.id)
        if other.version != seq.version and (found := other.find(step.id)) is not None
    ]
    see = timing().get(step.see, seq.version) if step.see else None
    return {
        "id": step.id,
        "number": step.number,
        "title": step.title,
        "text": step.text,
        "html": to_html(step.text, lib.corpus.icons, lib.linker_at(seq.document, seq.version)),
        "actor": step.actor,
        "actor_label": ACTOR_LABELS[step.actor],
        "kind": step.kind,
        "kind_label": KIND_LABELS[step.kind],
        "triggers": list(step.triggers),
        "branches": [
            {
                "if": branch.label,
                "goto": branch.goto if (target := seq.target(branch)) is None else target.number,
                "says": branch.says,
                "url": _url(seq, target) if target else _url(seq, step="end"),
            }
            for branch in step.branches
        ],
        "prev": _step_ref(seq, seq.prev_of(step)),
        "next": _step_ref(seq, seq.next_of(step)),
        "see": {"id": see.id, "title": see.title, "url": _url(see)} if see else None,
        "note": step.note,
        "url": _url(seq, step),
        "other_versions": others,
        "cites": [cite_dict(lib, seq, cite) for cite in step.cites],
        "children": [step_dict(lib, seq, child) for child in step.children],
    }


def flat_steps(steps: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Serialized steps in reading order (depth first)."""
    for step in steps:
        yield step
        yield from flat_steps(step["children"])


def sequence_summary(seq: Sequence) -> dict[str, Any]:
    """A sequence's version as listed."""
    return {
        "version": seq.version,
        "official": seq.official,
        "url": _url(seq),
        "api_url": sequence_api_url(seq),
    }


def sequence_dict(lib: Library, seq: Sequence) -> dict[str, Any]:
    """GET /api/timing/<id>?version=: the sequence with every step; computed once per app."""
    cache = lib.memo("timing_json")
    key = (seq.id, seq.version)
    if key not in cache:
        version = lib.corpus.version(seq.document, seq.version)
        cache[key] = {
            "id": seq.id,
            "title": seq.title,
            "document": seq.document,
            "version": seq.version,
            "version_title": version.title,
            "in_force": lib.corpus.in_force(version),
            "official": seq.official,
            "intro": seq.intro,
            "note": seq.note,
            "source": cite_dict(lib, seq, Cite(seq.source)),
            "calculator": seq.calculator is not None,
            "url": _url(seq),
            "versions": [sequence_summary(s) for s in timing().versions(seq.id)],
            "steps": [step_dict(lib, seq, step) for step in seq.steps],
        }
    return cache[key]


def index_dict() -> dict[str, Any]:
    """GET /api/timing: every sequence and its versions (the in-force one last)."""
    out = []
    for seq_id in timing().ids():
        versions = timing().versions(seq_id)
        out.append(
            {
                "id": seq_id,
                "title": versions[-1].title,
                "versions": [s.version for s in versions],
                "default_version": versions[-1].version,
                "official": {s.version: s.official for s in versions},
                "url": _url(versions[-1]),
            }
        )
    return {"sequences": out}


def calculation_dict(lib: Library, seq: Sequence, calc: Calculation) -> dict[str, Any]:
    """GET /api/timing/mission-attempt/calculate: the attempt's numbers, each dilemma, the end."""
    config = seq.calculator
    inp = calc.input

    def steps(rules: tuple[str, ...]) -> list[dict[str, Any]]:
        found = dict.fromkeys(seq.find(config.steps[rule]) for rule in rules)
        return [_step_ref(seq, step) for step in found if step is not None]

    # The rules' citations are those of their steps, already built (and cached) for the sequence.
    built = {s["number"]: s for s in flat_steps(sequence_dict(lib, seq)["steps"])}
    rules = {}
    for rule, key in config.steps.items():
        step = built[seq.find(key).number]
        rules[rule] = {
            "id": step["id"],
            "number": step["number"],
            "url": step["url"],
            "text": step["text"],
            "cites": step["cites"],
        }
    return {
        "sequence": seq.id,
        "version": seq.version,
        "official": seq.official,
        "personnel": inp.personnel,
        "overcome": inp.overcome,
        "mission": inp.mission,
        "dilemmas_param": ",".join(d.token for d in inp.dilemmas),
        "no_personnel_after": inp.no_personnel_after,
        "requirements": inp.requirements,
        "difference": calc.difference,
        "dilemmas_drawn": calc.dilemmas_drawn,
        "cost_limit": calc.cost_limit,
        "start": {"message": calc.start, "steps": steps(("draw", "cost_limit"))},
        "dilemmas": [
            {
                "position": r.position,
                "type": r.dilemma.type,
                "cost": r.dilemma.cost,
                "duplicate": r.dilemma.duplicate,
                "outcome": r.outcome,
                "reasons": list(r.reasons),
                "spent": r.spent,
                "remaining": calc.cost_limit - r.spent,
                "rest": r.rest,
                "message": r.message,
                "steps": steps(r.reasons or ("cost",)),
            }
            for r in calc.results
        ],
        "cost_spent": calc.spent,
        "cost_remaining": calc.cost_limit - calc.spent,
        "faced": calc.count("faced"),
        "overcome_unfaced": calc.count("overcome"),
        "not_allowed": calc.count("not-allowed"),
        "end": {"result": calc.end, "message": calc.end_message, "steps": steps(calc.end_rules)},
        "notes": list(calc.notes),
        "rules": rules,
    }


def run_calculator(lib: Library, seq: Sequence, args: Mapping[str, str]) -> dict[str, Any]:
    """Parse the parameters and calculate; raise CalcError on a bad parameter."""
    return calculation_dict(lib, seq, calculate(seq.calculator, parse_input(args)))


@bp.get("/timing")
def timing_index() -> ResponseReturnValue:
    """GET /api/timing."""
    return jsonify(index_dict())


@bp.get("/timing/<sequence_id>")
def timing_sequence(sequence_id: str) -> ResponseReturnValue:
    """GET /api/timing/<sequence_id>."""
    seq = find_sequence(sequence_id, request.args.get("version"))
    return jsonify(sequence_dict(library(), seq))


@bp.get("/timing/<sequence_id>/calculate")
def timing_calculate(sequence_id: str) -> ResponseReturnValue:
    """GET /api/timing/<sequence_id>/calculate."""
    seq = find_sequence(sequence_id, request.args.get("version"))
    if seq.calculator is None:
        abort(404, description=f"sequence {sequence_id!r} {seq.version} has no calculator")
    try:
        return jsonify(run_calculator(library(), seq, request.args))
    except CalcError as exc:
        abort(400, description=str(exc))
