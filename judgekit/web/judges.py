"""Who may write an event's rulings, on a network of strangers' devices.

A judge holds a session: a random token, signed with the installation's secret, in an HTTP-only
SameSite cookie that ends with the event; the store knows the token (hashed) and its judge, so
removing a judge ends their sessions at once. Every write (forms and JSON) must come from
judgekit's own pages: its Origin (or, without one, its Referer) is this server, and it carries
the session's CSRF token. Creating an event and seeing its codes needs this computer itself: a
loopback client that asked for a loopback host (a page elsewhere rebinding its name to 127.0.0.1
is refused). A page read with a session cookie is never kept in memory: it shows rulings.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import sqlite3
import sys
import time
from typing import NoReturn
from urllib.parse import urlsplit

from flask import Flask, Response, abort, current_app, g, request, url_for
from flask.typing import ResponseReturnValue
from itsdangerous import BadSignature, Signer
from werkzeug.exceptions import ServiceUnavailable, Unauthorized

from judgekit.events.fields import MOST_CITATIONS, OPENED_CHARS
from judgekit.events.model import Event, Judge
from judgekit.events.store import (
    GUESSES_IN_ALL,
    SessionEnded,
    Store,
    StoreError,
    default_data_dir,
)
from judgekit.shapes.events import search_target, signed_out_message, typed_back
from judgekit.urls import EVENT, only_this_computer
from judgekit.web.errors import RefusedTyped, http_error, wants_json
from judgekit.web.memory import not_kept

KEY = "judgekit_events"
COOKIE = "jk_judge"
PRE_COOKIE = "jk_pre"  # before a session (joining, starting an event): the form's CSRF secret
CSRF_FIELD = "csrf"
CSRF_HEADER = "X-CSRF-Token"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")  # an HTML form's post


def init_app(app: Flask) -> None:
    """Open (create, migrate) the events database; none for a judge pack, which holds no events.

    ``EVENTS_DB`` names the file; else ``DATA_DIR`` (default: the user's data folder) holds
    ``events.sqlite``. Only the path and the secret are kept: each process connects afresh.
    """
    app.extensions[KEY] = None if app.config.get("PACK") else _open(app)
    init_templates(app)
    app.register_error_handler(sqlite3.OperationalError, _busy)
    app.register_error_handler(SessionEnded, _ended)


def _busy(exc: sqlite3.OperationalError) -> ResponseReturnValue:
    """A database that stayed locked (or a disk that failed) past the wait: a 503 saying so,
    never a 500; nothing was written."""
    print(f"judgekit: events database: {exc}", file=sys.stderr, flush=True)
    return http_error(
        ServiceUnavailable(
            description="the laptop could not write this now: nothing was kept; try again"
        )
    )


def _ended(_exc: SessionEnded) -> ResponseReturnValue:
    """A write whose session ended after it was checked, before its transaction (a rejoin or a
    removal committed first): refused as a write without a session is, nothing written."""
    token = _token()
    return http_error(_refusal(_why_ended(token) if token else ""))


def _open(app: Flask) -> dict | None:
    path = app.config.get("EVENTS_DB") or (
        f"{app.config.get('DATA_DIR') or default_data_dir()}/events.sqlite"
    )
    found = Store(path)
    try:
        found.migrate()
        return {"store": found, "signer": Signer(found.secret(), salt="judge-session")}
    except (OSError, sqlite3.Error, StoreError) as exc:
        # The rules are still served (a read-only home, a full disk, a newer judgekit's file);
        # the event's pages say they are off, and the laptop's output says why.
        print(f"judgekit: event rulings are off: {path}: {exc}", file=sys.stderr, flush=True)
        app.config["EVENTS_OFF"] = (
            "the events database cannot be used (judgekit serve's output on the laptop says why)"
        )
        return None


def running_event(app: Flask) -> Event | None:
    """The event judges of this installation can join now (outside a request: `serve`)."""
    found = app.extensions.get(KEY)
    return found["store"].current_event() if found else None


def store() -> Store:
    """The current app's events database (404 where there is none: a judge pack)."""
    found = current_app.extensions.get(KEY)
    if not found:
        reason = current_app.config.get("EVENTS_OFF")
        if reason:
            abort(503, description=f"event rulings are off: {reason}")
        abort(404, description="this copy of judgekit keeps no events")
    return found["store"]


def _signer() -> Signer:
    return current_app.extensions[KEY]["signer"]


def _token() -> str | None:
    """The session token of this request's cookie, if its signature holds."""
    if not current_app.extensions.get(KEY):
        return None
    raw = request.cookies.get(COOKIE)
    if raw is None:
        return None
    not_kept()  # a judge's page shows rulings: never kept, never replayed to anyone
    try:
        return _signer().unsign(raw[:200]).decode()
    except (BadSignature, UnicodeDecodeError):
        return None


def current_judge() -> Judge | None:
    """The judge this request's session belongs to, while it lasts; None for anyone else."""
    if "judgekit_judge" not in g:
        token = _token()
        g.judgekit_judge = store().session_judge(token) if token else None
    return g.judgekit_judge


def signed_out() -> str:
    """What this device is told when its judge's joining again on another device ended its
    session (the store remembers it till the event ends); "" for any other request."""
    if "judgekit_signed_out" not in g:
        token = _token()
        g.judgekit_signed_out = _why_ended(token) if token and current_judge() is None else ""
    return g.judgekit_signed_out


def _why_ended(token: str) -> str:
    """Why this session token's session ended, where its judge's joining again ended it."""
    out = store().signed_out(token)
    return signed_out_message(out) if out else ""


def session_token() -> str | None:
    """This request's session token (its cookie's, signature checked): a write passes it to the
    store, which checks the session is still live inside the write's transaction."""
    return _token()


def current_event() -> Event | None:
    """The event the judge looking belongs to, else the installation's current event."""
    judge = current_judge()
    if judge is not None:
        return store().event(judge.event_id)
    return store().current_event() if current_app.extensions.get(KEY) else None


def csrf_token() -> str:
    """This session's CSRF token (empty without a session)."""
    token = _token()
    if not token:
        return ""
    key = _signer().secret_keys[-1]
    return hmac.new(key, b"csrf:" + token.encode(), hashlib.sha256).hexdigest()[:40]


def _pre_secret() -> str | None:
    """This browser's pre-session secret, if its cookie's signature holds."""
    raw = request.cookies.get(PRE_COOKIE)
    if raw is None:
        return None
    try:
        return _signer().unsign(raw[:200]).decode()
    except (BadSignature, UnicodeDecodeError):
        return None


def _pre_token(secret: str) -> str:
    key = _signer().secret_keys[-1]
    return hmac.new(key, b"pre:" + secret.encode(), hashlib.sha256).hexdigest()[:40]


def pre_session_token() -> str:
    """The CSRF token of the forms used before a session (joining, starting an event): tied to
    a random secret in this browser's cookie, given with the page when it has none."""
    if not current_app.extensions.get(KEY):
        return ""
    not_kept()  # the page carries this browser's token
    secret = _pre_secret() or g.get("judgekit_pre_new")
    if secret is None:
        secret = g.judgekit_pre_new = secrets.token_urlsafe(24)
    return _pre_token(secret)


def _give_pre_cookie(response: Response) -> Response:
    """Set the pre-session cookie a page's token was made from, where it was new."""
    secret = g.get("judgekit_pre_new")
    if secret is not None:
        response.set_cookie(
            PRE_COOKIE,
            _signer().sign(secret).decode(),
            path="/",
            httponly=True,
            samesite="Lax",
        )
    return response


def check_pre_session() -> None:
    """Refuse a join or a new event not sent by a form (or the API) this browser was given: the
    Origin, and the pre-session CSRF token."""
    check_origin()
    secret = _pre_secret()
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD) or ""
    if secret is None or not hmac.compare_digest(sent.encode(), _pre_token(secret).encode()):
        refuse(403, "the form is out of date (its CSRF token does not match): open it again")


