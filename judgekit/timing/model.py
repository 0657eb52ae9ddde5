"""Timing sequences: the model, loading beside the corpus, the branch logic, URLs and entry links.

Parsing one file is timing_yaml's; checking it against the corpus (verbatim text) is timing_check's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from judgekit import urls
from judgekit.corpus.model import Corpus, Entry, Version
from judgekit.corpus.read import CorpusError
from judgekit.corpus.references import Target, resolve

ACTORS = ("active", "opponent", "each", "game")
KINDS = ("action", "check", "response")
END = "end"
NUMBER_RE = re.compile(r"^[1-9][0-9]*(\.[a-z])?$")
CALC_RULES = ("draw", "cost_limit", "duplicate", "type", "cost", "no_personnel", "met", "unmet")
CALC_DUPLICATE = ("overcome", "not-allowed")
CALC_COST_COUNTS = ("faced", "chosen")
SUFFIX = ".timing.yaml"


class TimingError(CorpusError):
    """Problems in timing files, each as ``file:line: message`` (a corpus error like any other)."""


@dataclass(frozen=True)
class Cite:
    """A step's citation: an entry, optionally one paragraph of it."""

    target: str
    para: str | None = None
    location: str = ""


@dataclass(frozen=True)
class Branch:
    """A fork in the flow: a labelled choice and the step it leads to (or END)."""

    label: str
    goto: str
    says: str | None = None
    location: str = ""


@dataclass(frozen=True)
class Step:
    """One numbered step: verbatim text, who acts, what kind, where it forks, what it cites."""

    id: str
    number: str
    text: str
    actor: str
    kind: str
    cites: tuple[Cite, ...]
    title: str | None = None
    triggers: tuple[str, ...] = ()
    branches: tuple[Branch, ...] = ()
    next: str | None = None
    see: str | None = None
    note: str | None = None
    children: tuple[Step, ...] = ()
    parent: str | None = None
    location: str = ""


@dataclass(frozen=True)
class CalculatorConfig:
    """The version-specific rules of the mission-attempt calculator."""

    duplicate: str
    cost_counts: str
    steps: dict[str, str] = field(default_factory=dict, hash=False)
    location: str = ""


@dataclass(frozen=True)
class Sequence:
    """A timing sequence of one version of a document."""

    id: str
    title: str
    document: str
    version: str
    official: bool
    source: str
    steps: tuple[Step, ...]
    intro: str | None = None
    note: str | None = None
    calculator: CalculatorConfig | None = None
    location: str = ""

    @cached_property
    def flat(self) -> tuple[Step, ...]:
        """Every step in reading order: depth first."""

        def walk(steps: tuple[Step, ...]) -> Iterator[Step]:
            for step in steps:
                yield step
                yield from walk(step.children)

        return tuple(walk(self.steps))

    def find(self, key: str) -> Step | None:
        """The step with this number or id, or None."""
        for step in self.flat:
            if key in (step.number, step.id):
                return step
        return None

    def next_of(self, step: Step) -> Step | None:
        """Where Next goes: the step's `next`, else the following step; None at the end."""
        if step.next == END:
            return None
        if step.next:
            return self.find(step.next)
        index = self.flat.index(step)
        return self.flat[index + 1] if index + 1 < len(self.flat) else None

    def prev_of(self, step: Step) -> Step | None:
        """The previous step in reading order, or None at the first."""
        index = self.flat.index(step)
        return self.flat[index - 1] if index > 0 else None

    def target(self, branch: Branch) -> Step | None:
        """The step a branch leads to; None when it ends the sequence."""
        return None if branch.goto == END else self.find(branch.goto)


