"""Every place a page is shown marks a page the editors read ("pp. 8–9 ed."), with the one macro
for it (``page_mark`` in templates/macros.html): a judge's tryout found "Show to a player" and
event ruling citations giving such pages unmarked. Here every place, on the pages fixture (whose
Beam Personnel is on pp. 8–9 by the contents' bounds) and on the real corpus."""

from __future__ import annotations

import re

import pytest

from judgekit.web.context import KEY
from judgekit.web.judges import KEY as EVENTS

from .conftest import DATA, guarded_context
from .events_helpers import Phone, event_app, start_event

ED = '<abbr class="tm-ed-mark" title="The editors&#39; reading'
BEAMING = "2E v4 pp. 8–9, Order – Beam Personnel"


def _marked(html: str, shown: str) -> int:
    """How many times ``shown`` is followed by its "ed." mark (past a closing tag at most)."""
    return len(re.findall(re.escape(shown) + r"(?:</a>|</span>)?\s*" + re.escape(ED), html))


# A mark once the attributes' values are set aside.
BARE_MARK = r'(?:</a>|</span>)?\s*<abbr class="tm-ed-mark" title="">ed\.</abbr>'


def _text(html: str) -> str:
    """The page with its attribute values (a citation to copy, a title) set aside, classes kept."""
    return re.sub(
        r'(\s[\w-]+)="[^"]*"',
        lambda m: m.group(0) if m.group(1).strip() == "class" else f'{m.group(1)}=""',
        html,
    )


def _bare(html: str, shown: str) -> int:
    """How many times ``shown`` is in the page's text (not an attribute) with no mark after it."""
    text = _text(html)
    return text.count(shown) - len(re.findall(re.escape(shown) + BARE_MARK, text))


@pytest.fixture()
def event(tmp_path):
    """An event on the pages fixture: a ruling citing Beam Personnel, published; the head judge."""
    app = event_app(tmp_path, CORPUS_DIR=str(DATA / "pages"))
    _laptop, judge_code, head_code = start_event(app)
    head = Phone(app.test_client(), "192.168.1.40")
    head.join(head_code, "Bea")
    answer = head.record(cite="entry:book/4/beaming")
    assert answer.status_code in (302, 303), answer.get_data(as_text=True)
    head.post("/event/rulings/1/revise", data={"change": "published", "csrf": head.csrf()})
    return app, head


def test_an_event_s_citations_mark_a_page_the_editors_read(event):
    app, head = event
    event_id = app.extensions[EVENTS]["store"].current_event().id
    for path in (
        "/event",
        "/event/rulings/1",
        "/event/published",
        "/event/published/1",
        "/event/print",
        "/event?entry=beaming",  # the filter's note names the entry it reads
        "/event/rulings/new?cite=entry:book/4/beaming",  # the form's citation, ticked
        "/rules/book/4/beaming",  # the rulings citing it, on its page
    ):
        html = head.get(path).get_data(as_text=True)
        assert _marked(html, BEAMING) >= 1, path
        assert _bare(html, BEAMING) == 0, path
    data = head.get(f"/api/events/{event_id}").get_json()
    cited = data["rulings"][0]["citations"][0]
    assert (cited["title"], cited["page_editorial"][:20]) == (BEAMING, "The editors' reading")
    # The Cite field's choices, for text naming it ("beam personnel" names it by title words).
    token = head.csrf()
    found = head.post(
        "/event/rulings",
        data={
            "step": "find",
            "find": "Beam Personnel",
            "round": "1",
            "table": "1",
            "question": "Q",
            "ruling": "R",
            "csrf": token,
        },
    ).get_data(as_text=True)
    assert _marked(found, BEAMING) >= 1 and _bare(found, BEAMING) == 0


def test_show_to_a_player_marks_the_page(event):
    app, head = event
    html = app.test_client().get("/show/rules/book/4/beaming").get_data(as_text=True)
    full = "2E Book v4 (April 2015), 2. Execute Orders – Order – Beam Personnel, pp. 8–9"
    assert _marked(html, full) == 1 and _bare(html, full) == 0
    printed = app.test_client().get("/show/rules/book/4/introduction").get_data(as_text=True)
    assert "Introduction, p. 2</p>" in printed and ED not in printed  # the contents print it


