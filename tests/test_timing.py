"""Timing sequences on the tiny fixture corpus: loading, branch logic and exact problem messages."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from judgekit.checks.loader import load_corpus
from judgekit.checks.validate import run_check
from judgekit.timing.check import timing_problems
from judgekit.timing.links import entry_links, sequence_url
from judgekit.timing.load import load_sequences
from judgekit.timing.model import END, TimingError

from .conftest import DATA

TIMING = DATA / "timing"
V1 = "rules/demo-rulebook/1.timing.yaml"
V2 = "rules/demo-rulebook/2.timing.yaml"


@pytest.fixture(scope="module")
def timing():
    """The fixture corpus's sequences."""
    return load_sequences(load_corpus(TIMING))


@pytest.fixture()
def broken(tmp_path: Path) -> Path:
    """A writable copy of the timing fixture corpus to break."""
    root = tmp_path / "corpus"
    shutil.copytree(TIMING, root)
    return root


def edit(root: Path, name: str, old: str, new: str) -> None:
    path = root / name
    text = path.read_text()
    assert old in text, f"fixture text {old!r} not in {path}"
    path.write_text(text.replace(old, new, 1))


def problems(root: Path) -> list[str]:
    return [
        p.replace(str(root) + "/", "") for p in timing_problems(load_corpus(root, strict=False))
    ]


def test_sequences_load_in_version_order(timing):
    assert [(s.id, s.version, s.official) for s in timing] == [
        ("attempt", "1", False),
        ("attempt", "2", True),
    ]
    assert timing.ids() == ["attempt"]
    assert timing.get("attempt").version == "2"  # the version in force by default
    assert timing.get("attempt", "1").note == 'Derived from "Attempting a Mission".'
    assert timing.get("attempt", "3") is None and timing.get("nope") is None


def test_steps_hold_the_fields(timing):
    seq = timing.get("attempt", "2")
    assert [s.number for s in seq.flat] == ["1", "1.a", "2"]
    step = seq.find("1.a")
    assert step is seq.find("begin-triggers")
    assert (step.actor, step.kind, step.triggers, step.parent) == (
        "each",
        "response",
        ("When . . . begins",),
        "1",
    )
    assert [(c.target, c.para) for c in seq.find("1").cites] == [
        ("gl-attempting-missions", None),
        ("attempting", "count them"),
    ]
    assert seq.calculator.steps["unmet"] == "1.a"
    assert seq.calculator.duplicate == "overcome" and seq.calculator.cost_counts == "faced"


def test_branch_logic(timing):
    seq = timing.get("attempt", "1")
    step = {s.number: s for s in seq.flat}
    assert [seq.next_of(step[n]) for n in ("1", "2", "2.a")] == [step["2"], step["2.a"], step["3"]]
    assert seq.next_of(step["3"]) is None  # next: end
    assert seq.prev_of(step["1"]) is None and seq.prev_of(step["2.a"]) is step["2"]
    right, wrong = step["2.a"].branches
    assert (right.label, seq.target(right)) == ("Right type", step["3"])
    assert (wrong.label, seq.target(wrong), wrong.says) == (
        "Wrong type",
        step["2"],
        "it is overcome",
    )
    ends = timing.get("attempt", "2").find("2").branches[0]
    assert ends.goto == END and timing.get("attempt", "2").target(ends) is None


def test_step_urls(timing):
    seq = timing.get("attempt", "1")
    assert sequence_url(seq) == "/timing/attempt?version=1"
    assert sequence_url(seq, seq.find("2.a")) == "/timing/attempt?version=1&step=2.a"
    assert sequence_url(seq, None, step="end", personnel=3) == (
        "/timing/attempt?version=1&step=end&personnel=3"
    )


def test_entry_links(timing):
    corpus = load_corpus(TIMING)
    source = corpus.entry("demo-rulebook", "2", "gl-attempting-missions")
    assert entry_links(timing, corpus, source) == [
        {
            "sequence": "attempt",
            "title": "Attempting missions",
            "version": "2",
            "official": True,
            "url": "/timing/attempt?version=2",
            "steps": [],
        }
    ]
    derived = entry_links(timing, corpus, corpus.entry("demo-rulebook", "1", "attempting"))
    assert [(x["version"], x["official"], x["steps"]) for x in derived] == [("1", False, [])]
    # Cited, but not quoted by any step: no link.
    assert entry_links(timing, corpus, corpus.entry("demo-rulebook", "2", "attempting")) == []


