"""Search by meaning in the judge pack, in real headless Chromium at a phone's size: the pack
served by a plain static file server on 127.0.0.1 answers by words and says so until the judge
stores the meaning part; stored, it answers by meaning with the network cut; removed, by words
again. Skipped when the model's package is not installed."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from judgekit.pack.build import build, pack_app
from tests.conftest import PACK_CORPUS, wait_until
from tests.test_pack_browser import PHONE, _wait_stored, guarded_context, static_server
from tests.test_pack_meaning import _installed

pytestmark = pytest.mark.browser

QUESTION = "what happens when my personnel attempt a mission"


@pytest.fixture(scope="module")
def meaning_pack(tmp_path_factory):
    """The test corpus's pack with its meaning part, built once."""
    app = pack_app(str(PACK_CORPUS), "https://judges.example/pack", meaning=True)
    out = tmp_path_factory.mktemp("meaning") / "site"
    return build(app, out, when=datetime(2026, 11, 23, 7, 0, tzinfo=UTC))


def _results(page) -> str:
    return page.inner_text("#search-results")


@pytest.mark.skipif(not _installed(), reason="the model's package is not installed")
def test_meaning_is_stored_when_asked_and_answers_offline(browser, meaning_pack):
    result = meaning_pack
    assert result.meaning_size > 20_000_000 and result.meaning_note == ""
    sw = (result.out / "sw.js").read_text(encoding="utf-8")
    assert "meaning/manifest.js" in sw and ".safetensors" not in sw  # not precached
    with static_server(result.out) as base, guarded_context(browser, PHONE) as (ctx, off_host):
        page = ctx.new_page()
        page.goto(f"{base}/search/index.html")
        _wait_stored(page, result.version["id"])
        wait_until(page, "() => !!document.querySelector('.pack-meaning button')")
        offer = page.inner_text(".pack-meaning")
        assert (
            f"Store search by meaning on this phone ({result.meaning_size / 1e6:.1f} MB)" in offer
        )
        # The offer is a button a thumb can hit, in the page's font (not the browser's small one).
        box = page.eval_on_selector(
            ".pack-meaning button",
            "b => [b.getBoundingClientRect().height, getComputedStyle(b).fontSize,"
            " getComputedStyle(b.parentNode).fontSize]",
        )
        assert box[0] >= 44 and box[1] == box[2]
        # Not stored: by words, and the page says so.
        page.fill("#q", QUESTION)
        wait_until(page, "() => !!document.querySelector('#search-results .search-by-words')")
        assert "Found by words only: search by meaning is not stored on this phone." in _results(
            page
        )
        page.click(".pack-meaning button")
        wait_until(page, "() => JudgekitMeaning.state() === 'ready'", timeout=120)
        assert "Search by meaning is on" in page.inner_text(".pack-meaning")
        # Offline, a new visit: loaded from the phone, the question answered by meaning.
        ctx.set_offline(True)
        page.goto(f"{base}/search/index.html?q=" + QUESTION.replace(" ", "+"))
        wait_until(
            page,
            "() => !!document.querySelector('#search-results .search-results[data-by-meaning]')",
            timeout=120,
        )
        text = _results(page)
        assert "Found by words only" not in text
        assert page.locator("#search-results .result").count() > 0
        # The worker gives each item's nearest chunk's sentences with its nearness (two an item):
        # the snippets of results found by meaning show them (pack-search.js: finish).
        near, focus, shown = page.evaluate(
            """async (q) => {
              const n = await judgekit.meaning.nearness(q);
              return [n.length, n.focus ? n.focus.length : -1, Array.from(n.focus || []).filter((s) => s >= 0).length];
            }""",
            QUESTION,
        )
        assert focus == 2 * near and shown > near
        # A newer pack (its vectors changed): stored before, only what changed is fetched.
        ctx.set_offline(False)
        page.evaluate(
            """async () => {
              const c = await caches.open('judgekit-meaning');
              const keys = await c.keys();
              await c.delete(keys.find((k) => k.url.includes('/passages.')));
            }"""
        )
        page.goto(f"{base}/search/index.html")
        wait_until(
            page,
            "() => !!window.JudgekitMeaning && JudgekitMeaning.state() === 'ready'",
            timeout=120,
        )
        assert (
            page.evaluate(
                "async () => (await (await caches.open('judgekit-meaning')).keys()).length"
            )
            == 3
        )
        # Typed key by key: the worker is asked at the key, not after search.js's pause, and
        # while it works only the question typed last waits (nothing stale queued); the answer
        # then comes by meaning, the worker asked no more than that.
        typed = "when all my crew are stopped in a battle at a planet mission"
        first = page.evaluate(
            """(typed) => {
              const m = judgekit.meaning, own = m.nearness, asked = window.__jkAsked = [];
              m.nearness = (q) => { asked.push(q); return own(q); };
              const box = document.getElementById('q'), words = typed.split(' ');
              box.focus();
              for (let n = 1; n <= words.length; n++) {
                box.value = words.slice(0, n).join(' ');
                box.dispatchEvent(new Event('input', {bubbles: true}));
              }
              return asked.slice();
            }""",
            typed,
        )
        assert len(first) == 1 and typed.startswith(first[0]) and first[0] != typed
        wait_until(
            page,
            "() => !!document.querySelector('#search-results .search-results[data-by-meaning]')",
            timeout=60,
        )
        assert page.evaluate("() => window.__jkAsked") == [first[0], typed]
        assert typed in _results(page)
        # Removed: by words again.
        page.click(".pack-meaning button")
        wait_until(page, "() => JudgekitMeaning.state() === 'not stored'")
        assert page.evaluate("() => caches.has('judgekit-meaning')") is False
        assert off_host == []