def start_session(response: Response, token: str, event: Event) -> None:
    """Give the browser a session cookie ending with the event."""
    response.set_cookie(
        COOKIE,
        _signer().sign(token).decode(),
        max_age=max(0, int(event.ends_at - time.time())),
        path="/",
        httponly=True,
        samesite="Lax",
    )


def end_session(response: Response) -> None:
    """Forget the session on this browser and in the store."""
    token = _token()
    if token:
        store().end_session(token)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="Lax")


def refuse(status: int, message: str) -> NoReturn:
    """Refuse a write with a status and a sentence."""
    abort(status, description=message)


def _own_origins() -> set[str]:
    origins = {f"{request.scheme}://{request.host}"}
    base = urlsplit(current_app.config.get("BASE_URL") or "")
    if base.scheme and base.netloc:
        origins.add(f"{base.scheme}://{base.netloc}")
    return origins


def check_origin() -> None:
    """Refuse a write that does not come from this server's own pages."""
    origin = request.headers.get("Origin")
    if origin is None:
        referer = urlsplit(request.headers.get("Referer", ""))
        origin = f"{referer.scheme}://{referer.netloc}" if referer.netloc else None
    if origin is None:
        refuse(403, "a write must come from judgekit's own pages (no Origin or Referer was sent)")
    if origin not in _own_origins():
        refuse(403, f"a write from another site ({origin[:80]}) is refused")


