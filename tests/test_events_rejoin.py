"""A judge joining again on another device, as a device signed out by it sees it: the refusal of
its writes (a form's words only to a form), a write already on its way when the rejoin commits
(refused inside the write's own transaction), and the store forgetting ended sessions once they
would have expired."""

from __future__ import annotations

import re

import pytest

from judgekit.events.store import Store
from judgekit.web import judges
from judgekit.web.judges import KEY

from .events_helpers import LAPTOP, Phone, event_app, laptop_post, start_event

FORM_WORDS = "Nothing was recorded. Here is what you typed: copy it"


@pytest.fixture()
def app(tmp_path):
    return event_app(tmp_path)


def _store(app) -> Store:
    return app.extensions[KEY]["store"]


def _again_code(laptop, name: str) -> str:
    """The one-time code the laptop's desk gives ``name`` to join again (Let back in)."""
    answer = laptop_post(laptop, "/event/desk/again", {"name": name})
    return re.search(r"data-rejoin-code>([^<]+)<", answer.get_data(as_text=True)).group(1)


def test_a_signed_out_devices_json_write_is_not_told_to_go_back_to_a_form(app):
    """The API has no form: its 401 says why the device was signed out, without "go back";
    the form's post (HTML) says it, since the form keeps what was typed."""
    laptop, judge_code, _ = start_event(app)
    old = Phone(app.test_client(), "192.168.1.31")
    assert old.join(judge_code, "Sam").status_code == 303
    event_id = _store(app).current_event().id
    csrf = old.get("/api/events/session").get_json()["csrf"]
    form_csrf = old.csrf()
    assert Phone(app.test_client(), "192.168.1.32").join(_again_code(laptop, "Sam"), "Sam")
    body = {"round": "1", "table": "2", "question": "Q", "ruling": "R", "cite": []}
    answer = old.post(f"/api/events/{event_id}/rulings", json=body, headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 401
    said = answer.get_json()["message"]
    assert "Sam joined again on another device" in said
    assert "form" not in said and "go back" not in said and "typed" not in said
    form = old.record(csrf=form_csrf)
    assert form.status_code == 401 and FORM_WORDS in form.get_data(as_text=True)
    assert "Sam joined again on another device" in form.get_data(as_text=True)
    assert "go back" not in form.get_data(as_text=True)
    # A JSON body sent to a page's address is no form either.
    raw = old.post("/event/rulings", json=body, headers={"X-CSRF-Token": csrf})
    assert raw.status_code == 401 and FORM_WORDS not in raw.get_data(as_text=True)
    assert _store(app).rulings(event_id) == []


def _shown_back(html: str) -> dict[str, str]:
    """The read-only boxes of a refused form's page: each field's name and the text in it."""
    found = re.findall(
        r'<textarea readonly rows="\d+" data-typed="(\w+)">(.*?)</textarea>', html, re.S
    )
    return dict(found)


def test_a_signed_out_phone_s_ruling_is_shown_back_to_copy(app):
    """Pat's phone A, signed out by Pat joining on phone B, posts a typed ruling: the 401 page
    says nothing was recorded in a judge's words and shows every field typed (escaped, each
    cut to the form's most characters) to copy, the citations by title, and a link that joins
    again on this device back to the form (which restores the phone's draft)."""
    laptop, judge_code, _ = start_event(app)
    old = Phone(app.test_client(), "192.168.1.31")
    assert old.join(judge_code, "Pat").status_code == 303
    form_csrf = old.csrf()
    assert Phone(app.test_client(), "192.168.1.32").join(_again_code(laptop, "Pat"), "Pat")
    question = "Can <b>Worf</b> & Data beam?" + "x" * 2000
    answer = old.record(
        csrf=form_csrf,
        round="3",
        question=question,
        ruling='Yes: beaming is a "free" action.',
        players="A.B. v C.D.",
        opened="entry:2e-rulebook/4/beaming",
    )
    html = answer.get_data(as_text=True)
    assert answer.status_code == 401
    assert "<title>Nothing was recorded – judgekit</title>" in html
    assert "<h1>Nothing was recorded</h1>" in html and "Error 401" not in html
    assert "Pat joined again on another device" in html
    shown = _shown_back(html)
    assert set(shown) == {"round", "table", "question", "ruling", "players", "cite"}
    assert shown["round"] == "3" and shown["table"] == "7"
    assert shown["question"] == "Can &lt;b&gt;Worf&lt;/b&gt; &amp; Data beam?" + "x" * 1472
    assert shown["ruling"] == "Yes: beaming is a &#34;free&#34; action."
    assert shown["players"] == "A.B. v C.D."
    assert "Beam" in shown["cite"] and "entry:" not in shown["cite"]
    again = re.search(r'<a href="([^"]+)">join again on this device</a>', html).group(1)
    assert again == "/event/rulings/new?cite=entry:2e-rulebook/4/beaming"
    assert "join" in old.get(again).get_data(as_text=True).lower()
    assert _store(app).rulings(_store(app).current_event().id) == []


@pytest.fixture()
def between(monkeypatch):
    """``between(action)``: the next write runs ``action`` after its session was checked and
    before it reaches the store (a rejoin committed while the write was on its way)."""

    def arrange(action):
        checked = judges.check_write

        def check_then_act(*args, **kwargs):
            judge = checked(*args, **kwargs)
            monkeypatch.setattr(judges, "check_write", checked)  # once
            action()
            return judge

        monkeypatch.setattr(judges, "check_write", check_then_act)

    return arrange


@pytest.mark.parametrize("via", ["form", "json"])
def test_a_write_on_its_way_when_the_judge_joins_again_elsewhere_is_refused(app, between, via):
    """Sam's old phone sends a ruling; Sam is let back in on a new phone after the old phone's
    session was checked but before the ruling's transaction: nothing is recorded, and the old
    phone is told why (401), as if it had been signed out first."""
    laptop, judge_code, _ = start_event(app)
    store = _store(app)
    event_id = store.current_event().id
    old = Phone(app.test_client(), "192.168.1.31")
    assert old.join(judge_code, "Sam").status_code == 303
    code = _again_code(laptop, "Sam")
    between(lambda: store.join(event_id, code, "Sam", "192.168.1.32"))
    if via == "form":
        answer = old.record()
        said = answer.get_data(as_text=True)
    else:
        csrf = old.get("/api/events/session").get_json()["csrf"]
        body = {"round": "1", "table": "2", "question": "Q", "ruling": "R", "cite": []}
        answer = old.post(
            f"/api/events/{event_id}/rulings", json=body, headers={"X-CSRF-Token": csrf}
        )
        said = answer.get_json()["message"]
    assert answer.status_code == 401, said
    assert "This device was signed out at " in said and "Sam joined again on another device" in said
    assert store.rulings(event_id) == []


def test_a_write_on_its_way_when_its_judge_is_removed_is_refused(app, between):
    """Removed by the head judge while the ruling was on its way: not recorded (401)."""
    _laptop, judge_code, _ = start_event(app)
    store = _store(app)
    event_id = store.current_event().id
    sam = Phone(app.test_client(), "192.168.1.31")
    assert sam.join(judge_code, "Sam").status_code == 303
    between(lambda: store.remove_judge(event_id, "Sam"))
    answer = sam.record()
    assert answer.status_code == 401
    assert "your session is over or missing" in answer.get_data(as_text=True)
    assert store.rulings(event_id) == []


@pytest.mark.parametrize("via", ["form", "json"])
def test_the_head_judges_revise_and_remove_on_their_way_are_refused_once_signed_out(
    app, between, via
):
    """The head judge signs their other devices out from a new phone while the laptop's
    uphold, and then its Remove, are on their way: neither is written."""
    laptop, judge_code, head_code = start_event(app, head="Ann")
    store = _store(app)
    event_id = store.current_event().id
    sam = Phone(app.test_client(), "192.168.1.31")
    assert sam.join(judge_code, "Sam").status_code == 303
    assert sam.record().status_code == 303
    csrf = laptop.get("/api/events/session", base_url=LAPTOP).get_json()["csrf"]

    def send(path: str, form: dict, body: dict):
        if via == "form":
            return laptop_post(laptop, path, form)
        return laptop.post(
            f"/api/events/{event_id}{path}",
            json=body,
            base_url=LAPTOP,
            headers={"Origin": LAPTOP, "X-CSRF-Token": csrf},
        )

    def sign_out_elsewhere(address: str):
        return lambda: store.join(event_id, head_code, "Ann", address, sign_out_others=True)

    between(sign_out_elsewhere("192.168.1.40"))
    revise = "/event/rulings/1/revise" if via == "form" else "/rulings/1/revise"
    answer = send(revise, {"change": "upheld"}, {"change": "upheld"})
    assert answer.status_code == 401
    assert "Ann joined again on another device" in answer.get_data(as_text=True)
    assert [r.change for r in store.ruling(event_id, 1).revisions] == ["recorded"]
    # Signed in again on the laptop (without signing the others out), and out again mid-Remove.
    _laptop, laptop_token = store.join(event_id, head_code, "Ann", "127.0.0.1")
    laptop.set_cookie(judges.COOKIE, _signer(app).sign(laptop_token).decode(), domain="localhost")
    csrf = laptop.get("/api/events/session", base_url=LAPTOP).get_json()["csrf"]
    between(sign_out_elsewhere("192.168.1.41"))
    remove = "/event/desk/remove" if via == "form" else "/judges/remove"
    answer = send(remove, {"name": "Sam"}, {"name": "Sam"})
    assert answer.status_code == 401
    assert "Ann joined again on another device" in answer.get_data(as_text=True)
    assert not any(j.removed for j in store.judges(event_id))


def _signer(app):
    return app.extensions[KEY]["signer"]


def test_ended_sessions_are_forgotten_once_they_would_have_expired(tmp_path):
    """Joining prunes sessions and ended sessions past their expiry (the event's end): the old
    device is told why it was signed out until then, and the tables stay bounded."""
    store = Store(tmp_path / "events.sqlite")
    store.migrate()
    now = 1_000_000.0
    first, judge_code, _ = store.create_event("Friday", now + 100, now=now)
    _sam, old_token = store.join(first.id, judge_code, "Sam", "10.0.0.1", now=now)
    code = store.let_back_in(first.id, "Sam", now=now + 1)
    store.join(first.id, code, "Sam", "10.0.0.2", now=now + 2)

    def rows(table: str) -> int:
        with store.reading() as conn:
            return conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]

    assert rows("ended_sessions") == 1 and rows("sessions") == 1
    # Another judge joins before the end: the old phone is still told why.
    store.join(first.id, judge_code, "Bea", "10.0.0.3", now=now + 50)
    assert store.signed_out(old_token, now=now + 60).judge == "Sam"
    assert rows("ended_sessions") == 1 and rows("sessions") == 2
    # The next event's first join, after Friday's end, forgets Friday's sessions, ended or not.
    second, code2, _ = store.create_event("Saturday", now + 1000, now=now + 200)
    store.join(second.id, code2, "Sam", "10.0.0.1", now=now + 200)
    assert rows("ended_sessions") == 0 and rows("sessions") == 1
    assert store.signed_out(old_token, now=now + 60) is None


