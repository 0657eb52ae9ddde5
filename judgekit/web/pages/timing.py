"""The timing pages: the list of sequences, and the stepper with the mission-attempt calculator."""

from __future__ import annotations

from flask import Blueprint, render_template, request
from flask.typing import ResponseReturnValue

from judgekit.shapes.timing import (
    find_steps,
    first_edition_dict,
    flat_steps,
    index_dict,
    run_calculator,
    sequence_dict,
)
from judgekit.timing.calcinput import PARAMS
from judgekit.timing.calculator import CalcError
from judgekit.timing.links import sequence_url
from judgekit.timing.model import END
from judgekit.web.context import current_library as library
from judgekit.web.context import current_timing as timing
from judgekit.web.lookup import find_sequence, find_step

bp = Blueprint("timing", __name__)


@bp.get("/timing")
def index() -> ResponseReturnValue:
    """GET /timing."""
    return render_template("timing/index.html", data=index_dict(library(), timing()))


@bp.get("/timing/first-edition")
def first_edition() -> ResponseReturnValue:
    """GET /timing/first-edition."""
    return render_template(
        "timing/first_edition.html", data=first_edition_dict(library(), timing())
    )


@bp.get("/timing/<sequence_id>")
def sequence(sequence_id: str) -> ResponseReturnValue:
    """GET /timing/<sequence_id>."""
    lib = library()
    seq = find_sequence(sequence_id, request.args.get("version"))
    data = sequence_dict(lib, timing(), seq)
    key = request.args.get("step") or seq.flat[0].number
    step = None
    if key != END:
        number = find_step(seq, key).number
        step = next(s for s in flat_steps(data["steps"]) if s["number"] == number)
    calc_args = {k: request.args[k] for k in PARAMS if request.args.get(k, "").strip()}
    calc, calc_error, status = None, None, 200
    if seq.calculator and calc_args:
        try:
            calc = run_calculator(lib, timing(), seq, request.args)
        except CalcError as exc:
            calc_error, status = str(exc), 400

    query = (request.args.get("q") or "").strip()[:200]
    results = find_steps(timing(), seq, query) if query else None

    # Only inputs that calculated travel with the links: rejected ones stay in the form to fix.
    kept = calc_args if calc_error is None else {}

    def link(number: str, version: str = seq.version) -> str:
        """A step's URL (in this or another version) that keeps the calculator's valid inputs."""
        other = timing().get(seq.id, version) or seq
        return sequence_url(other, None, step=number, **kept)

    html = render_template(
        "timing/sequence.html",
        seq=data,
        step=step,
        calc=calc,
        calc_error=calc_error,
        calc_args=calc_args,
        link=link,
        query=query,
        results=results,
    )
    return html, status
