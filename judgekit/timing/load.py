"""Timing sequences loaded: each version's timing file beside its document, once per corpus.

Parsing one file is timing.parse's; the dataclasses are timing.model's; URLs and the links between
entries and steps are timing.links's.
"""

from __future__ import annotations

from pathlib import Path

from judgekit.corpus.model import Corpus, Version
from judgekit.timing.model import SUFFIX, Dispute, Note, Sequence, Timing, TimingError
from judgekit.timing.parse import load_timing_parts


def timing_path(corpus: Corpus, version: Version) -> Path:
    """Where a version's timing file lives: beside its version file (a draft's is in the draft)."""
    beside = version.path or corpus.documents[version.document].path
    return Path(beside).parent / f"{version.id}{SUFFIX}"


def load_sequences(corpus: Corpus) -> Timing:
    """Every timing sequence beside the corpus's versions; raise TimingError on any schema problem."""
    sequences: list[Sequence] = []
    notes: list[Note] = []
    disputes: list[Dispute] = []
    problems: list[str] = []
    for version in corpus.versions():
        path = timing_path(corpus, version)
        if path.exists():
            try:
                found, noted, disputed = load_timing_parts(path, version.document, version.id)
            except TimingError as exc:
                problems.extend(exc.problems)
                continue
            sequences.extend(found)
            notes.extend(noted)
            disputes.extend(disputed)
    if problems:
        raise TimingError(problems)
    order = {seq_id: i for i, seq_id in enumerate(dict.fromkeys(s.id for s in sequences))}
    # Stable sort: each sequence's versions stay in document order, oldest first.
    return Timing(
        tuple(sorted(sequences, key=lambda s: order[s.id])), tuple(notes), tuple(disputes)
    )


_CACHE: dict[tuple[str, str, int], Timing] = {}


def sequences_for(corpus: Corpus) -> Timing:
    """load_sequences, computed once per loaded corpus (the digest covers the timing files)."""
    key = (corpus.root, corpus.digest, id(corpus))
    if key not in _CACHE:
        _CACHE[key] = load_sequences(corpus)
    return _CACHE[key]