def test_the_fixture_is_clean():
    assert timing_problems(load_corpus(TIMING)) == []


SCHEMA_CASES = [
    (V1, 'number: "2"\n', 'number: "3"\n', ["1.timing.yaml:17: step number '3' should be '2'"]),
    (V1, 'number: "2.a"', 'number: "2.b"', ["1.timing.yaml:24: step number '2.b' should be '2.a'"]),
    (
        V1,
        "actor: opponent",
        "actor: referee",
        ["1.timing.yaml:19: step '2': actor must be one of active, opponent, each, either, game"],
    ),
    (
        V2,
        "cost_counts: faced\n",
        "cost_counts: faced\n      below_zero: never\n",
        ["2.timing.yaml:12: calculator below_zero must be one of rule, reading"],
    ),
    (
        V1,
        "kind: check",
        "kind: window",
        ["1.timing.yaml:27: step '2.a': kind must be one of action, check, response"],
    ),
    (
        V1,
        "        text: When you begin a mission attempt, count your personnel.\n",
        "",
        ["1.timing.yaml:10: missing required field 'text'"],
    ),
    (
        V1,
        "      - id: count\n",
        "      - id: count\n        colour: red\n",
        ["1.timing.yaml:11: unknown field 'colour' in step"],
    ),
    (
        V1,
        "goto: fail",
        "goto: nowhere",
        ["1.timing.yaml:23: a branch of step '2.a' goes to unknown step 'nowhere'"],
    ),
    (
        V1,
        "id: fail",
        "id: reveal",
        [
            "1.timing.yaml:35: duplicate step id 'reveal' (first at rules/demo-rulebook/1.timing.yaml:16)",
            "1.timing.yaml:23: a branch of step '2.a' goes to unknown step 'fail'",
        ],
    ),
    (
        V1,
        "id: count",
        "id: 1st",
        ["1.timing.yaml:10: invalid step id '1st' (a letter, then [a-z0-9-])"],
    ),
    (
        V1,
        '    note: Derived from "Attempting a Mission".\n',
        "",
        ["1.timing.yaml:4: derived sequence 'attempt' needs a note saying how it was derived"],
    ),
    (V1, 'version: "1"', 'version: "2"', ["1.timing.yaml:2: version must be '1' (the file name)"]),
    (
        V1,
        "        cites: [attempting]\n",
        "        cites: []\n",
        ["1.timing.yaml:15: step '1' cites nothing"],
    ),
    (
        V2,
        'triggers: ["When . . . begins"]',
        'triggers: ["When . . . ends"]',
        ["2.timing.yaml:29: trigger 'When . . . ends' of step '1.a' is not in its text"],
    ),
    (
        V2,
        "duplicate: overcome",
        "duplicate: ignored",
        ["2.timing.yaml:10: calculator duplicate must be one of overcome, not-allowed"],
    ),
    (V2, 'met: "1", ', "", ["2.timing.yaml:12: calculator steps lack met"]),
    (
        V2,
        'unmet: "1.a"',
        'unmet: "9"',
        ["2.timing.yaml:10: calculator step unmet names unknown step '9'"],
    ),
    (
        V2,
        "official: true",
        "official: yes please",
        ["2.timing.yaml:6: field 'official' must be true or false"],
    ),
    (
        V1,
        "sequences:",
        "sequences: [",
        ["1.timing.yaml:4: invalid YAML: did not find expected node content"],
    ),
    (
        V1,
        "    title: Attempting a Mission\n",
        "    title: Attempting a Mission\n    title: Again\n",
        ["1.timing.yaml:6: duplicate key 'title' (first at line 5)"],
    ),
]


