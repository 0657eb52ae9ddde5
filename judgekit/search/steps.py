"""Timing steps in search: which entries a step quotes, and which newer step an older one became.

Both are stored on the step's index item: ranking puts a step below the entries it quotes
(``ranking.quoted_first``), and collapsing folds a renamed older step into its newer result.
"""

from __future__ import annotations

from judgekit.corpus.model import Corpus
from judgekit.render.library import Library
from judgekit.search.documents import topic_of
from judgekit.timing.links import cite_address
from judgekit.timing.model import NONE, Sequence, Step, Timing


def step_heirs(corpus: Corpus, seqs: Timing) -> dict[tuple[str, str, str, str], tuple[str, ...]]:
    """The step topics a step of an older version continues as, where its id changed.

    A newer sequence names its steps' counterparts in older versions: "when-order" of Call to
    Arms is "when-while-order" of Version 4, the same step, so it folds into that one result.
    Keyed by (document, version, sequence, step); only older versions' steps have heirs.
    """
    out: dict[tuple[str, str, str, str], list[str]] = {}
    for seq in seqs:
        order = corpus.documents[seq.document].order()
        for step in seq.flat:
            heir = topic_of(seq.document, "step", f"{seq.id}.{step.id}")
            for version, ids in step.counterparts.items():
                for old in ids:
                    older = order.get(version, len(order)) < order.get(seq.version, 0)
                    if older and old not in (step.id, NONE):
                        out.setdefault((seq.document, version, seq.id, old), []).append(heir)
    return {key: tuple(dict.fromkeys(topics)) for key, topics in out.items()}


def cited_keys(lib: Library, seq: Sequence, step: Step) -> tuple[str, ...]:
    """The index keys of the entries a step quotes (its cites that resolve), in order."""
    out = []
    for cite in step.cites:
        target = cite_address(seq, cite, lib.corpus)
        if not isinstance(target, str) and not target.external:
            out.append(f"{target.document}/{target.version}/{target.id}")
    return tuple(dict.fromkeys(out))
