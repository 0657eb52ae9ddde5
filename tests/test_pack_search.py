"""The pack's search in Chromium: it loads as a phone loads it, answers before its second file,
and gives the server's answers on a fixture corpus (its vocabulary, versions and games named).

That the pack answers every question as the server does, exactly, is tested without a browser
over the real corpus (tests/node/golden.test.mjs, against tests/golden/search.jsonl)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from judgekit import create_app
from judgekit.pack.paths import pack_file
from tests.conftest import wait_until
from tests.test_pack_browser import LAPTOP, guarded_context, static_server

pytestmark = pytest.mark.browser

HERE = Path(__file__).parent
PACK_CORPUS = HERE / "data" / "pack"
PHONE = {"width": 390, "height": 844}


def _pack_search(page, q: str, opts: dict) -> dict:
    return page.evaluate("([q, o]) => window.judgekit.search(q, o)", [q, opts])


def _shown_titles(page) -> list[str]:
    """The titles of the results the search page shows, in order."""
    return page.eval_on_selector_all(
        "#search-results .result-title", "links => links.map(a => a.textContent.trim())"
    )


def _server_titles(q: str) -> list[str]:
    """The titles of the server's results for q on the pack's fixture corpus."""
    client = create_app({"TESTING": True, "CORPUS_DIR": str(PACK_CORPUS)}).test_client()
    return [
        r["title"] for r in client.get("/api/search", query_string={"q": q}).get_json()["results"]
    ]


@contextmanager
def _first_answer(browser, pack: Path, script: str, address: str = "") -> Iterator:
    """The pack's search page (phone), opened at ``address`` with ``script`` run before its own,
    once it shows a result; nothing is asked of another host."""
    with static_server(pack) as base, guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        page.add_init_script(script)
        page.goto(f"{base}/search/index.html{address}")
        wait_until(page, "!!document.querySelector('#search-results .result')")
        yield page
        assert off == []


def _ids(answer: dict, n: int | None = None) -> list[str]:
    return [f"{r['document']}/{r['version']}/{r['id']}" for r in answer["results"][:n]]


@pytest.fixture(scope="module")
def fixture_pack(packs):
    return packs(PACK_CORPUS).out


CASES = [
    ("dilemma wrong type", {}),
    ("acess denied", {}),
    ("count personnel", {"all_versions": "1"}),
    ("count personnel", {"version": "1"}),
    ("overcome", {"kind": "step"}),
    ('"wrong type"', {}),
    ("attempting missions", {}),
    ("how many dilemmas", {"edition": "2E"}),
    ("the", {}),
    ("atte", {}),
    # The judge's vocabulary (tests/data/pack/*/vocabulary.yaml), a phrase with a stop word,
    # words leaning to one game, a version named in the question, a number question.
    ("crew bad kind", {}),
    ("over the limit", {}),
    ("crew mission attempt", {}),
    ("no entry", {}),
    ("count personnel in v1", {}),
    ("how many crew", {}),
    ("crew", {"edition": "1E"}),
    # A game named in the question, ended by a full stop, or next to a letter beyond ASCII.
    ("2nd ed. crew", {}),
    ("crew in 1e.", {}),
    ("\u00e91e crew", {}),
    ("2nd\u00a0ed crew", {}),
    ('"wrong type" 1e', {}),
    ('"second edition" crew', {}),
    ("crew (1E)", {"kind": "section"}),
    ("(1E)", {}),  # a game's name in brackets, nothing else: words to find
    ("1E's", {"edition": "2E"}),  # or with its possessive only
    ("1e crew", {"edition": "2E"}),
    ("1e crew", {"document": "demo-rulebook"}),  # a chosen document wins over a named game
    # A game named but set aside by a chosen game or version; named and chosen alike.
    ("crew (1E)", {"edition": "2E"}),
    ("1e crew", {"version": "1"}),
    ("1e crew", {"edition": "1E"}),
    ("count personnel in v1", {"edition": "1E"}),  # a version named names its game
    ("count personnel in v1", {"edition": "2E"}),
    # What the name leaves goes with it (query.py: LEFTOVERS).
    ("2E's crew", {}),
    ("(2E)’s crew", {"edition": "1E"}),
    ("crew, 1e", {}),
    ("crew-1e", {}),
    ("1e - crew", {}),
    ("crew (1e rules)", {}),
    ("crew (1e - rules)", {}),
    ("'2e' crew", {}),
    ('"wrong type"1e crew', {}),
]


def test_same_answers_as_the_server(browser, fixture_pack):
    """Chromium's answers are the server's, for every case, in one page."""
    client = create_app({"TESTING": True, "CORPUS_DIR": str(PACK_CORPUS)}).test_client()
    with static_server(fixture_pack) as base, guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{base}/index.html")
        answers = page.evaluate(
            "(cases) => Promise.all(cases.map(([q, o]) => window.judgekit.search(q, o)))", CASES
        )
        assert off == []
    for (q, opts), pack in zip(CASES, answers, strict=True):
        server = client.get("/api/search", query_string={"q": q, **opts}).get_json()
        for mine, theirs in zip(pack["results"], server["results"], strict=True):
            assert list(mine) == list(theirs), q  # the same keys in the same order
            assert mine["url"] == f"{base}/{pack_file(theirs['url'])}", q
            mine["url"] = theirs["url"]
            for key in ("api_url", "breadcrumb"):
                mine.pop(key), theirs.pop(key)
            for chip in mine["also_in"] + theirs["also_in"]:
                chip.pop("url")
        # How meaning stands is each one's own ("not stored" in a pack, "off" on this server).
        assert pack.pop("meaning") == "not stored" and server.pop("meaning") == "off", q
        assert pack == server, (q, opts)


def test_first_results_come_before_the_texts(browser, fixture_pack):
    """On a slow network the search page shows the first results before search-more.js (the
    texts) is in, marked busy, then the whole answer; a question that needs the texts (a
    quoted phrase) waits for them and gets the server's answer."""
    client = create_app({"TESTING": True, "CORPUS_DIR": str(PACK_CORPUS)}).test_client()
    server = client.get("/api/search", query_string={"q": '"wrong type"'}).get_json()
    held = []
    with static_server(fixture_pack) as base, guarded_context(browser, PHONE) as (ctx, off):
        ctx.route("**/search-more.js", lambda route: held.append(route))  # held until let through
        page = ctx.new_page()
        # Not "load": the page's load waits for the held file.
        page.goto(f"{base}/search/index.html", wait_until="domcontentloaded")
        page.fill("#q", "overcome")
        wait_until(page, "!!document.querySelector('#search-results .result')")
        assert page.get_attribute("#search-results .search-results", "aria-busy") == "true"
        assert page.query_selector("#search-results .result-snippet") is None
        assert [r.request.url for r in held] == [f"{base}/search-more.js"]
        page.evaluate(
            """q => { window.__phrase = null;
                      judgekit.search(q).then(a => { window.__phrase = a; }); }""",
            '"wrong type"',
        )
        assert page.evaluate("window.__phrase") is None
        held[0].continue_()
        wait_until(
            page,
            "!!document.querySelector('#search-results [data-total]:not([aria-busy]) "
            ".result-snippet')",
        )
        wait_until(page, "window.__phrase !== null")
        pack = page.evaluate("window.__phrase")
        assert off == []
    assert pack["total"] == server["total"] > 0
    assert _ids(pack) == _ids(server)
    assert [r["snippet"] for r in pack["results"]] == [r["snippet"] for r in server["results"]]