def test_the_short_form_marks_the_page(app):
    client = app.test_client()
    html = client.get("/rules/2e-rulebook/4/damage").get_data(as_text=True)
    assert _marked(html, 'Short form: <span class="citation-short-text">2E v4 pp. 13–15, Damage')
    assert _bare(html, "2E v4 pp. 13–15, Damage") == 0


def test_every_page_shown_on_the_real_corpus_is_marked(app):
    """Every citation of an entry whose page the editors read, in the text of every kind of page
    that shows citations: its entry page, Show to a player, the timing pages (the disputed
    questions' nearest rules among them), the calculator, the cards that name it."""
    client = app.test_client()
    lib = app.extensions[KEY]["library"]
    shown = {}
    for version in lib.corpus.versions():
        for entry in version.walk():
            if lib.page_editorial(entry):
                shown[lib.citation_title(entry)] = entry
                shown[lib.citation_short(entry)] = entry
    assert len(shown) > 200
    pattern = re.compile("|".join(re.escape(k) for k in sorted(shown, key=len, reverse=True)))
    paths = ["/timing", "/timing/first-edition", "/cards/2e/worf-first-officer"]
    for sequence in client.get("/api/timing").get_json()["sequences"]:
        for v in sequence.get("versions", []):
            paths.append(f"/timing/{sequence['id']}?version={v}")
    paths.append("/timing/mission-attempt?version=4&personnel=8&overcome=3&requirements=met")
    for entry in list(dict.fromkeys(shown.values()))[::9]:
        paths += [lib.entry_url(entry), "/show" + lib.entry_url(entry)]
    checked = 0
    for path in paths:
        text = _text(client.get(path).get_data(as_text=True))
        for m in pattern.finditer(text):
            checked += 1
            assert re.match(BARE_MARK, text[m.end() : m.end() + 200]), (path, m.group(0))
    assert checked > 80


@pytest.mark.browser
@pytest.mark.parametrize("width", [360, 1280])
def test_a_player_shown_the_rule_sees_the_mark(browser, live_server, blocked, width):
    """Show to a player, on a phone and a laptop: the page's "ed." is on the screen beside it."""
    with guarded_context(browser, blocked, viewport={"width": width, "height": 800}) as ctx:
        page = ctx.new_page()
        page.goto(f"{live_server}/show/rules/2e-rulebook/4/damage")
        line = page.locator(".show-citation")
        assert re.sub(r"\s+", " ", line.inner_text()).endswith("Damage, pp. 13–15 ed.")
        mark = line.locator(".tm-ed-mark")
        assert mark.is_visible()
        box = mark.bounding_box()
        assert 0 <= box["x"] and box["x"] + box["width"] <= width, box
        assert mark.get_attribute("title").startswith("The editors' reading")
    assert len(blocked) == 0, blocked.urls


def test_a_link_s_tooltip_marks_the_page():
    """A reference's tooltip gives the citation of the entry it opens: "ed." after a page the
    editors read there too (no element can follow a title attribute's text)."""
    from judgekit.checks.loader import load_corpus
    from judgekit.render.library import Library

    lib = Library(load_corpus(DATA / "pages"))
    link = lib.linker_at("book", "4")
    assert link("beaming").tooltip.endswith("Order – Beam Personnel, pp. 8–9 ed.")
    assert link("introduction").tooltip.endswith("Introduction, p. 2")  # printed in the contents


def test_a_mark_ending_a_sentence_is_its_full_stop(app):
    """Where a page mark ends a sentence its "ed." is the full stop: the tryout read "pp. 15–20
    ed.. Below is the timing…" on a step and "pp. 26–32 ed.." in /timing's disputes."""
    client = app.test_client()
    step = client.get("/timing/mission-attempt?version=4&step=4.b").get_data(as_text=True)
    disputes = client.get("/timing").get_data(as_text=True)
    for html in (step, disputes):
        assert re.search(r"pp\. [\d–]+</a>\s*" + re.escape(ED), html)
        assert not re.search(r">ed\.</abbr>\s*\.", html)
    assert re.search(r"pp\. 15–20</a>\s*" + re.escape(ED) + r"[^>]*>ed\.</abbr> <q>Below", step)
    # Nor the editors' own mark ending a sentence (First Edition's headings "are the editors' ed.").
    first = client.get("/timing/first-edition").get_data(as_text=True)
    assert re.search(r"the editors' <abbr[^>]*>ed\.</abbr></p>", first)
