"""The pack's search page shows what the server's /search shows, the same way: edition badges,
card results reading as cards, "not in the 2E rules; First Edition has it", "not in the rules"
with the rules shown instead, did-you-mean, and "in 2E only (named in your question; search both
games)" (Chromium, the real corpus)."""

from __future__ import annotations

from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

import pytest

from judgekit import create_app
from tests.conftest import wait_until
from tests.test_pack_browser import PHONE, guarded_context, static_server

pytestmark = pytest.mark.browser

# What the results region shows: each element's tag, classes and title, links by where they
# go (a search by its parameters, a page by its path), and every text in order.
SHAPE = """(root) => {
  const out = [];
  const walk = (el) => {
    for (const node of el.childNodes) {
      if (node.nodeType === 3) { const t = node.textContent.replace(/\\s+/g, ' ').trim(); if (t) out.push(t); continue; }
      if (node.nodeType !== 1) continue;
      out.push([node.tagName, node.className, node.getAttribute('title') || '',
                node.tagName === 'A' ? node.getAttribute('href') : '']);
      walk(node);
    }
  };
  walk(root);
  return out;
}"""


def _where(href: str) -> str:
    """A link as a place: a search by its sorted parameters, a page by its path in the pack
    (``/judgekit-pack/rules/x/4/y/index.html`` and the server's ``/rules/x/4/y`` are one place)."""
    parts = urlsplit(href)
    path = unquote(parts.path).split("/judgekit-pack/", 1)[-1]
    path = "/" + path.lstrip("/").removesuffix("index.html").rstrip("/")
    query = parse_qsl(parts.query)
    folder, _, last = path.rpartition("/")
    if last.startswith("~"):  # a page the pack holds for a query: timing/s/~step=2,version=4
        path = folder
        for pair in last[1:].split(","):
            key, _, value = pair.partition("=")
            query.append(
                (key, bytes.fromhex(value.replace("~", "")).decode() if "~" in value else value)
            )
    return ("search" if path == "/search" else path) + "?" + urlencode(sorted(query))


def _shape(items: list) -> list:
    """The walk's output with each link replaced by its place."""
    return [
        [*item[:3], _where(item[3]) if item[3] else ""] if isinstance(item, list) else item
        for item in items
    ]


@pytest.fixture(scope="module")
def real_pack(real_pack_build):
    return real_pack_build.out


CASES = [
    # A card by its name: the card first, reading as a card.
    ({"q": "Devidian Door"}, "Devidian Door"),
    # A First Edition word, judging Second Edition.
    ({"q": "commandeer ship", "edition": "2E"}, "not in the 2E rules"),
    ({"q": "commandeer", "edition": "2E"}, "First Edition has"),
    # Judging First Edition: an ordinary word ("put") is not one Second Edition "has".
    ({"q": "put a headquarters mission", "edition": "1E"}, "not in the 1E rules; Second"),
    # Words the rules never use: the nearest rules instead.
    ({"q": "mulligan"}, "not in the rules"),
    ({"q": "hand size"}, "result"),
    # A misspelling.
    ({"q": "dilema pile"}, "Did you mean"),
    ({"q": "personel", "edition": "1E"}, "Did you mean"),
    # A game named in the question: said, with the same words in both games a tap away.
    ({"q": "2e battle"}, "in 2E only (named in your question; search both games)."),
    ({"q": "second edition seed", "kind": "ruling"}, "(named in your question; search both"),
    # A game named but set aside by the game chosen: said, with the game named a tap away.
    ({"q": "2e battle", "edition": "1E"}, "Your question names 2E, but 1E was searched"),
    (
        {"q": "2E's battle", "document": "1e-current-rulings"},
        "only the chosen document was searched",
    ),
    # A version named: its game is set aside by another, and with none chosen leaned to.
    ({"q": "battle in Call to Arms", "edition": "1E"}, "Your question names 2E, but 1E was"),
    ({"q": "stopped under call to arms"}, "stopped"),
    # Issue #27: a version named keeps to its game; naming both games searches both.
    ({"q": "battle in CTA"}, "search both games), “CTA” read as Call to Arms, each result showing"),
    ({"q": "1E rules battle in CTA"}, "in both games (your question names 2E and 1E; search 2E"),
    # What the page says it did (shapes/search_notes.py): a 1E search holds only the rulings, a
    # name of several versions read as them, a chip of another kind, a long question cut.
    ({"q": "commandeer"}, "no 1E rulebook (the 1E Rulebook and 1E Glossary are not held here)"),
    ({"q": "battle in the 2003 rules"}, "“2003” read as v1.1 and Call to Arms, each result"),
    ({"q": "staffing ships"}, "Call to Arms: moving a ship (glossary)"),
    # A quoted phrase no passage holds: searched as words, and said.
    (
        {"q": '"beam up" my away team'},
        "No passage holds “beam up” word for word: searched as words instead",
    ),
    ({"q": "beam personnel " * 40}, "it was searched up to “…beam personnel beam personnel beam”"),
    # A version none held answers to: said, naming those held, and the rest searched.
    ({"q": "battle in v5"}, "“v5”: no such version is held here; the versions held: 2E Rulebook"),
    # A bad parameter: the server's message, the value quoted as the server's repr quotes it.
    ({"q": "battle", "kind": "rule"}, "unknown kind 'rule' (known: section, glossary, ruling"),
    ({"q": "battle", "version": "x\u00a0y"}, "unknown version 'x\\xa0y'; the versions held"),
]