def test_search_code_loads_when_first_wanted(browser, fixture_pack):
    """A reading page's bundle holds no search: judgekit.search loads pack-search.js, then the
    index's two files, on first use, and answers as on the search page."""
    search_files = ("pack-search", "search-index", "search-more")
    with static_server(fixture_pack) as base, guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        requested = []
        page.on("request", lambda r: requested.append(r.url.rsplit("/", 1)[-1]))
        page.goto(f"{base}/index.html")
        page.wait_for_load_state("load")
        assert not [n for n in requested if n.startswith(search_files)]
        here = _pack_search(page, "count personnel", {})
        wait_until(page, "!!self.JUDGEKIT_SEARCH_MORE")
        loaded = [n.split(".")[0] for n in requested if n.startswith(search_files)]
        page.goto(f"{base}/search/index.html")
        there = _pack_search(page, "count personnel", {})
        assert off == []
    assert loaded == ["pack-search", "search-index", "search-more"]
    assert here["total"] > 0 and here == there


def test_search_page_carries_its_index_and_answers_what_was_typed_early(browser, fixture_pack):
    """The built search page holds its scripts and the first index file (no request of its own
    after the page's), and a query typed into the box before the page's scripts ran (the box is
    painted first) is answered once they have run, with the server's results, no key needed."""
    client = create_app({"TESTING": True, "CORPUS_DIR": str(PACK_CORPUS)}).test_client()
    server = client.get("/api/search", query_string={"q": "overcome"}).get_json()
    # The judge's text, put in the box the moment the parser makes it: before any script after it.
    early = """new MutationObserver((_, seen) => {
      const box = document.getElementById('q');
      if (box && !box.value) { box.value = 'overcome'; window.__typedBeforeScripts = !window.judgekit; seen.disconnect(); }
    }).observe(document, {subtree: true, childList: true});"""
    with static_server(fixture_pack) as base, guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        page.add_init_script(early)
        requested = []
        page.on("request", lambda r: requested.append(r.url.rsplit("/", 1)[-1]))
        page.goto(f"{base}/search/index.html", wait_until="domcontentloaded")
        wait_until(page, "!!document.querySelector('#search-results .result')")
        titles = _shown_titles(page)
        before = page.evaluate("window.__typedBeforeScripts")
        assert off == []
    assert before is True
    assert not [n for n in requested if n.endswith((".js", ".css")) and n != "search-more.js"]
    assert titles == [r["title"] for r in server["results"]][: len(titles)] and titles


