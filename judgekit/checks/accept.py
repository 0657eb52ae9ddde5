"""Accept a draft into the corpus: every check on the corpus with the draft, then its files in."""

from __future__ import annotations

from pathlib import Path

from judgekit.checks.validate import validate
from judgekit.corpus.drafts import copy_into
from judgekit.corpus.read import CorpusError, default_root


def accept_draft(
    draft_dir: str | Path, corpus_root: str | Path | None = None, seeds: Path | None = None
) -> list[Path]:
    """Copy a draft folder's corpus files into the corpus; the files written.

    Refuses, writing nothing, with CorpusError listing every problem, when any `judgekit check`
    check fails on the corpus with the draft on top, the draft is empty or malformed, or a
    file it holds is held already. The report and decisions files are not copied.
    """
    root = Path(corpus_root) if corpus_root else default_root()
    corpus, problems = validate(root, seeds, draft=draft_dir)
    if problems or corpus is None:
        raise CorpusError(problems)
    try:
        return copy_into(Path(draft_dir), root)
    except FileExistsError as exc:
        # Held meanwhile (another accept?): what was written is removed again.
        raise CorpusError([f"{exc.filename}:1: held already: nothing was accepted"]) from None
    except OSError as exc:
        raise CorpusError(
            [
                f"{exc.filename or root}:0: cannot write ({exc.strerror or exc}): nothing was accepted"
            ]
        ) from None
