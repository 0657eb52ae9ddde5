"""The ruling form's Cite field: a judge types a title ("Cloaking", "Earth"), an id or a citation,
as the event page's Entry and Card filters take them. One thing named is cited by its exact id; a
title several entries or cards share is cited only once the judge picks which (nothing recorded
before); text naming nothing says so, the typed text kept. Without JavaScript: plain form posts."""

from __future__ import annotations

import html
import re

import pytest

from judgekit.checks.loader import load_corpus
from judgekit.render.library import Library
from judgekit.shapes.named import typed_citation

from .conftest import DATA
from .events_helpers import Phone, event_app, joined

CLOAK_V1 = "entry:demo-rulebook/1/cloaking"
CLOAK_V2 = "entry:demo-rulebook/2/cloaking"
EARTH = "card:2E/earth"


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library(load_corpus(DATA / "cards"))


@pytest.mark.parametrize(
    ("typed", "how", "specs"),
    [
        ("Earth", "title", [EARTH]),
        ("  earth ", "id", [EARTH]),
        # The newest version first, as search lists them, then the older ones.
        ("cloaking", "id", [CLOAK_V2, CLOAK_V1]),
        ("CLOAKING", "title", [CLOAK_V2, CLOAK_V1]),
        (
            "Engage Cloak",
            "title",
            ["entry:demo-rulings/r1/engage-cloak", "card:2E/engage-cloak", "card:1E/engage-cloak"],
        ),
        ("Entry:demo-rulebook/2/cloaking", "citation", [CLOAK_V2]),
        ("card:1e/engage-cloak", "citation", ["card:1E/engage-cloak"]),
        ("entry:demo-rulebook/9/cloaking", "citation", []),
        ("galaxy", "in title", ["entry:demo-rulebook/1/gl-uss-galaxy", "card:2E/uss-galaxy"]),
        ("Borg cube", "nothing", []),
        # A typo names nothing: the cards nearest it are offered, never cited unpicked.
        ("Erth", "near", [EARTH]),
        ("Engage Clock", "near", ["card:2E/engage-cloak", "card:1E/engage-cloak"]),
    ],
)
def test_what_the_cite_field_names(lib, typed, how, specs):
    found = typed_citation(lib, typed)
    assert found.how == how
    assert [t.spec for t in found.targets] == specs
    assert found.chosen == (specs[0] if len(specs) == 1 and how != "near" else "")


def test_a_typo_offers_the_nearest_card_and_records_it_once_picked(sam):
    answer = sam.record(cite="", find="Erth", question="Is Earth a planet?")
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert _kept(sam) == []
    assert (
        "No rule, ruling or card has the title, id or citation “Erth”. Did you mean 2E card "
        "Earth? Pick it to cite it: nothing is recorded until you do."
    ) in html.unescape(page)
    assert _picks(page) == [EARTH]
    assert sam.record(cite="", find="Erth", pick=EARTH).status_code == 303
    assert _kept(sam) == [[EARTH]]


def test_a_pick_is_taken_only_among_what_the_text_names(lib):
    assert typed_citation(lib, "Cloaking", CLOAK_V2).chosen == CLOAK_V2
    assert typed_citation(lib, "Cloaking", EARTH).chosen == ""
    assert typed_citation(lib, "Earth", CLOAK_V1).chosen == EARTH
    assert typed_citation(lib, "   ") is None


@pytest.fixture()
def app(tmp_path):
    return event_app(tmp_path, CORPUS_DIR=str(DATA / "cards"))


@pytest.fixture()
def sam(app):
    return joined(app)


def _kept(sam) -> list[list[str]]:
    """Each ruling recorded: the specs it cites."""
    event = sam.get("/api/events/1").get_json()
    return [[c["spec"] for c in r["citations"]] for r in event["rulings"]]


def _picks(page: str) -> list[str]:
    return re.findall(r'<input type="radio" name="pick" value="([^"]+)">', page)


def test_a_title_naming_one_card_records_its_exact_id(sam):
    answer = sam.record(cite="", find="earth")
    assert answer.status_code == 303
    assert _kept(sam) == [[EARTH]]


def test_a_title_naming_several_records_nothing_until_the_judge_picks(sam):
    answer = sam.record(cite="", find="Cloaking", question="Does a cloaked ship attempt?")
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert _kept(sam) == []
    assert "“Cloaking” names 2 entries. Pick the one this ruling cites" in page
    assert _picks(page) == [CLOAK_V2, CLOAK_V1]  # the newest version first
    assert 'name="find"' in page and 'value="Cloaking"' in page  # kept, and the rest of the form
    assert "Does a cloaked ship attempt?" in page
    # A pick among something else is no pick.
    assert sam.record(cite="", find="Cloaking", pick=EARTH).status_code == 400
    assert _kept(sam) == []
    assert sam.record(cite="", find="Cloaking", pick=CLOAK_V2).status_code == 303
    assert _kept(sam) == [[CLOAK_V2]]


