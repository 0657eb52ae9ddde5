"""Texts to embed in the tests that hold two ways of embedding to the same vectors, bit for bit."""

from __future__ import annotations

import json
from pathlib import Path

from judgekit.checks.loader import load_corpus
from judgekit.meaning import model as meaning_model
from judgekit.meaning import weights
from judgekit.meaning.passages import chunks
from judgekit.render.library import Library

GOLDEN = Path(__file__).parent / "golden" / "search.jsonl"


def texts_to_embed() -> list[list[int]]:
    """Word pieces of 900 distinct golden questions and 150 of the corpus's chunks (long ones)."""
    files = weights.find()
    enc = meaning_model.encoder(files, None)
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    asked = list(dict.fromkeys(json.loads(line)["q"] for line in lines))
    questions = [enc.pieces(q)[: meaning_model.QUESTION_TOKENS] for q in asked[:900]]
    lib = Library(load_corpus())
    found: list[list[int]] = []
    for version in lib.corpus.versions():
        for entry in version.walk():
            paragraphs = [enc.pieces(p) for p in lib.plain(entry).split("\n") if p.strip()]
            found += chunks(enc.pieces(f"{entry.title}:"), paragraphs)
    return questions + found[:: max(1, len(found) // 150)][:150]
