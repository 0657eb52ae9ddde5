"""The card index on its fixture corpus (tests/data/cards): data, check, proposals, pages, API, CLI."""

from __future__ import annotations

import re
import shutil
from html import unescape
from pathlib import Path

import pytest

from judgekit import create_app
from judgekit.checks.loader import CorpusError, load_corpus
from judgekit.checks.validate import check_loaded
from judgekit.commands import main
from judgekit.corpus.cards import Card, TitleFinder, scan_text
from judgekit.corpus.cards_propose import proposals, render_file
from judgekit.render.library import Library
from judgekit.shapes.cards import fold_title, title_matches

CARDS = Path(__file__).parent / "data" / "cards"
RULES = CARDS / "rules"


@pytest.fixture(scope="module")
def corpus():
    return load_corpus(CARDS)


@pytest.fixture(scope="module")
def cards_client():
    app = create_app({"TESTING": True, "CORPUS_DIR": str(CARDS), "SEARCH_CACHE_DIR": ""})
    return app.test_client()


def _broken(tmp_path: Path) -> Path:
    """A copy of the fixture with a mention of no entry, one of no card, and a name unrecorded."""
    root = _copy(tmp_path)
    m1 = root / "rules" / "demo-rulebook" / "1.mentions.yaml"
    m1.write_text(
        m1.read_text().replace(
            "not_mentions:", "  - {entry: no-such-entry, cards: [uss-galaxy]}\nnot_mentions:"
        )
    )
    m2 = root / "rules" / "demo-rulebook" / "2.mentions.yaml"
    m2.write_text(
        m2.read_text().replace("[uss-galaxy, engage-cloak]", "[uss-galaxy, uss-enterprise]")
    )
    return root


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(CARDS, root)
    return root


# -- data ----------------------------------------------------------------------------------------
def test_cards_load_per_edition(corpus):
    index = corpus.cards
    assert [c.id for c in index.of_edition("2E")] == [
        "earth",
        "engage-cloak",
        "jean-luc-picard-explorer",
        "uss-galaxy",
    ]
    assert [c.id for c in index.of_edition("1E")] == ["engage-cloak", "wormhole"]
    picard = index.card("2E", "jean-luc-picard-explorer")
    assert picard.full_title == "Jean-Luc Picard, Explorer"
    assert picard.names == ("Jean-Luc Picard, Explorer", "Jean-Luc Picard")
    assert (picard.unique, picard.set, picard.number, picard.rarity) == (True, "Demo", "3", "R")
    # The same title in both editions is two different cards.
    assert index.card("1E", "engage-cloak").type == "interrupt"
    assert index.card("2E", "engage-cloak").type == "event"


def test_finder_exact_case_whole_words_possessive_dot_longest():
    finder = TitleFinder(
        [
            Card("jean-luc-picard-explorer", "2E", "Jean-Luc Picard", "Explorer"),
            Card("earth", "2E", "Earth"),
            Card("borg-cube", "2E", "Borg Cube"),
            Card("locutus-borg-cube", "2E", "Locutus’ Borg Cube"),
        ]
    )
    text = "•Jean-Luc Picard and Jean-Luc Picard, Explorer; Earth's moon; earth; Earthly; Locutus' Borg Cube."
    found = [(f.words, f.cards) for f in finder.find(text)]
    assert found == [
        ("Jean-Luc Picard", ("jean-luc-picard-explorer",)),
        ("Jean-Luc Picard, Explorer", ("jean-luc-picard-explorer",)),
        ("Earth", ("earth",)),
        ("Locutus' Borg Cube", ("locutus-borg-cube",)),
    ]


def test_scan_text_reads_references_as_their_words():
    text = scan_text(
        "Dabo", "See [[writ-of-accountability|Writ of Accountability]] and **\\*X** {icon:lost}."
    )
    assert text == "Dabo\nSee Writ of Accountability and X  ."


# -- check ---------------------------------------------------------------------------------------
def test_check_reports_broken_mentions_and_unrecorded_names(tmp_path):
    rules = _broken(tmp_path) / "rules"
    problems = check_loaded(load_corpus(rules.parent, strict=False), seeds=Path("/nonexistent"))
    assert problems == [
        f"{rules}/demo-rulebook/1.mentions.yaml:8: mention names unknown entry 'no-such-entry'",
        f"{rules}/demo-rulebook/2.mentions.yaml:4: mention names unknown 2E card 'uss-enterprise'",
        f"{rules}/demo-rulebook/2.yaml:16: 'Engage Cloak' is named in 'moving' but recorded "
        "neither as a mention nor as not one (in 2.mentions.yaml)",
    ]
    with pytest.raises(CorpusError) as exc:  # the app and `serve` refuse it alike
        load_corpus(rules.parent)
    assert exc.value.problems == problems


