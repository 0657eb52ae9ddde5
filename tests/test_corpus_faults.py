"""The fault suite: small broken corpora, each refused by `judgekit check` and by the app alike.

Each case copies the mini corpus, breaks one thing, and expects the exact ``file:line: message``
lines and exit code 1 from `judgekit check`, and the same problems from ``load_corpus`` (what
the app loads at start-up, so `judgekit serve` refuses it too). Hostile files (alias bombs,
deep nesting) run `judgekit check` in a child process under a memory cap, so a regression
fails the test instead of exhausting the machine.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from judgekit.checks.loader import CorpusError, load_corpus
from judgekit.commands import main
from judgekit.corpus.yamlio import MAX_YAML_BYTES

from .conftest import DATA, MINI

BOOK = "rules/demo-rulebook/"
V1, V2 = BOOK + "1.yaml", BOOK + "2.yaml"


def edit(root: Path, name: str, old: str, new: str) -> None:
    """Replace the first ``old`` in a corpus file (which must hold it) by ``new``."""
    path = root / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture text {old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def append(root: Path, name: str, text: str) -> None:
    """Add lines at the end of a corpus file."""
    path = root / name
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


@dataclass(frozen=True)
class Fault:
    """One way to break the mini corpus and the problems `judgekit check` must report."""

    name: str
    breaks: Callable[[Path], None]
    expected: tuple[str, ...]


def _nested_children(levels: int) -> str:
    """Children for the last entry of 1.yaml, nested ``levels`` deep, in block style."""
    lines = []
    for level in range(levels):
        pad = " " * (8 + 4 * level)
        lines += [
            f"{pad}children:",
            f"{pad}  - id: c{level}",
            f"{pad}    title: C{level}",
            f'{pad}    source: [{{file: demo1.txt, lines: "8-9"}}]',
        ]
    return "\n".join(lines) + "\n"


def _many_files(root: Path, count: int) -> None:
    """``count`` empty files under rules/ (not YAML: only their number is wrong)."""
    folder = root / "rules" / "clutter"
    folder.mkdir()
    for n in range(count):
        (folder / f"{n}.txt").touch()


def _too_large(root: Path) -> None:
    """A version file one byte over the limit on each YAML file, of comments only."""
    line = "# " + "x" * 1021 + "\n"  # 1 KB a line
    (root / BOOK / "3.yaml").write_text(line * 4096 + "#\n", encoding="utf-8")


def _much_yaml(root: Path) -> None:
    """Nine YAML files of 3.9 MB each under rules/: each under the limit, together over 32 MB."""
    folder = root / "rules" / "bulk"
    folder.mkdir()
    text = ("# " + "x" * 1021 + "\n") * 3900
    for n in range(9):
        (folder / f"{n}.yaml").write_text(text, encoding="utf-8")


def _no_versions(root: Path) -> None:
    """demo-rulebook without its version files (only 2.yaml refers to them: nothing dangles)."""
    for name in ("1.yaml", "2.yaml", "1.corrections.yaml"):
        (root / BOOK / name).unlink()


LONG_ID = "b" * 300


def _more_versions(root: Path, last: int) -> None:
    """Versions 3 to ``last`` of demo-rulebook, each a copy of version 2 superseding the one before."""
    text = (root / V2).read_text(encoding="utf-8")
    for n in range(3, last + 1):
        copy = text.replace('id: "2"', f'id: "{n}"').replace(
            'supersedes: "1"', f'supersedes: "{n - 1}"'
        )
        (root / BOOK / f"{n}.yaml").write_text(copy, encoding="utf-8")


def _card(root: Path, card_id: str) -> None:
    """A 2E card file of one card, mentioned by version 1's 'beaming' (which names Picard)."""
    (root / "rules/cards.yaml").write_text(
        f"edition: 2E\ncards:\n  - {{id: {card_id}, title: Picard}}\n", encoding="utf-8"
    )
    (root / BOOK / "1.mentions.yaml").write_text(
        f'document: demo-rulebook\nversion: "1"\nmentions:\n'
        f"  - {{entry: beaming, cards: [{card_id}]}}\n",
        encoding="utf-8",
    )


def _sequence(root: Path, sequence_id: str, more: str = "") -> None:
    """A timing file for version 1 of one derived sequence of one step (``more``: its fields)."""
    (root / BOOK / "1.timing.yaml").write_text(
        'document: demo-rulebook\nversion: "1"\nsequences:\n'
        f"  - id: {sequence_id}\n    title: Beaming\n    official: false\n"
        "    source: beaming\n    note: From Beaming.\n    steps:\n"
        '      - {id: beam, number: "1", text: You may beam personnel between a ship and a '
        f"mission., actor: active, kind: action, cites: [beaming]{more}}}\n",
        encoding="utf-8",
    )


