"""The timing JSON shapes, built without Flask: the API serves them and the stepper pages render them.

What the editors add (who acts, the kind of step, branch labels, trigger lists, open windows,
counterparts) is marked as editorial in the shapes, so a page can tell it from the rulebook's words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from judgekit import urls
from judgekit.corpus.model import Block
from judgekit.corpus.references import Target, resolve
from judgekit.corpus.typography import normalize_typography
from judgekit.render.library import Library, Memo
from judgekit.render.text import to_html, to_plain
from judgekit.search.analysis import stems
from judgekit.shapes.calculation import calculation_dict
from judgekit.shapes.reading import ref
from judgekit.timing.calculator import calculate, parse_input
from judgekit.timing.check import find_paragraph
from judgekit.timing.links import note_url, sequence_api_url, sequence_url
from judgekit.timing.model import END, Cite, Dispute, Note, Sequence, Step, Timing

_SEQUENCE_JSON: Memo[tuple[str, str, int], dict[str, Any]] = Memo(__name__, "sequence JSON")
_INDEX_JSON: Memo[int, dict[str, Any]] = Memo(__name__, "timing index JSON")

ACTOR_LABELS = {
    "active": "Active player",
    "opponent": "Opponent",
    "each": "Each player in turn",
    # The text's "you" is whichever player's card it is, on either player's turn.
    "either": "Either player",
    "game": "The rules",
}
KIND_LABELS = {"action": "Action", "check": "Check", "response": "Response window"}
# The parts of a step that are the editors', not the rulebook's (the page marks them so).
EDITORIAL = ("actor_label", "kind_label", "branches.if", "triggers", "wording", "windows")
EDITORIAL += ("counterparts", "also_see", "back")
RESPONSES = "response-actions"
GENERIC_WINDOW = (
    "This version prints no response windows: “when” text may be used each time its trigger "
    "occurs, and “while” text while its condition is true."
)  # the sequence that says how a response window is worked through
# Version 4 prints windows for two sequences; its other (derived) ones have only the general rule.
PRINTED_ELSEWHERE = (
    "This version prints response windows only for attempting a mission and playing a card; "
    "elsewhere its glossary says of a response action: “Any time the trigger is met, you may use "
    "the text one time.”"
)
# Sequences where no card text is yet in play, or that are no timing at all: no window line.
NO_WINDOWS = ("setup", "modifications")


def cite_dict(lib: Library, seq: Sequence | Dispute, cite: Cite) -> dict[str, Any]:
    """A step's (or dispute's) citation: the entry, and the cited paragraph's text when it names one."""
    found = resolve(lib.corpus, cite.target, seq.document, seq.version)
    entry = lib.get(found) if isinstance(found, Target) and not found.external else None
    if entry is None:
        return {"target": cite.target, "resolved": False, "title": cite.target, "url": None}
    data = {
        **ref(lib, found),
        "target": cite.target,
        "resolved": True,
        "citation": lib.citation_title(entry),
        "page_editorial": lib.page_editorial(entry),  # the citation's page is the editors' reading
        "para": cite.para,
        "block": None,
        "label_editorial": False,  # an "Example" label the source does not print (marked ed.)
        "text": None,
        "html": None,
    }
    matches = find_paragraph(entry, cite.para) if cite.para else []
    if len(matches) == 1:
        kind, markdown = matches[0]
        link = lib.linker(entry)
        data["block"] = kind
        version = lib.corpus.version(entry.document, entry.version)
        data["label_editorial"] = version.label_editorial(Block(kind, markdown))
        data["text"] = to_plain(markdown, lib.corpus.icons, link)
        data["html"] = to_html(markdown, lib.corpus.icons, link)
    return data


def step_ref(seq: Sequence, step: Step | None) -> dict[str, Any] | None:
    """A link to a step: id, number (the address), the number shown, URL."""
    if step is None:
        return None
    return {
        "id": step.id,
        "number": step.number,
        "label": step.label,
        "label_editorial": seq.numbered_by_editors(step),
        "title": step.title,
        "url": sequence_url(seq, step),
    }


