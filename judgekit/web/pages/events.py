"""The event's pages: joining, recording a ruling, one ruling and its history, the event's list
with its filters, the head judge's desk, what is published, the exports. Views look up, check
who may act (judgekit/web/judges.py), and render."""

from __future__ import annotations

from datetime import datetime, timedelta

from flask import Blueprint, Response, abort, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from judgekit import urls
from judgekit.events import exchange, fields
from judgekit.events.model import Event, Judge, Ruling
from judgekit.events.store import GUESSES_IN_ALL, REJOIN_SECONDS, StoreError, TooManyGuesses
from judgekit.search.choice import safe_next
from judgekit.shapes import events as shapes
from judgekit.shapes.named import Typed, named_dict, typed_citation
from judgekit.web import judges
from judgekit.web.context import current_library as library
from judgekit.web.memory import not_kept

bp = Blueprint("events", __name__)
DEFAULT_HOURS = 16  # an event started with no end given ends this long after it starts


@bp.before_request
def _never_kept() -> None:
    not_kept()  # every page here shows what judges write, as it is now
    judges.store()  # where events are off, every page here says so (and why)


def _join_page(message: str = "", status: int = 200, next_url: str = "") -> ResponseReturnValue:
    event = judges.current_event()
    return render_template(
        "events/join.html",
        event=event,
        message=message,
        signed_out=judges.signed_out(),
        next_url=next_url or request.full_path.rstrip("?"),
        here=judges.on_this_computer(),
    ), status


def _event_and_judge():
    """The judge looking and their event, or None when no judge is looking."""
    judge = judges.current_judge()
    if judge is None:
        return None, None
    return judges.store().event(judge.event_id), judge


@bp.get("/event")
def event() -> ResponseReturnValue:
    """GET /event: the event's rulings for its judges (filtered), the join form for others."""
    found, judge = _event_and_judge()
    if judge is None:
        return _join_page()
    lib = library()
    store = judges.store()
    chosen = shapes.filters_of(request.args)
    every = store.rulings(found.id)
    passing, named = shapes.filtered(lib, every, chosen)
    shown = [shapes.ruling_dict(lib, r) for r in passing]
    precedent = [
        {"event": e.name, "rulings": [shapes.ruling_dict(lib, r) for r in store.rulings(e.id)]}
        for e in store.events()
        if e.precedent
    ]
    return render_template(
        "events/event.html",
        event=shapes.event_dict(found, judge),
        judge=judge,
        rulings=shown,
        total=len(every),
        filters=chosen,
        named=[named_dict(n) for n in named],
        facets=shapes.facets(every),
        precedent=precedent,
        alternate_url=urls.event_api(found.id),
    )


@bp.post("/event/join")
def join() -> ResponseReturnValue:
    """POST /event/join: the judge code and a name give this browser a judge's session."""
    judges.check_pre_session()
    next_url = safe_next(request.form.get("next"), urls.EVENT)
    found = judges.current_event()
    try:
        name = fields.line("name", request.form.get("name"), True, "your name")
        code = fields.line("code", request.form.get("code"), True, "the judge code")
        if found is None:
            raise StoreError("no event is running: the head judge starts one on the laptop")
        judge, token = judges.store().join(
            found.id,
            code,
            name,
            request.remote_addr or "",
            limited=not judges.on_this_computer(),
            sign_out_others=request.form.get("sign_out") == "others",
        )
    except TooManyGuesses as exc:
        return _join_page(str(exc), 429, next_url)
    except fields.FieldError as exc:
        return _join_page(str(exc), 400, next_url)
    except StoreError as exc:
        judges.wrong_code_given()
        return _join_page(str(exc), 403, next_url)
    response = redirect(next_url, 303)
    judges.start_session(response, token, judges.store().event(judge.event_id))
    return response


@bp.post("/event/leave")
def leave() -> ResponseReturnValue:
    """POST /event/leave: end this browser's session."""
    judges.check_write(judges.current_judge())
    response = redirect(urls.EVENT, 303)
    judges.end_session(response)
    return response


