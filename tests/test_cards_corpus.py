"""The card index on the real corpus: every card the issue names has a page with its passages."""

from __future__ import annotations

import re

import pytest

from judgekit.corpus.cards import fold
from judgekit.render.card_index import mentions_of

CARD_RULINGS = {
    "gl-crowd-control": "crowd-control",
    "gl-explore-black-cluster": "explore-black-cluster",
    "gl-feldomite-rush": "feldomite-rush",
    "gl-for-the-cause": "for-the-cause",
    "gl-investigate-massacre": "investigate-massacre",
    "gl-nothing-that-happens-is-truly-random": "nothing-that-happens-is-truly-random",
}
LINE_RE = re.compile(r"^- (.+) – (\d+) ([CURS])$")


def _card_list(corpus) -> list[tuple[str, str, str]]:
    entry = corpus.entry("2e-rulebook", "call-to-arms", "card-list")
    return [m.groups() for m in map(LINE_RE.match, entry.markdown.splitlines()) if m]


def test_every_call_to_arms_list_card_is_a_card_with_its_number(corpus):
    printed = _card_list(corpus)
    assert len(printed) == 208
    by_number = {c.number: c for c in corpus.cards.of_edition("2E") if c.set == "Call to Arms"}
    assert len(by_number) == 208
    for title, number, rarity in printed:
        card = by_number[number]
        assert (fold(card.full_title), card.rarity) == (fold(title), rarity)


def test_every_call_to_arms_list_card_has_a_page_listing_the_card_list(client, corpus):
    for card in corpus.cards.of_edition("2E"):
        if card.set != "Call to Arms":
            continue
        data = client.get(f"/api/cards/2e/{card.id}").get_json()
        listed = [m for m in data["mentions"] if m["role"] == "list"]
        assert [(m["version"], m["id"]) for m in listed] == [("call-to-arms", "card-list")], card.id
    page = client.get("/cards/2e/kira-nerys-reformed-collaborator")
    assert page.status_code == 200
    assert "Call to Arms 112 R" in page.get_data(as_text=True)


@pytest.mark.parametrize(("entry_id", "card_id"), sorted(CARD_RULINGS.items()))
def test_card_ruling_cards_list_their_ruling_first(client, corpus, entry_id, card_id):
    assert corpus.entry("2e-rulebook", "call-to-arms", entry_id).card_ruling
    data = client.get(f"/api/cards/2e/{card_id}").get_json()
    first = data["mentions"][0]
    assert (first["version"], first["id"], first["role"]) == ("call-to-arms", entry_id, "ruling")


def test_the_card_rulings_are_all_the_star_entries(corpus):
    starred = {e.id for v in corpus.versions() for e in v.walk() if e.card_ruling}
    assert starred == set(CARD_RULINGS)


def test_no_passage_of_the_other_edition_on_any_card_page(client):
    for row in client.get("/api/cards").get_json()["cards"]:
        data = client.get(row["api_url"]).get_json()
        assert data["mentions"], row["id"]
        assert {m["edition"] for m in data["mentions"]} == {row["edition"]}, row["id"]
        assert len(data["mentions"]) == row["mentions"]


def test_every_1e_ruling_titled_by_a_card_is_on_that_cards_page(client, corpus, lib):
    version = corpus.version("1e-current-rulings", "2000-02-28")
    by_title = {fold(n): c for c in corpus.cards.of_edition("1E") for n in c.names}
    topics = [e for e in version.walk() if e.kind == "ruling" and fold(e.title) in by_title]
    assert len(topics) == 43
    for entry in topics:
        card = by_title[fold(entry.title)]
        ids = [m.entry for m in mentions_of(lib, card)]
        assert entry.id in ids, (entry.id, card.id)


def test_cards_named_in_rulings_text(client):
    data = client.get("/api/cards/1e/space-time-portal").get_json()
    assert [m["id"] for m in data["mentions"]] == [
        "devidian-door",
        "phasing-cloak",
        "time-location",
    ]
    galaxy = client.get("/api/cards/2e/uss-galaxy").get_json()
    assert [(m["version"], m["id"], m["role"]) for m in galaxy["mentions"]] == [
        ("4", "moving-a-ship", "example"),
        ("call-to-arms", "staffing-ships", "example"),
        ("call-to-arms", "using-range", "example"),
        ("1.1", "staffing-ships", "example"),
        ("1.1", "using-range", "example"),
    ]


