"""An event's rulings: storage, who may write, what judges see where they look (test client on
the tiny corpus; the real server's tests are in test_events_serve.py)."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
import time
from urllib.parse import quote

import pytest

from judgekit.events import fields
from judgekit.events.exchange import event_json
from judgekit.events.store import (
    GUESSES_IN_ALL,
    GUESSES_PER_ADDRESS,
    SCHEMA_VERSION,
    Store,
    StoreError,
)
from judgekit.web.judges import KEY

from .conftest import DATA, MINI
from .events_helpers import (
    CITE,
    LAPTOP,
    VENUE,
    Phone,
    csrf_of,
    event_app,
    laptop_post,
    start_event,
)
from .test_memory_bound import _cache


@pytest.fixture()
def app(tmp_path):
    return event_app(tmp_path)


@pytest.fixture()
def floor(app):
    """An event started on the laptop, and Sam joined from a phone."""
    laptop, judge_code, head_code = start_event(app)
    sam = Phone(app.test_client(), "192.168.1.31")
    assert sam.join(judge_code, "Sam").status_code == 303
    return laptop, sam, judge_code, head_code


def _store(app) -> Store:
    return app.extensions[KEY]["store"]


# -- storage ---------------------------------------------------------------------------------------
def test_the_database_is_wal_with_foreign_keys_and_its_schema_version(app, tmp_path):
    path = tmp_path / "events.sqlite"
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()
    with _store(app).writing() as c:
        assert c.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        with pytest.raises(sqlite3.IntegrityError):
            c.execute("INSERT INTO rulings (event_id, number, judge) VALUES (99, 1, 'x')")


def test_a_newer_schema_is_refused_and_migrating_again_changes_nothing(tmp_path):
    store = Store(tmp_path / "e.sqlite")
    assert store.migrate() == store.migrate() == SCHEMA_VERSION
    secret = store.secret()
    store.migrate()
    assert store.secret() == secret  # sessions survive a restart
    conn = sqlite3.connect(store.path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="update judgekit"):
        store.migrate()


def test_a_write_that_fails_keeps_nothing(app):
    store = _store(app)
    with pytest.raises(RuntimeError), store.writing() as conn:
        conn.execute("INSERT INTO settings VALUES ('half', 'done')")
        raise RuntimeError("power cut")
    with store.reading() as conn:
        assert conn.execute("SELECT COUNT(*) FROM settings WHERE name = 'half'").fetchone()[0] == 0


def test_an_appeal_is_a_new_revision_and_the_first_stays(app, floor):
    laptop, sam, *_ = floor
    sam.record(ruling="No, it cannot.")
    store = _store(app)
    event = store.current_event()
    head = next(j for j in store.judges(event.id) if j.head)
    store.revise(event.id, 1, head, "overturned", "It can.")
    ruling = store.ruling(event.id, 1)
    assert [r.change for r in ruling.revisions] == ["recorded", "overturned"]
    assert ruling.revisions[0].status == "given" and ruling.revisions[0].judge == "Sam"
    assert ruling.now.status == "overturned" and ruling.now.note == "It can."
    assert ruling.now.judge == "Ann" and ruling.now.ruling == "No, it cannot."


def test_export_and_import_as_precedent_round_trip(app, floor, tmp_path):
    _laptop, sam, *_ = floor
    sam.record(question="Beam <b>?", players="K.R. / J.T.")
    store = _store(app)
    event = store.current_event()
    data = json.loads(json.dumps(event_json(event, store.rulings(event.id))))
    other = Store(tmp_path / "other.sqlite")
    other.migrate()
    imported = other.import_event(data, "regional.json")
    assert imported.precedent
    (ruling,) = other.rulings(imported.id)
    assert ruling.now.question == "Beam <b>?" and ruling.citations[0].spec == CITE
    assert other.current_event() is None  # precedent is not an event judges join
    with pytest.raises(fields.FieldError):
        other.import_event({**data, "rulings": [{"judge": "x", "revisions": []}]}, "bad.json")
    # A revision that is no object, or a number that is no number, is refused with a sentence
    # (it left a ruling with no revision, and every event page answered 500).
    good = data["rulings"][0]["revisions"][0]
    for revisions in ([1], [good, "x"]):
        with pytest.raises(fields.FieldError, match="each revision must be an object"):
            other.import_event({**data, "rulings": [{"judge": "x", "revisions": revisions}]}, "b")
    odd = {**data, "rulings": [{"judge": "x", "revisions": [{**good, "number": "one"}]}]}
    other.import_event(odd, "numbers.json")  # numbered afresh, as before


def test_a_long_draft_id_is_cut_not_a_server_error(app, floor):
    _laptop, sam, *_ = floor
    answer = sam.record(question="Beam twice?", draft="d" * 5000)
    assert answer.status_code == 303


def test_imported_precedent_is_shown_apart_and_read_only(app, floor, tmp_path):
    _laptop, sam, *_ = floor
    earlier = Store(tmp_path / "earlier.sqlite")
    earlier.migrate()
    event, judge_code, _ = earlier.create_event("Last year's Regional", time.time() + 60)
    judge, _token = earlier.join(event.id, judge_code, "Lee", "10.0.0.1")
    citation = _pin(app, CITE)
    earlier.record(
        event.id,
        judge,
        {"round": "1", "table": "2", "question": "Old question", "ruling": "Old answer"},
        [citation],
    )
    _store(app).import_event(event_json(event, earlier.rulings(event.id)), "last-year.json")
    sam.record(question="New question")
    page = sam.get("/rules/demo-rulebook/2/beaming").get_data(as_text=True)
    mine, _, before = page.partition("Precedent from earlier events")
    assert "New question" in mine and "Old question" not in mine
    assert "Old question" in before and "Last year&#39;s Regional" in before
    listing = sam.get("/event").get_data(as_text=True)
    assert listing.index("New question") < listing.index(
        "Precedent from earlier events (read-only)"
    )
    assert listing.index("Precedent from earlier events") < listing.index("Old question")
    # Read-only: no judge joins it, and it is never the running event.
    assert _store(app).current_event().name == "Regional, 5 Dec"
    precedent = next(e for e in _store(app).events() if e.precedent)
    with pytest.raises(StoreError):
        _store(app).join(precedent.id, "", "Eve", "10.0.0.2")
    with pytest.raises(StoreError):
        _store(app).change_code(precedent.id)


def _pin(app, spec: str):
    from judgekit.shapes.events import pin

    return pin(app.extensions["judgekit"]["library"], fields.cites([spec])[0])


def test_a_backup_is_a_sound_copy(app, floor, tmp_path):
    _laptop, sam, *_ = floor
    sam.record()
    copy = tmp_path / "backup" / "copy.sqlite"
    _store(app).backup(copy)
    backup = Store(copy)
    assert backup.integrity() == "ok"
    assert len(backup.rulings(_store(app).current_event().id)) == 1
    with pytest.raises(StoreError, match="exists"):
        _store(app).backup(copy)


# -- who may write ---------------------------------------------------------------------------------
def _count(app) -> int:
    with _store(app).reading() as conn:
        return conn.execute("SELECT COUNT(*) FROM revisions").fetchone()[0]


def test_strangers_change_nothing_and_are_told_why(app, floor):
    _laptop, sam, judge_code, _ = floor
    token = sam.csrf()
    stranger = Phone(app.test_client(), "192.168.1.66")
    form = {"round": "1", "table": "1", "question": "q", "ruling": "r", "csrf": token}
    cases = [
        (stranger.post("/event/rulings", data=form), 401, "join the event"),
        (sam.post("/event/rulings", data={**form, "csrf": "forged"}), 403, "CSRF"),
        (
            sam.post("/event/rulings", data={k: v for k, v in form.items() if k != "csrf"}),
            403,
            "CSRF",
        ),
        (sam.post("/event/rulings", data=form, origin="http://evil.example"), 403, "another site"),
        (sam.post("/event/rulings", data=form, origin=None), 403, "no Origin or Referer"),
        (
            sam.post(
                "/event/rulings/1/revise", data={"change": "overturned", "note": "x", "csrf": token}
            ),
            403,
            "head judge",
        ),
        (stranger.join("WRONG-CODE", "Eve"), 403, "wrong code"),
        (stranger.post("/event/desk/code", data={"which": "judge"}), 403, "only the laptop"),
        (stranger.get("/event/desk"), 403, "only the laptop"),
        (stranger.get("/event/new"), 403, "only the laptop"),
        (stranger.get("/event/export.json"), 401, "join the event"),
    ]
    for answer, status, words in cases:
        assert answer.status_code == status, answer.get_data(as_text=True)[:300]
        assert words in answer.get_data(as_text=True)
    assert _count(app) == 0
    assert [j.name for j in _store(app).judges(_store(app).current_event().id)] == ["Ann", "Sam"]


def test_the_json_api_has_the_same_rules(app, floor):
    _laptop, sam, _, _ = floor
    event_id = _store(app).current_event().id
    url = f"/api/events/{event_id}/rulings"
    body = {"round": "1", "table": "3", "question": "q", "ruling": "r", "cite": [CITE]}
    token = sam.get("/api/events/session").get_json()["csrf"]
    assert sam.post(url, json=body).status_code == 403  # no CSRF header
    assert (
        sam.post(
            url, json=body, headers={"X-CSRF-Token": token}, origin="http://evil.example"
        ).status_code
        == 403
    )
    stranger = Phone(app.test_client(), "10.0.0.9")
    refused = stranger.post(url, json=body, headers={"X-CSRF-Token": token})
    assert refused.status_code == 401 and refused.get_json()["message"].startswith("join")
    assert stranger.get(f"/api/events/{event_id}").status_code == 401
    assert _count(app) == 0
    made = sam.post(url, json=body, headers={"X-CSRF-Token": token})
    assert made.status_code == 201 and made.get_json()["number"] == 1
    assert sam.get(f"/api/events/{event_id}").get_json()["total"] == 1


def test_ten_thousand_code_guesses_are_limited_and_join_no_one(app, floor):
    laptop, _sam, judge_code, _ = floor
    client = app.test_client()
    statuses = []
    addresses = 250  # as from a botnet on the Wi-Fi, or one device changing its address
    token = csrf_of(client.get("/event", base_url=VENUE).get_data(as_text=True))
    for n in range(10_000):
        answer = client.post(
            "/event/join",
            data={"code": f"GUESS-{n:05d}", "name": f"Eve{n}", "csrf": token},
            base_url=VENUE,
            headers={"Origin": VENUE},
            environ_base={"REMOTE_ADDR": f"10.1.{n % addresses}.1"},
        )
        statuses.append(answer.status_code)
    # Past the limit in all, each address that guessed wrong is refused: one guess an address.
    assert statuses.count(403) == addresses  # each a wrong code
    assert statuses.count(429) == 10_000 - addresses
    assert "too many wrong codes" in answer.get_data(as_text=True)
    with _store(app).reading() as conn:
        assert conn.execute("SELECT COUNT(*) FROM guesses").fetchone()[0] == addresses
    assert [j.name for j in _store(app).judges(_store(app).current_event().id)] == ["Ann", "Sam"]
    # The right code is refused from an address that guessed, until the head judge clears them;
    # a judge arriving from a device that sent no wrong code still joins.
    assert Phone(app.test_client(), "10.1.7.1").join(judge_code, "Lee").status_code == 429
    assert Phone(app.test_client(), "192.168.1.77").join(judge_code, "Kim").status_code == 303
    # The laptop's desk shows the alarm, and clears it.
    desk = laptop.get("/event/desk", base_url=LAPTOP).get_data(as_text=True)
    assert "250 wrong codes in the last 15 minutes, from 250 devices" in desk
    assert "Someone may be guessing the code" in desk
    cleared = laptop.post(
        "/event/desk/guesses", data={"csrf": csrf_of(desk)}, headers={"Origin": LAPTOP}
    )
    assert cleared.status_code == 303
    assert "wrong code" not in laptop.get("/event/desk", base_url=LAPTOP).get_data(as_text=True)
    assert Phone(app.test_client(), "10.1.7.1").join(judge_code, "Lee").status_code == 303
    # The laptop itself is never locked out: it joins judges and starts events.
    other = app.test_client()  # another browser on the laptop
    token = csrf_of(other.get("/event", base_url=LAPTOP).get_data(as_text=True))
    joined = other.post(
        "/event/join",
        data={"code": judge_code, "name": "Pat", "csrf": token},
        base_url=LAPTOP,
        headers={"Origin": LAPTOP},
    )
    assert joined.status_code == 303
    assert start_event(app, name="Second event")[1]


def test_the_laptops_desk_without_a_session_needs_its_forms_token(app, floor):
    _laptop, _sam, judge_code, _ = floor
    browser = app.test_client()  # another browser on the laptop, no judge's session
    desk = browser.get("/event/desk", base_url=LAPTOP).get_data(as_text=True)
    forged = browser.post("/event/desk/code", data={"which": "judge"}, headers={"Origin": LAPTOP})
    assert forged.status_code == 403 and "CSRF" in forged.get_data(as_text=True)
    assert _store(app).codes(_store(app).current_event().id)[0] == judge_code
    changed = browser.post(
        "/event/desk/code",
        data={"which": "judge", "csrf": csrf_of(desk)},
        headers={"Origin": LAPTOP},
    )
    assert changed.status_code == 303
    assert _store(app).codes(_store(app).current_event().id)[0] != judge_code


def test_the_laptop_is_told_when_wrong_codes_reach_the_alarm(app, floor, capsys):
    for n in range(GUESSES_IN_ALL // GUESSES_PER_ADDRESS):
        eve = Phone(app.test_client(), f"10.2.{n}.1")
        for k in range(GUESSES_PER_ADDRESS):
            eve.join(f"NOPE{k}", "Eve")
    said = capsys.readouterr().err
    assert said.count("wrong judge codes in 15 minutes from 20 devices: someone may be") == 1


def test_clearing_the_wrong_codes_needs_the_head_judge(app, floor):
    _laptop, sam, _, _ = floor
    eve = Phone(app.test_client(), "192.168.1.50")
    eve.join("NOPE", "Eve")
    assert sam.post("/event/desk/guesses", data={"csrf": sam.csrf()}).status_code == 403
    assert eve.post("/event/desk/guesses").status_code == 403
    assert _store(app).guesses()[0] == 1


def test_one_address_gets_ten_wrong_codes(app, floor):
    _laptop, _sam, judge_code, _ = floor
    eve = Phone(app.test_client(), "192.168.1.50")
    answers = [eve.join(f"NOPE{n}", "Eve").status_code for n in range(GUESSES_PER_ADDRESS + 2)]
    assert answers == [403] * GUESSES_PER_ADDRESS + [429, 429]
    assert eve.join(judge_code, "Eve").status_code == 429  # the right code too, from there
    assert Phone(app.test_client(), "192.168.1.51").join(judge_code, "Kim").status_code == 303


def test_creating_an_event_needs_the_laptop_itself(app):
    # From the network, even with a Host naming localhost; and from the laptop by another name
    # (a page rebinding its own name to 127.0.0.1).
    phone = app.test_client()
    answer = phone.get("/event/new", base_url=LAPTOP, environ_base={"REMOTE_ADDR": "192.168.1.9"})
    assert answer.status_code == 403
    rebound = phone.post(
        "/event/new",
        data={"event": "x"},
        base_url="http://evil.example",
        headers={"Origin": "http://evil.example"},
    )
    assert rebound.status_code == 403
    assert _store(app).events() == []
    foreign = phone.post(
        "/event/new", data={"event": "x"}, base_url=LAPTOP, headers={"Origin": VENUE}
    )
    assert foreign.status_code == 403 and _store(app).events() == []


def test_forged_joins_and_new_events_are_refused_without_the_forms_token(app, floor):
    _laptop, _sam, judge_code, _ = floor
    # A page elsewhere posting the join form (the Origin forged or not) lacks the token tied to
    # the phone's cookie: the right code joins no one.
    phone = Phone(app.test_client(), "192.168.1.60")
    phone.get("/event")  # the phone holds a pre-session cookie; the forger cannot read its token
    for token in (
        None,
        "",
        "0" * 40,
        csrf_of(Phone(app.test_client(), "1.2.3.4").get("/event").get_data(as_text=True)),
    ):
        data = {"code": judge_code, "name": "Mallory"}
        if token is not None:
            data["csrf"] = token
        answer = phone.post("/event/join", data=data)
        assert answer.status_code == 403, token
        assert "CSRF token does not match" in answer.get_data(as_text=True)
        api = phone.post(
            f"/api/events/{_store(app).current_event().id}/join",
            json={"code": judge_code, "name": "Mallory"},
            headers={"X-CSRF-Token": token or ""},
        )
        assert api.status_code == 403 and "CSRF" in api.get_json()["message"], token
    assert "Mallory" not in [j.name for j in _store(app).judges(_store(app).current_event().id)]
    # The laptop's own browser, with the right Origin but no token of its form: no event.
    laptop = app.test_client()
    laptop.get("/event/new", base_url=LAPTOP)
    for data in ({"event": "Forged"}, {"event": "Forged", "csrf": "0" * 40}):
        forged = laptop.post("/event/new", data=data, base_url=LAPTOP, headers={"Origin": LAPTOP})
        assert forged.status_code == 403
    assert [e.name for e in _store(app).events()] == ["Regional, 5 Dec"]


def test_joining_goes_back_to_a_local_page_only(app, floor):
    _laptop, _sam, judge_code, _ = floor
    for n, (target, landing) in enumerate(
        [
            ("/rules/demo-rulebook/2/beaming", "/rules/demo-rulebook/2/beaming"),
            ("//evil.example/x", "/event"),
            ("/\t/evil.example", "/event"),
            ("https://evil.example/", "/event"),
        ]
    ):
        phone = Phone(app.test_client(), f"192.168.2.{n}")
        token = csrf_of(phone.get("/event").get_data(as_text=True))
        answer = phone.post(
            "/event/join", data={"code": judge_code, "name": f"J{n}", "next": target, "csrf": token}
        )
        assert answer.status_code == 303 and answer.headers["Location"] == landing, target


def test_the_codes_show_on_the_laptop_only(app, floor):
    laptop, sam, judge_code, head_code = floor
    head_phone = Phone(app.test_client(), "192.168.1.40")
    assert head_phone.join(head_code, "Ann on her phone").status_code == 303
    desk = head_phone.get("/event/desk").get_data(as_text=True)
    assert judge_code not in desk and head_code not in desk and "Sam" in desk
    assert judge_code not in sam.get("/event").get_data(as_text=True)


def test_sessions_end_with_the_event_and_with_removal(app, floor):
    laptop, sam, judge_code, head_code = floor
    store = _store(app)
    event = store.current_event()
    kim = Phone(app.test_client(), "192.168.1.32")
    kim.join(judge_code, "Kim")
    head_phone = Phone(app.test_client(), "192.168.1.40")
    head_phone.join(head_code, "Ann on her phone")
    removed = head_phone.post("/event/desk/remove", data={"name": "Kim", "csrf": head_phone.csrf()})
    assert removed.status_code == 303
    assert kim.get("/event/rulings/new").status_code == 401
    assert kim.join(judge_code, "Kim").status_code == 403  # removed: cannot join again
    with store.writing() as conn:  # the event ends
        conn.execute("UPDATE events SET ends_at = ? WHERE id = ?", (time.time() - 1, event.id))
    assert sam.get("/event/rulings/new").status_code == 401
    assert sam.record(csrf="").status_code == 401


def test_a_new_code_joins_and_the_old_one_does_not(app, floor):
    laptop, sam, judge_code, _ = floor
    token = csrf_of(laptop.get("/event/desk", base_url=LAPTOP).get_data(as_text=True))
    answer = laptop.post(
        "/event/desk/code",
        data={"which": "judge", "csrf": token},
        base_url=LAPTOP,
        headers={"Origin": LAPTOP},
    )
    assert answer.status_code == 303
    new_code = _store(app).codes(_store(app).current_event().id)[0]
    assert new_code != judge_code
    assert Phone(app.test_client(), "192.168.1.60").join(judge_code, "Old").status_code == 403
    assert Phone(app.test_client(), "192.168.1.61").join(new_code, "New").status_code == 303
    assert sam.get("/event/rulings/new").status_code == 200  # joined judges stay


# -- what judges see -------------------------------------------------------------------------------
XSS = "<script>alert(1)</script>\"'><img src=x onerror=alert(2)>"


def test_xss_in_every_field_is_escaped_everywhere(app, floor):
    laptop, sam, judge_code, head_code = floor
    evil = Phone(app.test_client(), "192.168.1.90")
    assert evil.join(judge_code, XSS[:40]).status_code == 303
    answer = evil.record(
        round=XSS[:12], table=XSS[:12], question=XSS, ruling=XSS, players=XSS[:120]
    )
    assert answer.status_code == 303, answer.get_data(as_text=True)
    head_phone = Phone(app.test_client(), "192.168.1.40")
    head_phone.join(head_code, "Ann on her phone")
    head_phone.post(
        "/event/rulings/1/revise",
        data={"change": "overturned", "note": XSS, "csrf": head_phone.csrf()},
    )
    head_phone.post(
        "/event/rulings/1/revise", data={"change": "published", "csrf": head_phone.csrf()}
    )
    pages = [
        "/event",
        "/event/rulings/1",
        "/event/print",
        "/event/published",
        "/event/desk",
        "/rules/demo-rulebook/2/beaming",
        "/search?q=beaming",
        "/search/results?q=beaming",
    ]
    for path in pages:
        html = head_phone.get(path).get_data(as_text=True)
        assert "onerror=alert" not in html.replace("onerror=alert(2)&gt;", ""), path
        assert "<script>alert" not in html and "<img src=x" not in html, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, path
    event_id = _store(app).current_event().id
    for path in (f"/api/events/{event_id}", f"/api/events/{event_id}/published"):
        raw = head_phone.get(path).get_data(as_text=True)
        assert "<" not in raw and "\\u003cscript\\u003e" in raw, path
    exported = head_phone.get("/event/export.csv")
    assert exported.mimetype == "text/csv"  # data, not HTML: kept as written
    rows = list(csv.DictReader(io.StringIO(exported.get_data(as_text=True))))
    assert rows[0]["question"] == XSS and rows[0]["note"] == XSS


def test_a_rule_page_shows_a_new_ruling_at_once_and_never_to_strangers(app, floor):
    laptop, sam, judge_code, _ = floor
    page = "/rules/demo-rulebook/2/beaming"
    stranger = Phone(app.test_client(), "192.168.1.99")
    pages = _cache(app).pages
    assert "Cite in a ruling" not in stranger.get(page).get_data(as_text=True)
    kept = len(pages)
    assert kept and stranger.get(page).headers["Cache-Control"] == "no-cache"  # kept, replayed
    kim = Phone(app.test_client(), "192.168.1.32")
    kim.join(judge_code, "Kim")
    before = kim.get(page)
    assert "Cite in a ruling" in before.get_data(as_text=True)
    assert before.headers["Cache-Control"] == "no-store"
    assert "Table 7, round 2, Sam" not in before.get_data(as_text=True)
    sam.record(question="First question")
    sam.record(question="Second question", table="9")
    html = kim.get(page).get_data(as_text=True)
    assert "Table 7, round 2, Sam" in html and "Table 9, round 2, Sam" in html
    assert len(pages) == kept  # no judge's page was kept
    assert html.index("Second question") < html.index("First question")  # newest first
    for path in (page, "/search?q=beaming", "/event/published"):
        assert "First question" not in stranger.get(path).get_data(as_text=True)


def test_a_card_citation_shows_on_the_card_page(tmp_path):
    app = event_app(tmp_path, CORPUS_DIR=str(DATA / "cards"))
    _laptop, judge_code, _ = start_event(app)
    sam = Phone(app.test_client(), "192.168.1.31")
    sam.join(judge_code, "Sam")
    card = app.test_client().get("/api/cards").get_json()["cards"][0]
    spec = f"card:{card['edition']}/{card['url'].rsplit('/', 1)[1]}"
    assert "Cite in a ruling" in sam.get(card["url"]).get_data(as_text=True)
    assert sam.record(cite=spec, question="About the card").status_code == 303
    assert "About the card" in sam.get(card["url"]).get_data(as_text=True)
    assert "About the card" in sam.get("/event?card=" + spec).get_data(as_text=True)
    found = sam.get("/search", query_string={"q": card["title"]}).get_data(as_text=True)
    assert "About the card" in found and f"cite={quote(spec, safe='')}" in found


def test_the_event_page_filters_and_searches(app, floor):
    laptop, sam, judge_code, _ = floor
    kim = Phone(app.test_client(), "192.168.1.32")
    kim.join(judge_code, "Kim")
    sam.record(question="Does Beaming work?", table="7", round="1")
    kim.record(question="Battle order", table="3", round="2", cite="")

    def shown(query: str) -> list[str]:
        html = sam.get("/event" + query).get_data(as_text=True)
        return [q for q in ("Does Beaming work?", "Battle order") if q in html]

    assert shown("") == ["Does Beaming work?", "Battle order"]
    assert shown("?round=2") == ["Battle order"]
    assert shown("?table=7") == ["Does Beaming work?"]
    assert shown("?judge=Kim") == ["Battle order"]
    assert shown("?entry=beaming") == ["Does Beaming work?"]
    assert shown("?q=battle+ORDER") == ["Battle order"]
    assert shown("?q=nothing+like+it") == []


def test_a_citation_whose_text_changed_is_flagged_with_the_comparison(app, floor):
    _laptop, sam, *_ = floor
    sam.record(cite="entry:demo-rulebook/2/beaming")
    assert "cited text differs" not in sam.get("/event").get_data(as_text=True)
    with _store(app).writing() as conn:
        conn.execute("UPDATE citations SET text = 'what it said then'")
    html = sam.get("/event").get_data(as_text=True)
    assert "cited text differs now: the text of this version has been corrected" in html
    assert 'href="/history/demo-rulebook/beaming"' in html


def test_a_citation_of_an_older_version_links_the_comparison(app, floor):
    _laptop, sam, *_ = floor
    lib = app.extensions["judgekit"]["library"]
    old = lib.corpus.entry("demo-rulebook", "1", "beaming")
    new = lib.corpus.entry("demo-rulebook", "2", "beaming")
    assert lib.plain(old) != lib.plain(new)  # the tiny corpus's v2 words it otherwise
    sam.record(cite="entry:demo-rulebook/1/beaming")
    html = sam.get("/event").get_data(as_text=True)
    assert "words it differently" in html and 'href="/diff/demo-rulebook/1..2#beaming"' in html


def test_numbers_past_what_sqlite_holds_are_404s_not_500s(app, floor):
    _laptop, sam, *_ = floor
    huge = "9" * 30  # more than SQLite's 64-bit integers
    for path in (f"/event/rulings/{huge}", f"/api/events/{huge}", f"/api/events/1/rulings/{huge}"):
        assert sam.get(path).status_code == 404, path
    token = sam.csrf()
    answer = sam.post(f"/event/rulings/{huge}/revise", data={"change": "upheld", "csrf": token})
    assert answer.status_code == 404


def test_an_unusable_data_folder_turns_events_off_and_still_serves_the_rules(tmp_path, capsys):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the data folder should be")
    app = event_app(blocker)
    assert "event rulings are off" in capsys.readouterr().err
    client = app.test_client()
    assert client.get("/rules/demo-rulebook/2/beaming").status_code == 200
    answer = client.get("/event")
    assert answer.status_code == 503 and "cannot be used" in answer.get_data(as_text=True)
    assert client.get("/api/events/session").get_json()["status"] == 503


def test_a_database_locked_too_long_is_a_503_and_keeps_nothing(app, floor, monkeypatch):
    _laptop, sam, *_ = floor
    token = sam.csrf()
    monkeypatch.setattr("judgekit.events.store.BUSY_MS", 50)
    blocker = sqlite3.connect(_store(app).path)
    blocker.execute("BEGIN IMMEDIATE")  # another process holding the write lock
    try:
        answer = sam.record(csrf=token)
    finally:
        blocker.rollback()
        blocker.close()
    assert answer.status_code == 503 and "nothing was kept" in answer.get_data(as_text=True)
    assert _count(app) == 0
    assert sam.record(csrf=token).status_code == 303


def test_field_limits_answer_400(app, floor):
    _laptop, sam, *_ = floor
    answer = sam.record(question="x" * (fields.LIMITS["question"] + 1))
    assert answer.status_code == 400 and "at most 1,500" in answer.get_data(as_text=True)
    assert sam.record(cite="entry:nowhere/1/x").status_code == 400
    assert sam.record(table="").status_code == 400
    assert _count(app) == 0


def test_published_rulings_are_for_everyone(app, floor):
    laptop, sam, _, head_code = floor
    sam.record(question="Published one")
    sam.record(question="Kept among judges")
    head_phone = Phone(app.test_client(), "192.168.1.40")
    head_phone.join(head_code, "Ann on her phone")
    head_phone.post(
        "/event/rulings/1/revise", data={"change": "published", "csrf": head_phone.csrf()}
    )
    player = (
        Phone(app.test_client(), "192.168.1.120").get("/event/published").get_data(as_text=True)
    )
    assert "Published one" in player and "Kept among judges" not in player


def test_players_see_a_published_ruling_as_it_is_now_without_the_judges_notes(app, floor):
    _laptop, sam, _, head_code = floor
    sam.record(question="Published one", players="J. Smith v K. Jones")
    head_phone = Phone(app.test_client(), "192.168.1.40")
    head_phone.join(head_code, "Ann on her phone")
    for change, note in (("published", ""), ("overturned", "Said among judges only")):
        head_phone.post(
            "/event/rulings/1/revise",
            data={"change": change, "note": note, "csrf": head_phone.csrf()},
        )
    event_id = _store(app).current_event().id
    player = Phone(app.test_client(), "192.168.1.120")
    (shown,) = player.get(f"/api/events/{event_id}/published").get_json()["rulings"]
    assert shown["question"] == "Published one" and shown["status"] == "overturned"
    assert "revisions" not in shown and "history" not in shown
    raw = json.dumps(shown)
    assert "Said among judges" not in raw and "Smith" not in raw and "Ann on" not in raw
    page = player.get("/event/published").get_data(as_text=True)
    assert "Published one" in page and "overturned on appeal" in page
    assert "Said among judges" not in page and "Smith" not in page
    # The judges still see all of it.
    assert "Said among judges" in head_phone.get("/event/rulings/1").get_data(as_text=True)


def test_the_judge_pack_holds_no_event_data(tmp_path, monkeypatch):
    from judgekit.pack.build import build, pack_app

    # An installation with an event and a ruling, where a pack is built.
    app = event_app(tmp_path / "data")
    _laptop, judge_code, _ = start_event(app, name="Secret Regional")
    sam = Phone(app.test_client(), "192.168.1.31")
    sam.join(judge_code, "Sam")
    assert sam.record(question="Secret question", ruling="Secret ruling").status_code == 303
    monkeypatch.setenv("JUDGEKIT_DATA_DIR", str(tmp_path / "data"))
    pack = pack_app(str(MINI))
    assert pack.extensions[KEY] is None
    out = tmp_path / "pack"
    build(pack, out)
    files = [p for p in out.rglob("*") if p.is_file()]
    assert any(p.name == "index.html" for p in files)
    for path in files:
        data = path.read_bytes()
        for word in (b"Secret", b"jk_judge", judge_code.encode()):
            assert word not in data, (path, word)
        if path.suffix in (".html", ".json"):  # pages: no link to the event, no citing button
            assert not re.search(rb"event/|Event rulings|Cite in a ruling|jk-ruling", data), path


def test_a_code_never_makes_its_holder_another_judge(app, floor):
    """Whoever has the floor judges' code cannot become the head judge (or Sam) by typing their
    name: a name already joined is refused, and the head judge keeps the event."""
    laptop, sam, judge_code, head_code = floor
    store = _store(app)
    head = next(j for j in store.judges(store.current_event().id) if j.role == "head")
    stranger = Phone(app.test_client(), "192.168.1.66")
    for name in (head.name, "Sam"):
        answer = stranger.join(judge_code, name)
        assert answer.status_code == 403
        assert f"a judge named {name} has already joined" in answer.get_data(as_text=True)
    assert stranger.get("/api/events/session").get_json().get("head") is not True
    roles = {j.name: j.role for j in store.judges(store.current_event().id)}
    assert roles[head.name] == "head" and roles["Sam"] == "judge" and len(roles) == 2


def _head_on_a_phone(app, head_code: str):
    """The head judge joined again on a phone with the head judge code under their own name:
    the store, the event's id, the head judge, the phone."""
    store = _store(app)
    event_id = store.current_event().id
    head = next(j for j in store.judges(event_id) if j.role == "head")
    phone = Phone(app.test_client(), "192.168.1.77")
    assert phone.join(head_code, head.name).status_code == 303
    return store, event_id, head, phone


