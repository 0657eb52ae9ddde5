"""The timing part of the JSON API (routes on the api blueprint); the shapes are shapes.timing's."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, request
from flask.typing import ResponseReturnValue

from judgekit.shapes.timing import first_edition_dict, index_dict, run_calculator, sequence_dict
from judgekit.timing.calculator import CalcError
from judgekit.web.context import current_library as library
from judgekit.web.context import current_timing as timing
from judgekit.web.lookup import find_sequence

bp = Blueprint("api_timing", __name__, url_prefix="/api")


@bp.get("/timing")
def timing_index() -> ResponseReturnValue:
    """GET /api/timing."""
    return jsonify(index_dict(library(), timing()))


@bp.get("/timing/first-edition")
def timing_first_edition() -> ResponseReturnValue:
    """GET /api/timing/first-edition."""
    return jsonify(first_edition_dict(library(), timing()))


@bp.get("/timing/<sequence_id>")
def timing_sequence(sequence_id: str) -> ResponseReturnValue:
    """GET /api/timing/<sequence_id>."""
    seq = find_sequence(sequence_id, request.args.get("version"))
    return jsonify(sequence_dict(library(), timing(), seq))


@bp.get("/timing/<sequence_id>/calculate")
def timing_calculate(sequence_id: str) -> ResponseReturnValue:
    """GET /api/timing/<sequence_id>/calculate."""
    seq = find_sequence(sequence_id, request.args.get("version"))
    if seq.calculator is None:
        abort(404, description=f"sequence {sequence_id!r} {seq.version} has no calculator")
    try:
        return jsonify(run_calculator(library(), timing(), seq, request.args))
    except CalcError as exc:
        abort(400, description=str(exc))