def test_the_fixture_corpus_is_clean(corpus):
    assert check_loaded(corpus, seeds=Path("/nonexistent")) == []


def test_check_a_mention_whose_name_is_not_in_the_entry(tmp_path):
    root = _copy(tmp_path)
    path = root / "rulings" / "demo-rulings" / "r1.mentions.yaml"
    path.write_text(
        path.read_text().replace(
            "{entry: wormhole, cards: [wormhole]}",
            "{entry: wormhole, cards: [wormhole, engage-cloak]}",
        )
    )
    problems = check_loaded(load_corpus(root, strict=False), seeds=Path("/nonexistent"))
    assert f"{path}:5: mention of 'engage-cloak': its name is not in 'wormhole'" in problems


def test_check_a_1e_type_no_ruling_states_unless_marked_as_inferred(tmp_path):
    """rulings/cards.yaml: a 1E type only where a ruling states it, or as the editors' inference
    with the ruling's words, found verbatim in that ruling (issue #29)."""
    root = _copy(tmp_path)
    path = root / "rulings" / "cards.yaml"
    cards = path.read_text()
    path.write_text(
        cards.replace("title: Wormhole, type: interrupt", "title: Wormhole, type: event")
    )
    problems = check_loaded(load_corpus(root, strict=False), seeds=Path("/nonexistent"))
    assert any("no ruling naming 'wormhole' states its type 'event'" in p for p in problems)
    inferred = "title: Wormhole, type: event, type_from: demo-rulings/r1/wormhole, type_words: {}"
    path.write_text(cards.replace("title: Wormhole, type: interrupt", inferred.format("a moon")))
    problems = check_loaded(load_corpus(root, strict=False), seeds=Path("/nonexistent"))
    assert f"{path}:4: type_words of 'wormhole' are not in demo-rulings/r1/wormhole" in problems
    path.write_text(
        cards.replace("title: Wormhole, type: interrupt", inferred.format("begins to move"))
    )
    assert check_loaded(load_corpus(root, strict=False), seeds=Path("/nonexistent")) == []


def test_check_an_unmentioned_card_and_a_repeated_title(tmp_path):
    root = _copy(tmp_path)
    path = root / "rulings" / "cards.yaml"
    path.write_text(path.read_text() + "  - {id: wormhole-2, title: Wormhole}\n")
    problems = check_loaded(load_corpus(root, strict=False), seeds=Path("/nonexistent"))
    assert f"{path}:5: card 'Wormhole' repeats 'wormhole'" in problems
    assert f"{path}:5: card 'wormhole-2' is mentioned by no entry" in problems


def test_loader_rejects_bad_card_fields(tmp_path):
    root = _copy(tmp_path)
    path = root / "rules" / "cards.yaml"
    path.write_text(
        "edition: 2E\ncards:\n  - {id: a, title: A, rarity: X}\n  - {id: a, title: B}\n"
        "  - {id: Bad Id, title: C, colour: red}\n"
    )
    with pytest.raises(CorpusError) as exc:
        load_corpus(root)
    assert exc.value.problems == [
        f"{path}:3: rarity must be one of C, U, R, S, P, F, V",
        f"{path}:4: duplicate card id 'a' (first at line 3)",
        f"{path}:5: unknown field 'colour' in card",
        f"{path}:5: invalid card id 'Bad Id'",
    ]


def test_loader_rejects_a_mentions_file_of_another_version(tmp_path):
    root = _copy(tmp_path)
    path = root / "rules" / "demo-rulebook" / "2.mentions.yaml"
    path.write_text('document: demo-rulebook\nversion: "1"\nmentions: []\n')
    with pytest.raises(CorpusError) as exc:
        load_corpus(root)
    assert exc.value.problems == [f"{path}:2: version must be '2'"]


