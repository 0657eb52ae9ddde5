"""Timing checks against the corpus: citations resolve, cited paragraphs exist, text is verbatim."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from judgekit.corpus.model import Corpus, Entry
from judgekit.corpus.references import resolve
from judgekit.corpus.typography import normalize_typography
from judgekit.render.text import to_plain
from judgekit.timing.links import cite_address
from judgekit.timing.load import load_sequences
from judgekit.timing.model import SUFFIX, Cite, Sequence, Step, Timing, TimingError


@lru_cache(maxsize=8192)
def _norm(markdown: str, fold: bool = False) -> str:
    # Icons render as their names and refs as their words: the same on both sides of a comparison.
    return normalize_typography(to_plain(markdown, {}, lambda _t: None), casefold=fold)


def paragraphs(entry: Entry) -> list[tuple[str, str]]:
    """The entry's paragraphs as (block kind, Markdown), split at blank lines."""
    return [
        (block.kind, para.strip())
        for block in entry.body
        for para in re.split(r"\n\s*\n", block.text)
        if para.strip()
    ]


def find_paragraph(entry: Entry, words: str) -> list[tuple[str, str]]:
    """The paragraphs of an entry that contain these words (typography aside)."""
    needle = _norm(words)
    return [(kind, para) for kind, para in paragraphs(entry) if needle in _norm(para)]


def _check_cites(corpus: Corpus, seq: Sequence, step, entries: dict[Cite, Entry]) -> list[str]:
    """Each cite of a step resolves to a held entry, and its paragraph to exactly one."""
    problems = []
    where = f"{seq.id} {seq.version}"
    for cite in step.cites:
        found = cite_address(seq, cite, corpus)
        if isinstance(found, str) or found.external:
            reason = found if isinstance(found, str) else "external entries are not held"
            problems.append(
                f"{cite.location}: step {step.number!r} of {where} cites {cite.target!r}: {reason}"
            )
            continue
        entries[cite] = corpus.entry(found.document, found.version, found.id)
        if cite.para:
            count = len(find_paragraph(entries[cite], cite.para))
            if count != 1:
                what = "no paragraph" if count == 0 else f"{count} paragraphs"
                problems.append(
                    f"{cite.location}: para {cite.para!r} of step {step.number!r} matches {what} of {cite.target!r}"
                )
    return problems


def _check_words(step, first: Entry) -> list[str]:
    """The step's text and title are verbatim in its first cite; a printed number heads it."""
    problems = []
    whole = _norm(first.title + "\n\n" + first.markdown)
    target = step.cites[0].target
    if _norm(step.text) not in whole:
        problems.append(
            f"{step.location}: text of step {step.number!r} is not verbatim in {target!r}"
        )
    if step.title and _norm(step.title, True) not in whole.casefold():
        problems.append(
            f"{step.location}: title {step.title!r} of step {step.number!r} is not in {target!r}"
        )
    printed = f"{step.printed}. {step.title or ''}".strip()
    if step.printed and not _norm(first.title, True).startswith(_norm(printed, True)):
        problems.append(
            f"{step.location}: printed number {step.printed!r} of step {step.number!r} is not the heading of {target!r}"
        )
    return problems


def _check_branches(step, entries: dict[Cite, Entry]) -> list[str]:
    """What a branch says is verbatim in its step or the step's cites."""
    quoted = " ".join(_norm(e.markdown) for c, e in entries.items() if c in step.cites)
    return [
        f"{branch.location}: 'says' of branch {branch.label!r} of step {step.number!r} is not verbatim in the step or its cites"
        for branch in step.branches
        if branch.says
        and (said := _norm(branch.says)) not in _norm(step.text)
        and said not in quoted
    ]


# Words by which a step's text sends the judge to an earlier step (v4's "Repeat the process
# beginning at", "return to the beginning of part 5"; 1.1's "then reveals the next dilemma").
SENDS_BACK = re.compile(
    r"\brepeat the process\b|\breturn to the beginning\b|\bthen reveals the next\b"
)


