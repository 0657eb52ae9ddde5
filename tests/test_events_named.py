"""The event page's Entry and Card filters take what a judge types: a title (any case) or an id
(exactly); a title naming several entries or cards shows the rulings citing any of them and says
which; text naming nothing says so."""

from __future__ import annotations

import re

import pytest

from judgekit.shapes.cards import nearest_cards
from judgekit.shapes.named import named_by, typed_citation
from judgekit.web import judges
from judgekit.web.context import current_library
from judgekit.web.judges import KEY

from .conftest import DATA
from .events_helpers import Phone, event_app, start_event

CLOAKING = "entry:demo-rulebook/1/cloaking"
WORMHOLE = "entry:demo-rulings/r1/wormhole"
CLOAK_2E = "card:2E/engage-cloak"
CLOAK_1E = "card:1E/engage-cloak"
PICARD = "card:2E/jean-luc-picard-explorer"


@pytest.fixture()
def app(tmp_path):
    return event_app(tmp_path, CORPUS_DIR=str(DATA / "cards"))


@pytest.fixture()
def sam(app):
    """Sam, joined from a phone, with four rulings recorded."""
    _laptop, judge_code, _ = start_event(app)
    sam = Phone(app.test_client(), "192.168.1.31")
    assert sam.join(judge_code, "Sam").status_code == 303
    for question, cite in (
        ("About cloaking", CLOAKING),
        ("About the wormhole", WORMHOLE),
        ("About the 2E card", CLOAK_2E),
        ("About the 1E card", f"{CLOAK_1E} {PICARD}"),
    ):
        assert sam.record(question=question, cite=cite).status_code == 303
    return sam


QUESTIONS = ("About cloaking", "About the wormhole", "About the 2E card", "About the 1E card")


def _page(sam, **query) -> tuple[list[str], str]:
    answer = sam.get("/event", query_string=query)
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    return [q for q in QUESTIONS if q in html], html


def _notes(html: str) -> list[str]:
    notes = re.findall(r'<p class="event-named[^"]*" data-named="[^"]*">(.*?)</p>', html, re.S)
    return [re.sub(r"<[^>]+>", "", n) for n in notes]


@pytest.mark.parametrize("typed", ["Cloaking", "cloaking", "CLOAKING", "  Cloaking "])
def test_an_entry_by_title_in_any_case_or_by_id(sam, typed):
    shown, html = _page(sam, entry=typed)
    assert shown == ["About cloaking"]
    (note,) = _notes(html)
    # The title is in both versions: the note names both, linked.
    assert "names 2 entries" in note and "v1" in note and "v2" in note
    assert 'href="/rules/demo-rulebook/1/cloaking"' in html
    assert 'href="/rules/demo-rulebook/2/cloaking"' in html


def test_an_id_matches_exactly(sam):
    # "gl-uss-galaxy" is an id; its capitals are neither that id nor any title.
    assert name_of(sam, "entry", "gl-uss-galaxy").how == "id"
    shown, html = _page(sam, entry="GL-USS-GALAXY")
    assert shown == []
    assert _notes(html)[0].startswith("No entry has the title or id “GL-USS-GALAXY”.")


def name_of(sam, kind: str, text: str):
    lib = sam.client.application.extensions["judgekit"]["library"]
    return named_by(lib, kind, text)


def test_a_card_title_naming_several_cards_shows_them_all_and_says_which(sam):
    shown, html = _page(sam, card="engage cloak")
    assert shown == ["About the 2E card", "About the 1E card"]
    (note,) = _notes(html)
    assert "Card “engage cloak” names 2 cards" in note
    assert "2E card Engage Cloak" in note and "1E card Engage Cloak" in note


@pytest.mark.parametrize(
    "typed", ["jean-luc-picard-explorer", "Jean-Luc Picard", "jean-luc picard, explorer"]
)
def test_a_card_by_id_title_or_full_title(sam, typed):
    shown, html = _page(sam, card=typed)
    assert shown == ["About the 1E card"]
    (note,) = _notes(html)
    assert "names 1 card (rulings citing it are shown): 2E card Jean-Luc Picard, Explorer." in note