# -- the proposal tool ---------------------------------------------------------------------------
def test_proposals_are_what_is_not_yet_recorded(tmp_path):
    corpus = load_corpus(_broken(tmp_path), strict=False)
    version = corpus.version("demo-rulebook", "2")
    found = proposals(corpus.cards, version)
    assert [(p.entry, p.card, p.words) for p in found] == [
        ("moving", "engage-cloak", "Engage Cloak")
    ]
    assert found[0].review == "at the start of a sentence or line"
    text = render_file(corpus.cards, version, found)
    assert "  - {entry: moving, cards: [uss-galaxy, uss-enterprise, engage-cloak]}\n" in text
    assert text.endswith("not_mentions: []\n")


def test_proposal_tool_writes_and_then_check_passes(tmp_path, capsys):
    from judgekit.corpus import cards_propose

    root = _broken(tmp_path)
    m1 = root / "rules" / "demo-rulebook" / "1.mentions.yaml"
    m1.write_text(m1.read_text().replace("  - {entry: no-such-entry, cards: [uss-galaxy]}\n", ""))
    m2 = root / "rules" / "demo-rulebook" / "2.mentions.yaml"
    m2.write_text(m2.read_text().replace(", uss-enterprise", ""))
    assert cards_propose.main(["--root", str(root), "--write"]) == 0
    out = capsys.readouterr().out
    assert "demo-rulebook/2/moving: engage-cloak ← 'Engage Cloak'" in out
    assert check_loaded(load_corpus(root, strict=False), seeds=Path("/nonexistent")) == []
    assert cards_propose.main(["--root", str(root)]) == 0
    assert capsys.readouterr().out == ""


# -- pages and API -------------------------------------------------------------------------------
def test_api_cards_lists_every_card_with_counts(cards_client):
    data = cards_client.get("/api/cards").get_json()
    rows = [(c["edition"], c["id"], c["mentions"]) for c in data["cards"]]
    assert rows == [
        ("2E", "earth", 1),
        ("2E", "engage-cloak", 3),
        ("2E", "jean-luc-picard-explorer", 2),
        ("2E", "uss-galaxy", 4),
        ("1E", "engage-cloak", 1),
        ("1E", "wormhole", 1),
    ]
    first = data["cards"][3]
    assert {"id", "title", "edition", "url", "api_url", "mentions"} <= set(first)
    assert first["url"] == "/cards/2e/uss-galaxy"
    assert first["api_url"] == "/api/cards/2e/uss-galaxy"


def test_api_card_passages_rulings_first_with_standing(cards_client):
    data = cards_client.get("/api/cards/2e/uss-galaxy").get_json()
    got = [(m["version"], m["id"], m["role"], m["standing"]["status"]) for m in data["mentions"]]
    assert got == [
        ("1", "gl-uss-galaxy", "ruling", "gone"),
        ("2", "moving", "rule", "newest-held"),
        ("1", "moving", "rule", "still"),
        ("1", "card-list", "list", "gone"),
    ]
    ruling = data["mentions"][0]
    keys = {"document", "version", "id", "title", "kind", "url", "api_url", "citation", "snippet"}
    assert keys <= set(ruling)
    assert ruling["url"] == "/rules/demo-rulebook/1/gl-uss-galaxy"
    assert ruling["api_url"] == "/api/entries/demo-rulebook/1/gl-uss-galaxy"
    assert ruling["citation"] == "Demo Rulebook v1 (August 2003), Glossary – U.S.S. Galaxy"
    assert ruling["snippet"].startswith("*U.S.S. Galaxy – This ship has received an erratum")
    assert data["mentions"][2]["standing"]["url"] == "/rules/demo-rulebook/2/moving"


def test_api_card_changed_and_example_roles(cards_client):
    cloak = cards_client.get("/api/cards/2e/engage-cloak").get_json()
    assert [(m["id"], m["role"], m["standing"]["status"]) for m in cloak["mentions"]] == [
        ("moving", "rule", "newest-held"),
        ("cloaking", "rule", "changed"),
        ("card-list", "list", "gone"),
    ]
    picard = cards_client.get("/api/cards/2e/jean-luc-picard-explorer").get_json()
    assert [(m["id"], m["role"]) for m in picard["mentions"]] == [
        ("moving", "example"),
        ("card-list", "list"),
    ]


