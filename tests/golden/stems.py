"""Every word of the corpus and of judgekit's English list, and each corpus word's beginnings (a
word half typed), with Whoosh's Porter2 stem, the server's (analysis.game_stem before its game
fixes): ``python -m tests.golden.stems`` prints them as JSON for tests/node/stemmer.test.mjs."""

from __future__ import annotations

import json
import sys

from whoosh.lang.porter2 import stem

from judgekit import create_app
from judgekit.search.analysis import TOKEN_RE
from judgekit.search.vocabulary import english_words
from judgekit.web.context import KEY


def words() -> list[str]:
    """The words, lowercased as the search reads them."""
    app = create_app({"TESTING": True, "SEARCH_CACHE_DIR": ""})
    index = app.extensions[KEY]["search"].index
    texts = index.texts + [m["name"] for m in index.meta]
    corpus = {t.lower().replace("’", "'") for text in texts for t in TOKEN_RE.findall(text)}
    begun = {w[:n] for w in corpus for n in range(1, len(w))}
    return sorted(corpus | begun | english_words() | index.vocab.known_words())


def main() -> int:
    """Print {word: stem} as JSON."""
    json.dump({w: stem(w) for w in words()}, sys.stdout, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