def _check_back(step: Step) -> list[str]:
    """A step whose words send the judge back offers the way back, quoting those words."""
    if step.back is not None:
        if _norm(step.back.says) in _norm(step.text):
            return []
        return [
            f"{step.back.location}: 'says' of the way back of step {step.number!r} is not "
            "verbatim in the step"
        ]
    said = SENDS_BACK.search(_norm(step.text, True))
    if said is None:
        return []
    return [
        f"{step.location}: step {step.number!r} says {said.group(0)!r} but offers no way back "
        "(add `back`)"
    ]


def _check_sequence(corpus: Corpus, seq: Sequence) -> list[str]:
    problems = []
    where = f"{seq.id} {seq.version}"
    source = resolve(corpus, seq.source, seq.document, seq.version)
    if isinstance(source, str):
        problems.append(f"{seq.location}: source of {where}: {source}")
        source = None
    entries: dict[Cite, Entry] = {}
    for step in seq.flat:
        problems.extend(_check_cites(corpus, seq, step, entries))
        first = entries.get(step.cites[0]) if step.cites else None
        if seq.official and source and (first is None or first.id != source.id):
            problems.append(
                f"{step.location}: official step {step.number!r} must cite the source {seq.source!r} first"
            )
        if first is not None:
            problems.extend(_check_words(step, first))
        problems.extend(_check_branches(step, entries))
        problems.extend(_check_back(step))
    if seq.intro and source:
        entry = corpus.entry(source.document, source.version, source.id)
        if _norm(seq.intro) not in _norm(entry.markdown):
            problems.append(f"{seq.location}: intro of {where} is not verbatim in {seq.source!r}")
    return problems


def label_problems(seq: Sequence) -> list[str]:
    """No two steps of a sequence show the same number (printed or the editors')."""
    problems = []
    shown: dict[str, Step] = {}
    for step in seq.flat:
        first = shown.setdefault(step.label, step)
        if first is not step:
            problems.append(
                f"{step.location}: step {step.number!r} of {seq.id} {seq.version} shows number "
                f"{step.label!r}, as step {first.number!r} does (number them apart)"
            )
    return problems


def counterpart_problems(timing: Timing) -> list[str]:
    """Every step of a sequence held in several versions names its counterpart in each (or none)."""
    problems = []
    for seq in timing:
        others = [s.version for s in timing.versions(seq.id) if s.version != seq.version]
        for step in seq.flat:
            where = f"step {step.number!r} of {seq.id} {seq.version}"
            for version, ids in step.counterparts.items():
                other = timing.get(seq.id, version)
                if version == seq.version or other is None:
                    problems.append(
                        f"{step.location}: {where} names counterparts in {version!r}, which has no other {seq.id}"
                    )
                    continue
                ids_found = {s.id for s in other.flat}
                problems.extend(
                    f"{step.location}: {where} names unknown counterpart {key!r} in {version}"
                    for key in ids
                    if key not in ids_found
                )
            links = timing.counterpart_map.get((seq.id, seq.version, step.id), {})
            problems.extend(
                f"{step.location}: {where} says what changed in {version!r}, where it names no counterpart"
                for version in step.changed
                if not links.get(version)
            )
            for version in others:
                if version not in links:
                    problems.append(
                        f"{step.location}: {where} has no counterpart recorded for {version} "
                        "(name the step there, or none)"
                    )
                elif step.counterparts.get(version) == () and links[version]:
                    named = ", ".join(sorted(links[version]))
                    problems.append(
                        f"{step.location}: {where} says none in {version}, but {version} names it from {named}"
                    )
    return problems


def also_open_problems(timing: Timing) -> list[str]:
    """Each window a step says is open there too is a response step of its version's sequences;
    each step it links to (also_see) is a step of another sequence of its version."""
    problems = []
    for seq in timing:
        for step in seq.flat:
            refs = [(r, "also_open", "response step") for r in step.also_open]
            refs += [(r, "also_see", "step") for r in step.also_see]
            for ref, field, what in refs:
                seq_id, _, step_id = ref.partition("/")
                other = timing.get(seq_id, seq.version)
                found = other.find(step_id) if other and other is not seq else None
                if found is None or (field == "also_open" and found.kind != "response"):
                    problems.append(
                        f"{step.location}: {field} of step {step.number!r} names {ref!r}, "
                        f"no {what} of another {seq.version} sequence"
                    )
    return problems


