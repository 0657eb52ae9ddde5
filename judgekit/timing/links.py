"""Timing sequences' addresses, and the links between entries and the steps that quote them."""

from __future__ import annotations

from typing import Any

from judgekit import urls
from judgekit.corpus.model import Corpus, Entry
from judgekit.corpus.references import Target, resolve
from judgekit.timing.load import sequences_for
from judgekit.timing.model import Cite, Note, Sequence, Step, Timing, TimingError


def sequence_url(seq: Sequence, at: Step | None = None, **params: Any) -> str:
    """The stepper page of a sequence's version, at a step; extra params are kept in the query."""
    return urls.sequence_page(seq.id, seq.version, **({"step": at.number} if at else {}), **params)


def sequence_api_url(seq: Sequence) -> str:
    """The JSON of a sequence's version, every step included."""
    return urls.sequence_api(seq.id, seq.version)


def cite_address(seq: Sequence, cite: Cite, corpus: Corpus) -> Target | str:
    """The entry a cite points at, or the reason it does not resolve."""
    return resolve(corpus, cite.target, seq.document, seq.version)


def note_url(note: Note) -> str:
    """Where a rulings timing note is shown: on First Edition's timing page, at its anchor."""
    return f"{urls.TIMING_FIRST_EDITION}#note-{note.id}"


def entry_links(timing: Timing, corpus: Corpus, entry: Entry) -> list[dict]:
    """The sequences whose steps quote this entry (the whole sequence, or the steps that do),
    and the timing notes quoted from it."""
    links = [
        {
            "note": note.id,
            "sequence": None,
            "title": note.title,
            "version": note.version,
            "official": False,
            "url": note_url(note),
            "steps": [],
        }
        for note in timing.notes
        if (note.document, note.version, note.ruling) == (entry.document, entry.version, entry.id)
    ]
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
                    else [
                        {"number": s.number, "label": s.label, "url": sequence_url(seq, s)}
                        for s in steps
                    ],
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
