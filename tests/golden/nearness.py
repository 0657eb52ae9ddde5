"""The server's nearness by meaning for the golden questions it answered by meaning.

``python -m tests.golden.nearness`` prints a JSON object: each question as the server asked the
model (without the versions and game it names) to every item's nearness, as the server ranked
with it, and each item's nearest chunk's sentences (focus.py: its snippet, if found by meaning). tests/node/golden.test.mjs gives these to the pack's search, which must then answer as
the server did: the fusion of words and meaning, held apart from the model's own parity (each
side computing the nearness: tests/node/meaning.test.mjs).
"""

from __future__ import annotations

import json
import sys

from judgekit import create_app
from judgekit.meaning.model import MeaningModel
from judgekit.web.context import KEY
from tests.golden.generate import GOLDEN


def main() -> int:
    """Print the nearness of every question the golden answers asked the model."""
    app = create_app({"TESTING": True, "SEARCH_MEANING": "now"})
    index = app.extensions[KEY]["search"].index
    model, focus = index.meaning, index.focus
    asked: dict[str, dict[str, list]] = {}
    every = range(model.passages.count)

    class Recording(MeaningModel):
        def nearness(self, question: str):
            near = MeaningModel.nearness(self, question)
            # With each item's nearest chunk's sentences, two an item (-1: not known), as the
            # pack's meaning part gives them (pack-meaning.js: near.focus).
            chunks = MeaningModel.nearest(self, question, every)
            sentences = [s for chunk in chunks for s in focus.of(chunk) or (-1, -1)]
            asked[question] = {"near": near.tolist(), "focus": sentences}
            return near

    index.use_meaning(Recording(model.encoder, model.passages), focus)
    client = app.test_client()
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        if item["answer"].get("by_meaning"):
            client.get("/api/search", query_string={"q": item["q"], **item["params"]})
    json.dump(asked, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
