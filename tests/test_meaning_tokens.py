"""judgekit's WordPiece tokenizer (judgekit/meaning/tokens.py) splits text exactly as Hugging
Face's `tokenizers` does with the model's own tokenizer.json: on every golden question, every
line and word of the corpus, and characters a judge's phone or a pasted text brings."""

from __future__ import annotations

import json

import pytest
from tokenizers import Tokenizer

from judgekit.meaning import weights
from judgekit.meaning.tokens import WordPiece
from tests.conftest import ROOT
from tests.golden.generate import GOLDEN

ODD = (
    "Café naïve résumé Ångström",
    "don’t “quoted” — dash… ‘single’",
    "Ｆｕｌｌwidth ﬁ ligature ß İstanbul ǅ",
    "日本語テキスト 中文 한국어",
    "🖖 emoji 👍🏽 flags 🇺🇸",
    "a\x00b\x07c\u200bd\ufeffe\u00adf",
    "\u00a0nbsp\u2003em\u3000ideographic\tTab\nnewline\rreturn",
    "x" * 101,
    "x" * 100,
    "Ωmega µ § ¶ © ® ™ ° ± × ÷",
    "12:30 1/2 3.5 -4 +5 #6 $7 %8 ^9 &10 *11 (12) [13] {14} <15> |16| ~17 `18` @19 _20_",
    "e\u0301 a\u0308 n\u0303 (combining marks)",
    "",
    "   ",
)


@pytest.fixture(scope="module")
def tokenizers():
    files = weights.find()
    reference = Tokenizer.from_file(str(files.tokenizer))
    reference.no_padding()
    reference.no_truncation()
    return reference, WordPiece(weights.vocabulary(files.tokenizer))


def _texts() -> list[str]:
    texts = [json.loads(line)["q"] for line in GOLDEN.read_text(encoding="utf-8").splitlines()]
    for path in sorted((*ROOT.glob("rules/**/*.yaml"), *ROOT.glob("rulings/**/*.yaml"))):
        lines = path.read_text(encoding="utf-8").splitlines()
        texts += lines
        texts += sorted({word for line in lines for word in line.split()})
    return texts


def test_every_golden_question_and_corpus_word_splits_as_the_reference(tokenizers):
    reference, ours = tokenizers
    texts = _texts()
    assert len(texts) > 20000
    wrong = [
        t for t in texts if ours.pieces(t) != reference.encode(t, add_special_tokens=False).ids
    ]
    assert not wrong, wrong[:5]


@pytest.mark.parametrize("text", ODD)
def test_odd_characters_split_as_the_reference(tokenizers, text):
    reference, ours = tokenizers
    assert ours.pieces(text) == reference.encode(text, add_special_tokens=False).ids