def test_each_edition_card_page_holds_only_its_edition(cards_client):
    first = cards_client.get("/api/cards/1e/engage-cloak").get_json()
    assert [(m["document"], m["id"], m["edition"]) for m in first["mentions"]] == [
        ("demo-rulings", "engage-cloak", "1E")
    ]
    second = cards_client.get("/api/cards/2e/engage-cloak").get_json()
    assert {m["edition"] for m in second["mentions"]} == {"2E"}
    html = cards_client.get("/cards/2e/uss-galaxy").get_data(as_text=True)
    assert "demo-rulings" not in html  # the 1E ruling names "U.S.S. Galaxy", not a 1E card


def test_card_page_groups_and_escapes(cards_client):
    page = cards_client.get("/cards/2e/uss-galaxy")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    order = [html.index(h) for h in ("Rulings and errata", ">Rules<", "Card lists")]
    assert order == sorted(order)
    assert "Not in the newest version held here." in html
    note = cards_client.get("/cards/2e/earth").get_data(as_text=True)
    assert "A fixture&#39;s editor&#39;s note &lt;b&gt;not HTML&lt;/b&gt;." in note
    assert "Editor’s note" in note


def test_cards_index_lists_both_editions_and_prefilters(cards_client):
    html = cards_client.get("/cards?q=%3Cscript%3Egal&edition=1e").get_data(as_text=True)
    assert 'value="&lt;script&gt;gal"' in html
    assert "<script>gal" not in html
    assert 'data-edition="2E" aria-labelledby="cards-2e" hidden' in html
    assert '<option value="1e" selected>1E</option>' in html


@pytest.mark.parametrize(
    ("query", "count"),
    [
        ("", "6 cards"),
        ("?q=engage", "2 cards"),
        ("?q=engage&edition=1e", "1 card"),
        ("?q=galaxy&edition=1e", "0 cards"),
    ],
)
def test_cards_index_counts_what_it_shows_without_javascript(cards_client, query, count):
    html = cards_client.get("/cards" + query).get_data(as_text=True)
    assert f'data-card-count aria-live="polite">{count}</p>' in html


def _headings(html: str) -> dict[str, str]:
    """Each edition's heading count, by its section's edition."""
    return dict(
        re.findall(
            r'data-edition="(\w+)".*?<span data-card-tally data-total="\d+">([^<]*)</span>',
            html,
            re.S,
        )
    )


@pytest.mark.parametrize(
    ("query", "headings"),
    [
        ("", {"2E": "4 cards", "1E": "2 cards"}),
        ("?q=engage", {"2E": "1 of 4 cards", "1E": "1 of 2 cards"}),
        ("?q=galaxy&edition=1e", {"2E": "1 of 4 cards", "1E": "0 of 2 cards"}),
    ],
)
def test_cards_index_headings_say_how_many_they_show_of_their_edition(
    cards_client, query, headings
):
    html = cards_client.get("/cards" + query).get_data(as_text=True)
    assert _headings(html) == headings


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("/api/cards/3e/uss-galaxy", "unknown edition '3e' (known: 2e, 1e)"),
        ("/api/cards/1e/uss-galaxy", "unknown 1E card 'uss-galaxy'"),
        ("/api/cards/2e/%3Cb%3E", "unknown 2E card '<b>'"),
    ],
)
def test_unknown_cards_are_404_with_a_message(cards_client, url, message):
    response = cards_client.get(url)
    assert response.status_code == 404
    assert response.get_json()["message"] == message


def test_card_names_link_to_card_pages_with_a_popup(cards_client):
    html = cards_client.get("/rules/demo-rulebook/1/moving").get_data(as_text=True)
    assert (
        '<a class="gloss card-link ed-link" href="/cards/2e/uss-galaxy" data-gloss="card-2e-uss-galaxy" '
        'title="Card: U.S.S. Galaxy (link added by the editors)">U.S.S. Galaxy</a>’s Range' in html
    )
    assert '•<a class="gloss card-link ed-link" href="/cards/2e/jean-luc-picard-explorer"' in html
    assert (
        '<template id="def-card-2e-uss-galaxy" data-title="U.S.S. Galaxy" '
        'data-url="/cards/2e/uss-galaxy" data-link-text="Open this card&#39;s page">'
        "<p>2E · ship · Demo 1 R</p><p>Named in 4 passages of the rules.</p>"
        '<p>Rulings and errata:</p><ul><li><a href="/rules/demo-rulebook/1/gl-uss-galaxy">'
        "U.S.S. Galaxy (Demo Rulebook v1)</a></li></ul></template>" in html
    )
    # A name recorded as not a mention stays text.
    icons = cards_client.get("/rules/demo-rulebook/1/icons").get_data(as_text=True)
    assert "card-link" not in icons


