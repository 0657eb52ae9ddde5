"""The server's search gives every golden answer (tests/golden/search.jsonl) exactly.

A change of ranking, snippets, corrections or notes fails here until the golden file is made
again (``python -m tests.golden.generate``) and its diff reviewed; tests/node/golden.test.mjs
holds the pack's search to the same file.
"""

from __future__ import annotations

import json

import pytest

from judgekit.web.context import KEY
from tests.golden.generate import GOLDEN, project, questions, unused_words


@pytest.fixture(scope="module")
def golden() -> list[dict]:
    return [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]


def test_golden_file_holds_the_generators_questions(app, golden):
    """The file is the generator's: its questions, in its order (one command makes it again)."""
    index = app.extensions[KEY]["search"].index
    names, kinds = [m["name"] for m in index.meta], [m["kind"] for m in index.meta]
    made = questions(index.texts, names, kinds, unused_words(index))
    assert [(q["set"], q["q"], q["params"]) for q in golden] == [
        (q["set"], q["q"], q["params"]) for q in made
    ]
    assert len(golden) >= 2000


def test_server_gives_every_golden_answer(app, golden):
    client = app.test_client()
    wrong = []
    for item in golden:
        answer = client.get("/api/search", query_string={"q": item["q"], **item["params"]})
        got = project(answer.get_json())
        if got != item["answer"]:
            wrong.append((item["q"], item["params"], item["answer"], got))
        if "by_words" in item:
            words = {"q": item["q"], **item["params"], "meaning": "0"}
            got = project(client.get("/api/search", query_string=words).get_json())
            if got != item["by_words"]:
                wrong.append((item["q"], words, item["by_words"], got))
    shown = "\n".join(
        f"{q!r} {p}\n  golden {want}\n  server {got}" for q, p, want, got in wrong[:3]
    )
    assert not wrong, f"{len(wrong)} of {len(golden)} answers differ; the first:\n{shown}"