@pytest.fixture(scope="module")
def words_app():
    """The app on the real corpus searching by words alone, as the pack does until a judge
    stores its meaning part (the page reads no `meaning` parameter: the app must be so)."""
    return create_app({"TESTING": True, "SEARCH_MEANING": "off"})


def test_pack_results_look_like_the_servers(browser, words_app, real_pack):
    """Every case in one page, one after the other, as a judge asks one question after another."""
    client = words_app.test_client()
    with static_server(real_pack.parent) as base, guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        for params, shows in CASES:
            # The pack answers by words until a judge stores its meaning part: so does the server.
            fragment = client.get("/search/results", query_string=params).get_data(as_text=True)
            page.goto(f"{base}/judgekit-pack/search/index.html?{urlencode(params)}")
            # The whole answer: not the first results, shown while their snippets come.
            wait_until(
                page,
                "!!document.querySelector('#search-results [data-total]:not([aria-busy])')",
                timeout=30,
            )
            wait_until(
                page,
                "!!document.querySelector('#search-results :is(.search-summary, .search-error)')",
                timeout=30,
            )
            pack = page.evaluate(SHAPE, page.query_selector("#search-results"))
            pack_text = page.inner_text("#search-results")
            server = page.evaluate(
                "(html) => { const d = document.createElement('div'); d.innerHTML = html;"
                f" return ({SHAPE})(d); }}",
                fragment,
            )
            assert shows in pack_text, params
            assert _shape(pack) == _shape(server), params
        assert off == []


def test_card_result_reads_as_a_card(browser, real_pack):
    with static_server(real_pack.parent) as base, guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{base}/judgekit-pack/search/index.html?q=Devidian+Door")
        wait_until(page, "!!document.querySelector('#search-results .result')", timeout=30)
        first = page.query_selector("#search-results .result")
        assert "result-card" in first.get_attribute("class")
        assert first.inner_text().splitlines()[0].strip().startswith("Devidian Door")
        assert first.query_selector(".badge-card").inner_text() in ("Card · 2E", "Card · 1E")
        assert first.query_selector(".result-crumbs") is None
        # A passage of the rules carries its game's badge before its title.
        # (Its text, not innerText: results past the fourth are not laid out until scrolled
        # near, search.css, and innerText reads layout.)
        badges = page.query_selector_all("#search-results .result:not(.result-card) .badge-ed")
        assert badges and all(b.text_content() in ("2E", "1E") for b in badges)
        assert off == []


CARD_TERMS = """() => judgekit.searchIndexLoaded().then(() => {
  const D = self.JUDGEKIT_SEARCH;
  return {names: D.cardNames, words: D.items.filter(i => i.result.kind === 'card').map(i => i.card_words),
          written: D.items.filter(i => i.name_key !== undefined).length};
})"""
# The index as the page has it, each card's name terms left for the browser to make.
WITHOUT_NAME_TERMS = """Object.defineProperty(self, 'JUDGEKIT_SEARCH', {configurable: true,
  get() { return this.__jkData; },
  set(data) { data.items.forEach(i => { delete i.name_key; }); this.__jkData = data; }});"""


def test_card_name_terms_from_the_build_are_the_browsers(browser, real_pack):
    """The terms of every card's name the build writes (pack/search.py: _add_name_key) are the
    ones pack-search.js makes itself from the name: the same card completions and ranking."""
    answers = []
    with static_server(real_pack) as base, guarded_context(browser, PHONE) as (ctx, off):
        for init in ("", WITHOUT_NAME_TERMS):
            page = ctx.new_page()
            if init:
                page.add_init_script(init)
            page.goto(f"{base}/search/index.html")
            answers.append(page.evaluate(CARD_TERMS))
            page.close()
        assert off == []
    built, made = answers
    assert built["written"] > 300 and made["written"] == 0
    assert built["names"] == made["names"] and built["words"] == made["words"]