def test_a_citation_still_matches_exactly(sam):
    assert _page(sam, card=CLOAK_1E)[0] == ["About the 1E card"]
    assert _page(sam, entry=WORMHOLE)[0] == ["About the wormhole"]


def test_text_that_names_nothing_says_so(sam):
    shown, html = _page(sam, entry="Worf")
    assert shown == [] and "0 of 4 rulings." in html
    assert _notes(html) == [
        "No entry has the title or id “Worf”. Type an entry’s title, such as “Beaming”, or its "
        "id (the end of its page’s address)."
    ]
    assert 'class="event-named is-unknown"' in html
    shown, html = _page(sam, card="Worf")
    assert shown == [] and _notes(html)[0].startswith("No card has the title or id “Worf”.")


def test_words_of_a_title_name_the_titles_holding_them(sam):
    shown, html = _page(sam, entry="worm")
    assert shown == ["About the wormhole"]
    assert _notes(html) == [
        "No entry has the title or id “worm”; shown: rulings citing entries whose titles (in any "
        "version) hold every word of it, 1 entry in all: Demo Rulings r1, Wormhole."
    ]


def test_what_a_judge_types_is_escaped(sam):
    _, html = _page(sam, entry="<script>x</script>", card='"><img src=x>')
    assert "<script>x" not in html and "<img src=x" not in html
    assert "“&lt;script&gt;x&lt;/script&gt;”" in html


def test_the_json_says_what_the_filter_names(sam):
    event_id = sam.get("/api/events/session").get_json()["event_id"]
    data = sam.get(f"/api/events/{event_id}", query_string={"card": "Engage Cloak"}).get_json()
    assert {r["question"] for r in data["rulings"]} == {"About the 2E card", "About the 1E card"}
    (named,) = data["named"]
    assert named["filter"] == "card" and named["how"] == "title"
    assert [n["url"] for n in named["names"]] == [
        "/cards/2e/engage-cloak",
        "/cards/1e/engage-cloak",
    ]


def test_the_id_of_a_cited_entry_no_longer_held_still_finds_its_rulings(sam, app):
    with app.extensions[KEY]["store"].writing() as conn:
        conn.execute("UPDATE citations SET entry = 'gone-rule' WHERE entry = 'cloaking'")
    shown, html = _page(sam, entry="gone-rule")
    assert shown == ["About cloaking"]
    assert _notes(html) == ["“gone-rule” is the id of a cited entry that judgekit no longer holds."]


def test_a_title_names_every_version_of_its_entry_retitled_ones_too(mini_app):
    lib = mini_app.extensions["judgekit"]["library"]
    named = named_by(lib, "entry", "BEAMING")  # v1's title; v2 calls the same entry otherwise
    assert named.how == "title"
    # The newest version first, as search lists them, then the older ones.
    assert [t.url for t in named.targets] == [
        "/rules/demo-rulebook/2/beaming",
        "/rules/demo-rulebook/1/beaming",
    ]
    assert "Order – Beam Personnel" in named.targets[0].label


def test_many_titles_list_what_the_rulings_cite_first_and_count_the_rest(sam, monkeypatch):
    monkeypatch.setattr("judgekit.shapes.named.MOST_LISTED", 3)
    shown, html = _page(sam, entry="ing")  # Moving, Cloaking (each in v1 and v2), Rulings
    assert shown == ["About cloaking"]
    (note,) = _notes(html)
    links = re.findall(r'<p class="event-named[^>]*>.*?</p>', html, re.S)[0]
    assert re.findall(r'href="([^"]+)"', links)[:2] == [
        "/rules/demo-rulebook/2/cloaking",
        "/rules/demo-rulebook/1/cloaking",
    ]
    assert len(re.findall(r"href=", links)) == 3 and note.endswith(" and 2 more.")


def test_a_card_title_in_the_entry_filter_is_sent_to_the_card_filter(sam):
    shown, html = _page(sam, entry="Engage Cloak", card="")
    # The rulings document has an entry of that title too: it is an entry's title as well.
    assert _notes(html)[0].startswith("Entry “Engage Cloak” names")
    shown, html = _page(sam, entry="jean-luc picard")
    assert shown == []
    assert _notes(html) == [
        "No entry has the title or id “jean-luc picard”, but a card has: filter by card "
        "“jean-luc picard”."
    ]
    assert 'href="/event?card=jean-luc+picard"' in html