def test_search_finds_the_card_first(cards_client):
    data = cards_client.get("/api/search?q=U.S.S.+Galaxy").get_json()
    first = data["results"][0]
    assert (first["kind"], first["title"], first["url"]) == (
        "card",
        "U.S.S. Galaxy",
        "/cards/2e/uss-galaxy",
    )
    assert (first["document_title"], first["version_title"], first["edition"]) == (
        "Cards",
        "2E",
        "2E",
    )
    assert data["results"][1]["id"] == "gl-uss-galaxy"
    one = cards_client.get("/api/search?q=engage+cloak&edition=1E").get_json()
    assert [(r["kind"], r["url"]) for r in one["results"][:2]] == [
        ("card", "/cards/1e/engage-cloak"),
        ("ruling", "/rulings/demo-rulings/r1/engage-cloak"),
    ]
    typing = cards_client.get("/api/search?q=wormh").get_json()
    assert typing["results"][0]["url"] == "/cards/1e/wormhole"


def test_a_card_result_in_search_reads_as_a_card(cards_client):
    html = cards_client.get("/search?q=U.S.S.+Galaxy").get_data(as_text=True)
    assert (
        '<li class="result result-card result-ed-2E result-exact">\n  <div class="result-head">\n'
        '    <a class="result-title" href="/cards/2e/uss-galaxy">U.S.S. Galaxy</a>\n'
        '    <span class="badge badge-kind badge-card ed-2E" title="A Second Edition card">'
        "Card · 2E</span>\n  </div>\n"
        '  <p class="result-card-facts">Ship · Demo 1</p>\n</li>'
    ) in html
    assert "Cards 2E" not in html and "2E 2E" not in html
    assert cards_client.get("/api/search?q=U.S.S.+Galaxy").get_json()["results"][0]["card"] == {
        "type": "ship",
        "type_editorial": False,
        "set": "Demo",
        "number": "1",
    }


@pytest.mark.parametrize(
    ("typed", "folded"),
    [
        ("U.S.S. Galaxy", "ussgalaxy"),
        ("Chief O’Brien", "chiefobrien"),
        ("•Jean-Luc Picard", "jeanlucpicard"),
        ("Crodens  Key", "crodenskey"),
        ("Émile", "emile"),
    ],
)
def test_card_titles_fold_to_letters_and_digits(typed, folded):
    assert fold_title(typed) == folded


def test_the_card_filter_matches_each_word_folded():
    assert title_matches("uss galaxy", "U.S.S. Galaxy")
    assert title_matches("galaxy U.S.S.", "U.S.S. Galaxy")
    assert title_matches("jeanluc", "Jean-Luc Picard, Explorer")
    assert title_matches("", "Earth")
    assert not title_matches("uss enterprise", "U.S.S. Galaxy")


def test_an_unknown_card_edition_is_a_400_with_a_message(cards_client):
    response = cards_client.get("/cards?edition=9E")
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert (
        '<p class="notice card-error" role="alert">unknown edition &#39;9E&#39; (known: 2e, 1e)</p>'
        in html
    )
    assert cards_client.get("/cards?edition=1e").status_code == 200
    assert cards_client.get("/cards?edition=").status_code == 200


def test_an_unknown_card_is_a_404_naming_similar_cards(cards_client):
    response = cards_client.get("/cards/2e/uss-galaxie")
    assert response.status_code == 404
    html = response.get_data(as_text=True)
    assert '<p class="error-message">There is no 2E card <q>uss-galaxie</q>.</p>' in html
    assert '<li><a href="/cards/2e/uss-galaxy">U.S.S. Galaxy</a>' in html
    assert '<a href="/cards">all cards</a>' in html
    nothing = cards_client.get("/cards/1e/nope")
    assert nothing.status_code == 404
    assert "Similar" not in nothing.get_data(as_text=True)
    assert '<a href="/cards">all cards</a>' in nothing.get_data(as_text=True)
    assert cards_client.get("/cards/9e/nope").status_code == 404


def test_the_card_page_says_where_its_set_is_given(cards_client):
    html = cards_client.get("/cards/2e/uss-galaxy").get_data(as_text=True)
    assert (
        '<p class="muted card-source">Set, number and rarity as given in '
        '<a href="/rules/demo-rulebook/1/card-list">'
    ) in html
    assert "Set from" not in html