@pytest.mark.parametrize(("name", "old", "new", "expected"), SCHEMA_CASES)
def test_schema_problems_have_exact_messages(broken, name, old, new, expected):
    edit(broken, name, old, new)
    folder = "rules/demo-rulebook/"
    assert problems(broken) == [folder + e for e in expected]
    with pytest.raises(TimingError):
        load_sequences(load_corpus(broken, strict=False))


CHECK_CASES = [
    (
        V1,
        "text: Your opponent reveals the top dilemma.",
        "text: Your opponent shows the top dilemma.",
        "1.timing.yaml:16: text of step '2' is not verbatim in 'attempting'",
    ),
    (
        V1,
        '{ref: attempting, para: "eight personnel"}',
        '{ref: attempting, para: "nine personnel"}',
        "1.timing.yaml:43: para 'nine personnel' of step '3' matches no paragraph of 'attempting'",
    ),
    (
        V1,
        '{ref: attempting, para: "eight personnel"}',
        '{ref: attempting, para: "your"}',
        "1.timing.yaml:43: para 'your' of step '3' matches 3 paragraphs of 'attempting'",
    ),
    (
        V1,
        "        cites: [attempting]\n        children:",
        "        cites: [attempted]\n        children:",
        "1.timing.yaml:21: step '2' of attempt 1 cites 'attempted': dangling reference "
        "'attempted': no entry 'attempted' in demo-rulebook 1",
    ),
    (
        V1,
        "says: it is overcome",
        "says: it is faced",
        "1.timing.yaml:32: 'says' of branch 'Wrong type' of step '2.a' is not verbatim in the step "
        "or its cites",
    ),
    (
        V1,
        "        text: When you begin",
        "        title: Counting\n        text: When you begin",
        "1.timing.yaml:10: title 'Counting' of step '1' is not in 'attempting'",
    ),
    (
        V2,
        '          - gl-attempting-missions\n          - {ref: attempting, para: "count them"}',
        '          - attempting\n          - {ref: attempting, para: "count them"}',
        [
            "2.timing.yaml:14: official step '1' must cite the source 'gl-attempting-missions' first",
            "2.timing.yaml:14: text of step '1' is not verbatim in 'attempting'",
        ],
    ),
    (
        V2,
        "intro: Below is the timing.",
        "intro: Above is the timing.",
        "2.timing.yaml:4: intro of attempt 2 is not verbatim in 'gl-attempting-missions'",
    ),
    (
        V2,
        "source: gl-attempting-missions",
        "source: gl-attempting",
        "2.timing.yaml:4: source of attempt 2: dangling reference 'gl-attempting': no entry "
        "'gl-attempting' in demo-rulebook 2",
    ),
]


@pytest.mark.parametrize(("name", "old", "new", "expected"), CHECK_CASES)
def test_check_problems_have_exact_messages(broken, name, old, new, expected):
    edit(broken, name, old, new)
    expected = [expected] if isinstance(expected, str) else expected
    assert problems(broken) == ["rules/demo-rulebook/" + e for e in expected]


def test_typography_does_not_count_against_verbatim_but_words_and_case_do(broken):
    # Straight quotes for curly ones, line wraps and extra spaces are the same words.
    edit(
        broken, V2, '"“When . . . begins” triggers', '\'"When . . . begins"\n              triggers'
    )
    edit(broken, V2, 'triggers process."', "triggers process.'")
    edit(broken, V2, 'para: "wrong type"', 'para: "reveals a dilemma   of the wrong type"')
    assert problems(broken) == []
    edit(broken, V2, 'para: "reveals a dilemma   of the wrong type"', 'para: "Wrong Type"')
    assert problems(broken) == [
        "rules/demo-rulebook/2.timing.yaml:40: para 'Wrong Type' of step '2' matches no paragraph "
        "of 'attempting'"
    ]


def test_timing_file_for_unknown_version(broken):
    shutil.copy(broken / V1, broken / "rules/demo-rulebook/3.timing.yaml")
    assert problems(broken) == [
        "rules/demo-rulebook/3.timing.yaml:1: timing file for unknown version '3' of demo-rulebook"
    ]


