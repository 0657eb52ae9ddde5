"""Every editorial value is marked as the editors' where a judge sees it, with one mark: the timing
pages' "ed." (issue #29). The JSON names each kind with a field ending in ``_editorial``; this file
lists every kind, finds every value of each in the real corpus's JSON, and checks its page."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from judgekit.web.context import KEY

ED = '<abbr class="tm-ed-mark" title="'


def _walk(data: object, key: str) -> Iterator[tuple[dict, object]]:
    """Every dict in a JSON answer holding ``key`` with a value, and that value."""
    if isinstance(data, dict):
        if data.get(key):
            yield data, data[key]
        for value in data.values():
            yield from _walk(value, key)
    elif isinstance(data, list):
        for value in data:
            yield from _walk(value, key)


def _answers(client, lib) -> Iterator[tuple[str, dict]]:
    """The JSON a judge's pages are built from: documents, every version and entry, every card."""
    yield "/api/documents", client.get("/api/documents").get_json()
    for version in lib.corpus.versions():
        yield lib.version_api_url(version), client.get(lib.version_api_url(version)).get_json()
        for entry in version.walk():
            url = lib.entry_api_url(entry)
            yield url, client.get(url).get_json()
    cards = client.get("/api/cards").get_json()
    yield "/api/cards", cards
    for card in cards["cards"]:
        yield card["api_url"], client.get(card["api_url"]).get_json()


def _page(client, url: str) -> str:
    return client.get(url).get_data(as_text=True)


# Each kind of editorial value and the JSON field that carries it; a test below per kind.
KINDS = {
    "supersession order (1.1 before Call to Arms, both August 2003)": "supersedes_editorial",
    "card type no ruling states": "type_editorial",
    "Example label the source does not print (v1.1)": "label_editorial",
    "page the contents do not print (read from page numbers or bounds)": "page_editorial",
    "where a printed reference pointed": "reference_editorial",
    "a contents line the source does not print (put back from 1.1)": "toc_editorial",
}


@pytest.fixture(scope="module")
def found(app) -> dict[str, list[tuple[str, dict, object]]]:
    """Every editorial value of each kind: the JSON address it is in, its owner, its value."""
    client = app.test_client()
    lib = app.extensions[KEY]["library"]
    out: dict[str, list] = {field: [] for field in KINDS.values()}
    fields_seen: set[str] = set()
    for url, data in _answers(client, lib):
        fields_seen |= set(re.findall(r"'(\w+_editorial)': (?!None|False)", repr(data)))
        for field in KINDS.values():
            out[field].extend((url, owner, value) for owner, value in _walk(data, field))
    out["_seen"] = sorted(fields_seen)
    return out


def test_every_editorial_field_of_the_json_is_a_kind_listed_here(found):
    assert found["_seen"] == sorted(KINDS.values())


def test_the_supersession_inference_is_marked_on_its_pages(app, found):
    client = app.test_client()
    values = [(url, owner) for url, owner, _ in found["supersedes_editorial"] if "url" in owner]
    assert {owner["id"] for _, owner in values} == {"call-to-arms"}
    home = _page(client, "/")
    for _, owner in values:
        note = owner["supersedes_editorial"].replace("'", "&#39;")
        assert f'">{owner["title"]}</a> {ED}' in home
        assert note in home
        for version in (owner["id"], owner["supersedes"]):  # both versions' pages say it
            page = _page(client, owner["url"].replace(owner["id"], version))
            assert re.search(r'class="supersedes-note[^>]*>.*?' + re.escape(ED), page, re.S)
            assert note in page


def test_every_inferred_card_type_is_marked_with_its_rulings_words(app, found):
    client = app.test_client()
    cards = {owner["url"]: owner for _, owner, _ in found["type_editorial"] if "url" in owner}
    assert len(cards) == 7
    for url, card in cards.items():
        page = _page(client, url)
        assert f'<span class="card-type">{card["type"]}</span> {ED}' in page, url
        assert card["type_editorial"]["words"].replace("'", "&#39;") in page, url
    index = _page(client, "/cards")
    assert index.count(f"</span> {ED}The editors&#39; inference") == 7


def test_every_unprinted_example_label_is_marked_on_its_page(app, found):
    client = app.test_client()
    entries: dict[str, int] = {}
    for url, owner, _ in found["label_editorial"]:
        if "markdown" in owner and url.startswith("/api/entries/"):
            entries[url] = entries.get(url, 0) + 1
    # The seven passages v1.1 prints without "For example" (seed 002), no other.
    assert sum(entries.values()) == 7
    assert all(url.startswith("/api/entries/2e-rulebook/1.1/") for url in entries)
    for url, count in entries.items():
        page = _page(client, "/rules/" + url.removeprefix("/api/entries/"))
        assert page.count(f'<span class="block-label">Example {ED}') == count, url
    # The timing stepper quotes one of them: marked there too, in its JSON and on its page.
    step = "/timing/mission-attempt?version=1.1&step=2"
    quotes = client.get("/api/timing/mission-attempt?version=1.1").get_json()
    assert any(q["label_editorial"] for q, _ in _walk(quotes, "para"))
    assert f'<span class="block-label">Example {ED}' in _page(client, step)
    # Where the source prints "For example", the label is the rulebook's: no mark.
    page = _page(client, "/rules/2e-rulebook/1.1/skills")
    assert '<span class="block-label">Example</span>' in page
    assert f"Example {ED}" not in page