def check_write(judge: Judge | None, head: bool = False) -> Judge:
    """Refuse a write without a judge's session, its CSRF token, or from another origin; the
    judge (a head judge when ``head``)."""
    check_origin()
    if judge is None:
        raise _refusal(signed_out())
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD) or ""
    if not hmac.compare_digest(sent.encode(), csrf_token().encode()):
        refuse(403, "the form is out of date (its CSRF token does not match): open it again")
    if head and not judge.head:
        refuse(403, "only the head judge can do this")
    return judge


def _refusal(said: str) -> Unauthorized:
    """Why a write without a live session is refused: ``said``, the signed-out message, where a
    rejoin elsewhere ended it. A form's post shows back what was typed, to copy (going back may
    show the join page, not the form; the phone's stored draft is out of the judge's sight)."""
    if not said:
        return Unauthorized(
            description="join the event with the judge code first (your session is over or missing)"
        )
    if wants_json() or request.mimetype not in FORM_TYPES:
        return Unauthorized(description=f"Nothing was written: {said}")
    from judgekit.web.context import current_library  # the corpus, for the citations' titles

    typed = typed_back(current_library(), request.form)
    if not typed:
        return Unauthorized(description=f"Nothing was sent: {said}")
    # Joining from the form's address brings the judge back to the form, whose draft events.js
    # restores on this phone (it is kept under the citations the form was opened with).
    opened = request.form.get("opened", "")[:OPENED_CHARS].split()[:MOST_CITATIONS]
    if request.endpoint == "events.record":
        again = url_for("events.new_ruling", cite=opened)
    elif request.endpoint == "events.revise":
        again = url_for("events.ruling", **(request.view_args or {}))
    else:
        again = EVENT
    return RefusedTyped(said, typed, again)


def wrong_code_given() -> None:
    """Tell the laptop's output when wrong codes reach the alarm (someone may be guessing)."""
    wrong, addresses = store().guesses()
    if wrong == GUESSES_IN_ALL:
        print(
            f"judgekit: {wrong} wrong judge codes in 15 minutes from {addresses} devices: someone"
            " may be guessing; change the code and clear them on the desk (/event/desk)",
            file=sys.stderr,
            flush=True,
        )


def on_this_computer() -> bool:
    """Whether the request comes from this computer, asking for it by a loopback name."""
    try:
        client = ipaddress.ip_address((request.remote_addr or "").split("%")[0])
    except ValueError:
        return False
    return client.is_loopback and only_this_computer(f"http://{request.host}") is not None


def require_this_computer() -> None:
    """Refuse anyone but this computer (the laptop the event is run from)."""
    if not on_this_computer():
        abort(403, description="only the laptop judgekit runs on can do this (open it there)")


def _rulings_of(event_id: int) -> list:
    """An event's rulings, read once per request."""
    cache = g.setdefault("judgekit_rulings", {})
    if event_id not in cache:
        cache[event_id] = store().rulings(event_id)
    return cache[event_id]


def event_rulings(kind: str, document: str, entry: str, spec: str = "") -> dict | None:
    """For a judge: this event's rulings citing an entry (any version) or a card, newest first,
    the imported precedent apart, and the address citing it in a new ruling; None for anyone
    else (templates call it on every page that can show rulings, so it reads the cookie)."""
    from judgekit import urls
    from judgekit.shapes.events import citing, ruling_dict
    from judgekit.web.context import current_library

    judge = current_judge()
    if judge is None:
        return None
    lib = current_library()
    mine = citing(_rulings_of(judge.event_id), kind, document, entry)
    precedent = []
    for event in store().events():
        if event.precedent:
            for r in citing(_rulings_of(event.id), kind, document, entry):
                precedent.append({**ruling_dict(lib, r), "event": event.name})
    return {
        "rulings": [ruling_dict(lib, r) for r in mine],
        "precedent": precedent,
        "cite_url": urls.new_ruling_page(spec) if spec else None,
    }


def init_templates(app: Flask) -> None:
    """Give templates ``event_rulings``, ``csrf_token`` and ``pre_session_token``; set the
    pre-session cookie where a page made one."""
    app.add_template_global(event_rulings, "event_rulings")
    app.add_template_global(csrf_token, "csrf_token")
    app.add_template_global(pre_session_token, "pre_session_token")
    app.after_request(_give_pre_cookie)
    app.add_template_global(search_target, "cite_target")
