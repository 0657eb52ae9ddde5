"""Relevance on the real corpus: each judge's question finds its rule in the top 3."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

QUESTIONS = yaml.safe_load((Path(__file__).parent / "relevance_questions.yaml").read_text())


def test_the_question_file_is_big_enough_and_well_formed():
    assert len(QUESTIONS) >= 25
    assert len({q["q"] for q in QUESTIONS}) == len(QUESTIONS)
    for item in QUESTIONS:
        assert set(item) <= {"q", "expect", "quote", "params"}, item
        assert item["expect"].count("/") == 2 and item["quote"], item


def test_every_expected_entry_exists(corpus):
    for item in QUESTIONS:
        document, version, entry = item["expect"].split("/")
        assert corpus.entry(document, version, entry) is not None, item["expect"]


@pytest.mark.parametrize("item", QUESTIONS, ids=[q["q"] for q in QUESTIONS])
def test_question_finds_its_entry_in_the_top_3(client, item):
    response = client.get("/api/search", query_string={"q": item["q"], **item.get("params", {})})
    assert response.status_code == 200
    top = [f"{r['document']}/{r['version']}/{r['id']}" for r in response.get_json()["results"][:3]]
    assert item["expect"] in top, f"{item['q']!r}: expected {item['expect']}, got {top}"