def test_text_naming_nothing_says_so_and_keeps_what_was_typed(sam):
    typed = "Borg <b>cube</b>"
    answer = sam.record(cite="", find=typed)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert _kept(sam) == []
    assert "No rule, ruling or card has the title, id or citation" in page
    assert f'value="{html.escape(typed)}"' in page and "<b>cube" not in page
    assert _picks(page) == []


def test_find_brings_the_form_back_with_it_ticked_and_records_nothing(sam):
    answer = sam.record(cite=CLOAK_V1, find="earth", question="", step="find", opened=CLOAK_V1)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert _kept(sam) == []
    ticked = re.findall(r'<input type="checkbox" name="cite" value="([^"]+)" checked>', page)
    assert ticked == [CLOAK_V1, EARTH]
    assert 'name="find" maxlength="408"' in page and 'value="earth"' not in page
    # The draft on the phone stays the form's own: the form it was opened as.
    assert f'name="opened" value="{CLOAK_V1}"' in page


def test_the_form_is_opened_as_its_citations(sam):
    page = sam.get("/event/rulings/new?cite=card:2e/earth").get_data(as_text=True)
    assert f'name="opened" value="{EARTH}"' in page


def test_a_typed_citation_keeps_the_ticked_ones_too(sam):
    assert sam.record(cite=CLOAK_V1, find="Entry:demo-rulebook/2/cloaking").status_code == 303
    assert _kept(sam) == [[CLOAK_V1, CLOAK_V2]]


def test_the_cite_field_writes_nothing_without_the_judges_session_and_token(app, sam):
    assert sam.record(cite="", find="earth", csrf="wrong").status_code == 403
    stranger = Phone(app.test_client(), "192.168.1.99")
    assert stranger.record(cite="", find="earth", csrf="x").status_code == 401
    assert sam.record(cite="", find="earth", step="find", csrf="wrong").status_code == 403
    assert _kept(sam) == []


def test_a_cite_field_past_its_limit_is_refused_with_a_reason(sam):
    answer = sam.record(cite="", find="x" * 409)
    assert answer.status_code == 400
    assert "the Cite field is 409 characters long (at most 408)" in answer.get_data(as_text=True)
    assert _kept(sam) == []


# -- the JSON API's cite list takes the same typed forms -------------------------------------------
def _api_record(sam, *cites):
    token = sam.get("/api/events/session").get_json()["csrf"]
    body = {"round": "1", "table": "3", "question": "q", "ruling": "r", "cite": list(cites)}
    return sam.post("/api/events/1/rulings", json=body, headers={"X-CSRF-Token": token})


def test_the_api_cites_a_title_naming_one_thing_by_its_exact_id(sam):
    made = _api_record(sam, CLOAK_V1, "earth", "Entry:demo-rulebook/2/cloaking")
    assert made.status_code == 201
    assert [c["spec"] for c in made.get_json()["citations"]] == [CLOAK_V1, EARTH, CLOAK_V2]
    assert _kept(sam) == [[CLOAK_V1, EARTH, CLOAK_V2]]


def test_the_api_lists_what_a_title_naming_several_names_and_records_nothing(sam):
    refused = _api_record(sam, EARTH, "Cloaking")
    assert refused.status_code == 400
    assert refused.get_json()["message"] == (
        "“Cloaking” names 2 entries. Nothing is recorded: send one of these exact citations as "
        f"its cite: {CLOAK_V2}, {CLOAK_V1}"
    )
    assert _kept(sam) == []


def test_the_api_says_when_text_names_nothing_and_records_nothing(sam):
    refused = _api_record(sam, "Borg <b>cube</b>")
    assert refused.status_code == 400
    message = refused.get_json()["message"]
    assert message.startswith("No rule, ruling or card has the title, id or citation")
    assert "<b>" not in refused.get_data(as_text=True)  # JSON escapes < and >
    assert _kept(sam) == []


def test_the_api_keeps_exact_citations_as_before(sam):
    made = _api_record(sam, f"{CLOAK_V1} {EARTH}")  # space-separated, as the form's box
    assert made.status_code == 201 and _kept(sam) == [[CLOAK_V1, EARTH]]
    missing = _api_record(sam, "entry:demo-rulebook/9/cloaking")
    assert missing.status_code == 400
    assert missing.get_json()["message"] == "no entry demo-rulebook/9/cloaking to cite"
    too_many = _api_record(sam, *["earth"] * 9)
    assert too_many.status_code == 400 and "at most 8" in too_many.get_json()["message"]
    assert _kept(sam) == [[CLOAK_V1, EARTH]]