def _ruling_form(
    values: dict,
    cites: list[str],
    message: str = "",
    status: int = 200,
    typed: Typed | None = None,
):
    lib = library()
    pinned = []
    for cite in cites:
        try:
            pinned += [shapes.pin(lib, c) for c in fields.cites([cite])]
        except fields.FieldError as exc:
            message = message or str(exc)
    return render_template(
        "events/record.html",
        values=values,
        cites=[c.spec for c in pinned],
        pinned=pinned,
        pinned_pages={c.spec: shapes.page_editorial(lib, c) for c in pinned},
        message=message,
        typed=typed,
        # The cites the form was opened with: its draft on the phone stays its own (events.js)
        # when the Cite field's Find brings the form back with one more.
        opened=values["opened"][: fields.OPENED_CHARS]
        if "opened" in values
        else " ".join(sorted(c.spec for c in pinned)),
        judge=judges.current_judge(),
    ), status


@bp.get("/event/rulings/new")
def new_ruling() -> ResponseReturnValue:
    """GET /event/rulings/new?cite=…: the form recording a ruling, its citations filled in."""
    if judges.current_judge() is None:
        return _join_page("Join the event to record a ruling.", 401)
    return _ruling_form({}, request.args.getlist("cite")[: fields.MOST_CITATIONS])


@bp.get("/event/rulings")
def rulings() -> ResponseReturnValue:
    """GET /event/rulings, the address the form posts to, typed or reloaded: the event's page,
    which lists its rulings (not a 405). 302: the address stays the form's."""
    return redirect(url_for("events.event"))


@bp.post("/event/rulings")
def record() -> ResponseReturnValue:
    """POST /event/rulings: record a ruling, citing what its Cite field names too (a title, an
    id or a citation); the form again while that names several (the judge picks) or nothing,
    or when its Find button was pressed; else the ruling's page."""
    judge = judges.check_write(judges.current_judge())
    cites = request.form.getlist("cite")
    values = request.form.to_dict()
    try:
        text = fields.line("find", request.form.get("find"), False, "the Cite field")
        typed = typed_citation(library(), text, request.form.get("pick", "")[: fields.CITE_CHARS])
    except fields.FieldError as exc:
        return _ruling_form(values, cites, str(exc), 400)
    if typed is not None and not typed.chosen:  # nothing is recorded until the judge picks
        return _ruling_form(values, cites, status=400, typed=typed)
    if typed is not None:  # cited from now on: the form shows it ticked, its field empty
        cites, values = [*cites, typed.chosen], {**values, "find": ""}
    if request.form.get("step") == "find":  # the form again, with what it names
        return _ruling_form(values, cites)
    try:
        data, pinned = shapes.ruling_input(library(), request.form, cites)
    except fields.FieldError as exc:
        return _ruling_form(values, cites, str(exc), 400)
    draft = fields.line("q", (request.form.get("draft") or "")[:64]) or None  # an id, cut first
    ruling = judges.store().record(
        judge.event_id, judge, data, pinned, draft=draft, session=judges.session_token()
    )
    return redirect(urls.event_ruling_page(ruling.number) + "?recorded=1", 303)


@bp.get("/event/rulings/<int(max=999999999):number>")
def ruling(number: int) -> ResponseReturnValue:
    """GET /event/rulings/<n>: one ruling with every revision."""
    found, judge = _event_and_judge()
    if judge is None:
        return _join_page("Join the event to read its rulings.", 401)
    try:
        data = shapes.ruling_dict(library(), judges.store().ruling(found.id, number))
    except StoreError as exc:
        abort(404, description=str(exc))
    return render_template(
        "events/ruling.html",
        ruling=data,
        judge=judge,
        event=shapes.event_dict(found, judge),
        recorded=request.args.get("recorded") == "1",
        alternate_url=f"{urls.event_api(found.id)}/rulings/{number}",
    )


