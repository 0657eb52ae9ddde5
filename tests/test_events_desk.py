"""The head judge's desk: the head judge removes other judges, never themselves (their session
would end and their name could not join again: the event would lose its head judge). The desk
offers no Remove on their own row, and the form and the JSON API refuse it, nothing changed."""

from __future__ import annotations

import re

import pytest

from judgekit.web.judges import KEY

from .events_helpers import LAPTOP, Phone, event_app, start_event


@pytest.fixture()
def app(tmp_path):
    return event_app(tmp_path)


def _judges(app) -> list[tuple[str, bool]]:
    store = app.extensions[KEY]["store"]
    return [(j.name, j.removed) for j in store.judges(store.current_event().id)]


def _removable(desk: str) -> list[str]:
    """The names the desk offers a Remove button for."""
    return re.findall(r'name="name" value="([^"]*)"><button type="submit">Remove', desk)


def test_the_head_judge_is_offered_no_remove_of_themselves(app):
    laptop, judge_code, head_code = start_event(app, head="Ann")
    Phone(app.test_client(), "192.168.1.31").join(judge_code, "Sam")
    head_phone = Phone(app.test_client(), "192.168.1.40")
    assert head_phone.join(head_code, "Bea").status_code == 303
    desk = head_phone.get("/event/desk").get_data(as_text=True)
    assert _removable(desk) == ["Ann", "Sam"]
    assert 'Bea (head judge) <span class="muted">(you)</span></li>' in desk
    laptop_desk = laptop.get("/event/desk", base_url=LAPTOP).get_data(as_text=True)
    assert _removable(laptop_desk) == ["Sam", "Bea"]


def test_the_form_refuses_removing_oneself(app):
    laptop, judge_code, _ = start_event(app, head="Ann")
    Phone(app.test_client(), "192.168.1.31").join(judge_code, "Sam")
    desk = laptop.get("/event/desk", base_url=LAPTOP).get_data(as_text=True)
    token = re.search(r'name="csrf" value="([^"]*)"', desk).group(1)
    post = {"base_url": LAPTOP, "headers": {"Origin": LAPTOP}}
    refused = laptop.post("/event/desk/remove", data={"name": "Ann", "csrf": token}, **post)
    assert refused.status_code == 400
    assert "you cannot remove yourself (Ann)" in refused.get_data(as_text=True)
    assert _judges(app) == [("Ann", False), ("Sam", False)]
    assert laptop.get("/event/desk", base_url=LAPTOP).status_code == 200  # still the head judge
    removed = laptop.post("/event/desk/remove", data={"name": "Sam", "csrf": token}, **post)
    assert removed.status_code == 303
    assert _judges(app) == [("Ann", False), ("Sam", True)]


def test_the_json_api_removes_others_and_refuses_oneself(app):
    _laptop, judge_code, head_code = start_event(app, head="Ann")
    sam = Phone(app.test_client(), "192.168.1.31")
    sam.join(judge_code, "Sam")
    bea = Phone(app.test_client(), "192.168.1.40")
    bea.join(head_code, "Bea")
    event_id = app.extensions[KEY]["store"].current_event().id
    url = f"/api/events/{event_id}/judges/remove"
    token = bea.get("/api/events/session").get_json()["csrf"]
    own = bea.post(url, json={"name": "Bea"}, headers={"X-CSRF-Token": token})
    assert own.status_code == 400
    assert own.get_json()["message"].startswith("you cannot remove yourself (Bea)")
    assert _judges(app) == [("Ann", False), ("Sam", False), ("Bea", False)]
    sam_token = sam.get("/api/events/session").get_json()["csrf"]
    not_head = sam.post(url, json={"name": "Bea"}, headers={"X-CSRF-Token": sam_token})
    assert not_head.status_code == 403
    gone = bea.post(url, json={"name": "Sam"}, headers={"X-CSRF-Token": token})
    assert gone.status_code == 200 and gone.get_json()["judge"]["name"] == "Sam"
    assert _judges(app) == [("Ann", False), ("Sam", True), ("Bea", False)]
    assert sam.get("/event/rulings/new").status_code == 401  # Sam's session ended
    unknown = bea.post(url, json={"name": "Zed"}, headers={"X-CSRF-Token": token})
    assert unknown.status_code == 400 and "no judge named 'Zed'" in unknown.get_json()["message"]


def test_a_judge_let_back_in_joins_again_under_the_same_name_once(app):
    """A floor judge on a new device: the judge code never takes a name already joined, but the
    desk's "Let back in" gives a one-time code for that name only: the same judge again (one
    row on the desk, their rulings theirs), never twice, never for another name."""
    laptop, judge_code, _ = start_event(app, head="Ann")
    old_phone = Phone(app.test_client(), "192.168.1.31")
    assert old_phone.join(judge_code, "Sam").status_code == 303
    assert old_phone.record().status_code == 303
    new_phone = Phone(app.test_client(), "192.168.1.32")
    refused = new_phone.join(judge_code, "Sam")
    assert refused.status_code == 403
    assert "ask the head judge for a code to join again" in refused.get_data(as_text=True)
    desk = laptop.get("/event/desk", base_url=LAPTOP).get_data(as_text=True)
    token = re.search(r'name="csrf" value="([^"]*)"', desk).group(1)
    post = {"base_url": LAPTOP, "headers": {"Origin": LAPTOP}}
    answer = laptop.post("/event/desk/again", data={"name": "Sam", "csrf": token}, **post)
    assert answer.status_code == 200
    # The desk says what joining with it does to the lost phone.
    assert "Joining signs Sam out on every other device" in answer.get_data(as_text=True)
    code = re.search(r"data-rejoin-code>([^<]+)<", answer.get_data(as_text=True)).group(1)
    assert code not in answer.headers.get("Location", "")
    # Another name cannot use it; the name it was made for can, once.
    assert Phone(app.test_client(), "192.168.1.33").join(code, "Sam B").status_code == 403
    assert new_phone.join(code, "Sam").status_code == 303
    assert new_phone.get("/api/events/session").get_json()["judge"] == {
        "name": "Sam",
        "head": False,
    }
    assert _judges(app) == [("Ann", False), ("Sam", False)]
    assert new_phone.record().status_code == 303
    store = app.extensions[KEY]["store"]
    assert [r.judge for r in store.rulings(store.current_event().id)] == ["Sam", "Sam"]
    # "Let back in" replaces the lost phone: its session ended, it writes nothing more, and it
    # is told why on its next request (the page, a write, the JSON); Sam's rulings stay.
    refused = old_phone.record(question="From the lost phone")
    assert refused.status_code == 401
    said = refused.get_data(as_text=True)
    assert "This device was signed out at " in said and "Sam joined again on another device" in said
    assert "only that device writes as Sam now. Nothing Sam recorded is lost." in said
    assert "ask the head judge to let you back in" in said
    page = old_phone.get("/event").get_data(as_text=True)
    assert "data-signed-out>This device was signed out at" in page and "Join as a judge" in page
    session = old_phone.get("/api/events/session").get_json()
    assert (
        session["judge"] is None and "Sam joined again on another device" in session["signed_out"]
    )
    assert [r.judge for r in store.rulings(store.current_event().id)] == ["Sam", "Sam"]
    assert "signed_out" not in new_phone.get("/api/events/session").get_json()
    assert Phone(app.test_client(), "192.168.1.34").join(code, "Sam").status_code == 403
    # Only the head judge's desk makes one: a floor judge's session cannot.
    csrf = new_phone.csrf()
    assert new_phone.post("/event/desk/again", data={"name": "Ann", "csrf": csrf}).status_code in (
        403,
        404,
    )
