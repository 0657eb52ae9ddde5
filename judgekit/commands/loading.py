"""The corpus a command works on, or its problems printed and exit status 1."""

from __future__ import annotations

import sys

from judgekit.checks.loader import CorpusError, load_corpus
from judgekit.corpus.model import Corpus


def corpus_or_exit(root: str | None, strict: bool = True) -> Corpus:
    """The corpus at root (the built-in one if None); its problems printed and exit 1 if it has any."""
    try:
        return load_corpus(root, strict=strict)
    except CorpusError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        raise SystemExit(1) from None
