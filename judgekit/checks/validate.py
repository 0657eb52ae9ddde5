"""`judgekit check`: the corpus's format, then its content, timing, search-vocabulary and table-talk checks."""

from __future__ import annotations

from pathlib import Path

from judgekit.corpus.check import check_corpus, seeds_dir
from judgekit.corpus.model import Corpus
from judgekit.corpus.pages_check import page_problems
from judgekit.corpus.read import CorpusError, read_corpus
from judgekit.render.senses import sense_problems
from judgekit.search.query import called_problems
from judgekit.search.tabletalk import table_talk_problems
from judgekit.search.vocabulary import vocabulary_problems
from judgekit.timing.check import timing_problems


def check_loaded(corpus: Corpus, seeds: Path | None = None) -> list[str]:
    """Every problem of a loaded corpus and its timing files; seeds default to ``seeds_dir``."""
    if seeds is None:
        seeds = seeds_dir(corpus.root)
    return (
        check_corpus(corpus, seeds)
        + page_problems(corpus, seeds)
        + timing_problems(corpus)
        + vocabulary_problems(corpus)
        + table_talk_problems(corpus)
        + sense_problems(corpus)
        + called_problems(corpus)
    )


def validate(
    root: str | Path | None = None, seeds: Path | None = None, draft: str | Path | None = None
) -> tuple[Corpus | None, list[str]]:
    """The corpus (with the draft folder on top, if named) and every problem `judgekit check`
    and the app refuse it for.

    The format's problems come first and stop the rest; then the content checks.
    """
    try:
        corpus = read_corpus(root, draft)
    except CorpusError as exc:
        return None, exc.problems
    return corpus, check_loaded(corpus, seeds)


def run_check(root: str | Path | None = None, seeds: Path | None = None) -> list[str]:
    """Every problem of the corpus under root, as ``file:line: message``."""
    return validate(root, seeds)[1]
