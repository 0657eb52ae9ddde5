"""A removed sentence the newer version still says in another entry ("said elsewhere").

Unit tests on the fixture corpus in tests/data/diff/elsewhere; the real corpus for 1.1 -> 4's
"A stopped personnel cannot help staff a ship." (Version 4's glossary "stopped" says it).
"""

from __future__ import annotations

import html
import re

import pytest

from judgekit import create_app
from judgekit.checks.loader import load_corpus
from judgekit.compare import relocated
from judgekit.compare.align import change_rows
from judgekit.compare.diff import compare
from judgekit.compare.sentences import content_words
from judgekit.render.library import Library

from .conftest import DATA

ELSEWHERE = DATA / "diff" / "elsewhere"
STOPPED = "A stopped personnel cannot help staff a ship."


@pytest.fixture(scope="module")
def elib() -> Library:
    """A Library over the "said elsewhere" fixture corpus."""
    return Library(load_corpus(ELSEWHERE))


@pytest.fixture(scope="module")
def eclient():
    """A test client on the "said elsewhere" fixture corpus."""
    return create_app({"TESTING": True, "CORPUS_DIR": str(ELSEWHERE)}).test_client()


def removed(lib: Library, old: str, new: str) -> dict[str, tuple[str, float] | None]:
    """Each removed sentence of the comparison, and where the newer side still says it."""
    doc = lib.corpus.document("else-book")
    a, b = doc.version(old), doc.version(new)
    comparison = compare(lib, a, b)
    find = relocated.finder(lib, a, b)
    out = {}
    for n in range(len(comparison.changes)):
        for row in change_rows(lib, comparison, n):
            if row.status == "removed":
                found = find(row.old)
                out[row.old.text] = (found.unit.entry, round(found.score, 2)) if found else None
    return out


def test_removed_sentences_found_in_any_entry(elib):
    assert removed(elib, "1", "2") == {
        # In the glossary, inside a longer sentence: 5 of its 6 content words, in a stretch of 5.
        STOPPED: ("gl-stopped", 0.91),
        # Three content words only: found whole in gl-missions, but too few to say it is the rule.
        "Your personnel attempt missions.": None,
        # Most words shared with gl-discarding's sentence, but that is another rule (0.71).
        "Whenever you download a card, you must reveal that card to all players.": None,
        # The sentence of an entry removed whole, said in another entry.
        "You have seven counters to spend each turn.": ("counters", 1.0),
    }


def test_a_shorter_sentence_does_not_say_a_longer_one(elib):
    # Going back from 2 to 1: version 1's "You have seven counters to spend each turn." holds 4
    # of the 7 words of version 2's sentence, which also says "as long as you have cards in your
    # deck" (0.73); the glossary sentences are said nowhere in version 1.
    assert removed(elib, "2", "1") == {
        "As long as you have cards in your deck, you have seven counters to spend each turn.": None,
        "These terms are used in the rules.": None,
        "stopped — Though stopped personnel cannot staff ships, they are still carried along "
        "with that ship if it moves.": None,
        "discarding — Whenever you take a card from your discard pile, you must reveal that card "
        "to all players.": None,
        "missions — Each personnel you have attempting the mission faces the dilemmas.": None,
    }


def test_coverage_counts_words_in_order_within_the_stretch():
    old = content_words(STOPPED)
    assert old == ("stopp", "personnel", "cannot", "help", "staff", "ship")
    new = content_words("Though stopped personnel cannot staff ships, they are still carried.")
    assert relocated.coverage(old, new) == (5, 2 * 5 / (6 + 5))
    # The same words out of order match fewer.
    assert relocated.coverage(old, tuple(reversed(old)))[0] == 1
    assert relocated.coverage((), new) == (0, 0.0)


def test_api_row_names_the_entry_as_editorial(eclient):
    data = eclient.get("/api/diff/else-book/1/2").get_json()
    staffing = next(c for c in data["changes"] if c["id"] == "staffing")
    rows = {r["from"]: r for r in staffing["alignment"] if r["status"] == "removed"}
    assert rows[STOPPED]["elsewhere"] == {
        "editorial": True,
        "version": "2",
        "version_title": "v2",
        "entry": "gl-stopped",
        "title": "stopped",
        "url": "/rules/else-book/2/gl-stopped",
        "api_url": "/api/entries/else-book/2/gl-stopped",
        "sentence": "stopped — Though stopped personnel cannot staff ships, they are still "
        "carried along with that ship if it moves.",
        "score": 0.91,
    }
    assert rows["Your personnel attempt missions."]["elsewhere"] is None
    kept = [r for r in staffing["alignment"] if r["status"] != "removed"]
    assert kept and all(r["elsewhere"] is None for r in kept)


def test_page_shows_the_suggestion_marked_as_the_editors(eclient):
    page = eclient.get("/diff/else-book/1..2").get_data(as_text=True)
    row = page[page.index(STOPPED) : page.index("Your personnel attempt missions.")]
    said = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", row)))
    assert (
        "ed. Said elsewhere in v2: stopped (the editor’s suggestion, not the rulebook’s words)"
        in said
    )
    assert '<a href="/rules/else-book/2/gl-stopped">stopped</a>' in row
    assert 'class="df-ed-mark" title="The editor’s suggestion, not the rulebook’s words"' in row
    # An entry removed whole lists its sentences said elsewhere under its text.
    gone = page[page.index('id="old-only"') :]
    gone = gone[: gone.index("</article>")]
    assert '<ul class="df-said"' in gone
    assert '<a href="/rules/else-book/2/counters">Counters</a>' in gone


def test_real_corpus_stopped_personnel_said_in_glossary(client):
    data = client.get("/api/diff/2e-rulebook/1.1/4").get_json()
    rows = [
        r
        for c in data["changes"]
        for r in c["alignment"]
        if r["status"] == "removed" and r["from"] == STOPPED
    ]
    assert rows, "1.1 -> 4 no longer removes the sentence"
    for row in rows:
        assert (row["elsewhere"]["entry"], row["elsewhere"]["title"]) == ("gl-stopped", "stopped")
        assert row["elsewhere"]["editorial"] is True
        assert row["elsewhere"]["url"] == "/rules/2e-rulebook/4/gl-stopped"
        assert row["elsewhere"]["sentence"].startswith(
            "Though stopped personnel cannot staff ships"
        )
    page = client.get("/diff/2e-rulebook/1.1..4").get_data(as_text=True)
    at = page.index(f"<del>{STOPPED}</del>")
    after = page[at : page.index("</li>", at)]
    assert 'Said elsewhere in v4: <a href="/rules/2e-rulebook/4/gl-stopped">stopped</a>' in after
    assert "(the editor’s suggestion, not the rulebook’s words)" in after