@bp.post("/event/rulings/<int(max=999999999):number>/revise")
def revise(number: int) -> ResponseReturnValue:
    """POST /event/rulings/<n>/revise: the head judge upholds, overturns, publishes."""
    judge = judges.check_write(judges.current_judge(), head=True)
    change = request.form.get("change", "")
    try:
        if change not in ("upheld", "overturned", "published", "unpublished"):
            raise fields.FieldError(f"unknown change {change[:40]!r}")
        note = fields.text("note", request.form.get("note"), change == "overturned", "the note")
        judges.store().revise(
            judge.event_id, number, judge, change, note, session=judges.session_token()
        )
    except fields.FieldError as exc:
        abort(400, description=str(exc))
    except StoreError as exc:
        abort(404, description=str(exc))
    return redirect(urls.event_ruling_page(number), 303)


@bp.get("/event/published")
def published() -> ResponseReturnValue:
    """GET /event/published: the rulings the head judge published, readable by anyone."""
    found = judges.store().current_event()
    rulings = []
    if found is not None:
        lib = library()
        rulings = [
            shapes.public_ruling_dict(lib, r)
            for r in judges.store().rulings(found.id)
            if r.now.published
        ]
    twin = urls.published_api(found.id) if found is not None else None
    return render_template(
        "events/published.html", event=found, rulings=rulings, alternate_url=twin
    )


def find_published(number: int) -> tuple[Event, Ruling]:
    """The current event and its published ruling ``number``, or a 404 saying there is none."""
    found = judges.store().current_event()
    if found is None:
        abort(404, description="no event is running")
    try:
        return found, judges.store().published_ruling(found.id, number)
    except StoreError as exc:
        abort(404, description=str(exc))


@bp.get("/event/published/<int(max=999999999):number>")
def published_ruling(number: int) -> ResponseReturnValue:
    """GET /event/published/<n>: one published ruling, as a player is shown it."""
    found, ruling = find_published(number)
    return render_template(
        "events/published.html",
        event=found,
        rulings=[shapes.public_ruling_dict(library(), ruling)],
        one=number,
        alternate_url=urls.published_ruling_api(found.id, number),
    )


def _export_rulings():
    found, judge = _event_and_judge()
    if judge is None:
        abort(401, description="join the event to export its rulings")
    return found, judges.store().rulings(found.id)


@bp.get("/event/export.json")
def export_json() -> ResponseReturnValue:
    """GET /event/export.json: the whole event, to keep or import elsewhere as precedent."""
    found, rulings = _export_rulings()
    response = jsonify(exchange.event_json(found, rulings))
    response.headers["Content-Disposition"] = 'attachment; filename="event-rulings.json"'
    return response


@bp.get("/event/export.csv")
def export_csv() -> ResponseReturnValue:
    """GET /event/export.csv: one ruling a row."""
    _found, rulings = _export_rulings()
    response = Response(exchange.event_csv(rulings), mimetype="text/csv")
    response.headers["Content-Disposition"] = 'attachment; filename="event-rulings.csv"'
    return response


@bp.get("/event/print")
def printable() -> ResponseReturnValue:
    """GET /event/print: every ruling on paper, oldest first."""
    found, rulings = _export_rulings()
    lib = library()
    return render_template(
        "events/print.html",
        alternate_url=urls.event_api(found.id),
        event=shapes.event_dict(found),
        rulings=[shapes.ruling_dict(lib, r) for r in sorted(rulings, key=lambda r: r.number)],
    )


# -- the head judge's desk ------------------------------------------------------------------------
def _desk_event():
    """The event the desk manages: the head judge's, or on the laptop the current one."""
    judge = judges.current_judge()
    if judge is not None and judge.head:
        return judges.store().event(judge.event_id), judge
    judges.require_this_computer()
    return judges.store().current_event(), judge


@bp.get("/event/desk")
def desk(again: tuple[str, str] | None = None) -> ResponseReturnValue:
    """GET /event/desk: codes (on the laptop only), judges, and the forms changing them;
    ``again``: a judge's name and the one-time code just made for them to join again."""
    found, judge = _desk_event()
    here = judges.on_this_computer()
    codes = judges.store().codes(found.id) if found is not None and here else None
    return render_template(
        "events/desk.html",
        event=found,
        judge=judge,
        codes=codes,
        here=here,
        judges_list=judges.store().judges(found.id) if found else [],
        guesses=judges.store().guesses(),
        # The laptop's browser without a head judge's session posts with its pre-session token.
        token=judges.csrf_token()
        if judge is not None and judge.head
        else judges.pre_session_token(),
        alarm_at=GUESSES_IN_ALL,
        again=again,
        again_minutes=REJOIN_SECONDS // 60,
        signed_out=judges.signed_out(),
    )