def test_search_code_waits_for_the_index_on_its_way(browser, fixture_pack):
    """On the search page the scripts run before the index in the page is whole: asked for an
    answer then (a judge's tap on the box), the search waits for it and fetches no file."""
    ask = """new MutationObserver((_, seen) => {
      if (window.judgekit && window.judgekit.search && !self.JUDGEKIT_SEARCH && !window.__asked) {
        window.__asked = true;
        window.judgekit.search('overcome').then(a => { window.__answer = a; });
        seen.disconnect();
      }
    }).observe(document, {subtree: true, childList: true});"""
    with static_server(fixture_pack) as base, guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        page.add_init_script(ask)
        requested = []
        page.on("request", lambda r: requested.append(r.url.rsplit("/", 1)[-1]))
        page.goto(f"{base}/search/index.html")
        wait_until(page, "!!window.__answer")
        answer = page.evaluate("window.__answer")
        asked = page.evaluate("window.__asked")
        again = _pack_search(page, "overcome", {})
        assert off == []
    assert asked is True and "search-index.js" not in requested
    assert answer == again and answer["total"] > 0


def test_search_page_without_javascript_says_so(browser, fixture_pack):
    """With JavaScript off (phone), the pack's search page says why it cannot search and links
    what reads without it: the contents and the glossary of the version in force, each a page
    of the pack that opens and reads (no script needed)."""
    with static_server(fixture_pack) as base:
        context = browser.new_context(viewport=PHONE, java_script_enabled=False)
        try:
            page = context.new_page()
            page.goto(f"{base}/search/index.html")
            line = page.locator(".pack-noscript")
            assert line.is_visible()
            text = " ".join(line.inner_text().split())
            links = line.locator("a").evaluate_all(
                "links => links.map(a => [a.textContent, a.href])"
            )
            box = line.bounding_box()
            opened = []
            for _, href in links:
                response = page.goto(href)
                opened.append((response.status, page.locator("h1").first.inner_text().strip()))
        finally:
            context.close()
    assert text == (
        "This copy of judgekit on your device needs JavaScript to search, and JavaScript is "
        "off in this browser. The rules read without it: open the contents or the Demo "
        "Rulebook v2 glossary."
    )
    assert [(t, h.removeprefix(base)) for t, h in links] == [
        ("the contents", "/index.html"),
        ("the Demo Rulebook v2 glossary", "/rules/demo-rulebook/2/glossary/index.html"),
    ]
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert [status for status, _ in opened] == [200, 200]
    assert opened[1][1] == "Glossary" and opened[0][1]


