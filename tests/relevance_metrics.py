"""Hit@1, hit@3 and MRR of the relevance questions, per category (tests and the benchmark)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

QUESTIONS_FILE = Path(__file__).parent / "relevance_questions.yaml"
CATEGORIES = (
    "paraphrase",
    "number",
    "keyword",
    "card",
    "misspelling",
    "timing",
    "version-specific",
    "edition",
)


def load_questions(path: Path = QUESTIONS_FILE) -> list[dict]:
    """The questions: q, category, expect (document/version/id), quote, optional also, params."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@dataclass
class Score:
    """Ranks of the expected entries (None: not in the results) for one group of questions."""

    ranks: list[int | None] = field(default_factory=list)

    def hit(self, k: int) -> float:
        """The share of questions whose entry is in the top k."""
        return sum(1 for r in self.ranks if r is not None and r <= k) / len(self.ranks)

    @property
    def mrr(self) -> float:
        """Mean reciprocal rank."""
        return sum(1 / r for r in self.ranks if r) / len(self.ranks)


def rank_of(results: Iterable[dict], expect: str, also: Iterable[str] = ()) -> int | None:
    """The 1-based place of the first of the entries (document/version/id) among API results."""
    wanted = {expect, *also}
    keys = [f"{r['document']}/{r['version']}/{r['id']}" for r in results]
    return next((n for n, key in enumerate(keys, 1) if key in wanted), None)


def answering(item: dict, strict: bool = False, in_force: bool = False) -> tuple[str, ...]:
    """The entries besides `expect` that answer a question: its rule's later restatements
    (`also`, see tests/benchmarks/map_blind_quotes.py) unless it names its version, or strict;
    with in_force, also the version in force's passage a reader found answering it (`in_force`)."""
    if strict or item["category"] == "version-specific":
        return ()
    return (*item.get("also", ()), *([item["in_force"]] if in_force and "in_force" in item else []))


def measure(
    search: Callable[[dict], dict],
    questions: list[dict],
    strict: bool = False,
    in_force: bool = False,
) -> tuple[dict[str, Score], list[tuple[dict, int | None]]]:
    """Scores per category and overall ("all"), and every question with its rank."""
    scores: dict[str, Score] = {}
    ranked = []
    for item in questions:
        answer = search({"q": item["q"], **item.get("params", {})})
        rank = rank_of(answer["results"], item["expect"], answering(item, strict, in_force))
        ranked.append((item, rank))
        for name in (item["category"], "all"):
            scores.setdefault(name, Score()).ranks.append(rank)
    return scores, ranked


def table(scores: dict[str, Score]) -> str:
    """A Markdown table of the scores, categories in a fixed order, then all."""
    lines = ["| category | n | hit@1 | hit@3 | MRR |", "|---|---:|---:|---:|---:|"]
    for name in [*CATEGORIES, "all"]:
        if name in scores:
            s = scores[name]
            lines.append(
                f"| {name} | {len(s.ranks)} | {s.hit(1):.2f} | {s.hit(3):.2f} | {s.mrr:.2f} |"
            )
    return "\n".join(lines)


def server_search(client) -> Callable[[dict], dict]:
    """A search through a Flask test client's /api/search, each answer checked to be a 200."""

    def search(params: dict) -> dict:
        response = client.get("/api/search", query_string=params)
        assert response.status_code == 200, params
        return response.get_json()

    return search


def check_targets(
    measured: tuple[dict[str, Score], list[tuple[dict, int | None]]],
    overall: float,
    per_category: float,
) -> None:
    """Assert hit@3 overall and in every category, the table and the misses as the message."""
    scores, ranked = measured
    missed = "\n".join(
        f"  {item['category']}: {item['q']!r} -> {item['expect']} at {rank}"
        for item, rank in ranked
        if rank is None or rank > 3
    )
    report = f"{table(scores)}\nnot in the top 3:\n{missed}"
    assert scores["all"].hit(3) >= overall, report
    for name in CATEGORIES:
        assert scores[name].hit(3) >= per_category, f"{name}\n{report}"
