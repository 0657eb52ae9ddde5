"""Load the corpus for use: read it, then refuse it for anything `judgekit check` refuses."""

from __future__ import annotations

from pathlib import Path

from judgekit.checks.validate import validate
from judgekit.corpus.model import Corpus
from judgekit.corpus.read import CorpusError, corpus_digest, corpus_files, default_root, read_corpus

__all__ = [
    "CorpusError",
    "corpus_digest",
    "corpus_files",
    "default_root",
    "load_corpus",
    "read_corpus",
]


def load_corpus(
    root: str | Path | None = None, *, strict: bool = True, draft: str | Path | None = None
) -> Corpus:
    """The corpus under root (with a draft folder on top, if named); raise CorpusError with
    every problem, as `judgekit check` lists them.

    strict=False only reads and checks the format (fields, ids, references), for tools
    that look at a corpus still being edited (coverage) and tests of single checks.
    """
    if not strict:
        return read_corpus(root, draft)
    corpus, problems = validate(root, draft=draft)
    if problems or corpus is None:
        raise CorpusError(problems)
    return corpus
