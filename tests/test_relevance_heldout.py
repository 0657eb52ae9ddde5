"""The held-out relevance questions (issue #11): written blind from the corpus, kept in their own file.

`tests/relevance_heldout.yaml` was written before its author read the tested questions, the
vocabularies or the search code, and measured once before any fix (the blind figures are in
BENCHMARKS.md, "Held-out questions"). Fixes followed, so the set is no longer held out; it now guards
those fixes: hit@3 >= 0.85 in every category and >= 0.90 overall, on the server and (within 0.03)
in the pack's own search. Run `python tests/benchmarks/bench_search.py --relevance --questions
tests/relevance_heldout.yaml --misses` for the table.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judgekit.pack.build import build, pack_app

from .relevance_metrics import CATEGORIES, load_questions, measure, table
from .test_pack_browser import guarded_context, static_server
from .test_pack_search import PHONE, _ids, _pack_search

HELD_OUT = Path(__file__).parent / "relevance_heldout.yaml"
QUESTIONS = load_questions(HELD_OUT)
OVERALL, PER_CATEGORY = 0.90, 0.85
_TYPOGRAPHY = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "\\": None, "*": None})


def _plain(text: str) -> str:
    """Text compared up to typography: quotes, Markdown emphasis, list marks and spacing."""
    text = re.sub(r"^\s*(?:-|\d+\.|[a-z]\.)\s+", " ", text.translate(_TYPOGRAPHY), flags=re.M)
    return re.sub(r"\s+", " ", text).strip().lower()


def test_the_set_is_big_enough_in_every_category_and_both_games():
    assert len(QUESTIONS) >= 90
    assert len({q["q"] for q in QUESTIONS}) == len(QUESTIONS)
    for item in QUESTIONS:
        assert set(item) <= {"q", "expect", "quote", "params", "category"}, item
        assert item["expect"].count("/") == 2 and item["quote"], item
    for name in CATEGORIES:
        assert sum(q["category"] == name for q in QUESTIONS) >= 10, name
    first = sum(q["expect"].startswith("1e-") for q in QUESTIONS)
    assert 20 <= first <= len(QUESTIONS) // 2


def test_every_expected_entry_holds_its_quote_word_for_word(corpus):
    for item in QUESTIONS:
        entry = corpus.entry(*item["expect"].split("/"))
        assert entry is not None, item["expect"]
        for part in item["quote"].split("..."):
            assert _plain(part) in _plain(entry.markdown), (item["q"], part)


@pytest.fixture(scope="module")
def measured(app):
    client = app.test_client()

    def search(params: dict) -> dict:
        response = client.get("/api/search", query_string=params)
        assert response.status_code == 200, params
        return response.get_json()

    return measure(search, QUESTIONS)


def test_hit_at_3_meets_the_targets_overall_and_in_every_category(measured):
    scores, ranked = measured
    missed = "\n".join(
        f"  {item['category']}: {item['q']!r} -> {item['expect']} at {rank}"
        for item, rank in ranked
        if rank is None or rank > 3
    )
    report = f"{table(scores)}\nnot in the top 3:\n{missed}"
    assert scores["all"].hit(3) >= OVERALL, report
    for name in CATEGORIES:
        assert scores[name].hit(3) >= PER_CATEGORY, f"{name}\n{report}"


@pytest.mark.browser
def test_the_packs_search_is_within_0_03_of_the_servers(browser, app, tmp_path_factory):
    out = tmp_path_factory.mktemp("packheldout") / "site"
    build(pack_app(), out)
    client = app.test_client()
    server_hits = pack_hits = 0
    with static_server(out) as base, guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{base}/search/index.html")
        for item in QUESTIONS:
            params = item.get("params", {})
            server = client.get("/api/search", query_string={"q": item["q"], **params}).get_json()
            server_hits += item["expect"] in _ids(server, 3)
            pack_hits += item["expect"] in _ids(_pack_search(page, item["q"], params), 3)
        assert off == []
    n = len(QUESTIONS)
    assert pack_hits / n >= server_hits / n - 0.03, (pack_hits, server_hits, n)