NUL = "\\0"  # YAML's escape in a double-quoted string: the character itself once read


def _alias_bomb(levels: int) -> str:
    """The 'billion laughs': each level a list of nine aliases of the level before."""
    lines = ['x0: &x0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, levels + 1):
        refs = ", ".join([f"*x{level - 1}"] * 9)
        lines.append(f"x{level}: &x{level} [{refs}]")
    return "\n".join(lines) + "\n"


FAULTS = [
    # -- the faults of issue #17 --------------------------------------------------------------
    Fault(
        "document.yaml deleted",
        lambda r: (r / BOOK / "document.yaml").unlink(),
        (
            f"{BOOK}1.corrections.yaml:1: no demo-rulebook/document.yaml beside this file",
            f"{BOOK}1.yaml:1: no demo-rulebook/document.yaml beside this file",
            f"{BOOK}2.yaml:1: no demo-rulebook/document.yaml beside this file",
        ),
    ),
    Fault(
        "icon name in capitals",
        lambda r: edit(r, V2, "{icon:command} lead", "{icon:COMMAND} lead"),
        (
            f"{V2}:21: malformed icon token '{{icon:COMMAND}}' (write {{icon:NAME}}) in 'introduction'",
        ),
    ),
    Fault(
        "icon without a name",
        lambda r: edit(r, V2, "{icon:command} lead", "{icon:} lead"),
        (f"{V2}:21: malformed icon token '{{icon:}}' (write {{icon:NAME}}) in 'introduction'",),
    ),
    Fault(
        "icon with a space",
        lambda r: edit(r, V2, "{icon:command} lead", "{icon: staff} lead"),
        (
            f"{V2}:21: malformed icon token '{{icon: staff}}' (write {{icon:NAME}}) in 'introduction'",
        ),
    ),
    Fault(
        "icon not closed",
        lambda r: edit(r, V2, "{icon:command} lead", "{icon:command lead"),
        (
            f"{V2}:21: malformed icon token '{{icon:command lead.' (write {{icon:NAME}}) "
            "in 'introduction'",
        ),
    ),
    Fault(
        "icon in a title",
        lambda r: edit(r, V2, "title: Introduction", "title: Introduction {icon:comand}"),
        (f"{V2}:18: unknown icon 'comand' in 'introduction'",),
    ),
    Fault(
        "page in words",
        lambda r: edit(r, V1, "    page: 2\n", "    page: twelve\n"),
        (f"{V1}:25: field 'page' must be a whole number from 1 to 9,999, not 'twelve'",),
    ),
    Fault(
        "page zero in the contents",
        lambda r: edit(r, V1, "entry: beaming, page: 2", "entry: beaming, page: 0"),
        (f"{V1}:15: field 'page' must be a whole number from 1 to 9,999, not 0",),
    ),
    Fault(
        "document kind unknown",
        lambda r: edit(r, BOOK + "document.yaml", "kind: rulebook", "kind: novel"),
        (
            f"{BOOK}document.yaml:5: field 'kind' must be one of rulebook, rulings, glossary, "
            "not 'novel'",
        ),
    ),
    Fault(
        "entry kind unknown",
        lambda r: edit(r, V1, "kind: glossary", "kind: novel"),
        (f"{V1}:35: field 'kind' must be one of section, glossary, ruling, not 'novel'",),
    ),
    Fault(
        "contents line reconstructed: yes please",
        lambda r: edit(
            r, V1, "entry: beaming, page: 2}", "entry: beaming, reconstructed: yes please}"
        ),
        (f"{V1}:15: field 'reconstructed' must be true or false, not 'yes please'",),
    ),
    Fault(
        "reconstructed contents line without a note",
        lambda r: edit(r, V1, "entry: beaming, page: 2}", "entry: beaming, reconstructed: true}"),
        (f"{V1}:15: a reconstructed toc line needs a 'note' (on what evidence)",),
    ),
    Fault(
        "version id unquoted",
        lambda r: edit(r, V2, 'id: "2"', "id: 2"),
        (f"{V2}:2: field 'id' must be a quoted string, not 2 (write \"2\")",),
    ),
    Fault(
        "supersedes unquoted",
        lambda r: edit(r, V2, 'supersedes: "1"', "supersedes: 1"),
        (f"{V2}:9: field 'supersedes' must be a quoted string, not 1 (write \"1\")",),
    ),
    Fault(
        "unknown YAML tag",
        lambda r: edit(r, V2, "title: Introduction", "title: !foo x"),
        (f"{V2}:18: unsupported YAML tag '!foo' (write plain text)",),
    ),
    Fault(
        "YAML binary tag",
        lambda r: edit(r, V2, "title: Introduction", "title: !!binary aGVsbG8="),
        (f"{V2}:18: unsupported YAML tag '!!binary' (write plain text)",),
    ),
    Fault(
        "YAML core tag with a wrong value",
        lambda r: edit(r, "rulings/demo-rulings/r1.yaml", "new: true", "new: !!bool maybe"),
        ("rulings/demo-rulings/r1.yaml:26: invalid bool value 'maybe'",),
    ),
    Fault(
        "YAML merge key",
        lambda r: edit(r, V2, "    title: Introduction\n", "    <<: {title: Introduction}\n"),
        (f"{V2}:18: unsupported YAML tag '!!merge' (write plain text)",),
    ),
    Fault(
        "5,000 nested brackets",
        lambda r: edit(r, V2, "title: Introduction", "title: " + "[" * 5000 + "]" * 5000),
        (f"{V2}:18: nested more than 40 levels deep",),
    ),
    Fault(
        "children 650 deep",  # 3.5 MB, under the size limit; 1,500 deep is 18 MB, refused unread
        lambda r: append(r, V1, _nested_children(650)),
        (f"{V1}:108: nested more than 40 levels deep",),  # the 16th level's source span,
    ),
    Fault(
        "children 13 deep",
        lambda r: append(r, V1, _nested_children(13)),
        (f"{V1}:81: children of 'c9' nested more than 12 deep",),
    ),
    Fault(
        "nine levels of aliases",
        lambda r: append(r, V2, _alias_bomb(9)),
        (f"{V2}:36: YAML aliases (*name) are not allowed: write the value out",),
    ),
    Fault(
        "an undefined alias",
        lambda r: edit(r, V2, "title: Introduction", "title: *nowhere"),
        (f"{V2}:18: YAML aliases (*name) are not allowed: write the value out",),
    ),
    # -- the faults of issue #26: special files, links, characters, sizes, ranges ------------
    Fault(
        "a FIFO named like a version file",
        lambda r: os.mkfifo(r / BOOK / "3.yaml"),
        (f"{BOOK}3.yaml: a FIFO (named pipe), not a file: remove it",),
    ),
    Fault(
        "a link to /dev/zero named like a version file",
        lambda r: os.symlink("/dev/zero", r / BOOK / "3.yaml"),
        (f"{BOOK}3.yaml: a link to /dev/zero, outside the corpus: copy the file in instead",),
    ),
    Fault(
        "a link to a folder outside the corpus",
        lambda r: os.symlink("/", r / "rules" / "elsewhere"),
        ("rules/elsewhere: a link to /, outside the corpus: copy the file in instead",),
    ),
    Fault(
        "a link to a missing file",
        lambda r: os.symlink("nowhere.yaml", r / BOOK / "3.yaml"),
        (f"{BOOK}3.yaml: a link to {BOOK}nowhere.yaml, which does not exist",),
    ),
    Fault(
        "a YAML file over 4 MB",
        _too_large,
        (f"{BOOK}3.yaml: 4,194,306 bytes: larger than a corpus file may be (4,194,304 bytes)",),
    ),
    Fault(
        "36 MB of YAML in the corpus",
        _much_yaml,
        ("rules and rulings: their YAML files hold more than the 33,554,432 bytes a corpus may",),
    ),
    Fault(
        "5,001 files in the corpus",
        lambda r: _many_files(r, 5_001),
        ("rules: more than 5,000 files and folders",),
    ),
    Fault(
        "rulings/ deleted",
        lambda r: shutil.rmtree(r / "rulings"),
        ("rulings: folder missing: a corpus holds rules/ and rulings/ (each may be empty)",),
    ),
    Fault(
        "a document without versions",
        _no_versions,
        (
            f"{BOOK}document.yaml:1: demo-rulebook holds no version: add one (<version>.yaml "
            "beside this file), or mark the document 'external: true'",
        ),
    ),
    Fault(
        "a document of 21 versions",
        lambda r: _more_versions(r, 21),
        (
            f"{BOOK}document.yaml:1: demo-rulebook holds 21 versions, more than 20 (each pair "
            "of versions is a comparison page)",
        ),
    ),
    Fault(
        "two versions whose ids differ only in case",
        lambda r: (
            shutil.copy(r / "rulings/demo-rulings/r1.yaml", r / "rulings/demo-rulings/R1.yaml"),
            edit(r, "rulings/demo-rulings/R1.yaml", "id: r1", "id: R1"),
            edit(r, "rulings/demo-rulings/R1.yaml", "supersedes: null", "supersedes: r1"),
        ),
        (
            "rulings/demo-rulings/document.yaml:1: versions 'R1' and 'r1' differ only in case: "
            "Windows and macOS would hold their pages in one folder",
        ),
    ),
    Fault(
        "a version without entries",
        lambda r: edit(r, V1, "entries:\n", "entries: []\nfirst_entries:\n"),
        (
            f"{V1}:17: unknown field 'first_entries' in version file",
            f"{V1}:16: field 'entries' must list at least one entry",
        ),
    ),
    Fault(
        "a NUL character in a title",
        lambda r: edit(r, V1, "    title: Beaming\n", f'    title: "Bea{NUL}ming"\n'),
        (f"{V1}:24: control character U+0000 in text: remove it (it is not the rulebook's words)",),
    ),
    Fault(
        "a bidi override in a title",
        lambda r: edit(r, V1, "    title: Beaming\n", "    title: Bea\u202eming\n"),
        (
            f"{V1}:24: bidirectional control U+202E in text: remove it (it is not the rulebook's "
            "words)",
        ),
    ),
    Fault(
        "a bidi isolate written as an escape in a rule",
        lambda r: edit(r, V1, "      - rule: You may", '      - rule: "\\u2067You may"\n#'),
        (
            f"{V1}:28: bidirectional control U+2067 in text: remove it (it is not the rulebook's "
            "words)",
        ),
    ),
    Fault(
        "a line separator in an alias",
        lambda r: edit(r, V1, "aliases: [move a ship]", 'aliases: ["move\\La ship"]'),
        (f"{V1}:37: control character U+2028 in text: remove it (it is not the rulebook's words)",),
    ),
    Fault(
        "a tab in a title",
        lambda r: edit(r, V1, "    title: Beaming\n", '    title: "Bea\\tming"\n'),
        (f"{V1}:24: field 'title' must be one line of text, not 'Bea\\tming'",),
    ),
    Fault(
        "a title of 300 characters",
        lambda r: edit(r, V1, "    title: Beaming\n", f"    title: {'B' * 300}\n"),
        (f"{V1}:24: field 'title' must be at most 200 characters, not 300 ('{'B' * 56}...)",),
    ),
    Fault(
        "an entry id of 300 characters",
        lambda r: edit(r, V1, "  - id: beaming\n", f"  - id: {LONG_ID}\n"),
        (f"{V1}:23: field 'id' must be at most 80 characters, not 300 ('{'b' * 56}...)",),
    ),
    Fault(
        "a card id of 300 characters",
        lambda r: _card(r, "e" * 300),
        (f"rules/cards.yaml:3: invalid card id '{'e' * 300}'",),
    ),
    Fault(
        "a timing sequence id of 300 characters",
        lambda r: _sequence(r, "s" * 300),
        (f"{BOOK}1.timing.yaml:4: invalid sequence id '{'s' * 300}' (use [a-z0-9-])",),
    ),
    Fault(
        "mentions not a list",
        lambda r: (_card(r, "picard"), append(r, BOOK + "1.mentions.yaml", "not_mentions: 7\n")),
        (f"{BOOK}1.mentions.yaml:5: 'not_mentions' must be a list",),
    ),
    Fault(
        "timing branches not a list",
        lambda r: _sequence(r, "beam", ", branches: 7"),
        (f"{BOOK}1.timing.yaml:10: 'branches' must be a list",),
    ),
    Fault(
        "vocabulary terms not a list",
        lambda r: (r / "rules/vocabulary.yaml").write_text("edition: 2E\nterms: 7\n"),
        ("rules/vocabulary.yaml: `terms:` must be a list",),
    ),
    Fault(
        "an entry id Windows reserves",
        lambda r: edit(r, V1, "  - id: beaming\n", "  - id: aux\n"),
        (f"{V1}:23: field 'id' must not be 'aux': Windows reserves the name for a device",),
    ),
    Fault(
        "a version id with two dots",
        lambda r: edit(r, V2, 'supersedes: "1"', 'supersedes: "1..0"'),
        (
            f"{V2}:9: field 'supersedes' must be a version id of letters and digits joined by "
            "single '.' or '-', not '1..0'",
        ),
    ),
    Fault(
        "a source file in another folder",
        lambda r: edit(
            r, BOOK + "1.corrections.yaml", "source: demo1.txt", "source: ../x/demo1.txt"
        ),
        (
            f"{BOOK}1.corrections.yaml:3: field 'source' must be a file name of [A-Za-z0-9_.-] "
            "(at most 80, no folder), not '../x/demo1.txt'",
        ),
    ),
    Fault(
        "page 10**30",
        lambda r: edit(r, V1, "    page: 2\n", f"    page: {10**30}\n"),
        (f"{V1}:25: field 'page' must be a whole number from 1 to 9,999, not {10**30}",),
    ),
    Fault(
        "a negative page",
        lambda r: edit(r, V1, "    page: 2\n", "    page: -2\n"),
        (f"{V1}:25: field 'page' must be a whole number from 1 to 9,999, not -2",),
    ),
    Fault(
        "a page of 5,000 digits",
        lambda r: edit(r, V1, "    page: 2\n", f"    page: {'9' * 5000}\n"),
        (f"{V1}:25: invalid int value '{'9' * 56}...",),
    ),
    Fault(
        "a correction line 10**30",
        lambda r: edit(r, BOOK + "1.corrections.yaml", "line: 2", f"line: {10**30}"),
        (
            f"{BOOK}1.corrections.yaml:4: field 'line' must be a whole number from 1 to "
            f"1,000,000, not {10**30}",
        ),
    ),
    Fault(
        "removed lines of 5,000 digits",
        lambda r: edit(r, BOOK + "1.corrections.yaml", '"10-11"', f'"10-{"9" * 5000}"'),
        (
            f"{BOOK}1.corrections.yaml:9: field 'lines' must be line numbers from 1 to "
            f"1,000,000, not '10-{'9' * 53}...",
        ),
    ),
    Fault(
        "source lines from 0",
        lambda r: edit(r, V1, 'lines: "3-6"', 'lines: "0-6"'),
        (f"{V1}:26: field 'lines' must be line numbers from 1 to 1,000,000, not '0-6'",),
    ),
    Fault(
        "a date not on the calendar",
        lambda r: edit(r, V1, 'released: "2003-08-19"', 'released: "2003-02-31"'),
        (f"{V1}:6: field 'released' must be a date on the calendar, not '2003-02-31'",),
    ),
    Fault(
        "a reference 3,000 characters long",
        lambda r: edit(r, V1, "[[beaming|Beaming]]", f"[[{'x' * 3000}]]"),
        (
            f"{V1}:34: malformed reference target '{'x' * 169}... in 'gl-moving-a-ship'",
        ),  # the message cut to 200 characters, not the whole target
    ),
    Fault(
        "an external version listed twice",
        lambda r: append(
            r, "rulings/demo-glossary/document.yaml", '  - {id: "1.6", title: Again}\n'
        ),
        ("rulings/demo-glossary/document.yaml:9: duplicate version id '1.6'",),
    ),
    # -- faults handled before: they must stay handled ----------------------------------------
    Fault(
        "duplicate key",
        lambda r: edit(r, V1, "    page: 2\n", "    page: 2\n    page: 3\n"),
        (f"{V1}:26: duplicate key 'page' (first at line 25)",),
    ),
    Fault(
        "duplicate id",
        lambda r: edit(r, V1, "  - id: beaming\n", "  - id: introduction\n"),
        (f"{V1}:23: duplicate id 'introduction' (first at {V1}:17)",),
    ),
    Fault(
        "dangling reference",
        lambda r: edit(r, V1, "[[beaming|Beaming]]", "[[beamng|Beaming]]"),
        (
            f"{V1}:34: dangling reference 'beamng': no entry 'beamng' in demo-rulebook 1 in 'gl-moving-a-ship'",
        ),
    ),
    Fault(
        "malformed YAML",
        lambda r: edit(r, V2, "title: Introduction\n", "title: [Introduction\n"),
        (f"{V2}:19: invalid YAML: did not find expected ',' or ']'",),
    ),
    Fault(
        "two YAML documents in one file",
        lambda r: append(r, V2, "---\nid: again\n"),
        (f"{V2}:35: invalid YAML: more than one document",),
    ),
    Fault(
        "not UTF-8",
        lambda r: (r / V2).write_bytes((r / V2).read_bytes().replace(b"\xe2\x80\x93", b"\x96", 1)),
        (f"{V2}:1: not UTF-8 text (invalid start byte)",),
    ),
    Fault(
        "a folder named like a version file",
        lambda r: (r / BOOK / "3.yaml").mkdir(),
        (f"{BOOK}3.yaml:1: a folder named like a YAML file: not a file",),
    ),
    Fault(
        "unknown field and block kind",
        lambda r: (
            edit(r, V1, "      - rule: You may", "      - rules: You may"),
            edit(r, V1, "    page: 1\n", "    pgae: 1\n"),
        ),
        (
            f"{V1}:19: unknown field 'pgae' in entry",
            f"{V1}:28: unknown block kind 'rules' in 'beaming'",
        ),
    ),
    Fault(
        "body block with two keys",
        lambda r: edit(r, V1, "      - rule: You may", "      - rule: x\n        example: You may"),
        (f"{V1}:28: body block of 'beaming' must have exactly one key",),
    ),
    Fault(
        "empty rule block",
        lambda r: edit(
            r, V1, '      - example: "*For example, beam Picard to a planet.*"', "      - example:"
        ),
        (f"{V1}:29: example block of 'beaming' must be text",),
    ),
    Fault(
        "missing required field",
        lambda r: edit(r, V2, "edition: 2E\n", ""),
        (f"{V2}:1: missing required field 'edition' in version file",),
    ),
    Fault(
        "edition not 2E or 1E",
        lambda r: edit(r, BOOK + "document.yaml", "edition: 2E", "edition: 3E"),
        (f"{BOOK}document.yaml:4: field 'edition' must be one of 2E, 1E, not '3E'",),
    ),
    Fault(
        "version of another edition",
        lambda r: edit(r, V2, "edition: 2E", "edition: 1E"),
        (f"{V2}:5: edition '1E' differs from document's '2E'",),
    ),
    Fault(
        "invalid entry id",
        lambda r: edit(r, V1, "  - id: beaming\n", "  - id: Beaming\n"),
        (f"{V1}:23: field 'id' must be an id of [a-z0-9-], not 'Beaming'",),
    ),
    Fault(
        "entry id unquoted number",
        lambda r: edit(r, V1, "  - id: beaming\n", "  - id: 12\n"),
        (f"{V1}:23: field 'id' must be an id of [a-z0-9-], not 12",),
    ),
    Fault(
        "title as a number",
        lambda r: edit(r, V1, "    title: Beaming\n", "    title: 1999\n"),
        (f"{V1}:24: field 'title' must be text, not 1999 (quote it)",),
    ),
    Fault(
        "flag not true or false",
        lambda r: edit(r, "rulings/demo-rulings/r1.yaml", "new: true", "new: sometimes"),
        ("rulings/demo-rulings/r1.yaml:26: field 'new' must be true or false, not 'sometimes'",),
    ),
    Fault(
        "released not a date",
        lambda r: edit(r, V2, 'released: "2015-04"', "released: April 2015"),
        (
            f'{V2}:6: field \'released\' must be a quoted date "YYYY", "YYYY-MM" or "YYYY-MM-DD", not \'April 2015\'',
        ),
    ),
    Fault(
        "source lines not A-B",
        lambda r: edit(r, V1, 'lines: "3-6"', 'lines: "three to six"'),
        (f"{V1}:26: field 'lines' must be line numbers \"A-B\", not 'three to six'",),
    ),
    Fault(
        "entry without a source",
        lambda r: edit(r, V1, '    source: [{file: demo1.txt, lines: "3-6"}]\n', ""),
        (f"{V1}:23: missing required field 'source' in entry",),
    ),
    Fault(
        "aliases not a list",
        lambda r: edit(r, V1, "aliases: [move a ship]", "aliases: move a ship"),
        (f"{V1}:37: field 'aliases' must be a list, not 'move a ship'",),
    ),
    Fault(
        "version id and file name differ",
        lambda r: edit(r, V2, 'id: "2"', 'id: "3"'),
        (f"{V2}:2: version id '3' must match the file name",),
    ),
    Fault(
        "document id and folder differ",
        lambda r: edit(r, BOOK + "document.yaml", "id: demo-rulebook", "id: demo-book"),
        (f"{BOOK}document.yaml:1: document id 'demo-book' must match its folder name",),
    ),
    Fault(
        "supersedes an unknown version",
        lambda r: edit(r, V2, 'supersedes: "1"', 'supersedes: "0"'),
        (
            f"{V2}:1: supersedes unknown version '0'",
            f"{BOOK}document.yaml:1: versions must form one chain through 'supersedes'",
        ),
    ),
    Fault(
        "icon vocabulary missing",
        lambda r: (r / "rules/icons.yaml").unlink(),
        ("rules/icons.yaml:1: icon vocabulary is missing",),
    ),
    Fault(
        "icon shape unknown",
        lambda r: edit(r, "rules/icons.yaml", "shape: star", "shape: blob"),
        (
            "rules/icons.yaml:2: field 'shape' must be one of square, circle, diamond, hexagon, "
            "star, triangle, not 'blob'",
        ),
    ),
    Fault(
        "unknown icon",
        lambda r: edit(r, V2, "{icon:command} lead", "{icon:comand} lead"),
        (f"{V2}:21: unknown icon 'comand' in 'introduction'",),
    ),
    Fault(
        "correction without evidence",
        lambda r: edit(
            r,
            BOOK + "1.corrections.yaml",
            "    evidence: icon written as a word; the icon legend\n",
            "",
        ),
        (f"{BOOK}1.corrections.yaml:2: missing required field 'evidence' in correction",),
    ),
    Fault(
        "removal with an unknown reason",
        lambda r: edit(r, BOOK + "1.corrections.yaml", "reason: debris", "reason: boring"),
        (
            f"{BOOK}1.corrections.yaml:9: field 'reason' must be one of debris, duplicate, "
            "advertising, navigation, figure, toc, contact, not 'boring'",
        ),
    ),
    Fault(
        "external document with a version file",
        lambda r: shutil.copy(
            r / "rulings/demo-rulings/r1.yaml", r / "rulings/demo-glossary/1.6.yaml"
        ),
        (
            "rulings/demo-glossary/1.6.yaml:1: demo-glossary is external (not held): it has no version files",
        ),
    ),
    Fault(
        "versions listed for a held document",
        lambda r: append(r, BOOK + "document.yaml", 'versions: [{id: "1", title: One}]\n'),
        (f"{BOOK}document.yaml:6: 'versions' is only for external documents",),
    ),
    Fault(
        "reference to an unknown external version",
        lambda r: edit(
            r, "rulings/demo-rulings/r1.yaml", "demo-glossary/1.6/", "demo-glossary/1.7/"
        ),
        (
            "rulings/demo-rulings/r1.yaml:23: reference to unknown version '1.7' of demo-glossary in 'ferengi-ingenuity'",
        ),
    ),
    # -- content checks of `judgekit check`: the app refuses them too --------------------------
    Fault(
        "debris in the text",
        lambda r: edit(r, V1, "Welcome to the game.", "back to top of page Welcome."),
        (f"{V1}:17: debris (web navigation) 'back to top of page' in 'introduction'",),
    ),
    Fault(
        "contents line for the wrong section",
        lambda r: edit(r, V1, "entry: beaming, page: 2", "entry: glossary, page: 2"),
        (f"{V1}:15: contents heading 'Beaming' maps to 'glossary' titled 'Glossary'",),
    ),
    Fault(
        "correction original not in the seed",
        lambda r: edit(
            r,
            BOOK + "1.corrections.yaml",
            'original: "Personnel with command',
            'original: "Personel with command',
        ),
        (
            f"{BOOK}1.corrections.yaml:2: original 'Personel with command lead.' not found at demo1.txt:2",
        ),
    ),
    Fault(
        "card_ruling on a section",
        lambda r: edit(
            r, V1, "    title: Beaming\n", "    title: Beaming\n    card_ruling: true\n"
        ),
        (f"{V1}:23: card_ruling is for glossary entries, not section 'beaming'",),
    ),
]

# Files that would exhaust memory or the stack if the reader regressed: run in a child process.
HOSTILE = {
    "5,000 nested brackets",
    "children 650 deep",
    "nine levels of aliases",
    "a FIFO named like a version file",  # reading it would wait for a writer forever
    "a link to /dev/zero named like a version file",  # reading it would never end
}


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    """A writable copy of the mini corpus to break."""
    root = tmp_path / "corpus"
    shutil.copytree(MINI, root)
    return root


def _relative(lines: list[str], root: Path) -> list[str]:
    return [line.replace(f"{root}/", "") for line in lines]


def _cap_memory() -> None:
    limit = 2 * 1024**3  # an alias bomb that expands would hit this, not the machine
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@pytest.mark.parametrize("fault", FAULTS, ids=[f.name for f in FAULTS])
def test_check_and_load_refuse_each_fault_with_file_and_line(fault, root, capsys, monkeypatch):
    monkeypatch.setenv("JUDGEKIT_SEEDS", str(DATA / "seeds"))
    fault.breaks(root)
    if fault.name in HOSTILE:
        run = subprocess.run(
            [sys.executable, "-m", "judgekit.commands", "--root", str(root), "check"],
            capture_output=True,
            text=True,
            timeout=120,  # a bound against a hang, not a speed test
            preexec_fn=_cap_memory,
        )
        assert (run.returncode, _relative(run.stdout.splitlines(), root)) == (
            1,
            list(fault.expected),
        )
        assert run.stderr == f"{len(fault.expected)} problem(s) found\n"
    else:
        assert main(["--root", str(root), "check"]) == 1
        captured = capsys.readouterr()
        assert _relative(captured.out.splitlines(), root) == list(fault.expected)
        assert captured.err == f"{len(fault.expected)} problem(s) found\n"
    with pytest.raises(CorpusError) as refused:
        load_corpus(root)  # what the app loads at start-up
    assert _relative(refused.value.problems, root) == list(fault.expected)


_LOAD_EACH = """
import sys
from judgekit.corpus.yamlio import YamlError, load_yaml
for path in sys.argv[1:]:
    try:
        print("read", load_yaml(path))
    except YamlError as exc:
        print(exc)
"""


def test_load_yaml_refuses_special_and_oversized_files_it_is_handed(tmp_path):
    """A file swapped in after the corpus was looked at: load_yaml checks what it opened."""
    fifo, big = tmp_path / "fifo.yaml", tmp_path / "big.yaml"
    os.mkfifo(fifo)
    big.write_bytes(b"#" * (MAX_YAML_BYTES + 1))
    run = subprocess.run(
        [sys.executable, "-c", _LOAD_EACH, str(fifo), "/dev/zero", str(big)],
        capture_output=True,
        text=True,
        timeout=60,  # a bound against a hang on the FIFO, not a speed test
        preexec_fn=_cap_memory,
    )
    assert run.stdout.replace(f"{tmp_path}/", "").splitlines() == [
        "fifo.yaml:1: not a regular file (a FIFO, device or socket): remove it",
        "/dev/zero:1: not a regular file (a FIFO, device or socket): remove it",
        f"big.yaml:1: larger than a corpus file may be ({MAX_YAML_BYTES:,} bytes)",
    ]


def test_the_mini_corpus_itself_passes(capsys, monkeypatch):
    monkeypatch.setenv("JUDGEKIT_SEEDS", str(DATA / "seeds"))
    assert main(["--root", str(MINI), "check"]) == 0
    assert capsys.readouterr().out == "ok: 3 versions, 10 entries, 1 recorded corrections\n"


@pytest.mark.parametrize("name", ["document.yaml deleted", "debris in the text"])
def test_serve_refuses_what_check_refuses_with_the_same_messages(name, root, capsys, monkeypatch):
    """A format fault and a content fault: `serve` prints check's lines and exits 1."""
    monkeypatch.setenv("JUDGEKIT_SEEDS", str(DATA / "seeds"))
    fault = next(f for f in FAULTS if f.name == name)
    fault.breaks(root)
    assert main(["--root", str(root), "serve", "--port", "1"]) == 1
    captured = capsys.readouterr()
    assert _relative(captured.err.splitlines(), root) == list(fault.expected)
    assert "serving on" not in captured.out


COMMANDS = {
    "serve": ["serve", "--port", "1"],
    "build": ["build", "--out", "{out}"],
    "search": ["search", "beam"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize(
    "name",
    [
        "a link to a folder outside the corpus",
        "rulings/ deleted",
        "a document without versions",
        "an entry id of 300 characters",
        "page 10**30",
    ],
)
def test_serve_build_and_search_refuse_with_check_s_lines(
    name, command, root, tmp_path, capsys, monkeypatch
):
    """Each loads the corpus as check does: the same lines on stderr, exit 1, nothing written."""
    monkeypatch.setenv("JUDGEKIT_SEEDS", str(DATA / "seeds"))
    fault = next(f for f in FAULTS if f.name == name)
    fault.breaks(root)
    out = tmp_path / "pack"
    args = [arg.format(out=out) for arg in COMMANDS[command]]
    try:
        code = main(["--root", str(root), *args])
    except SystemExit as exit_:  # search leaves through SystemExit, as the shell sees it
        code = exit_.code
    assert code == 1
    captured = capsys.readouterr()
    assert _relative(captured.err.splitlines(), root) == list(fault.expected)
    assert captured.out == ""
    assert not out.exists()


@pytest.mark.parametrize(
    "name", ["a FIFO named like a version file", "a link to /dev/zero named like a version file"]
)
def test_serve_refuses_a_special_file_without_reading_it(name, root, monkeypatch):
    """In a child process: a regression would wait on the FIFO or read /dev/zero forever."""
    monkeypatch.setenv("JUDGEKIT_SEEDS", str(DATA / "seeds"))
    fault = next(f for f in FAULTS if f.name == name)
    fault.breaks(root)
    run = subprocess.run(
        [sys.executable, "-m", "judgekit.commands", "--root", str(root), "serve", "--port", "1"],
        capture_output=True,
        text=True,
        timeout=60,  # a bound against a hang, not a speed test
        preexec_fn=_cap_memory,
    )
    assert (run.returncode, _relative(run.stderr.splitlines(), root)) == (1, list(fault.expected))
    assert "serving on" not in run.stdout