def test_every_page_the_editors_read_is_marked_where_its_entry_is_shown(app, found):
    client = app.test_client()
    entries = {url: owner for url, owner, _ in found["page_editorial"] if "printed_page" in owner}
    # Every 2E Call to Arms and Version 4 entry the contents print no page for (issue #29).
    assert len(entries) == 112  # 52 in Call to Arms, 60 in Version 4
    for url, entry in entries.items():
        page = _page(client, "/rules/" + url.removeprefix("/api/entries/"))
        words = entry["printed_page"]["page_editorial"].replace("'", "&#39;")
        mark = f'{ED}{words}">ed.</abbr>'
        assert f"{entry['citation']}</span> {mark}" in page, url
        heading = "its heading is on " + ("" if entry["page"] else "one of ")
        assert f"In the printed book: {heading}{entry['pages']} {mark}" in page, url
    # the version pages list each such entry with its page marked
    for version in ("call-to-arms", "4"):
        whole = _page(client, f"/rules/2e-rulebook/{version}/")
        count = sum(1 for e in entries.values() if e["version"] == version)
        assert (
            len(re.findall(r'<span class="page-ref">[^<]+</span> ' + re.escape(ED), whole)) == count
        )


def test_a_citation_s_page_the_editors_read_is_marked_on_card_and_timing_pages(app, found):
    client = app.test_client()
    passages = [(url, o) for url, o, _ in found["page_editorial"] if "snippet" in o]
    assert passages and all(url.startswith("/api/cards/") for url, _ in passages)
    for url, passage in passages:
        page = _page(client, "/cards/" + url.removeprefix("/api/cards/"))
        words = passage["page_editorial"].replace("'", "&#39;")
        assert f'{passage["citation"]} {ED}{words}">ed.</abbr></p>' in page, url
    # The official sequence is quoted from v4's glossary, on pp. 15–20 by the contents' bounds:
    # the stepper's source line and each step's "Quoted from" say so, as does the calculator.
    seq = client.get("/api/timing/mission-attempt?version=4").get_json()
    assert seq["source"]["citation"].endswith("attempting missions, pp. 15–20")
    mark = f"{ED}{seq['source']['page_editorial']}".replace("'", "&#39;")
    page = _page(client, "/timing/mission-attempt?version=4&step=1")
    assert f'{seq["source"]["citation"]}</a> {mark}">ed.</abbr> <q>' in page  # its own full stop
    assert f'{seq["source"]["citation"]}</a> {mark}">ed.</abbr></p>' in page
    calc = _page(client, "/timing/mission-attempt?version=4&personnel=5&overcome=0")
    cited = re.search(r'<div class="tm-calc-cited">.*?</div>', calc, re.S).group(0)
    assert f'{seq["source"]["citation"]}</a> {mark}">ed.</abbr>' in cited


def test_every_printed_reference_s_explanation_is_marked_on_its_page(app, found):
    client = app.test_client()
    refs = [(url, owner) for url, owner, _ in found["reference_editorial"] if "words" in owner]
    # Call to Arms 9 (the table layout, the indicator pictured twice, page 32, the following
    # pages, described earlier and later), v4 2 (the sample layout, the following pages), 1.1 4.
    assert len(refs) == 15
    for url, ref in refs:
        page = _page(client, "/rules/" + url.removeprefix("/api/entries/"))
        words = ref["reference_editorial"].replace("'", "&#39;")
        assert f'<q>{ref["words"]}</q> {ED}{words}">ed.</abbr>' in page, url
        assert ref["target"] or "not held here" in ref["pointed_to"], url


def test_every_contents_line_the_editors_put_back_is_marked_on_its_version_page(app, found):
    client = app.test_client()
    lines = [(url, owner) for url, owner, _ in found["toc_editorial"]]
    # The twelve lines of Call to Arms's contents neither extraction prints (General Rules to Present).
    assert len(lines) == 12 and {url for url, _ in lines} == {
        "/api/documents/2e-rulebook/call-to-arms"
    }
    page = _page(client, "/rules/2e-rulebook/call-to-arms/")
    for _, line in lines:
        why = line["toc_editorial"].replace("'", "&#39;")
        assert (
            f'<a href="#{line["entry"]}">{line["title"]}</a> <small class="muted toc-editorial"'
            in page
        )
        assert f"(not in the printed contents)</small> {ED}{why}" in page, line["title"]


def test_a_lost_icon_reads_as_the_editors_note_in_plain_text(client):
    """Where the text is plain (a snippet, a card's passages), an icon the extraction lost reads as
    the editors' bracketed note, not as words of the rule ("a icon lost in extraction personnel")."""
    answer = client.get("/api/search", query_string={"q": "Worf exchange"}).get_json()
    snippets = " ".join(r["snippet"] for r in answer["results"])
    assert "[icon lost in extraction]" in snippets
    assert "a icon lost" not in snippets