def test_run_check_reports_timing_problems(broken):
    edit(broken, V1, "text: Your opponent reveals", "text: Your opponent flips")
    found = [p.replace(str(broken) + "/", "") for p in run_check(broken)]
    assert found == [
        "rules/demo-rulebook/1.timing.yaml:16: text of step '2' is not verbatim in 'attempting'"
    ]


# -- counterparts, printed numbers, open windows -------------------------------------------------


def test_counterparts_are_explicit_and_symmetric(timing):
    v1, v2 = timing.get("attempt", "1"), timing.get("attempt", "2")
    # Declared in version 2 only; version 1 sees them too.
    assert [s.id for s in timing.counterparts(v2, v2.find("begin"), "1")] == ["count"]
    assert [s.id for s in timing.counterparts(v1, v1.find("count"), "2")] == ["begin"]
    # The declaration's own order comes first: the version switch opens the first.
    assert [s.id for s in timing.counterparts(v2, v2.find("2"), "1")] == ["check-dilemma", "reveal"]
    assert [s.id for s in timing.counterparts(v1, v1.find("reveal"), "2")] == ["check-dilemma"]
    # "none" is recorded, and differs from not recorded at all.
    assert timing.counterparts(v2, v2.find("1.a"), "1") == ()
    assert timing.counterparts(v1, v1.find("fail"), "2") == ()
    assert timing.counterparts(v1, v1.find("fail"), "9") is None


@pytest.mark.parametrize(
    ("name", "old", "new", "expected"),
    [
        (
            V1,
            '        counterparts: {"2": none}\n',
            "",
            [
                "1.timing.yaml:35: step '3' of attempt 1 has no counterpart recorded for 2 (name the step there, or none)"
            ],
        ),
        (
            V2,
            '{"1": [check-dilemma, reveal]}',
            '{"1": [check-dilemma, nope]}',
            [
                "1.timing.yaml:16: step '2' of attempt 1 has no counterpart recorded for 2 (name the step there, or none)",
                "2.timing.yaml:32: step '2' of attempt 2 names unknown counterpart 'nope' in 1",
            ],
        ),
        (
            V2,
            '{"1": [check-dilemma, reveal]}',
            '{"1": [check-dilemma, reveal, fail]}',
            [
                "1.timing.yaml:35: step '3' of attempt 1 says none in 2, but 2 names it from check-dilemma"
            ],
        ),
        (
            V2,
            '        counterparts: {"1": count}\n',
            '        counterparts: {"3": count}\n',
            [
                "1.timing.yaml:10: step '1' of attempt 1 has no counterpart recorded for 2 (name the step there, or none)",
                "2.timing.yaml:14: step '1' of attempt 2 names counterparts in '3', which has no other attempt",
                "2.timing.yaml:14: step '1' of attempt 2 has no counterpart recorded for 1 (name the step there, or none)",
            ],
        ),
        (
            V2,
            '        counterparts: {"1": count}\n',
            '        counterparts: {"1": [none, count]}\n',
            ["2.timing.yaml:22: step '1': counterparts in 1 mix 'none' with steps"],
        ),
        (
            V1,
            '        number: "1"\n',
            '        number: "1"\n        printed: "1"\n',
            ["1.timing.yaml:10: printed number '1' of step '1' is not the heading of 'attempting'"],
        ),
        (
            V1,
            '        number: "1"\n',
            '        number: "1"\n        printed: one\n',
            ["1.timing.yaml:12: printed number 'one' must look like '2' or '3.f'"],
        ),
        (
            V2,
            "            kind: response\n",
            '            kind: response\n            open_until: "9"\n',
            ["2.timing.yaml:24: open_until of step '1.a' goes to unknown step '9'"],
        ),
        (
            V1,
            "        next: end\n",
            '        printed: "2"\n        next: end\n',
            [
                "1.timing.yaml:35: printed number '2' of step '3' is not the heading of 'attempting'",
                "1.timing.yaml:35: step '3' of attempt 1 shows number '2', as step '2' does "
                "(number them apart)",
            ],
        ),
    ],
)
def test_counterpart_and_numbering_problems(broken, name, old, new, expected):
    edit(broken, name, old, new)
    assert problems(broken) == ["rules/demo-rulebook/" + e for e in expected]