def version_name(lib: Library, seq: Sequence | Dispute) -> str:
    """The version's short name ("v1.1", "Call to Arms", "v4"), never its raw id."""
    return lib.corpus.version(seq.document, seq.version).short_title or seq.version


def _counterparts(lib: Library, timing: Timing, seq: Sequence, step: Step) -> list[dict[str, Any]]:
    out = []
    for other in timing.versions(seq.id):
        if other.version == seq.version:
            continue
        found = timing.counterparts(seq, step, other.version)
        # What changed, said on either side of the pair.
        changed = [step.changed[other.version]] if other.version in step.changed else []
        changed += [s.changed[seq.version] for s in found or () if seq.version in s.changed]
        out.append(
            {
                "version": other.version,
                "version_name": version_name(lib, other),
                "official": other.official,
                "recorded": found is not None,
                "steps": [step_ref(other, s) for s in found or ()],
                "changed": list(dict.fromkeys(changed)),
                # Where there is none, the switch opens the sequence's start and says so.
                "url": sequence_url(other, found[0]) if found else sequence_url(other),
            }
        )
    return out


def _prints_windows(timing: Timing, seq: Sequence) -> bool:
    # A property of the version, not of one sequence: v4's Turn Sequence has no window of its own
    # but v4 prints them in its mission attempt. The sequence on how responses are resolved has
    # response steps in every version, so it does not count.
    return any(
        step.kind == "response"
        for other in timing
        if (other.document, other.version) == (seq.document, seq.version) and other.id != RESPONSES
        for step in other.flat
    )


def _windows(timing: Timing, seq: Sequence, step: Step) -> list[dict[str, Any]]:
    responses = timing.get(RESPONSES, seq.version)
    how = sequence_url(responses) if responses else None
    if seq.id in NO_WINDOWS:
        return []
    if responses and seq.id != RESPONSES and not _prints_windows(timing, seq):
        # 1.1 and Call to Arms print no windows: "when" text answers its trigger when it occurs.
        return [{"generic": True, "text": GENERIC_WINDOW, "how": how, "here": False}]
    if responses and seq.id != RESPONSES and not seq.official:
        # A derived step inside a printed sequence (a dilemma's actions, at the attempt's step 3.i)
        # shows the printed windows open there; elsewhere the general rule.
        if step.also_open:
            return [_other_window(timing, seq, ref, how) for ref in step.also_open]
        return [{"generic": True, "text": PRINTED_ELSEWHERE, "how": how, "here": False}]
    return [
        {
            **step_ref(seq, w),
            "text": w.text,
            "triggers": list(w.triggers),
            "here": w is step,
            "until": None
            if w.open_until is None
            else ("end" if w.open_until == END else seq.find(w.open_until).label),
            "how": how,
            "generic": False,
        }
        for w in seq.open_windows(step)
    ] + [_other_window(timing, seq, ref, how) for ref in step.also_open]


def _elsewhere(timing: Timing, seq: Sequence | Dispute, ref: str) -> dict[str, Any]:
    """A step of another sequence of this version ("sequence/step", checked to exist)."""
    seq_id, _, step_id = ref.partition("/")
    other = timing.get(seq_id, seq.version)
    return {
        **step_ref(other, other.find(step_id)),
        "sequence": other.id,
        "sequence_title": other.title,
    }


def _other_window(timing: Timing, seq: Sequence, ref: str, how: str | None) -> dict[str, Any]:
    # A window another sequence of this version keeps open here (checked: a response step).
    window = timing.get(ref.partition("/")[0], seq.version).find(ref.partition("/")[2])
    return {
        **_elsewhere(timing, seq, ref),
        "text": window.text,
        "triggers": list(dict.fromkeys(window.triggers + window.wording)),
        "here": False,
        "until": None,
        "how": how,
        "generic": False,
    }