def test_an_older_passage_says_whether_version_4_still_names_the_card(client):
    crowd = client.get("/api/cards/2e/crowd-control").get_json()
    assert crowd["mentions"][0]["standing"]["status"] == "gone"
    galaxy = client.get("/api/cards/2e/uss-galaxy").get_json()
    old = galaxy["mentions"][1]
    assert old["standing"] == {
        "status": "still",
        "text": "the newest version held here still names this card here",
        "url": "/rules/2e-rulebook/4/moving-a-ship",
        "title": "Order – Move a Ship",
        "version": "4",
    }


def test_a_card_type_word_is_never_a_card(corpus):
    words = {"personnel", "ship", "equipment", "event", "interrupt", "mission", "dilemma"}
    titles = {fold(n).casefold() for c in corpus.cards for n in c.names}
    assert not words & titles


@pytest.mark.parametrize(
    ("query", "url"),
    [
        ("Crowd Control", "/cards/2e/crowd-control"),
        ("Explore Black Cluster", "/cards/2e/explore-black-cluster"),
        ("Nothing That Happens is Truly Random", "/cards/2e/nothing-that-happens-is-truly-random"),
        ("U.S.S. Galaxy", "/cards/2e/uss-galaxy"),
        ("Kira Nerys", "/cards/2e/kira-nerys-reformed-collaborator"),
        ("Devidian Door", "/cards/1e/devidian-door"),
        ("Phased Matter", "/cards/1e/phased-matter"),
        ("Writ of Accountability", "/cards/1e/writ-of-accountability"),
        ("devidian d", "/cards/1e/devidian-door"),
        ("sokath", "/cards/2e/sokath-his-eyes-uncovered"),
    ],
)
def test_a_card_name_finds_its_card_page_first(client, query, url):
    data = client.get("/api/search", query_string={"q": query}).get_json()
    first = data["results"][0]
    assert (first["kind"], first["url"]) == ("card", url)


def test_a_card_name_then_finds_its_rulings(client):
    data = client.get("/api/search", query_string={"q": "Phased Matter"}).get_json()
    assert [r["url"] for r in data["results"][:2]] == [
        "/cards/1e/phased-matter",
        "/rulings/1e-current-rulings/2000-02-28/phased-matter",
    ]


def test_card_links_in_a_real_entry(client):
    html = client.get("/rulings/1e-current-rulings/2000-02-28/cumulative").get_data(as_text=True)
    assert 'href="/cards/1e/hq-war-room"' in html
    assert 'id="def-card-1e-process-ore"' in html
    own = client.get("/rulings/1e-current-rulings/2000-02-28/devidian-door").get_data(as_text=True)
    assert 'href="/cards/1e/devidian-door"' in own  # a ruling on a card links its card page


def test_a_title_two_cards_share_links_the_filtered_list(client):
    html = client.get("/rules/2e-rulebook/4/uniqueness").get_data(as_text=True)
    assert (
        '●<a class="gloss card-link ed-link" href="/cards?q=Jean-Luc+Picard&amp;edition=2e" '
        'data-gloss="cards-jean-luc-picard" title="Card: Jean-Luc Picard (link added by the editors)">Jean-Luc Picard</a>'
    ) in html
    listed = client.get("/cards?q=Jean-Luc+Picard&edition=2e").get_data(as_text=True)
    shown = re.findall(r'<li data-card-title="([^"]+)" data-card-keys="[^"]*">', listed)
    assert shown == ["Jean-Luc Picard, Argo Pilot", "Jean-Luc Picard, Explorer"]


def test_a_recorded_not_a_mention_is_not_linked(client):
    html = client.get("/rules/2e-rulebook/4/personnel").get_data(as_text=True)
    assert "Earth" in html
    assert 'href="/cards/2e/earth"' not in html
