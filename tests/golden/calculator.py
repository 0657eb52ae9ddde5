"""What a calculator case pins of an answer, on both sides: ``project`` takes it from the server's
JSON (``/api/timing/<sequence>/calculate``) and ``calculator_projection.js`` from the pack's
``window.judgekit.calculate``, the same fields under the same names.

The cases of ``calculator_cases.json`` (reviewed against the rulebooks) hold the server to their
answers in tests/test_timing_review30.py and pack-calculator.js in
tests/node/calculator.test.mjs; tests/test_pack_calculator.py holds the pack in Chromium to the
server's answers on the small pack corpus.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
CASES: list[dict[str, Any]] = json.loads((HERE / "calculator_cases.json").read_text("utf-8"))
# One function expression: the Node test evaluates it, the Chromium test passes it to the page.
PACK_PROJECTION = (HERE / "calculator_projection.js").read_text("utf-8")


BASIS_KEYS = ("basis", "citations", "points", "readings")


def _basis(part: dict[str, Any]) -> dict[str, Any]:
    return {k: part[k] for k in BASIS_KEYS if k in part}


def project_basis(data: dict[str, Any]) -> dict[str, Any]:
    """What each part of the server's answer rests on, as the pack's ``calculate`` gives ``basis``:
    the start, each dilemma, the end (rule and citations, or the readings), the sections cited
    (numbered once each) and the dilemmas beneath the mission afterwards under each reading."""
    return {
        "start": _basis(data["start"]),
        "dilemmas": [_basis(d) for d in data["dilemmas"]],
        "end": _basis(data["end"]),
        "beneath": data["beneath_after_readings"],
        "cited": data["cited"],
    }


def server_bases() -> list[dict[str, Any] | None]:
    """The server's basis of every case on the built-in corpus (None for a refused one)."""
    from judgekit import create_app

    client = create_app({"TESTING": True}).test_client()
    out: list[dict[str, Any] | None] = []
    for case in CASES:
        query = {"version": case["version"], **case["params"]}
        answer = client.get("/api/timing/mission-attempt/calculate", query_string=query)
        out.append(project_basis(answer.get_json()) if answer.status_code == 200 else None)
    return out


def project(status: int, data: dict[str, Any]) -> dict[str, Any]:
    """What a case pins of the server's calculator answer (or its 400's message)."""
    if status == 400:
        return {"error": data["message"]}
    assert status == 200, data
    return {
        "drawn": data["dilemmas_drawn"],
        "limit": data["cost_limit"],
        "limits": data["cost_limit_readings"],
        "start": data["start"]["message"],
        "start_basis": data["start"]["basis"],
        "dilemmas": [
            [
                d["position"],
                d["outcome"],
                d["reasons"],
                d["rest"],
                d["spent"],
                d["basis"],
                [p["point"] for p in d.get("points", [])],
                d["message"],
            ]
            for d in data["dilemmas"]
        ],
        "end": [data["end"]["result"], data["end"]["message"]],
        "notes": data["notes"],
    }
