"""One published ruling's JSON twin, GET /api/events/<id>/published/<n>: the published list's
dict for that ruling, for anyone; a 404 in the page's own words for one missing or unpublished
(what judges have not published is never shown nor said to exist). Its page names it."""

from __future__ import annotations

import re

import pytest

from judgekit.web.judges import KEY

from .events_helpers import Phone, event_app, start_event


@pytest.fixture()
def published(tmp_path):
    """An event with rulings 1 and 2 recorded, 1 published, and a player's phone."""
    app = event_app(tmp_path)
    _laptop, judge_code, head_code = start_event(app)
    sam = Phone(app.test_client(), "192.168.1.31")
    sam.join(judge_code, "Sam")
    sam.record(question="Published one", players="J. Smith v K. Jones")
    sam.record(question="Kept among judges")
    head = Phone(app.test_client(), "192.168.1.40")
    head.join(head_code, "Bea")
    head.post("/event/rulings/1/revise", data={"change": "published", "csrf": head.csrf()})
    event_id = app.extensions[KEY]["store"].current_event().id
    return app, head, Phone(app.test_client(), "192.168.1.120"), event_id


def _twin(html: str) -> str:
    return re.search(r'<link rel="alternate" type="application/json" href="([^"]*)"', html)[1]


def test_one_published_ruling_has_its_own_twin(published):
    _app, _head, player, event_id = published
    listed = player.get(f"/api/events/{event_id}/published").get_json()["rulings"]
    one = player.get(f"/api/events/{event_id}/published/1")
    assert one.status_code == 200
    assert one.get_json() == listed[0]
    assert one.get_json()["question"] == "Published one" and "Smith" not in one.get_data(True)
    assert listed[0]["api_url"] == f"/api/events/{event_id}/published/1"
    page = player.get("/event/published/1").get_data(as_text=True)
    assert _twin(page) == f"/api/events/{event_id}/published/1"
    assert _twin(player.get("/event/published").get_data(as_text=True)) == (
        f"/api/events/{event_id}/published"
    )


def test_an_unpublished_or_missing_ruling_is_a_404_in_the_same_words(published):
    _app, head, player, event_id = published
    for number in (2, 3):
        page = player.get(f"/event/published/{number}")
        api = player.get(f"/api/events/{event_id}/published/{number}")
        assert page.status_code == api.status_code == 404
        said = f"no published ruling {number} in this event"
        assert api.get_json()["message"] == said and said in page.get_data(as_text=True)
        assert "Kept among judges" not in api.get_data(as_text=True)
    head.post("/event/rulings/1/revise", data={"change": "unpublished", "csrf": head.csrf()})
    gone = player.get(f"/api/events/{event_id}/published/1")
    assert gone.status_code == 404 and "Published one" not in gone.get_data(as_text=True)
    assert player.get(f"/api/events/{event_id + 1}/published/1").status_code == 404