def test_server_search_page_has_no_pack_line():
    """The server's search page answers without JavaScript: it carries no such line."""
    client = create_app({"TESTING": True, "CORPUS_DIR": str(PACK_CORPUS)}).test_client()
    html = client.get("/search").get_data(as_text=True)
    assert "<noscript" not in html and "pack-noscript" not in html


def test_query_typed_while_the_index_comes_is_answered_when_it_is_whole(browser, fixture_pack):
    """A query typed after the page's scripts ran but before its index is whole is answered as
    soon as the page is, not after search.js's pause: here the pause's timer never fires, so
    only the page's being whole can answer it."""
    typed = """(() => {
      const setTimer = window.setTimeout;
      window.__paused = 0;
      window.setTimeout = (fn, ms, ...rest) => (ms === 120 ? (++window.__paused, 0) : setTimer(fn, ms, ...rest));
      new MutationObserver((_, seen) => {
        const box = document.getElementById('q');
        if (box && window.judgekit && window.judgekit.search && !self.JUDGEKIT_SEARCH && !window.__typed) {
          window.__typed = true;
          box.value = 'overcome';
          box.dispatchEvent(new Event('input', {bubbles: true}));
          seen.disconnect();
        }
      }).observe(document, {subtree: true, childList: true});
    })();"""
    with _first_answer(browser, fixture_pack, typed) as page:
        titles = _shown_titles(page)
        paused = page.evaluate("[window.__typed, window.__paused]")
    assert paused == [True, 1]
    assert titles == _server_titles("overcome")[: len(titles)] and titles


@pytest.mark.parametrize("address", ["", "?q=overcome"])
def test_query_typed_as_the_page_ends_is_answered_once(browser, fixture_pack, address):
    """A query typed at the moment the page ends (before its scripts' DOMContentLoaded
    listeners) is answered once, for what was typed: search.js answers it, and the pack's own
    answer for the address (opened empty, or with another query) neither answers it again nor
    puts the address's query back in the box."""
    typed = """document.addEventListener('DOMContentLoaded', () => {
      const api = window.judgekit, answer = api.searchResultsHTML;
      window.__asked = [];
      api.searchResultsHTML = (params, better) => { window.__asked.push(params.get('q')); return answer(params, better); };
      const box = document.getElementById('q');
      box.value = 'dilemma';
      box.dispatchEvent(new Event('input', {bubbles: true}));
    });"""
    with _first_answer(browser, fixture_pack, typed, address) as page:
        asked = page.evaluate("window.__asked")
        box = page.input_value("#q")
        titles = _shown_titles(page)
    assert asked == ["dilemma"]
    assert box == "dilemma"
    assert titles == _server_titles("dilemma")[: len(titles)] and titles


SEARCH_CORPUS = HERE / "data" / "search"
# Each answer the results region shows: how many results it held when it first appeared.
WATCH_ANSWERS = """() => {
  window.__firsts = [];
  const target = document.getElementById('search-results');
  new MutationObserver(() => {
    const answer = target.querySelector('.search-results');
    if (answer && answer !== window.__seen) {
      window.__seen = answer;
      window.__firsts.push(answer.querySelectorAll('.result').length);
    }
  }).observe(target, {childList: true, subtree: true});
}"""
# Frames held back until released: what waits for the answer's frame to be drawn waits too.
HOLD_FRAMES = """window.__frames = [];
window.requestAnimationFrame = (task) => { window.__frames.push(task); return window.__frames.length; };
window.__release = () => { const held = window.__frames; window.__frames = []; held.forEach((t) => t(performance.now())); };"""


def _server_answer(q: str) -> list[str]:
    """The titles of the server's results for q on the search fixture corpus, by words."""
    app = create_app({"TESTING": True, "CORPUS_DIR": str(SEARCH_CORPUS), "SEARCH_MEANING": "off"})
    answer = app.test_client().get("/api/search", query_string={"q": q}).get_json()
    return [r["title"] for r in answer["results"]]


