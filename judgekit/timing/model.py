"""Timing sequences as data: the frozen dataclasses and the schema's vocabularies.

Parsing builds these (timing.parse); loading is timing.load's, addresses and links timing.links's.
Nothing here imports them, so they never import each other.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

from judgekit.corpus.read import CorpusError

ACTORS = ("active", "opponent", "each", "either", "game")
KINDS = ("action", "check", "response")
END = "end"
NUMBER_RE = re.compile(r"^(0|[1-9][0-9]*)(\.[a-z])?$")
PRINTED_RE = re.compile(r"^[0-9]{1,3}(\.[a-z])?$")
NONE = "none"  # a counterpart entry: this step has no counterpart in that version
CALC_RULES = ("draw", "cost_limit", "duplicate", "type", "cost", "no_personnel", "met", "unmet")
CALC_DUPLICATE = ("overcome", "not-allowed")
CALC_COST_COUNTS = ("faced", "chosen")
CALC_BELOW_ZERO = ("rule", "reading")
SUFFIX = ".timing.yaml"
# The address of First Edition's timing rulings page: no sequence may take it.
RESERVED_IDS = ("first-edition",)


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
class Back:
    """The way back an editor adds where a step's own words send the judge to an earlier step."""

    goto: str
    says: str  # the step's words that send the judge back, verbatim
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
    printed: str | None = None
    # version -> the ids of the step's counterparts there; () when it has none (declared "none").
    counterparts: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False)
    # A response window's reach, when the text keeps it open past its own step (a step number or END).
    open_until: str | None = None
    # Card wordings that take effect at this step (editorial), so a judge can find the step.
    wording: tuple[str, ...] = ()
    # Response steps of other sequences of this version open here too ("sequence/step", editorial).
    also_open: tuple[str, ...] = ()
    # Steps of other sequences of this version that arise from this one ("sequence/step", editorial).
    also_see: tuple[str, ...] = ()
    # version -> how the rule changed against its counterpart there (the editors' words).
    changed: dict[str, str] = field(default_factory=dict, hash=False)
    # Where the step's text says to repeat from or return to (editorial): a choice beside Next.
    back: Back | None = None

    @property
    def label(self) -> str:
        """The number a judge sees: the printed one where the rulebook prints one."""
        return self.printed or self.number


@dataclass(frozen=True)
class CalculatorConfig:
    """The version-specific rules of the mission-attempt calculator."""

    duplicate: str
    cost_counts: str
    steps: dict[str, str] = field(default_factory=dict, hash=False)
    location: str = ""
    # rule: the version's words make a number taken below zero 0; reading: the editors do
    below_zero: str = "rule"


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

    def numbered_by_editors(self, step: Step) -> bool:
        """Whether the number a judge sees is the editors' (a derived step the rulebook leaves unnumbered)."""
        return not self.official and step.printed is None

    def next_of(self, step: Step) -> Step | None:
        """Where Next goes: the step's `next`, else the following step; None at the end."""
        if step.next == END:
            return None
        if step.next:
            return self.find(step.next)
        index = self.flat.index(step)
        return self.flat[index + 1] if index + 1 < len(self.flat) else None

    def back_of(self, step: Step) -> Step | None:
        """The earlier step the step's words send the judge back to, or None."""
        return self.find(step.back.goto) if step.back else None

    def prev_of(self, step: Step) -> Step | None:
        """The previous step in reading order, or None at the first."""
        index = self.flat.index(step)
        return self.flat[index - 1] if index > 0 else None

    def target(self, branch: Branch) -> Step | None:
        """The step a branch leads to; None when it ends the sequence."""
        return None if branch.goto == END else self.find(branch.goto)

    def open_windows(self, step: Step) -> tuple[Step, ...]:
        """The response windows open at a step: its own, and earlier ones the text keeps open."""
        index = self.flat.index(step)
        found = []
        for i, other in enumerate(self.flat[: index + 1]):
            if other.kind != "response":
                continue
            if i == index:
                found.append(other)
            elif other.open_until == END:
                found.append(other)
            elif other.open_until and (until := self.find(other.open_until)) is not None:
                if self.flat.index(until) >= index:
                    found.append(other)
        return tuple(found)


@dataclass(frozen=True)
class Note:
    """A timing statement of a rulings document, quoted from one ruling: no sequence is invented."""

    id: str
    title: str  # the editors' words
    document: str
    version: str
    ruling: str  # the entry it quotes, and links from
    text: str  # verbatim in the ruling
    location: str = ""
    situation: str = ""  # the editors' heading the note is grouped under


@dataclass(frozen=True)
class Dispute:
    """A question judges dispute, in one version: the steps that settle it, or why none does."""

    id: str
    title: str  # the editors' words, the same in every version
    document: str
    version: str
    at: tuple[str, ...] = ()  # "sequence/step" of this version's sequences
    absent: str | None = None  # the editors' words: why this version's text supports no sequence
    nearest: tuple[Cite, ...] = ()  # with `absent`: the rules nearest the question
    location: str = ""


@dataclass(frozen=True)
class Timing:
    """Every loaded sequence, in document and version order, the rulings' timing notes, and the
    disputes each version's sequences answer."""

    sequences: tuple[Sequence, ...] = ()
    notes: tuple[Note, ...] = ()
    disputes: tuple[Dispute, ...] = ()

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

    @cached_property
    def counterpart_map(self) -> dict[tuple[str, str, str], dict[str, set[str]]]:
        """(sequence, version, step id) -> other version -> counterpart ids; declared either way."""
        links: dict[tuple[str, str, str], dict[str, set[str]]] = {}
        for seq in self.sequences:
            for step in seq.flat:
                for version, ids in step.counterparts.items():
                    links.setdefault((seq.id, seq.version, step.id), {}).setdefault(
                        version, set()
                    ).update(ids)
                    for other in ids:
                        links.setdefault((seq.id, version, other), {}).setdefault(
                            seq.version, set()
                        ).add(step.id)
        return links

    def counterparts(self, seq: Sequence, step: Step, version: str) -> tuple[Step, ...] | None:
        """The step's counterparts in another version of its sequence; () none; None if unrecorded."""
        other = self.get(seq.id, version)
        ids = self.counterpart_map.get((seq.id, seq.version, step.id), {}).get(version)
        if other is None or ids is None:
            return None
        # The step's own declaration first, in its order (the version switch opens the first).
        declared = [other.find(i) for i in step.counterparts.get(version, ())]
        rest = [s for s in other.flat if s.id in ids and s not in declared]
        return tuple(s for s in declared + rest if s is not None)