def note_problems(corpus: Corpus, timing: Timing) -> list[str]:
    """Each rulings timing note quotes its ruling word for word."""
    problems = []
    for note in timing.notes:
        entry = corpus.entry(note.document, note.version, note.ruling)
        if entry is None:
            problems.append(
                f"{note.location}: note {note.id!r} quotes unknown ruling {note.ruling!r}"
            )
        elif _norm(note.text) not in _norm(entry.markdown):
            problems.append(
                f"{note.location}: text of note {note.id!r} is not verbatim in {note.ruling!r}"
            )
    return problems


def _cite_problems(
    corpus: Corpus, document: str, version: str, cite: Cite, where: str
) -> list[str]:
    """A cite resolves to a held entry of the version's corpus, and its para to one paragraph."""
    found = resolve(corpus, cite.target, document, version)
    if isinstance(found, str) or found.external:
        reason = found if isinstance(found, str) else "external entries are not held"
        return [f"{cite.location}: {where} cites {cite.target!r}: {reason}"]
    if not cite.para:
        return []
    count = len(find_paragraph(corpus.entry(found.document, found.version, found.id), cite.para))
    if count != 1:
        what = "no paragraph" if count == 0 else f"{count} paragraphs"
        return [f"{cite.location}: para {cite.para!r} of {where} matches {what} of {cite.target!r}"]
    return []


def dispute_problems(corpus: Corpus, timing: Timing) -> list[str]:
    """Each dispute names steps of its version's sequences, or says why none and cites the rule
    nearest; every version answering disputes answers the same ones, under the same titles."""
    problems = []
    titles: dict[tuple[str, str], str] = {}
    versions: dict[str, dict[str, set[str]]] = {}
    for dispute in timing.disputes:
        where = f"dispute {dispute.id!r} of {dispute.version}"
        for ref in dispute.at:
            seq_id, _, step_id = ref.partition("/")
            seq = timing.get(seq_id, dispute.version)
            if seq is None or (seq.document != dispute.document) or seq.find(step_id) is None:
                problems.append(
                    f"{dispute.location}: {where} names {ref!r}, no step of that version"
                )
        for cite in dispute.nearest:
            problems += _cite_problems(corpus, dispute.document, dispute.version, cite, where)
        title = titles.setdefault((dispute.document, dispute.id), dispute.title)
        if title != dispute.title:
            problems.append(f"{dispute.location}: {where} is titled {title!r} elsewhere")
        versions.setdefault(dispute.document, {}).setdefault(dispute.version, set()).add(dispute.id)
    for document, answered in versions.items():
        every = set().union(*answered.values())
        problems += [
            f"{document} {version}: timing answers no dispute {key!r} (answered elsewhere)"
            for version, ids in answered.items()
            for key in sorted(every - ids)
        ]
    return problems


def timing_problems(corpus: Corpus) -> list[str]:
    """Every problem of the corpus's timing files: schema and numbering, then citations and verbatim text."""
    problems = []
    known = {(v.document, v.id) for v in corpus.versions()}
    for doc in corpus.held():
        for path in sorted(Path(doc.path).parent.glob(f"*{SUFFIX}")):
            version = path.name[: -len(SUFFIX)]
            if (doc.id, version) not in known:
                problems.append(
                    f"{path}:1: timing file for unknown version {version!r} of {doc.id}"
                )
    try:
        timing = load_sequences(corpus)
    except TimingError as exc:
        return problems + exc.problems
    for seq in timing:
        problems.extend(_check_sequence(corpus, seq))
        problems.extend(label_problems(seq))
    problems += counterpart_problems(timing) + also_open_problems(timing)
    return problems + note_problems(corpus, timing) + dispute_problems(corpus, timing)