@pytest.mark.skipif(not _installed(), reason="the model's package is not installed")
def test_meaning_from_a_folder_says_plainly_it_answers_by_words(browser, meaning_pack):
    result = meaning_pack
    with guarded_context(browser, PHONE) as (ctx, _):
        page = ctx.new_page()
        page.goto((result.out / "search" / "index.html").as_uri())
        wait_until(page, "() => !!document.querySelector('.pack-meaning')")
        assert page.inner_text(".pack-meaning") == (
            "Search by meaning needs the pack opened from its web address: opened from a folder, "
            "search answers by words."
        )
        page.fill("#q", QUESTION)
        wait_until(page, "() => !!document.querySelector('#search-results .search-by-words')")
        assert "Found by words only: search by meaning cannot run from a folder" in _results(page)


# The worker's answers held back a little (the real nearness, later: a phone's slower worker),
# each question it is asked recorded; and what the results region shows, answer by answer.
SLOW_WORKER = """(ms) => {
  const m = judgekit.meaning, own = m.nearness;
  window.__jkAsked = [];
  m.nearness = (q) => {
    window.__jkAsked.push(q);
    return own(q).then((near) => new Promise((resolve) => setTimeout(() => resolve(near), ms)));
  };
  const target = document.getElementById('search-results');
  window.__jkShown = [];
  new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach((shown) => {
    if (shown.classList && shown.classList.contains('search-results'))
      window.__jkShown.push(shown.hasAttribute('data-by-meaning'));
  }))).observe(target, {childList: true});
  window.__jkSamePage = true;
  const replace = history.replaceState;
  window.__jkAddresses = 0;
  history.replaceState = function () { window.__jkAddresses++; return replace.apply(this, arguments); };
}"""


@pytest.mark.skipif(not _installed(), reason="the model's package is not installed")
@pytest.mark.parametrize(
    ("touch", "worker_ms", "shown"),
    [(False, 150, [True]), (True, 150, [True]), (False, 900, [False, True])],
)
def test_a_question_sent_is_answered_at_once_in_place_and_first_by_meaning(
    browser, meaning_pack, touch, worker_ms, shown
):
    """Enter answers in the page (not by opening it again: its index and model loaded again) and
    without the typing pause: the box holds a question no key typed (no input event, no pause
    started), and Enter answers it. The worker at work on it, the first answer shown waits for
    its nearness: one answer, by meaning, not by words and then by meaning; a worker slower than
    half a second is not waited for: by words, then by meaning. On a phone the keyboard steps
    aside (the box loses focus); with a mouse the box keeps it (arrow keys)."""
    result = meaning_pack
    options = {"has_touch": True, "is_mobile": True} if touch else {}
    with (
        static_server(result.out) as base,
        guarded_context(browser, PHONE, **options) as (ctx, off),
    ):
        page = ctx.new_page()
        page.goto(f"{base}/search/index.html")
        wait_until(page, "() => !!window.JudgekitMeaning && JudgekitMeaning.state() !== 'checking'")
        page.evaluate("() => JudgekitMeaning.store()")
        wait_until(page, "() => JudgekitMeaning.state() === 'ready'", timeout=120)
        page.evaluate(SLOW_WORKER, worker_ms)
        page.evaluate(
            "(q) => { const box = document.getElementById('q'); box.focus(); box.value = q; }",
            QUESTION,
        )
        page.keyboard.press("Enter")
        wait_until(
            page,
            "() => !!document.querySelector('#search-results .search-results[data-by-meaning]')"
            " && location.search.includes('q=')",
            timeout=60,
        )
        page.wait_for_timeout(300)  # the worker's answer came: nothing more is shown
        state = page.evaluate(
            "() => [window.__jkSamePage, window.__jkShown, window.__jkAsked,"
            " new URLSearchParams(location.search).get('q'),"
            " document.activeElement === document.getElementById('q'), window.__jkAddresses]"
        )
        # The results past the first four are not laid out until scrolled near; then they are.
        drawn = "(i) => document.querySelectorAll('#search-results .result')[i].firstElementChild"
        drawn += ".checkVisibility({contentVisibilityAuto: true})"
        count = page.locator("#search-results .result").count()
        page.set_viewport_size({"width": PHONE["width"], "height": 150})  # the last one far
        page.wait_for_timeout(100)
        laid_out = [page.evaluate(drawn, i) for i in (0, count - 1)]
        page.locator("#search-results .result").last.scroll_into_view_if_needed()
        page.wait_for_timeout(100)
        laid_out.append(page.evaluate(drawn, count - 1))
        assert off == []
    same_page, seen, asked, address, focused, addresses = state
    assert count > 4 and laid_out == [True, False, True]  # the first 4 at once (search.js)
    assert addresses == 1  # the answer by meaning after the words': the same address, kept
    assert same_page is True
    assert seen == shown
    assert len(asked) == 1 and QUESTION.startswith(asked[0])
    assert address == QUESTION
    assert focused is (not touch)