def test_the_head_judge_rejoins_on_a_new_device_under_the_same_name(app, floor):
    """The tryout: a head judge on a new device was refused ("a judge named Ann has already
    joined") and became "Ann B". With the head judge code and their own name they are the same
    judge again: one row on the desk, their rulings theirs; and the laptop stays signed in
    beside the phone (a head judge keeps both), recording, upholding and publishing."""
    laptop, sam, _judge_code, head_code = floor
    store, event_id, head, phone = _head_on_a_phone(app, head_code)
    session = phone.get("/api/events/session").get_json()
    assert session["judge"] == {"name": head.name, "head": True}
    assert len(store.judges(event_id)) == 2  # Ann and Sam, no "Ann B"
    assert phone.record().status_code == 303  # writes as Ann
    assert store.rulings(event_id)[-1].judge == head.name
    # The laptop's session stays: it records, upholds and publishes as Ann, as the phone does.
    desk = laptop.get("/event/desk", base_url=LAPTOP).get_data(as_text=True)
    assert "data-signed-out" not in desk
    fields_ = {"round": "1", "table": "1", "question": "Q", "ruling": "R"}
    assert laptop_post(laptop, "/event/rulings", fields_, "/event/rulings/new").status_code == 303
    for change in ("upheld", "published"):
        answer = laptop_post(laptop, "/event/rulings/2/revise", {"change": change})
        assert answer.status_code == 303, answer.get_data(as_text=True)
    assert store.ruling(event_id, 2).now.published and store.ruling(event_id, 2).now.status == (
        "upheld"
    )
    assert phone.record().status_code == 303  # and the phone still writes
    assert [r.judge for r in store.rulings(event_id)] == [head.name] * 3
    # Sam's session is Sam's.
    assert sam.get("/api/events/session").get_json()["judge"]["name"] == "Sam"
    # The head judge code gives no floor judge's name: Sam is still refused.
    assert Phone(app.test_client(), "192.168.1.78").join(head_code, "Sam").status_code == 403