# -- CLI -----------------------------------------------------------------------------------------
def test_cli_card(capsys):
    assert main(["--root", str(CARDS), "card", "u.s.s. galaxy"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "U.S.S. Galaxy  (Second Edition · ship · Demo 1 R)\n  /cards/2e/uss-galaxy\n"
    )
    assert (
        "\nRulings and errata\n  Demo Rulebook v1\n    U.S.S. Galaxy  /rules/demo-rulebook/1/gl-uss-galaxy\n"
        in out
    )
    assert "[the newest version held here still names this card here]" in out


def test_cli_card_several_none_and_bad_edition(capsys):
    assert main(["--root", str(CARDS), "card", "Engage Cloak"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "2 cards match 'Engage Cloak':\n  Engage Cloak (2E)  /cards/2e/engage-cloak\n"
    )
    assert main(["--root", str(CARDS), "card", "engage clock"]) == 1
    assert capsys.readouterr().err == (
        "no card named 'engage clock'\ndid you mean: Engage Cloak (2E); Engage Cloak (1E)\n"
    )
    assert main(["--root", str(CARDS), "card", "engage clock", "--edition", "1e"]) == 1
    assert capsys.readouterr().err.endswith("did you mean: Engage Cloak (1E)\n")
    assert main(["--root", str(CARDS), "card", "x", "--edition", "3E"]) == 2
    assert capsys.readouterr().err == "unknown edition '3E' (known: 2E, 1E)\n"


def test_library_without_cards_has_an_empty_index():
    lib = Library(load_corpus(Path(__file__).parent / "data" / "mini"))
    from judgekit.shapes.cards import cards

    assert cards(lib) == {"cards": []}


def test_card_paths_are_every_card_page_and_its_json(cards_client, corpus):
    from judgekit.render.card_index import card_paths

    paths = list(card_paths(Library(corpus)))
    assert paths[:4] == ["/cards", "/api/cards", "/cards/2e/uss-galaxy", "/api/cards/2e/uss-galaxy"]
    assert len(paths) == 2 + 2 * 6
    assert all(cards_client.get(p).status_code == 200 for p in paths)


@pytest.mark.parametrize(("typed", "edition"), [("2e", "2E"), ("1E", "1E"), ("2e/", "2E")])
def test_an_edition_typed_as_an_address_opens_its_index(client, typed, edition):
    """/cards/2e, as a judge types it, is that edition's card index (not a bare 404)."""
    answer = client.get(f"/cards/{typed}")
    assert answer.status_code == 308
    assert answer.headers["Location"].endswith(f"/cards?edition={edition}")


def test_an_unknown_card_edition_names_those_held(client):
    answer = client.get("/cards/3e")
    assert answer.status_code == 404
    assert "unknown card edition '3e' (known: 2e, 1e)" in unescape(answer.get_data(as_text=True))


def test_one_way_finds_the_nearest_cards_for_a_typo(client, capsys):
    """ "wrof": the card list, its 404, the CLI and the event's Cite field all offer Worf (the
    CLI said "closest: Gowron"; the list and the Cite field offered nothing)."""
    worf = '<a href="/cards/2e/worf-first-officer">Worf, First Officer</a>'
    listed = client.get("/cards?q=wrof").get_data(as_text=True)
    assert (
        f'No 2E card matches.\n    <span class="card-near" data-card-near>Did you mean {worf}?'
        in listed
    )
    missing = client.get("/cards/2e/wrof")
    assert missing.status_code == 404
    similar = re.findall(r'<li><a href="(/cards/2e/[^"]+)">', missing.get_data(as_text=True))
    assert similar == ["/cards/2e/worf-first-officer"]
    assert main(["card", "wrof"]) == 1
    assert capsys.readouterr().err == (
        "no card named 'wrof'\ndid you mean: Worf, First Officer (2E)\n"
    )
    from judgekit.shapes.named import typed_citation

    with client.application.app_context():
        from judgekit.web.context import current_library

        typed = typed_citation(current_library(), "Wrof")
    assert (typed.how, [t.spec for t in typed.targets]) == ("near", ["card:2E/worf-first-officer"])
    # Something matching the filter offers nothing: "did you mean" is for text matching no card.
    assert "data-card-near>Did" not in client.get("/cards?q=worf").get_data(as_text=True)


def _no_card_line(html: str, edition: str) -> str:
    """What a judge reads where no card of an edition matches (hidden parts left out)."""
    section = html.split(f'data-edition="{edition}"', 1)[1].split("</section>", 1)[0]
    line = re.search(r"<p class=\"muted card-none\" data-card-none>(.*?)</p>", section, re.S)
    shown = re.sub(r"<span[^>]* hidden>.*?</span>", "", line.group(1), flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", shown))).strip()


@pytest.mark.parametrize(
    ("typed", "edition", "said"),
    [
        # A far match is noise: "picard" is not a slip of Replicator, Picture or Pads...
        (
            "picard",
            "1e",
            "No 1E card matches. 2E has Jean-Luc Picard, Argo Pilot and Jean-Luc Picard, Explorer.",
        ),
        # ...nor "wrof" of Beware of Q; the other game's card it means is named, with its link.
        ("wrof", "1e", "No 1E card matches. 2E has Worf, First Officer."),
        ("worf", "1e", "No 1E card matches. 2E has Worf, First Officer."),
        # A slip in the game's own name is offered; the other game's near card is then not.
        (
            "picrad",
            "2e",
            "No 2E card matches. Did you mean Jean-Luc Picard, Argo Pilot or "
            "Jean-Luc Picard, Explorer?",
        ),
        ("datta", "1e", "No 1E card matches. Did you mean Commander Data?"),
        ("zzqxj", "1e", "No 1E card matches."),
    ],
)
def test_no_card_matching_offers_only_close_cards_and_the_other_game_s(
    client, typed, edition, said
):
    html = client.get("/cards", query_string={"q": typed, "edition": edition}).get_data(
        as_text=True
    )
    assert _no_card_line(html, edition.upper()) == said
    if "2E has" in said:
        assert '2E has <a href="/cards/2e/' in html


def test_the_other_game_is_named_only_where_one_game_is_shown(client):
    both = client.get("/cards?q=worf").get_data(as_text=True)
    assert _no_card_line(both, "1E") == "No 1E card matches."  # the 2E list shows Worf itself
    assert '<li data-card-title="Worf, First Officer"' in both


def test_closeness_is_a_count_of_typing_slips():
    from judgekit.shapes.cards import slips_allowed, slips_to

    assert slips_to("wrof", ("worf",)) == 1 <= slips_allowed("wrof")  # two letters swapped
    assert slips_to("picrad", ("jeanlucpicard", "picard")) == 1 <= slips_allowed("picrad")
    assert slips_to("gal", ("ussgalaxy",)) == 0  # typed whole inside a name
    # Far is not near, however many letters two names share in order (difflib's 0.6 said near).
    assert slips_to("picard", ("genetronicreplicator", "replicator")) > slips_allowed("picard")
    assert slips_to("wrof", ("bewareofq", "beware")) > slips_allowed("wrof")
    assert slips_to("worf", ("wormhole",)) > slips_allowed("worf")  # a short start is no name
    assert slips_to("wroffirst", ("worffirstofficer",)) == 1  # a long title typed in part


def test_the_cli_names_the_other_game_s_card(capsys):
    assert main(["card", "worf", "--edition", "1E"]) == 1
    assert capsys.readouterr().err == (
        "no card named 'worf'\n2E has:\n  Worf, First Officer (2E)  /cards/2e/worf-first-officer\n"
    )
    assert main(["card", "picard", "--edition", "1E"]) == 1
    err = capsys.readouterr().err
    assert "did you mean" not in err  # Genetronic Replicator, The Big Picture, Docking Pads: no
    assert "  Jean-Luc Picard, Explorer (2E)  /cards/2e/jean-luc-picard-explorer\n" in err


def test_a_card_of_the_other_game_is_named_on_the_card_404(client):
    answer = client.get("/cards/1e/worf")
    assert answer.status_code == 404
    html = answer.get_data(as_text=True)
    assert "Similar 1E cards" not in html  # nothing 1E is a slip of it
    assert '<h2>2E has</h2>\n<ul class="card-list suggestions card-elsewhere">' in html
    assert '<li><a href="/cards/2e/worf-first-officer">Worf, First Officer</a>' in html
    far = client.get("/cards/1e/worf-" + "x" * 400)
    assert far.status_code == 404 and "2E has" not in far.get_data(as_text=True)
