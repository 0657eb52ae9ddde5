"""Parse and validate one `<version>.timing.yaml` file into Sequences, with file:line problems."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from judgekit.corpus.references import ID_RE
from judgekit.corpus.schema import Problems, check_keys, list_field
from judgekit.corpus.typography import normalize_typography
from judgekit.corpus.yamlio import LList, LMap, YamlError, load_yaml
from judgekit.timing.model import (
    ACTORS,
    CALC_BELOW_ZERO,
    CALC_COST_COUNTS,
    CALC_DUPLICATE,
    CALC_RULES,
    END,
    KINDS,
    NONE,
    NUMBER_RE,
    PRINTED_RE,
    RESERVED_IDS,
    Back,
    Branch,
    CalculatorConfig,
    Cite,
    Dispute,
    Note,
    Sequence,
    Step,
    TimingError,
)


def _text(data: LMap, key: str, path: str, probs: Problems, required: bool = True) -> str | None:
    value = data.get(key)
    if value is None:
        if required:
            probs.add(path, data.line, f"missing required field {key!r}")
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not value.strip():
        probs.add(path, data.line_of(key), f"field {key!r} must be text")
        return None
    return value.strip()


def _cites(items: Any, path: str, probs: Problems, where: str) -> tuple[Cite, ...]:
    if not isinstance(items, LList) or not items:
        probs.add(path, getattr(items, "line", 1), f"{where} cites nothing")
        return ()
    cites = []
    for item in items:
        if isinstance(item, str):
            cites.append(Cite(item, None, f"{path}:{items.line}"))
        elif check_keys(item, {"ref", "para"}, path, probs, "cite"):
            ref = _text(item, "ref", path, probs)
            if ref:
                cites.append(
                    Cite(ref, _text(item, "para", path, probs, False), f"{path}:{item.line}")
                )
    return tuple(cites)


STEP_FIELDS = {"id", "number", "title", "text", "actor", "kind", "triggers", "cites", "branches"}
STEP_FIELDS |= {"next", "see", "note", "children", "printed", "counterparts", "open_until"}
STEP_FIELDS |= {"also_open", "also_see", "changed"}
STEP_FIELDS |= {"wording", "back"}


def _number(item: LMap, index: int, parent: str | None, path: str, probs: Problems) -> str:
    # `parent` is the number the parent should have: one misnumbered step is one problem.
    number = _text(item, "number", path, probs) or "?"
    expected = f"{parent}.{chr(ord('a') + index)}" if parent else str(index + 1)
    # `index` is -1 for an opening step "0" (see _steps).
    line = item.line_of("number")
    if parent and "." in parent:
        probs.add(path, line, f"step {number!r} nests too deep (steps go two levels: '3.f')")
    elif not NUMBER_RE.match(number) or number != expected:
        probs.add(path, line, f"step number {number!r} should be {expected!r}")
    printed = item.get("printed")
    if printed is not None and not PRINTED_RE.match(str(printed)):
        probs.add(
            path, item.line_of("printed"), f"printed number {printed!r} must look like '2' or '3.f'"
        )
    return expected


def _step_id(item: LMap, number: str, path: str, probs: Problems, seen: dict[str, str]) -> str:
    step_id = _text(item, "id", path, probs)
    if step_id and (not ID_RE.match(step_id) or not step_id[0].isalpha()):
        probs.add(
            path, item.line_of("id"), f"invalid step id {step_id!r} (a letter, then [a-z0-9-])"
        )
    elif step_id in seen:
        probs.add(
            path, item.line_of("id"), f"duplicate step id {step_id!r} (first at {seen[step_id]})"
        )
    elif step_id:
        seen[step_id] = f"{path}:{item.line_of('id')}"
    return step_id or number


def _choice(
    item: LMap, key: str, allowed: tuple[str, ...], number: str, path: str, probs: Problems
) -> str:
    value = item.get(key)
    if value not in allowed:
        probs.add(
            path, item.line_of(key), f"step {number!r}: {key} must be one of {', '.join(allowed)}"
        )
    return str(value)


def _triggers(item: LMap, text: str, number: str, path: str, probs: Problems) -> tuple[str, ...]:
    triggers = item.get("triggers") or []
    if not isinstance(triggers, list) or not all(isinstance(t, str) for t in triggers):
        probs.add(
            path, item.line_of("triggers"), f"step {number!r}: triggers must be a list of text"
        )
        return ()
    for trigger in triggers:
        if normalize_typography(trigger) not in normalize_typography(text):
            probs.add(
                path,
                item.line_of("triggers"),
                f"trigger {trigger!r} of step {number!r} is not in its text",
            )
    return tuple(triggers)


def _branches(item: LMap, path: str, probs: Problems) -> tuple[Branch, ...]:
    branches = []
    for branch in list_field(item, "branches", path, probs):
        if check_keys(branch, {"if", "goto", "says"}, path, probs, "branch"):
            label, goto = _text(branch, "if", path, probs), _text(branch, "goto", path, probs)
            says = _text(branch, "says", path, probs, False)
            if label and goto:
                branches.append(Branch(label, goto, says, f"{path}:{branch.line}"))
    return tuple(branches)


def _back(item: LMap, path: str, probs: Problems) -> Back | None:
    # {goto: an earlier step, says: the step's words that send the judge there}.
    data = item.get("back")
    if data is None or not check_keys(data, {"goto", "says"}, path, probs, "back"):
        return None
    goto, says = _text(data, "goto", path, probs), _text(data, "says", path, probs)
    return Back(goto, says, f"{path}:{data.line}") if goto and says else None


def _changed(item: LMap, number: str, path: str, probs: Problems) -> dict[str, str]:
    # {version: the editors' words on how the rule differs from the counterpart there}.
    data = item.get("changed")
    if data is None:
        return {}
    if not isinstance(data, LMap) or not all(
        isinstance(v, str) and v.strip() for v in data.values()
    ):
        probs.add(
            path, item.line_of("changed"), f"step {number!r}: changed must map versions to text"
        )
        return {}
    return {str(k): v.strip() for k, v in data.items()}


def _counterparts(
    item: LMap, number: str, path: str, probs: Problems
) -> dict[str, tuple[str, ...]]:
    # {version: step id | [ids] | none}: which steps of another version say the same thing.
    data = item.get("counterparts")
    if data is None:
        return {}
    line = item.line_of("counterparts")
    if not isinstance(data, LMap):
        probs.add(path, line, f"step {number!r}: counterparts must map versions to step ids")
        return {}
    found: dict[str, tuple[str, ...]] = {}
    for version, value in data.items():
        ids = [value] if isinstance(value, str) else value
        if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
            probs.add(
                path,
                line,
                f"step {number!r}: counterparts in {version} must be step ids or {NONE!r}",
            )
            continue
        if NONE in ids and len(ids) > 1:
            probs.add(
                path, line, f"step {number!r}: counterparts in {version} mix {NONE!r} with steps"
            )
        found[str(version)] = tuple(i for i in ids if i != NONE)
    return found


def _wording(
    item: LMap, number: str, path: str, probs: Problems, key: str = "wording"
) -> tuple[str, ...]:
    wording = item.get(key) or []
    if not isinstance(wording, list) or not all(isinstance(w, str) and w.strip() for w in wording):
        probs.add(path, item.line_of(key), f"step {number!r}: {key} must be a list of text")
        return ()
    return tuple(w.strip() for w in wording)


def _step(
    item: LMap, index: int, path: str, probs: Problems, parent: str | None, seen: dict[str, str]
) -> Step:
    number = _number(item, index, parent, path, probs)
    text = _text(item, "text", path, probs) or ""
    children = item.get("children")
    printed = item.get("printed")
    return Step(
        id=_step_id(item, number, path, probs, seen),
        number=str(item.get("number") or number),
        text=text,
        actor=_choice(item, "actor", ACTORS, number, path, probs),
        kind=_choice(item, "kind", KINDS, number, path, probs),
        cites=_cites(item.get("cites"), path, probs, f"step {number!r}"),
        title=_text(item, "title", path, probs, False),
        triggers=_triggers(item, text, number, path, probs),
        branches=_branches(item, path, probs),
        next=_text(item, "next", path, probs, False),
        see=_text(item, "see", path, probs, False),
        note=_text(item, "note", path, probs, False),
        children=_steps(children, path, probs, number, seen) if children is not None else (),
        parent=parent,
        location=f"{path}:{item.line}",
        printed=None if printed is None else str(printed),
        counterparts=_counterparts(item, number, path, probs),
        open_until=_text(item, "open_until", path, probs, False),
        wording=_wording(item, number, path, probs),
        also_open=_wording(item, number, path, probs, "also_open"),
        also_see=_wording(item, number, path, probs, "also_see"),
        changed=_changed(item, number, path, probs),
        back=_back(item, path, probs),
    )


def _steps(
    items: Any, path: str, probs: Problems, parent: str | None, seen: dict[str, str]
) -> tuple[Step, ...]:
    if not isinstance(items, LList) or not items:
        probs.add(path, getattr(items, "line", 1), "'steps'/'children' must be a non-empty list")
        return ()
    # A derived sequence may open with a step "0" before the rulebook's numbered ones (the start
    # of the turn before segment 1), so its printed numbers can be its addresses too.
    first = (
        0 if parent is None and isinstance(items[0], LMap) and items[0].get("number") == "0" else 1
    )
    return tuple(
        _step(item, index + first - 1, path, probs, parent, seen)
        for index, item in enumerate(items)
        if check_keys(item, STEP_FIELDS, path, probs, "step")
    )


def _calculator(data: Any, path: str, probs: Problems) -> CalculatorConfig | None:
    if not check_keys(
        data, {"duplicate", "cost_counts", "below_zero", "steps"}, path, probs, "calculator"
    ):
        return None
    duplicate, counts = data.get("duplicate"), data.get("cost_counts")
    below_zero = data.get("below_zero", "rule")
    if below_zero not in CALC_BELOW_ZERO:
        probs.add(
            path,
            data.line_of("below_zero"),
            f"calculator below_zero must be one of {', '.join(CALC_BELOW_ZERO)}",
        )
    if duplicate not in CALC_DUPLICATE:
        probs.add(
            path,
            data.line_of("duplicate"),
            f"calculator duplicate must be one of {', '.join(CALC_DUPLICATE)}",
        )
    if counts not in CALC_COST_COUNTS:
        probs.add(
            path,
            data.line_of("cost_counts"),
            f"calculator cost_counts must be one of {', '.join(CALC_COST_COUNTS)}",
        )
    steps = data.get("steps")
    if not check_keys(steps, set(CALC_RULES), path, probs, "calculator steps"):
        return None
    missing = [rule for rule in CALC_RULES if rule not in steps]
    if missing:
        probs.add(path, steps.line, f"calculator steps lack {', '.join(missing)}")
    return CalculatorConfig(
        str(duplicate),
        str(counts),
        {k: str(v) for k, v in steps.items()},
        f"{path}:{data.line}",
        str(below_zero),
    )


SEQUENCE_FIELDS = {"id", "title", "official", "source", "intro", "note", "calculator", "steps"}


def _check_targets(seq: Sequence, probs: Problems) -> None:
    for step in seq.flat:
        targets = [(b.goto, "a branch") for b in step.branches]
        targets += [(step.next, "next"), (step.open_until, "open_until")]
        targets += [(step.back.goto, "back")] if step.back else []
        for key, where in targets:
            if key and key != END and seq.find(key) is None:
                probs.items.append(
                    f"{step.location}: {where} of step {step.number!r} goes to unknown step {key!r}"
                )
        back = seq.back_of(step)
        later = back is not None and seq.flat.index(back) >= seq.flat.index(step)
        if step.back and (later or step.back.goto == END):
            probs.items.append(
                f"{step.back.location}: back of step {step.number!r} must go to an earlier "
                f"step, not {step.back.goto!r}"
            )
    if seq.calculator:
        for rule, key in seq.calculator.steps.items():
            if seq.find(key) is None:
                probs.items.append(
                    f"{seq.calculator.location}: calculator step {rule} names unknown step {key!r}"
                )


NOTE_FIELDS = {"id", "title", "situation", "ruling", "text"}


def _records(
    items: Any, fields: set[str], what: str, spath: str, probs: Problems
) -> Iterator[tuple[LMap, str]]:
    """The well-formed records of a list of notes or disputes, each with its (checked) id."""
    if not isinstance(items, LList) or not items:
        probs.add(spath, getattr(items, "line", 1), f"'{what}s' must be a non-empty list")
        return
    seen: set[str] = set()
    for item in items:
        if not check_keys(item, fields, spath, probs, what):
            continue
        item_id = _text(item, "id", spath, probs) or "?"
        if not ID_RE.match(item_id) or item_id in seen:
            probs.add(spath, item.line_of("id"), f"invalid or duplicate {what} id {item_id!r}")
        seen.add(item_id)
        yield item, item_id


def _notes(items: Any, spath: str, probs: Problems, document: str, version: str) -> list[Note]:
    notes: list[Note] = []
    for item, note_id in _records(items, NOTE_FIELDS, "note", spath, probs):
        notes.append(
            Note(
                id=note_id,
                title=_text(item, "title", spath, probs) or note_id,
                document=document,
                version=version,
                ruling=_text(item, "ruling", spath, probs) or "",
                text=_text(item, "text", spath, probs) or "",
                location=f"{spath}:{item.line}",
                situation=_text(item, "situation", spath, probs) or "",
            )
        )
    return notes


DISPUTE_FIELDS = {"id", "title", "at", "absent", "nearest"}


def _disputes(
    items: Any, spath: str, probs: Problems, document: str, version: str
) -> list[Dispute]:
    found: list[Dispute] = []
    for item, dispute_id in _records(items, DISPUTE_FIELDS, "dispute", spath, probs):
        at = _wording(item, dispute_id, spath, probs, "at")
        absent = _text(item, "absent", spath, probs, False)
        nearest = item.get("nearest")
        # Either the steps that settle it, or the editors' word that none does and the rule nearest.
        if bool(at) == bool(absent) or bool(absent) != (nearest is not None):
            probs.add(
                spath,
                item.line,
                f"dispute {dispute_id!r} needs either 'at' or both 'absent' and 'nearest'",
            )
        found.append(
            Dispute(
                id=dispute_id,
                title=_text(item, "title", spath, probs) or dispute_id,
                document=document,
                version=version,
                at=at,
                absent=absent,
                nearest=_cites(nearest, spath, probs, f"dispute {dispute_id!r}") if nearest else (),
                location=f"{spath}:{item.line}",
            )
        )
    return found


def load_timing_file(path: str | Path, document: str, version: str) -> list[Sequence]:
    """The sequences of one timing file; raise TimingError listing every problem in it."""
    return load_timing_parts(path, document, version)[0]


def load_timing_parts(
    path: str | Path, document: str, version: str
) -> tuple[list[Sequence], list[Note], list[Dispute]]:
    """The sequences, notes and disputes of one timing file; raise TimingError listing every problem."""
    path = Path(path)
    spath, probs = str(path), Problems()
    try:
        data = load_yaml(path)
    except YamlError as exc:
        raise TimingError([str(exc)]) from None
    keys = {"document", "version", "sequences", "notes", "disputes"}
    if not check_keys(data, keys, spath, probs, "timing file"):
        raise TimingError(probs.items)
    if str(data.get("document")) != document:
        probs.add(spath, data.line_of("document"), f"document must be {document!r}")
    if str(data.get("version")) != version:
        probs.add(spath, data.line_of("version"), f"version must be {version!r} (the file name)")
    notes = _notes(data.get("notes"), spath, probs, document, version) if "notes" in data else []
    disputes = (
        _disputes(data.get("disputes"), spath, probs, document, version)
        if "disputes" in data
        else []
    )
    sequences: list[Sequence] = []
    items = data.get("sequences")
    if "sequences" not in data and notes:
        items = LList()
    elif not isinstance(items, LList) or not items:
        probs.add(spath, data.line_of("sequences"), "'sequences' must be a non-empty list")
        items = LList()
    for item in items:
        seq = _sequence(item, spath, probs, document, version, sequences)
        if seq is not None:
            sequences.append(seq)
    for seq in sequences:
        for step in seq.flat:
            if step.see and not any(s.id == step.see for s in sequences):
                probs.items.append(
                    f"{step.location}: step {step.number!r} sees unknown sequence {step.see!r}"
                )
    if probs.items:
        raise TimingError(probs.items)
    return sequences, notes, disputes


def _sequence(
    item: Any, spath: str, probs: Problems, document: str, version: str, sequences: list[Sequence]
) -> Sequence | None:
    if not check_keys(item, SEQUENCE_FIELDS, spath, probs, "sequence"):
        return None
    seq_id = _text(item, "id", spath, probs) or "?"
    if not ID_RE.match(seq_id):
        probs.add(spath, item.line_of("id"), f"invalid sequence id {seq_id!r} (use [a-z0-9-])")
    elif seq_id in RESERVED_IDS:
        probs.add(spath, item.line_of("id"), f"sequence id {seq_id!r} is a page's address")
    if any(s.id == seq_id for s in sequences):
        probs.add(spath, item.line_of("id"), f"duplicate sequence id {seq_id!r}")
    official = item.get("official")
    if not isinstance(official, bool):
        probs.add(spath, item.line_of("official"), "field 'official' must be true or false")
    note = _text(item, "note", spath, probs, False)
    if official is False and not note:
        probs.add(
            spath, item.line, f"derived sequence {seq_id!r} needs a note saying how it was derived"
        )
    calc = item.get("calculator")
    seq = Sequence(
        id=seq_id,
        title=_text(item, "title", spath, probs) or seq_id,
        document=document,
        version=version,
        official=official is True,
        source=_text(item, "source", spath, probs) or "",
        steps=_steps(item.get("steps"), spath, probs, None, {}),
        intro=_text(item, "intro", spath, probs, False),
        note=note,
        calculator=_calculator(calc, spath, probs) if calc is not None else None,
        location=f"{spath}:{item.line}",
    )
    _check_targets(seq, probs)
    return seq