def test_open_windows_reach_as_far_as_the_text_keeps_them(broken):
    edit(
        broken,
        V2,
        "            kind: response\n",
        '            kind: response\n            open_until: "2"\n',
    )
    seq = load_sequences(load_corpus(broken)).get("attempt", "2")
    window = seq.find("1.a")
    assert seq.open_windows(seq.find("1")) == ()
    assert seq.open_windows(window) == (window,)
    assert seq.open_windows(seq.find("2")) == (window,)  # "until the end of step 2"
    assert window.open_until == "2"


def test_a_derived_sequence_may_open_with_step_0(broken):
    # The start of the turn comes before the rulebook's segment 1: the editors number it 0.
    for old, new in [('"1"', '"0"'), ('"2"', '"1"'), ('"2.a"', '"1.a"'), ('"3"', '"2"')]:
        edit(broken, V1, f"        number: {old}\n", f"        number: {new}\n")
    assert problems(broken) == []
    seq = load_sequences(load_corpus(broken)).get("attempt", "1")
    assert [s.label for s in seq.flat] == ["0", "1", "1.a", "2"]
    assert seq.numbered_by_editors(seq.flat[0]) is True


def test_step_0_only_opens_a_sequence(broken):
    edit(broken, V1, '        number: "2"\n', '        number: "0"\n')
    assert problems(broken) == [
        "rules/demo-rulebook/1.timing.yaml:17: step number '0' should be '2'",
    ]


# -- the way back where a step's words send the judge to an earlier step -------------------------

BACK = "            cites: [attempting]\n            branches:"


def with_back(goto: str, says: str = "it is overcome") -> str:
    return f"            cites: [attempting]\n            back: {{goto: {goto}, says: {says}}}\n            branches:"


def test_a_step_may_offer_the_way_back_its_words_give(broken):
    edit(broken, V1, BACK, with_back("reveal"))
    assert problems(broken) == []
    seq = load_sequences(load_corpus(broken)).get("attempt", "1")
    step = seq.find("2.a")
    assert seq.back_of(step) is seq.find("2")
    assert (step.back.goto, step.back.says) == ("reveal", "it is overcome")
    assert seq.back_of(seq.find("2")) is None


@pytest.mark.parametrize(
    ("new", "expected"),
    [
        (
            with_back("fail"),
            "1.timing.yaml:29: back of step '2.a' must go to an earlier step, not 'fail'",
        ),
        (
            with_back("check-dilemma"),
            "1.timing.yaml:29: back of step '2.a' must go to an earlier step, not 'check-dilemma'",
        ),
        (
            with_back("end"),
            "1.timing.yaml:29: back of step '2.a' must go to an earlier step, not 'end'",
        ),
        (
            with_back("nowhere"),
            "1.timing.yaml:23: back of step '2.a' goes to unknown step 'nowhere'",
        ),
        (
            with_back("reveal", "it is faced"),
            "1.timing.yaml:29: 'says' of the way back of step '2.a' is not verbatim in the step",
        ),
        (
            "            cites: [attempting]\n            back: {goto: reveal}\n            branches:",
            "1.timing.yaml:29: missing required field 'says'",
        ),
        (
            "            cites: [attempting]\n            back: {goto: reveal, says: it is overcome, if: x}\n            branches:",
            "1.timing.yaml:29: unknown field 'if' in back",
        ),
    ],
)
def test_the_way_back_problems(broken, new, expected):
    edit(broken, V1, BACK, new)
    assert problems(broken) == ["rules/demo-rulebook/" + expected]


def test_a_step_whose_words_send_the_judge_back_must_offer_the_way(broken):
    for name in (V1, "rules/demo-rulebook/1.yaml"):
        edit(
            broken,
            name,
            "it is overcome.",
            "it is overcome. Repeat the process beginning at the top.",
        )
    assert problems(broken) == [
        "rules/demo-rulebook/1.timing.yaml:23: step '2.a' says 'repeat the process' but offers no "
        "way back (add `back`)"
    ]
    edit(broken, V1, BACK, with_back("reveal", "Repeat the process beginning at the top"))
    assert problems(broken) == []