def test_the_real_corpus_lists_the_newest_version_first(lib):
    # As search lists them: Version 4, then Call to Arms, then 1.1 (the oldest).
    newest_first = [f"entry:2e-rulebook/{v}/beaming" for v in ("4", "call-to-arms", "1.1")]
    assert [t.spec for t in named_by(lib, "entry", "Beaming").targets] == newest_first
    assert [t.spec for t in typed_citation(lib, "beaming").targets] == newest_first


def test_a_card_cited_is_named_by_its_title_as_every_page_prints_it(app, sam):
    """The tryout: the ruling list said "Worf: First Officer", the card's pages "Worf, First
    Officer". One title: new rulings pin it, and rulings pinned the old way show it too."""
    html = sam.get("/event").get_data(as_text=True)
    assert "Jean-Luc Picard, Explorer" in html and "Jean-Luc Picard: Explorer" not in html
    data = sam.get("/api/events/1").get_json()
    titles = [c["title"] for r in data["rulings"] for c in r["citations"] if c["spec"] == PICARD]
    assert titles == ["2E card Jean-Luc Picard, Explorer"]
    # A ruling recorded before (its citation pinned "Jean-Luc Picard: Explorer") reads the same.
    with app.app_context():
        store = judges.store()
    with store.writing() as conn:
        old = "2E card Jean-Luc Picard: Explorer"
        conn.execute("UPDATE citations SET title = ? WHERE entry = ?", (old, PICARD.split("/")[1]))
    assert old in [c.title for r in store.rulings(1) for c in r.citations]  # the premise
    html = sam.get("/event").get_data(as_text=True)
    assert "Jean-Luc Picard, Explorer" in html and "Jean-Luc Picard: Explorer" not in html


def test_a_card_typo_offers_the_nearest_cards_as_every_did_you_mean(sam, app):
    """A card's title mistyped in the Card filter: "Did you mean …?" with the cards
    ``nearest_cards`` finds (as the card list, the card 404, the CLI and the Cite field), each
    link filtering by that card with the other filters kept; the rulings are not filtered by a
    guess (none is shown until the judge picks)."""
    shown, html = _page(sam, card="Engage Claok", q="about")
    assert shown == [] and "0 of 4 rulings." in html
    assert _notes(html) == [
        "No card has the title or id “Engage Claok”. Did you mean 2E card Engage Cloak or "
        "1E card Engage Cloak?"
    ]
    with app.test_request_context():
        near = [(c.edition, c.id) for c in nearest_cards(current_library(), "Engage Claok")]
    assert near == [("2E", "engage-cloak"), ("1E", "engage-cloak")]
    links = re.findall(r"<span data-named-near>.*?</span>", html, re.S)[0]
    hrefs = [h.replace("&amp;", "&") for h in re.findall(r'href="([^"]*)"', links)]
    assert hrefs == [
        "/event?card=card:2E/engage-cloak&q=about",
        "/event?card=card:1E/engage-cloak&q=about",
    ]
    assert sam.get(hrefs[0]).status_code == 200
    shown, _ = _page(sam, card="card:2E/engage-cloak", q="about")
    assert shown == ["About the 2E card"]
    # The JSON says the same, once.
    event_id = sam.get("/api/events/session").get_json()["event_id"]
    data = sam.get(f"/api/events/{event_id}", query_string={"card": "engage claok"}).get_json()
    (named,) = data["named"]
    assert data["rulings"] == [] and named["how"] == "nothing" and named["names"] == []
    assert named["message"].endswith("Did you mean 2E card Engage Cloak or 1E card Engage Cloak?")
    assert [n["cite"] for n in named["near"]] == [CLOAK_2E, CLOAK_1E]
    assert [n["url"] for n in named["near"]] == ["/cards/2e/engage-cloak", "/cards/1e/engage-cloak"]
    # Nothing near: said as before, no guess.
    _, html = _page(sam, card="zzzzqqqq")
    assert "Did you mean" not in html and "Type a card’s title" in html
