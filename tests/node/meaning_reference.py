"""What the server computes by meaning, for tests/node/meaning.test.mjs to hold the pack's
pack-meaning.js to. Prints one JSON object; run by the Node test with the repository's Python.

    meaning_reference.py tokens             the strings tried, each with the ids of Hugging Face
                                            `tokenizers` (when installed) and of meaning/tokens.py
    meaning_reference.py embed              texts (JSON on stdin) embedded by meaning/encoder.py
    meaning_reference.py near ROOT CACHE    questions (JSON on stdin): each item's nearness from
                                            the server's model over the corpus at ROOT, and its
                                            nearest chunk's sentences (search/focus.py)
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

# Odd text a judge's phone may send: accents, curly quotes, CJK, emoji, control characters,
# long words, special tokens typed in, scripts whose letters change when lowercased.
ODD = [
    "Café déjà vu — naïve coöperation",
    "“quoted” ‘single’ «guillemets» „low“ it’s",
    "日本語のテキスト 中文 한국어 𠀋𪚲 𫠠𫤀",
    "emoji 🖖🏽 👩‍🚀 ✨ 🥲 \U0001fae8",
    "tab\there\nnew\rline\x0bvt\x0cff\x85nel\x00nul\ufffdrep\u200bzw\ufeffbom\u00adshy",
    "a" * 99 + " " + "b" * 100 + " " + "c" * 101,
    "supercalifragilisticexpialidocious antidisestablishmentarianism",
    "a[CLS]b [MASK] [cls] [UNK][SEP][PAD]",
    "ΟΔΟΣ Σίσυφος ΣΣ İstanbul ǅemal ß ﬁne Ⅻ",
    "x\u0378y \u2b82 0x1F \\ ` ~ ^ | _ @ # $ % & * ( ) [ ] { } < > = + - / : ; ? ! , .",
    "½ ² ³ ① ９９ ｆｕｌｌ ﬀ Å Ω K",
    "",
    "   ",
    "e\u0301 n\u0303 a\u030a o\u0308\u0304",
    "\u3000ideographic\u3000space\u2028line\u2029para\u00a0nbsp",
    "Ⅻ ⅻ ǈ ǲ ῼ ᾳ",
]


# Characters whose category Unicode changed since (a sign now a symbol, a letter now a mark).
CHANGED = frozenset((0x166D, 0x1734, 0x1885, 0x1886))


def _old(code: int) -> bool:
    if 0xD800 <= code <= 0xDFFF or code in CHANGED:
        return False
    return unicodedata.ucd_3_2_0.category(chr(code)) != "Cn"


def strings() -> list[str]:
    """The golden questions, every corpus word, every character class tried, and ODD."""
    out: list[str] = []
    golden = REPO / "tests" / "golden" / "search.jsonl"
    for line in golden.read_text(encoding="utf-8").splitlines():
        if line.strip():
            out.append(json.loads(line)["q"])
    corpus = set()
    for path in sorted((REPO / "rules").rglob("*.yaml")) + sorted(
        (REPO / "rulings").rglob("*.yaml")
    ):
        corpus.update(re.findall(r"\S+", path.read_text(encoding="utf-8")))
    out.extend(sorted(corpus))
    out.extend(ODD)
    # Runs of code points from every block up to the supplementary ideographs: what each
    # character becomes (dropped, spaced, stripped, lowercased, a piece or [UNK]).
    # Only characters Unicode 3.2 already had: a later one may be unassigned to `tokenizers`'
    # tables, Python's or the browser's (each its own Unicode version), and is left out.
    for start in range(0x20, 0x31000, 0x60):
        chars = [chr(c) for c in range(start, start + 0x60) if _old(c)]
        if not chars:
            continue
        out.append(" ".join(chars))
        out.append("".join(chars))
    return out


def tokens() -> dict:
    from judgekit.meaning import weights
    from judgekit.meaning.tokens import WordPiece

    files = weights.find()
    texts = strings()
    ours = WordPiece(weights.vocabulary(files.tokenizer))
    data: dict = {"texts": texts, "ours": [ours.pieces(t) for t in texts]}
    try:
        from tokenizers import Tokenizer
    except ImportError:
        data["hf"] = None
        return data
    tok = Tokenizer.from_file(str(files.tokenizer))
    tok.no_padding()
    tok.no_truncation()
    data["hf"] = [e.ids for e in tok.encode_batch(texts, add_special_tokens=False)]
    return data


def embed(texts: list[str]) -> dict:
    from judgekit.meaning import model, weights

    enc = model.encoder(weights.find(), None)
    return {"vectors": [enc.embed(t).tolist() for t in texts]}


def near(root: str, cache: str, questions: list[str]) -> dict:
    from judgekit import create_app

    app = create_app(
        {
            "TESTING": True,
            "CORPUS_DIR": root,
            "SEARCH_CACHE_DIR": cache,
            "SEARCH_MEANING": "now",
            "SEARCH_PRELOAD": False,
        }
    )
    index = app.extensions["judgekit"]["search"].index
    assert index.meaning is not None, "the model did not load"
    every = range(index.meaning.passages.count)

    def focus(q: str) -> list[int]:  # each item's nearest chunk's sentences, two an item
        chunks = index.meaning.nearest(q, every)
        return [s for chunk in chunks for s in index.focus.of(chunk) or (-1, -1)]

    return {
        "near": [index.meaning.nearness(q).tolist() for q in questions],
        "focus": [focus(q) for q in questions],
    }


def main() -> None:
    mode = sys.argv[1]
    if mode == "tokens":
        out = tokens()
    elif mode == "embed":
        out = embed(json.load(sys.stdin))
    else:
        out = near(sys.argv[2], sys.argv[3], json.load(sys.stdin))
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