def _back(seq: Sequence, step: Step) -> dict[str, Any] | None:
    # The editors' way back where the step's words (`says`) send the judge to an earlier step.
    # There Next and the way back are the step's two branches: each says when to take it ("when",
    # "next_when": its branch's condition), as Next elsewhere is only the reading order.
    back = seq.back_of(step)
    if step.back is None or back is None:
        return None
    following = seq.next_of(step)
    when = {seq.target(b): b.label for b in reversed(step.branches)}
    return {
        **step_ref(seq, back),
        "text": back.text,
        "says": step.back.says,
        "when": when.get(back),
        "next_when": when.get(following),
    }


def step_dict(lib: Library, timing: Timing, seq: Sequence, step: Step) -> dict[str, Any]:
    """GET /api/timing/<id>: one step and its sub-steps."""
    counterparts = _counterparts(lib, timing, seq, step)
    see = timing.get(step.see, seq.version) if step.see else None
    return {
        "id": step.id,
        "number": step.number,
        "printed": step.printed,
        "label": step.label,
        "label_editorial": seq.numbered_by_editors(step),
        "title": step.title,
        "text": step.text,
        "html": to_html(step.text, lib.corpus.icons, lib.linker_at(seq.document, seq.version)),
        "actor": step.actor,
        "actor_label": ACTOR_LABELS[step.actor],
        "kind": step.kind,
        "kind_label": KIND_LABELS[step.kind],
        "triggers": list(step.triggers),
        "wording": list(step.wording),
        "windows": _windows(timing, seq, step),
        "branches": [
            {
                "if": branch.label,
                "goto": branch.goto if (target := seq.target(branch)) is None else target.number,
                "goto_label": "end" if target is None else target.label,
                "says": branch.says,
                "url": sequence_url(seq, target) if target else sequence_url(seq, step="end"),
            }
            for branch in step.branches
        ],
        "prev": step_ref(seq, seq.prev_of(step)),
        "next": step_ref(seq, seq.next_of(step)),
        "back": _back(seq, step),
        "see": {"id": see.id, "title": see.title, "url": sequence_url(see)} if see else None,
        "also_see": [_elsewhere(timing, seq, ref) for ref in step.also_see],
        "note": step.note,
        "url": sequence_url(seq, step),
        "counterparts": counterparts,
        "other_versions": [
            {"version": c["version"], "official": c["official"], **c["steps"][0]}
            for c in counterparts
            if c["steps"]
        ],
        "editorial": list(EDITORIAL),
        "cites": [cite_dict(lib, seq, cite) for cite in step.cites],
        "children": [step_dict(lib, timing, seq, child) for child in step.children],
    }


