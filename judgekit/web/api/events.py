"""The event's JSON API under /api/events: the same checks as the pages (a judge's session, the
CSRF token in ``X-CSRF-Token``, the Origin) and the same dictionaries."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, request
from flask.typing import ResponseReturnValue

from judgekit.events import fields
from judgekit.events.model import Event, Judge
from judgekit.events.store import StoreError, TooManyGuesses
from judgekit.shapes import events as shapes
from judgekit.shapes.named import named_dict, typed_cites
from judgekit.web import judges
from judgekit.web.context import current_library as library
from judgekit.web.memory import not_kept

bp = Blueprint("api_events", __name__, url_prefix="/api/events")


@bp.before_request
def _never_kept() -> None:
    not_kept()
    judges.store()  # where events are off, every page here says so (and why)


def _body() -> dict:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, description="send a JSON object (Content-Type: application/json)")
    return data


def _event(event_id: int) -> Event:
    try:
        return judges.store().event(event_id)
    except StoreError as exc:
        abort(404, description=str(exc))


def _judge_of(event_id: int) -> Judge:
    """The judge looking, who must belong to this event."""
    judge = judges.current_judge()
    if judge is None or judge.event_id != event_id:
        abort(401, description=judges.signed_out() or "join this event with the judge code first")
    return judge


def _writer(event_id: int, head: bool = False) -> Judge:
    judge = judges.check_write(judges.current_judge(), head)
    if judge.event_id != event_id:
        abort(403, description="your session belongs to another event")
    return judge


@bp.get("/<int(max=999999999):event_id>")
def event(event_id: int) -> ResponseReturnValue:
    """GET /api/events/<id>?round=&table=&judge=&entry=&card=&q=: the event and its rulings."""
    found = _event(event_id)
    judge = _judge_of(event_id)
    chosen = shapes.filters_of(request.args)
    lib = library()
    rulings = judges.store().rulings(event_id)
    passing, named = shapes.filtered(lib, rulings, chosen)
    return jsonify(
        {
            **shapes.event_dict(found, judge),
            "total": len(rulings),
            "rulings": [shapes.ruling_dict(lib, r) for r in passing],
            "named": [named_dict(n) for n in named],
        }
    )


@bp.get("/<int(max=999999999):event_id>/rulings/<int(max=999999999):number>")
def ruling(event_id: int, number: int) -> ResponseReturnValue:
    """GET /api/events/<id>/rulings/<n>: one ruling and its revisions."""
    _judge_of(event_id)
    try:
        return jsonify(shapes.ruling_dict(library(), judges.store().ruling(event_id, number)))
    except StoreError as exc:
        abort(404, description=str(exc))


@bp.post("/<int(max=999999999):event_id>/rulings")
def record(event_id: int) -> ResponseReturnValue:
    """POST /api/events/<id>/rulings: record a ruling (JSON fields, ``cite`` a list)."""
    judge = _writer(event_id)
    data = _body()
    cites = data.get("cite") or []
    if not isinstance(cites, list) or not all(isinstance(c, str) for c in cites):
        abort(400, description="cite must be a list of citations, titles or ids")
    try:
        cites = typed_cites(library(), cites)  # what the form's Cite field takes
        values, pinned = shapes.ruling_input(library(), data, cites)
    except fields.FieldError as exc:
        abort(400, description=str(exc))
    draft = data.get("draft")
    draft = fields.line("q", draft[:64]) if isinstance(draft, str) and draft else None
    found = judges.store().record(
        event_id, judge, values, pinned, draft=draft, session=judges.session_token()
    )
    return jsonify(shapes.ruling_dict(library(), found)), 201


@bp.post("/<int(max=999999999):event_id>/rulings/<int(max=999999999):number>/revise")
def revise(event_id: int, number: int) -> ResponseReturnValue:
    """POST /api/events/<id>/rulings/<n>/revise: {"change": "overturned", "note": …} (head)."""
    judge = _writer(event_id, head=True)
    data = _body()
    change = data.get("change")
    if change not in ("upheld", "overturned", "published", "unpublished"):
        abort(400, description="change must be upheld, overturned, published or unpublished")
    try:
        note = fields.text("note", data.get("note"), change == "overturned", "the note")
        found = judges.store().revise(
            event_id, number, judge, change, note, session=judges.session_token()
        )
    except fields.FieldError as exc:
        abort(400, description=str(exc))
    except StoreError as exc:
        abort(404, description=str(exc))
    return jsonify(shapes.ruling_dict(library(), found))


@bp.post("/<int(max=999999999):event_id>/judges/remove")
def remove_judge(event_id: int) -> ResponseReturnValue:
    """POST /api/events/<id>/judges/remove {"name"} (head): remove a judge (their sessions end;
    their rulings stay); never the head judge sending it."""
    judge = _writer(event_id, head=True)
    data = _body()
    try:
        name = fields.line("name", data.get("name"), True, "name")
        removed = judges.store().remove_judge(
            event_id, name, by=judge, session=judges.session_token()
        )
    except (fields.FieldError, StoreError) as exc:
        abort(400, description=str(exc))
    return jsonify({"judge": {"name": removed.name, "head": removed.head, "removed": True}})


@bp.post("/<int(max=999999999):event_id>/join")
def join(event_id: int) -> ResponseReturnValue:
    """POST /api/events/<id>/join {"code", "name", "sign_out_others"}: a session cookie (send
    the CSRF token of GET /api/events/session in X-CSRF-Token). ``sign_out_others`` (false by
    default): the head judge joining again with the head judge code signs their other devices
    out (a lost phone); a code from "Let back in" always does."""
    judges.check_pre_session()
    data = _body()
    found = _event(event_id)
    sign_out_others = data.get("sign_out_others", False)
    if not isinstance(sign_out_others, bool):
        abort(400, description="sign_out_others must be true or false")
    try:
        name = fields.line("name", data.get("name"), True, "name")
        code = fields.line("code", data.get("code"), True, "code")
        judge, token = judges.store().join(
            event_id,
            code,
            name,
            request.remote_addr or "",
            limited=not judges.on_this_computer(),
            sign_out_others=sign_out_others,
        )
    except TooManyGuesses as exc:
        abort(429, description=str(exc))
    except fields.FieldError as exc:
        abort(400, description=str(exc))
    except StoreError as exc:
        judges.wrong_code_given()
        abort(403, description=str(exc))
    response = jsonify({"judge": {"name": judge.name, "head": judge.head}})
    judges.start_session(response, token, found)
    return response


@bp.get("/session")
def session() -> ResponseReturnValue:
    """GET /api/events/session: the judge looking (or null) and the CSRF token their writes (or,
    without a session, their join) send; ``signed_out`` says why a session ended when the
    judge's joining again on another device ended it."""
    judge = judges.current_judge()
    if judge is None:  # the token joining sends; why this device's session ended, if it did
        return jsonify(
            {
                "judge": None,
                "csrf": judges.pre_session_token(),
                "signed_out": judges.signed_out() or None,
            }
        )
    return jsonify(
        {
            "judge": {"name": judge.name, "head": judge.head},
            "event_id": judge.event_id,
            "csrf": judges.csrf_token(),
        }
    )


@bp.get("/<int(max=999999999):event_id>/published")
def published(event_id: int) -> ResponseReturnValue:
    """GET /api/events/<id>/published: the published rulings as they are now, for anyone."""
    found = _event(event_id)
    lib = library()
    rulings = [r for r in judges.store().rulings(event_id) if r.now.published]
    return jsonify(
        {
            **shapes.event_dict(found),
            "rulings": [shapes.public_ruling_dict(lib, r) for r in rulings],
        }
    )


@bp.get("/<int(max=999999999):event_id>/published/<int(max=999999999):number>")
def published_ruling(event_id: int, number: int) -> ResponseReturnValue:
    """GET /api/events/<id>/published/<n>: one published ruling as the list holds it, for
    anyone; 404 in the same words for one missing or not published."""
    _event(event_id)
    try:
        found = judges.store().published_ruling(event_id, number)
    except StoreError as exc:
        abort(404, description=str(exc))
    return jsonify(shapes.public_ruling_dict(library(), found))