@dataclass(frozen=True)
class Timing:
    """Every loaded sequence, in document and version order."""

    sequences: tuple[Sequence, ...] = ()

    def __iter__(self) -> Iterator[Sequence]:
        return iter(self.sequences)

    def ids(self) -> list[str]:
        """Sequence ids in order of first appearance."""
        return list(dict.fromkeys(s.id for s in self.sequences))

    def versions(self, sequence_id: str) -> list[Sequence]:
        """The versions of one sequence, oldest first."""
        return [s for s in self.sequences if s.id == sequence_id]

    def get(self, sequence_id: str, version: str | None = None) -> Sequence | None:
        """A sequence in a version; without a version, the one in force (the newest)."""
        found = self.versions(sequence_id)
        if version is None:
            return found[-1] if found else None
        return next((s for s in found if s.version == version), None)


def timing_path(corpus: Corpus, version: Version) -> Path:
    """Where a version's timing file lives: beside its document."""
    return Path(corpus.documents[version.document].path).parent / f"{version.id}{SUFFIX}"


def load_sequences(corpus: Corpus) -> Timing:
    """Every timing sequence beside the corpus's versions; raise TimingError on any schema problem."""
    from judgekit.timing.parse import (
        load_timing_file,  # the parser builds this module's dataclasses
    )

    sequences: list[Sequence] = []
    problems: list[str] = []
    for version in corpus.versions():
        path = timing_path(corpus, version)
        if path.exists():
            try:
                sequences.extend(load_timing_file(path, version.document, version.id))
            except TimingError as exc:
                problems.extend(exc.problems)
    if problems:
        raise TimingError(problems)
    order = {seq_id: i for i, seq_id in enumerate(dict.fromkeys(s.id for s in sequences))}
    # Stable sort: each sequence's versions stay in document order, oldest first.
    return Timing(tuple(sorted(sequences, key=lambda s: order[s.id])))


_CACHE: dict[tuple[str, str, int], Timing] = {}


def sequences_for(corpus: Corpus) -> Timing:
    """load_sequences, computed once per loaded corpus (the digest covers the timing files)."""
    key = (corpus.root, corpus.digest, id(corpus))
    if key not in _CACHE:
        _CACHE[key] = load_sequences(corpus)
    return _CACHE[key]


# -- addresses and links ---------------------------------------------------------------------


def sequence_url(seq: Sequence, at: Step | None = None, **params: Any) -> str:
    """The stepper page of a sequence's version, at a step; extra params are kept in the query."""
    return urls.sequence_page(seq.id, seq.version, **({"step": at.number} if at else {}), **params)


def sequence_api_url(seq: Sequence) -> str:
    """The JSON of a sequence's version, every step included."""
    return urls.sequence_api(seq.id, seq.version)


def cite_address(seq: Sequence, cite: Cite, corpus: Corpus) -> Target | str:
    """The entry a cite points at, or the reason it does not resolve."""
    return resolve(corpus, cite.target, seq.document, seq.version)


def entry_links(timing: Timing, corpus: Corpus, entry: Entry) -> list[dict]:
    """The sequences whose steps quote this entry: the whole sequence, or the steps that do."""
    links = []
    for seq in timing:
        if (seq.document, seq.version) != (entry.document, entry.version):
            continue
        source = cite_address(seq, Cite(seq.source), corpus)
        is_source = isinstance(source, Target) and source.id == entry.id
        steps = [
            step
            for step in seq.flat
            if step.cites
            and isinstance(found := cite_address(seq, step.cites[0], corpus), Target)
            and (found.document, found.version, found.id)
            == (entry.document, entry.version, entry.id)
        ]
        if is_source or steps:
            links.append(
                {
                    "sequence": seq.id,
                    "title": seq.title,
                    "version": seq.version,
                    "official": seq.official,
                    "url": sequence_url(seq),
                    "steps": []
                    if is_source
                    else [{"number": s.number, "url": sequence_url(seq, s)} for s in steps],
                }
            )
    return links


def timing_for_entry(lib: Any, entry: Entry) -> list[dict]:
    """entry_links for the API's entry JSON; broken timing files are check's and startup's to report."""
    try:
        timing = sequences_for(lib.corpus)
    except TimingError:
        return []
    return entry_links(timing, lib.corpus, entry)