@pytest.mark.parametrize(
    "path,data",
    [
        ("/event/desk/code", {"which": "judge"}),
        ("/event/desk/again", {"name": "Sam"}),
        ("/event/desk/guesses", {}),
    ],
    ids=["code", "again", "guesses"],
)
def test_the_desks_other_writes_on_their_way_are_refused_once_signed_out(app, between, path, data):
    """A new code, a code to let Sam back in, clearing the wrong codes: sent from the laptop's
    desk as the head judge signs their other devices out elsewhere, none is written."""
    laptop, judge_code, head_code = start_event(app, head="Ann")
    store = _store(app)
    event_id = store.current_event().id
    assert Phone(app.test_client(), "192.168.1.31").join(judge_code, "Sam").status_code == 303
    assert Phone(app.test_client(), "192.168.1.66").join("WRONG-CODE1", "Eve").status_code == 403

    def state():
        with store.reading() as conn:
            rejoins = conn.execute("SELECT COUNT(*) FROM rejoins").fetchone()[0]
        return store.codes(event_id), rejoins, store.guesses()

    before = state()
    between(lambda: store.join(event_id, head_code, "Ann", "192.168.1.40", sign_out_others=True))
    answer = laptop_post(laptop, path, data)
    assert answer.status_code == 401
    assert "Ann joined again on another device" in answer.get_data(as_text=True)
    assert state() == before and before[2][0] == 1