def flat_steps(steps: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Serialized steps in reading order (depth first)."""
    for step in steps:
        yield step
        yield from flat_steps(step["children"])


def sequence_summary(lib: Library, seq: Sequence) -> dict[str, Any]:
    """A sequence's version as listed."""
    return {
        "version": seq.version,
        "version_name": version_name(lib, seq),
        "official": seq.official,
        "url": sequence_url(seq),
        "api_url": sequence_api_url(seq),
    }


def sequence_dict(lib: Library, timing: Timing, seq: Sequence) -> dict[str, Any]:
    """GET /api/timing/<id>?version=: the sequence with every step; computed once per library."""
    cache = lib.memo(_SEQUENCE_JSON)
    key = (seq.id, seq.version, id(timing))
    if key not in cache:
        version = lib.corpus.version(seq.document, seq.version)
        cache[key] = {
            "id": seq.id,
            "title": seq.title,
            "document": seq.document,
            "version": seq.version,
            "version_title": version.title,
            "version_name": version_name(lib, seq),
            "in_force": lib.corpus.in_force(version),
            "official": seq.official,
            "intro": seq.intro,
            "note": seq.note,
            "source": cite_dict(lib, seq, Cite(seq.source)),
            "calculator": seq.calculator is not None,
            "url": sequence_url(seq),
            "versions": [sequence_summary(lib, s) for s in timing.versions(seq.id)],
            "absent_in": _absent_in(lib, timing, seq),
            "steps": [step_dict(lib, timing, seq, step) for step in seq.steps],
        }
    return cache[key]


def _absent_in(lib: Library, timing: Timing, seq: Sequence) -> list[dict[str, Any]]:
    # The versions whose text the editors say supports no such sequence: the disputes this
    # sequence answers here, answered elsewhere with `absent` (and the rules nearest).
    answered = {
        d.id
        for d in timing.disputes
        if d.version == seq.version and any(ref.split("/")[0] == seq.id for ref in d.at)
    }
    held = {s.version for s in timing.versions(seq.id)}
    return [
        {
            "version": d.version,
            "version_name": version_name(lib, d),
            "dispute": d.id,
            "absent": d.absent,
            "nearest": [cite_dict(lib, d, cite) for cite in d.nearest],
            "url": f"{urls.TIMING}#dispute-{d.id}",
            "editorial": ["absent"],
        }
        for d in timing.disputes
        if d.id in answered and d.absent and d.version not in held
    ]


def note_dict(lib: Library, note: Note) -> dict[str, Any]:
    """A rulings timing note: the editors' title, the ruling's words, and the ruling."""
    entry = lib.corpus.entry(note.document, note.version, note.ruling)
    version = lib.corpus.version(note.document, note.version)
    link = lib.linker(entry)
    return {
        "id": note.id,
        "title": note.title,
        "document": note.document,
        "version": note.version,
        "edition": version.edition,
        "document_title": f"{lib.corpus.documents[note.document].title} {version.short_title}",
        "text": to_plain(note.text, lib.corpus.icons, link),
        "html": to_html(note.text, lib.corpus.icons, link),
        "ruling": {
            "id": entry.id,
            "citation": lib.citation_title(entry),
            "url": lib.entry_url(entry),
        },
        "situation": note.situation,
        "url": note_url(note),
        "editorial": ["title", "situation"],
    }


def disputes_dict(lib: Library, timing: Timing) -> list[dict[str, Any]]:
    """The disputes judges have, each with every version's answer: the steps that settle it, or
    the editors' word that the version's text supports no sequence, and the rules nearest."""
    out: dict[str, dict[str, Any]] = {}
    for dispute in timing.disputes:
        item = out.setdefault(
            dispute.id,
            {
                "id": dispute.id,
                "title": dispute.title,
                "versions": [],
                "editorial": ["title", "versions.absent"],
            },
        )
        steps = [
            {
                **_elsewhere(timing, dispute, at),
                "official": timing.get(at.split("/")[0], dispute.version).official,
            }
            for at in dispute.at
        ]
        item["versions"].append(
            {
                "version": dispute.version,
                "version_name": version_name(lib, dispute),
                "steps": steps,
                "absent": dispute.absent,
                "nearest": [cite_dict(lib, dispute, cite) for cite in dispute.nearest],
            }
        )
    return list(out.values())


def first_edition_dict(lib: Library, timing: Timing) -> dict[str, Any]:
    """GET /api/timing/first-edition: the Current Rulings' timing notes, grouped by situation."""
    situations: dict[str, list[dict[str, Any]]] = {}
    for note in timing.notes:
        situations.setdefault(note.situation, []).append(note_dict(lib, note))
    return {
        "edition": "1E",
        "title": "First Edition: timing in the Current Rulings",
        "documents": sorted({n.document for n in timing.notes}),
        "situations": [
            {"title": title, "notes": notes, "editorial": ["title"]}
            for title, notes in situations.items()
        ],
        "url": urls.TIMING_FIRST_EDITION,
        "api_url": urls.TIMING_FIRST_EDITION_API,
        "index_url": urls.TIMING,
    }


def index_dict(lib: Library, timing: Timing) -> dict[str, Any]:
    """GET /api/timing: every sequence and its versions (the in-force one last), and the notes."""
    cache = lib.memo(_INDEX_JSON)
    if id(timing) not in cache:
        cache[id(timing)] = _index(lib, timing)
    return cache[id(timing)]


def _index(lib: Library, timing: Timing) -> dict[str, Any]:
    out = []
    for seq_id in timing.ids():
        versions = timing.versions(seq_id)
        out.append(
            {
                "id": seq_id,
                "title": versions[-1].title,
                "versions": [s.version for s in versions],
                "version_names": {s.version: version_name(lib, s) for s in versions},
                "default_version": versions[-1].version,
                "official": {s.version: s.official for s in versions},
                "url": sequence_url(versions[-1]),
            }
        )
    first_edition = {
        "title": "First Edition: timing in the Current Rulings",
        "url": urls.TIMING_FIRST_EDITION,
        "api_url": urls.TIMING_FIRST_EDITION_API,
        "count": len(timing.notes),
    }
    return {
        "sequences": out,
        "disputes": disputes_dict(lib, timing),
        "first_edition": first_edition,
        # Kept for scripts written before the notes had a page of their own (first_edition).
        "notes": [note_dict(lib, n) for n in timing.notes],
    }


def _stems(text: str) -> set[str]:
    # The search index's terms: stemmed ("revealed" finds "reveal"), stop words ("you", "a") dropped.
    return set(stems(normalize_typography(text)))


def _words(text: str) -> set[str]:
    # Words as written: stemming makes "drawn" and "draw" one term; the tense tells the steps apart.
    return set(re.findall(r"[a-z]+", normalize_typography(text).casefold()))


def find_steps(timing: Timing, seq: Sequence, query: str, limit: int = 20) -> list[dict[str, Any]]:
    """Steps of every sequence of this version by how many of the query's words they hold, best first.

    A step's words are its text, title, triggers and card wordings; among steps holding as many, one
    whose trigger or wording holds the most comes first, then one whose matched trigger or wording
    holds the most of the query's words as written ("drawn dilemmas", not "about to draw dilemmas",
    for "when you have drawn dilemmas"), then one whose title does, then reading order.
    """
    wanted = set(list(dict.fromkeys(stems(normalize_typography(query))))[:20])
    if not wanted:
        return []
    written = {w for w in _words(query) if stems(w)}  # stop words ("when", "is") count for nothing
    ranked = []
    for other in timing:
        if (other.document, other.version) != (seq.document, seq.version):
            continue
        for step in other.flat:
            phrases = [(len(_stems(t) & wanted), t) for t in (*step.triggers, *step.wording)]
            best, matched = max(
                phrases, key=lambda p: (p[0], len(_words(p[1]) & written)), default=(0, None)
            )
            as_written = len(_words(matched) & written) if best else 0
            titled = len(_stems(step.title or "") & wanted)
            words = (_stems(step.text) | _stems(step.title or "")) & wanted
            held = len(words | set().union(*(_stems(t) & wanted for _, t in phrases)))
            if held:
                key = (-held, -best, -as_written, -titled, len(ranked))
                ranked.append((*key, other, step, matched if best else None))
    ranked.sort(key=lambda r: r[:5])
    return [
        {
            **step_ref(other, step),
            "sequence": other.id,
            "sequence_title": other.title,
            "text": step.text,
            "matched": matched,
            "held": -held,
            "of": len(wanted),
        }
        for held, _, _, _, _, other, step, matched in ranked[:limit]
    ]


def run_calculator(
    lib: Library, timing: Timing, seq: Sequence, args: Mapping[str, str]
) -> dict[str, Any]:
    """Parse the parameters and calculate; raise CalcError on a bad parameter."""
    return calculation_dict(
        seq, built_steps(lib, timing, seq), calculate(seq.calculator, parse_input(args))
    )


def built_steps(lib: Library, timing: Timing, seq: Sequence) -> dict[str, dict[str, Any]]:
    """A sequence's serialized steps by number: what the calculator's citations are taken from."""
    return {s["number"]: s for s in flat_steps(sequence_dict(lib, timing, seq)["steps"])}