def _desk_write() -> tuple[Event, Judge | None]:
    """The event a desk form changes and the head judge changing it: the head judge's (session,
    CSRF, Origin checked), or on the laptop the current one, with no judge (the laptop's own
    browser: Origin and pre-session CSRF token)."""
    judge = judges.current_judge()
    if judge is not None and judge.head:
        judges.check_write(judge, head=True)
        return judges.store().event(judge.event_id), judge
    judges.require_this_computer()
    judges.check_pre_session()
    found = judges.store().current_event()
    if found is None:
        abort(404, description="no event is running")
    return found, None


@bp.post("/event/desk/code")
def change_code() -> ResponseReturnValue:
    """POST /event/desk/code: a new judge code (or head code); joined judges stay."""
    found, judge = _desk_write()
    which = "head" if request.form.get("which") == "head" else "judge"
    judges.store().change_code(found.id, which, by=judge, session=judges.session_token())
    return redirect(url_for("events.desk"), 303)


@bp.post("/event/desk/guesses")
def clear_guesses() -> ResponseReturnValue:
    """POST /event/desk/guesses: forget the wrong codes (every device may try again)."""
    _found, judge = _desk_write()
    judges.store().clear_guesses(by=judge, session=judges.session_token())
    return redirect(url_for("events.desk"), 303)


@bp.post("/event/desk/again")
def let_back_in() -> ResponseReturnValue:
    """POST /event/desk/again: a one-time code for a judge to join again under their own name
    (a new device, a lost session), shown on this answer only, never in an address."""
    found, judge = _desk_write()
    try:
        name = fields.line("name", request.form.get("name"), True)
        code = judges.store().let_back_in(found.id, name, by=judge, session=judges.session_token())
    except (fields.FieldError, StoreError) as exc:
        abort(400, description=str(exc))
    return desk(again=(name, code))


@bp.post("/event/desk/remove")
def remove_judge() -> ResponseReturnValue:
    """POST /event/desk/remove: remove a judge (their sessions end; their rulings stay)."""
    found, judge = _desk_write()
    try:
        name = fields.line("name", request.form.get("name"), True)
        judges.store().remove_judge(found.id, name, by=judge, session=judges.session_token())
    except (fields.FieldError, StoreError) as exc:
        abort(400, description=str(exc))
    return redirect(url_for("events.desk"), 303)


@bp.get("/event/new")
def new_event() -> ResponseReturnValue:
    """GET /event/new: on the laptop only, the form starting an event."""
    judges.require_this_computer()
    return render_template("events/new.html", message="", values={})


@bp.post("/event/new")
def create_event() -> ResponseReturnValue:
    """POST /event/new: on the laptop only: start an event and join it as its head judge."""
    judges.require_this_computer()
    judges.check_pre_session()
    try:
        name = fields.line("event", request.form.get("event"), True, "the event's name")
        head = fields.line("name", request.form.get("name") or "Head judge", True, "your name")
        hours = int(request.form.get("hours") or DEFAULT_HOURS)
        if not 1 <= hours <= 24 * 14:
            raise fields.FieldError("the event lasts 1 to 336 hours")
    except ValueError as exc:
        message = str(exc) if isinstance(exc, fields.FieldError) else "hours must be a number"
        return render_template("events/new.html", message=message, values=request.form), 400
    ends = (datetime.now() + timedelta(hours=hours)).timestamp()
    store = judges.store()
    found, _judge_code, head_code = store.create_event(name, ends)
    judge, token = store.join(found.id, head_code, head, request.remote_addr or "", limited=False)
    response = redirect(url_for("events.desk"), 303)
    judges.start_session(response, token, found)
    return response