@pytest.mark.parametrize(
    ("viewport", "sent"), [(PHONE, "typed"), (PHONE, "enter"), (LAPTOP, "typed")]
)
def test_an_answer_draws_its_first_screenful_then_the_rest(browser, packs, viewport, sent):
    """On the pack's search page an answer longer than a screenful is drawn with its first four
    results, and the rest join the same list after that frame: the judge ends with the server's
    results in order, the arrow keys reach past the first four, and those past them are laid
    out when scrolled near. Typed (the pause) or sent with Enter alike."""
    pack = packs(SEARCH_CORPUS).out
    server = _server_answer("dilemma")
    assert len(server) > 4
    with static_server(pack) as base, guarded_context(browser, viewport) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{base}/search/index.html")
        page.evaluate("() => window.judgekit.search('dilemma')")  # the index and texts are in
        page.evaluate(WATCH_ANSWERS)
        page.fill("#q", "dilemma")
        if sent == "enter":
            page.press("#q", "Enter")
        wait_until(
            page, f"document.querySelectorAll('#search-results .result').length === {len(server)}"
        )
        firsts = page.evaluate("window.__firsts")
        titles = _shown_titles(page)
        later = page.eval_on_selector_all(
            "#search-results .result",
            "items => items.slice(4).map(li => [li.getAttribute('role'), getComputedStyle(li).contentVisibility])",
        )
        page.focus("#q")
        for _ in range(5):
            page.keyboard.press("ArrowDown")
        fifth = page.evaluate(
            "() => { const box = document.getElementById('q'), li = document.querySelectorAll('#search-results .result')[4];"
            " return li.classList.contains('is-active') && box.getAttribute('aria-activedescendant') === li.id; }"
        )
        address = page.evaluate("() => new URLSearchParams(location.search).get('q')")
        assert off == []
    assert firsts == [4]
    assert titles == server
    assert later == [["option", "auto"]] * (len(server) - 4)
    assert fifth is True
    assert address == "dilemma"


def test_an_answers_rest_never_joins_a_newer_answer(browser, packs):
    """The rest of an answer comes after its frame is drawn: if the judge has asked another
    question by then, it is dropped, and the newer answer shows its own results only."""
    pack = packs(SEARCH_CORPUS).out
    newer = _server_answer("personnel")
    with static_server(pack) as base, guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        page.add_init_script(HOLD_FRAMES)
        page.goto(f"{base}/search/index.html")
        page.evaluate("() => window.judgekit.search('dilemma')")
        page.fill("#q", "dilemma")
        page.press("#q", "Enter")
        wait_until(page, "!!document.querySelector('#search-results .result')")
        first = len(_shown_titles(page))
        page.fill("#q", "personnel")
        page.press("#q", "Enter")
        wait_until(page, "document.querySelector('#search-results q')?.textContent === 'personnel'")
        page.evaluate(
            "() => { window.__release(); return new Promise((r) => setTimeout(r, 200)); }"
        )
        page.evaluate(
            "() => { window.__release(); return new Promise((r) => setTimeout(r, 200)); }"
        )
        titles = _shown_titles(page)
        assert off == []
    assert first == 4
    assert titles == newer


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_an_answer_before_its_texts_is_drawn_whole_when_they_cannot_come(browser, packs, viewport):
    """A phone dropping off the pack's host: search-more.js (the texts) never comes. An answer
    drawn before it, its first four results and its rest waiting for the texts, is then drawn
    whole without its snippets (the server's results in order), never four results under
    "showing the first …"."""
    pack = packs(SEARCH_CORPUS).out
    server = _server_answer("dilemma")
    assert len(server) > 4
    with static_server(pack) as base, guarded_context(browser, viewport) as (ctx, off):
        ctx.route("**/search-more.js", lambda route: route.abort())
        page = ctx.new_page()
        page.goto(f"{base}/search/index.html")
        page.evaluate(WATCH_ANSWERS)
        page.fill("#q", "dilemma")
        wait_until(
            page, f"document.querySelectorAll('#search-results .result').length === {len(server)}"
        )
        firsts = page.evaluate("window.__firsts")
        titles = _shown_titles(page)
        snippets = page.query_selector_all("#search-results .result-snippet")
        assert off == []
    assert firsts == [4, len(server)]
    assert titles == server
    assert snippets == []