def test_the_head_judge_signs_their_other_devices_out_when_they_ask(app, floor):
    """A lost phone: joining with the head judge code and "Sign out my other devices" ticked
    ends the head judge's other sessions (laptop and lost phone), which are told why and write
    nothing more; floor judges' sessions stay. The JSON join asks the same with
    ``sign_out_others``; anything but true or false is refused."""
    laptop, sam, _judge_code, head_code = floor
    store, event_id, head, lost = _head_on_a_phone(app, head_code)
    page = lost.get("/event").get_data(as_text=True)
    assert "Sign out my other devices (a lost phone)" not in page  # joined: the event's page
    form = Phone(app.test_client(), "192.168.1.79").get("/event").get_data(as_text=True)
    box = re.search(r'<input type="checkbox" name="sign_out" value="others"[^>]*>', form).group(0)
    assert "checked" not in box  # off by default
    new = Phone(app.test_client(), "192.168.1.79")
    token = csrf_of(new.get("/event").get_data(as_text=True))
    answer = new.post(
        "/event/join",
        data={"code": head_code, "name": head.name, "sign_out": "others", "csrf": token},
    )
    assert answer.status_code == 303
    assert new.record().status_code == 303
    for old in (lost, laptop):
        get = old.get if old is lost else (lambda p: laptop.get(p, base_url=LAPTOP))
        said = get("/api/events/session").get_json()
        assert said["judge"] is None
        assert f"{head.name} joined again on another device" in said["signed_out"]
        assert "join here again with the head judge code under your name" in said["signed_out"]
    refused = laptop_post(laptop, "/event/rulings", {"round": "1", "table": "1"}, "/event")
    assert refused.status_code == 401 and "This device was signed out" in refused.get_data(
        as_text=True
    )
    assert lost.record().status_code == 401
    assert [r.judge for r in store.rulings(event_id)] == [head.name]
    assert sam.get("/api/events/session").get_json()["judge"]["name"] == "Sam"
    # The JSON join: unticked keeps the others, true signs them out, a string is refused.
    api = Phone(app.test_client(), "192.168.1.80")
    csrf = api.get("/api/events/session").get_json()["csrf"]

    def join_json(body):
        return api.post(
            f"/api/events/{event_id}/join",
            json={"code": head_code, "name": head.name, **body},
            headers={"X-CSRF-Token": csrf},
        )

    answer = join_json({"sign_out_others": "yes"})
    assert answer.status_code == 400 and "sign_out_others" in answer.get_json()["message"]
    assert join_json({}).status_code == 200
    assert new.get("/api/events/session").get_json()["judge"]["name"] == head.name
    assert join_json({"sign_out_others": True}).status_code == 200
    assert new.get("/api/events/session").get_json()["judge"] is None
    assert api.get("/api/events/session").get_json()["judge"]["name"] == head.name
