"""`judgekit import`: a source text as a draft folder (issue #32), on the fixtures of
tests/data/importing (a one-version rulebook and texts of its next version, good and bad)."""

from __future__ import annotations

import itertools
import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from judgekit.checks.validate import validate
from judgekit.commands import main
from judgekit.compare.sentences import split_sentences
from judgekit.corpus.read import corpus_digest
from judgekit.importing import write as write_module
from judgekit.importing.text import read_rulebook

DATA = Path(__file__).parent / "data" / "importing"
CORPUS = DATA / "corpus"
SOURCES = DATA / "sources"


def run_import(out: Path, source: str = "toy-2.txt", *extra: str) -> int:
    return main(
        ["--root", str(CORPUS), "import", str(SOURCES / source), "--document", "toy-book",
         "--version", "2", "--out", str(out), *extra]
    )  # fmt: skip


@pytest.fixture()
def draft(tmp_path: Path) -> Path:
    out = tmp_path / "draft"
    assert run_import(out) == 0
    return out


def _report(out: Path) -> dict:
    return json.loads((out / "import-report.json").read_text(encoding="utf-8"))


def _entries(out: Path) -> dict[str, dict]:
    data = yaml.safe_load((out / "rules" / "toy-book" / "2.yaml").read_text(encoding="utf-8"))
    found: dict[str, dict] = {}

    def walk(records: list[dict]) -> None:
        for r in records:
            found[r["id"]] = r
            walk(r.get("children", []))

    walk(data["entries"])
    return found


def _text(entry: dict) -> str:
    return "\n\n".join(t for b in entry.get("body", []) for t in b.values())


def test_the_draft_folder_mirrors_the_corpus_with_its_report_and_decisions(draft: Path):
    names = {p.relative_to(draft).as_posix() for p in draft.rglob("*") if p.is_file()}
    assert names == {
        "rules/toy-book/2.yaml",
        "rules/toy-book/2.corrections.yaml",
        "import-report.md",
        "import-report.json",
        "decisions.yaml",
    }


def test_entries_keep_their_ids_renamed_ones_the_older_id_and_new_text_a_new_slug(draft: Path):
    entries = _entries(draft)
    assert list(entries) == [
        "setting-up", "beaming", "moving", "glossary", "gl-crew", "gl-stopping", "gl-upkeep"
    ]  # fmt: skip
    assert entries["beaming"]["title"] == "Order – Beam Crew"
    assert entries["moving"]["continues"] == [{"ref": "1/range", "relation": "merged"}]
    report = {e["id"]: e for e in _report(draft)["entries"]}
    assert report["beaming"]["status"] == "renamed"
    assert report["beaming"]["heading_id"] == "order-beam-crew"
    assert report["gl-upkeep"]["status"] == "new"
    assert report["setting-up"]["status"] == "continues"
    assert [g["id"] for g in _report(draft)["gone"]] == ["trading"]


def test_the_contents_give_pages_and_levels(draft: Path):
    data = yaml.safe_load((draft / "rules/toy-book/2.yaml").read_text(encoding="utf-8"))
    assert [(t["entry"], t["page"]) for t in data["toc"]] == [
        ("setting-up", 2), ("beaming", 3), ("moving", 4), ("glossary", 5)
    ]  # fmt: skip
    top = [e["id"] for e in data["entries"]]
    assert top == ["setting-up", "glossary"]  # the indented contents lines are sections of it
    assert data["released"] == "2016-05" and data["released_printed"] == "May 2016"


def test_every_change_to_the_source_is_a_correction_found_in_its_entry(draft: Path):
    entries = _entries(draft)
    data = yaml.safe_load((draft / "rules/toy-book/2.corrections.yaml").read_text(encoding="utf-8"))
    lines = (SOURCES / "toy-2.txt").read_text(encoding="utf-8").splitlines()
    pairs = {(c["original"], c["corrected"]) for c in data["corrections"]}
    assert ("a ship is\n\nmoving.", "a ship is moving.") in pairs  # the page break joined
    assert ("☀", "{icon:command}") in pairs  # the legend names the emoji
    # A gap where an icon stood: named where version 1 prints the same sentence, else lost.
    assert ("your  personnel", "your {icon:command} personnel") in pairs
    assert ("A  ship", "A {icon:lost} ship") in pairs
    assert ("- planet", "- {icon:planet} planet") in pairs  # the lead-in says: mission icons
    for c in data["corrections"]:
        assert c["corrected"] in _text(entries[c["entry"]]), c
        printed = "\n".join(lines[c["line"] - 1 :])
        assert printed.lstrip().startswith(c["original"].split("\n")[0].lstrip("- ")) or (
            c["original"] in printed
        ), c
    assert [(r["lines"], r["reason"]) for r in data["removed"]] == [
        ("1-4", "debris"), ("5-13", "toc"), ("21-31", "advertising")
    ]  # fmt: skip


def _as_printed(sentence: str, fixes: list[dict]) -> set[str]:
    """The sentence with each combination of the corrections it holds undone."""
    mine = [c for c in fixes if c["corrected"] in sentence]
    out = set()
    for n in range(len(mine) + 1):
        for combo in itertools.combinations(mine, n):
            text = sentence
            for c in combo:
                text = text.replace(c["corrected"], c["original"], 1)
            out.add(" ".join(text.split()))
    return out


def test_nothing_in_the_draft_is_text_the_source_does_not_hold(draft: Path):
    data = yaml.safe_load((draft / "rules/toy-book/2.corrections.yaml").read_text(encoding="utf-8"))
    source = " ".join((SOURCES / "toy-2.txt").read_text(encoding="utf-8").split())
    for eid, entry in _entries(draft).items():
        fixes = [c for c in data["corrections"] if c["entry"] == eid]
        for para in _text(entry).split("\n"):
            for sentence in split_sentences(para):
                assert any(v in source for v in _as_printed(sentence, fixes)), (eid, sentence)


def test_the_draft_is_a_valid_version_of_the_corpus(draft: Path, tmp_path: Path):
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    for f in (draft / "rules" / "toy-book").iterdir():
        shutil.copy(f, root / "rules" / "toy-book" / f.name)
    (root / "rules" / "toy-book" / "2.mentions.yaml").write_text(
        'document: toy-book\nversion: "2"\nmentions:\n  - {entry: moving, cards: [range]}\n'
        "not_mentions: []\n",
        encoding="utf-8",
    )  # what cards_propose --write records, reviewed
    corpus, problems = validate(root, SOURCES)  # the originals checked at their lines too
    assert problems == []
    assert corpus.version("toy-book", "2").supersedes == "1"


def test_the_report_fits_a_screen_and_lists_what_to_decide(draft: Path):
    text = (draft / "import-report.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 40
    decide = text.split("## To decide")[1].split("\n## ")[0]
    assert "`beaming` Order – Beam Crew" in decide and "**decide**" in decide
    assert "## Gone (1)\n- `trading`" in text
    # The card the new text names: the mentions file must record it once accepted.
    assert "## Cards named: 1 in 1 entries" in text
    assert _report(draft)["card_names"] == [{"entry": "moving", "card": "range"}]


BAD = [
    ("empty.txt", (), "the file is empty"),
    ("latin1.txt", (), "not UTF-8"),
    ("navigation.txt", (), "read as rules text"),
    ("other-game.txt", ("--released", "2016"), "is it another document?"),
]


@pytest.mark.parametrize(("source", "extra", "message"), BAD)
def test_bad_input_is_refused_clearly_and_writes_nothing(
    tmp_path: Path, capsys, source: str, extra: tuple[str, ...], message: str
):
    before = corpus_digest(CORPUS)
    out = tmp_path / "draft"
    assert run_import(out, source, *extra) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []
    assert corpus_digest(CORPUS) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--document", "toy-book", "--version", "1"], "exists already"),
        (["--document", "no-such-book", "--version", "2"], "no document 'no-such-book'"),
        (["--document", "toy-book", "--version", "2", "--based-on", "9"], "no version '9'"),
        (["--document", "toy-book", "--version", "2/x"], "--version '2/x': must be a version id"),
        (["--document", "Toy Book", "--version", "2"], "--document 'Toy Book'"),
        (
            ["--document", "toy-book", "--version", "2", "--released", "2016-02-30"],
            "on the calendar",
        ),
    ],
)
def test_a_wrong_document_or_version_is_refused(tmp_path: Path, capsys, args, message):
    out = tmp_path / "draft"
    code = main(
        ["--root", str(CORPUS), "import", str(SOURCES / "toy-2.txt"), *args, "--out", str(out)]
    )
    assert code == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_a_failure_while_writing_leaves_no_half_written_folder(tmp_path: Path, monkeypatch, capsys):
    calls = []

    def failing(data, path):
        calls.append(path)
        if len(calls) == 2:
            raise OSError("disk full")
        Path(path).write_text("x", encoding="utf-8")

    out = tmp_path / "draft"
    assert run_import(out) == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    monkeypatch.setattr(write_module, "dump_yaml", failing)
    with pytest.raises(OSError):
        run_import(out)  # a re-run that fails keeps the draft it was to replace
    assert len(calls) == 2
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    shutil.rmtree(out)
    calls.clear()
    with pytest.raises(OSError):
        run_import(out)
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_is_not_a_draft_is_never_overwritten(tmp_path: Path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me", encoding="utf-8")
    assert run_import(out) == 2
    assert "is not a draft folder" in capsys.readouterr().err
    assert (out / "notes.txt").read_text(encoding="utf-8") == "keep me"


def test_a_rerun_keeps_the_maintainers_decisions(draft: Path):
    decisions = (
        "decisions:\n"
        "  - entry: Order – Move a Ship\n"
        "    continues: range\n"
        "  - entry: order-beam-crew\n"
        "    new: true\n"
        "  - entry: No Such Heading\n"
        "    new: true\n"
        "  - lines: 64-64\n"
        "    not_rules: a note for the printer\n"
    )
    (draft / "decisions.yaml").write_text(decisions, encoding="utf-8")
    assert run_import(draft) == 0
    assert (draft / "decisions.yaml").read_text(encoding="utf-8") == decisions
    entries = _entries(draft)
    assert "range" in entries and "moving" not in entries
    assert "order-beam-crew" in entries and "beaming" not in entries
    assert entries["range"]["title"] == "Order – Move a Ship"
    assert "gl-upkeep" not in entries  # its line is not rules text
    report = {e["id"]: e for e in _report(draft)["entries"]}
    assert report["range"]["decided"] and not report["range"]["low_confidence"]
    text = (draft / "import-report.md").read_text(encoding="utf-8")
    assert "## Decided in decisions.yaml (2)" in text
    assert "- lines 64-64: not rules text (decided: a note for the printer)" in text
    assert "matched no heading of the source\n- No Such Heading" in text


def test_bad_decisions_are_refused_with_their_place(draft: Path, capsys):
    (draft / "decisions.yaml").write_text("decisions:\n  - entry: upkeep\n", encoding="utf-8")
    assert run_import(draft) == 2
    assert "decision 1 needs 'continues: ID' or 'new: true'" in capsys.readouterr().err


def _parse(text: str):
    return read_rulebook(tuple(text.split("\n")))


def test_glossary_terms_out_of_alphabetical_order_are_sub_entries():
    parsed = _parse(
        "GLOSSARY\n\nactions — Everything is an action.\n\nResponse actions — A response "
        "begins with When.\n\nall — All means all.\n\nCommander — A keyword on personnel.\n\n"
        "dilemmas — Obstacles.\n"
    )
    terms = [(n.title, n.sub_term) for n in parsed.nodes if n.kind == "glossary"]
    assert terms == [
        ("actions", False), ("Response actions", True), ("all", False),
        ("Commander", False), ("dilemmas", False),
    ]  # fmt: skip


def test_run_in_terms_of_a_section_are_entries_but_a_credits_list_is_not():
    terms = "\n\n".join(
        f"{t}: This paragraph explains the term {t} in words enough for a rule of the game."
        for t in ("Command and Owner", "Discard, Destroy, and Kill", "Skills")
    )
    parsed = _parse(
        f"GAME TERMS\n\n{terms}\n\nCREDITS\n\nDesign: Ann Lee.\n\nArt: Bo Li.\n\nWords: Cy Ng.\n"
    )
    assert [(n.title, n.run_in) for n in parsed.nodes] == [
        ("Game Terms", False), ("Command and Owner", True), ("Discard, Destroy, and Kill", True),
        ("Skills", True), ("Credits", False),
    ]  # fmt: skip


def test_headings_printed_side_by_side_take_the_paragraph_naming_them_in_bold():
    parsed = _parse(
        "PERSONNEL\n\nSHIP\n\nA **personnel** has skills.\n\nA **ship** carries crew.\n\n"
        "Ships move.\n"
    )
    assert [(n.title, [p.text for p in n.paras]) for n in parsed.nodes] == [
        ("Personnel", ["A **personnel** has skills."]),
        ("Ship", ["A **ship** carries crew.", "Ships move."]),
    ]


def test_markdown_headings_and_a_figure_spilled_into_the_text():
    labels = "\n\n".join(f"Label {n}" for n in range(9))
    parsed = _parse(
        f"# Rules\n\n## Setting up\n\nShuffle the deck.\n\n{labels}\n\nDraw seven cards.\n"
    )
    assert [(n.title, n.level) for n in parsed.nodes] == [("Rules", 0), ("Setting up", 1)]
    assert [p.text for p in parsed.nodes[1].paras] == ["Shuffle the deck.", "Draw seven cards."]
    assert [(c.first, c.last, c.reason) for c in parsed.cuts] == [(7, 23, "figure")]
    assert re.fullmatch(r"figure labels .*", parsed.cuts[0].what)


def test_a_new_rulings_document_is_drafted_with_its_document_file(tmp_path: Path, capsys):
    out = tmp_path / "draft"
    code = main(
        ["--root", str(CORPUS), "import", str(SOURCES / "toy-rulings.md"), "--new-document",
         "--document", "toy-rulings", "--title", "Toy Rulings", "--edition", "2E", "--kind",
         "rulings", "--version", "2016-05-01", "--released", "2016-05-01", "--out", str(out)]
    )  # fmt: skip
    assert code == 0, capsys.readouterr().err
    folder = out / "rulings" / "toy-rulings"
    assert (
        yaml.safe_load((folder / "document.yaml").read_text(encoding="utf-8"))["kind"] == "rulings"
    )
    data = yaml.safe_load((folder / "2016-05-01.yaml").read_text(encoding="utf-8"))
    assert data["supersedes"] is None
    rulings = next(e for e in data["entries"] if e["id"] == "rulings")["children"]
    got = [(r["id"], r["title"], r.get("new", False), _text(r)) for r in rulings]
    assert got == [
        ("access-denied", "Access Denied", False, "See Ferengi Ingenuity."),
        ("android", "android", True, "This entry has been replaced: an android is a species."),
        ("cargo-bay", "Cargo Bay", False,
         "You begin a cargo run when your crew picks up a card. The run ends at a facility."),
        ("ferengi-ingenuity", "Ferengi Ingenuity", False,
         "When affected by Access Denied, read this dilemma as follows."),
        ("kevin-uxbridge-convergence", "Kevin Uxbridge: Convergence", False,
         "This interrupt may nullify an event."),
        ("towing", "towing", False,
         "A ship being towed cannot tow another ship.\n\nIt cannot be towed twice in one turn."),
    ]  # fmt: skip
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    shutil.copytree(folder, root / "rulings" / "toy-rulings")
    assert validate(root)[1] == []
    report = (out / "import-report.md").read_text(encoding="utf-8")
    assert "## New document: 8 entries" in report and len(report.splitlines()) < 20


def test_a_new_document_must_be_new_and_an_unknown_one_asked_for(tmp_path: Path, capsys):
    args = ["--root", str(CORPUS), "import", str(SOURCES / "toy-2.txt"), "--version", "2",
            "--out", str(tmp_path / "d")]  # fmt: skip
    new = ["--new-document", "--title", "T", "--edition", "2E"]
    assert main([*args, "--document", "toy-book", *new]) == 2
    assert "exists already: drop --new-document" in capsys.readouterr().err
    assert main([*args, "--document", "toy-other"]) == 2
    assert "start one with --new-document" in capsys.readouterr().err
    assert main([*args, "--document", "toy-other", "--new-document"]) == 2
    assert "--new-document needs --title and --edition" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_the_draft_is_never_written_into_the_corpus(tmp_path: Path, capsys):
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    before = corpus_digest(root)
    code = main(
        ["--root", str(root), "import", str(SOURCES / "toy-2.txt"), "--document", "toy-book",
         "--version", "2", "--out", str(root / "rules" / "drafts")]
    )  # fmt: skip
    assert code == 2
    assert "inside the corpus folder" in capsys.readouterr().err
    assert corpus_digest(root) == before and not (root / "rules" / "drafts").exists()


def test_a_folder_or_a_missing_file_as_source_is_refused(tmp_path: Path, capsys):
    for source, message in (
        (SOURCES, "a folder, not a file"),
        (SOURCES / "nope.txt", "no such file"),
    ):
        code = main(["--root", str(CORPUS), "import", str(source), "--document", "toy-book",
                     "--version", "2", "--out", str(tmp_path / "d")])  # fmt: skip
        assert code == 2 and message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("SETTING UP\n\nEach player draws.\n".encode("utf-16"), "UTF-16 text; convert it"),
        (b"%PDF-1.4\n%\xe2\xe3\n1 0 obj", "a PDF; extract its text first"),
        (b"SETTING UP\x00\x00", "NUL bytes"),
        (b"x" * (1024 * 1024 + 1), "is not a rulebook"),
    ],
)
def test_other_encodings_and_binary_files_are_refused_with_what_to_do(
    tmp_path: Path, capsys, data: bytes, message: str
):
    source = tmp_path / "source.txt"
    source.write_bytes(data)
    out = tmp_path / "draft"
    code = main(["--root", str(CORPUS), "import", str(source), "--document", "toy-book",
                 "--version", "2", "--out", str(out)])  # fmt: skip
    assert code == 2 and message in capsys.readouterr().err
    assert not out.exists()


def test_the_generic_importer_calls_no_per_document_importer():
    package = Path(__file__).resolve().parents[1] / "judgekit" / "importing"
    imported = set()
    for path in package.glob("*.py"):
        imported |= set(re.findall(r"from (judgekit\.importers[\w.]*) import", path.read_text()))
        imported |= set(re.findall(r"import (judgekit\.importers[\w.]*)", path.read_text()))
    assert imported <= {"judgekit.importers.common"}


def test_a_rerun_writes_the_same_draft(draft: Path):
    before = {p.relative_to(draft): p.read_bytes() for p in draft.rglob("*") if p.is_file()}
    assert run_import(draft) == 0
    after = {p.relative_to(draft): p.read_bytes() for p in draft.rglob("*") if p.is_file()}
    assert after == before


def test_import_then_record_cards_then_accept_puts_the_version_in_the_corpus(
    tmp_path: Path, capsys
):
    """The maintainer's whole path on the command line: import, record the named cards in the
    draft, accept; the corpus then holds the version and passes its checks; nothing twice."""
    from judgekit.corpus import cards_propose

    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    out = tmp_path / "draft"
    args = ["--root", str(root), "import", str(SOURCES / "toy-2.txt"), "--document", "toy-book"]
    assert main([*args, "--version", "2", "--out", str(out)]) == 0
    before = corpus_digest(root)
    # Unrecorded card names fail the checks: accept refuses and writes nothing.
    assert main(["--root", str(root), "import", "--accept", str(out)]) == 1
    refused = capsys.readouterr()
    assert "nothing written" in refused.err and "range" in refused.out.lower()
    assert corpus_digest(root) == before
    assert cards_propose.main(["--root", str(root), "--draft", str(out), "--write"]) == 0
    assert (out / "rules" / "toy-book" / "2.mentions.yaml").is_file()
    assert not (root / "rules" / "toy-book" / "2.mentions.yaml").exists()  # the draft's only
    capsys.readouterr()
    assert main(["--root", str(root), "import", "--accept", str(out), "--seeds", str(SOURCES)]) == 0
    assert "accepted" in capsys.readouterr().out
    assert (root / "rules" / "toy-book" / "2.yaml").is_file()
    assert (root / "rules" / "toy-book" / "2.mentions.yaml").is_file()
    assert not (root / "rules" / "toy-book" / "import-report.md").exists()
    corpus, problems = validate(root, SOURCES)
    assert problems == [] and corpus.version("toy-book", "2").supersedes == "1"
    assert main(["--root", str(root), "import", "--accept", str(out)]) == 1  # held already


def test_import_without_a_source_or_accept_says_what_is_needed(tmp_path: Path, capsys):
    assert main(["--root", str(CORPUS), "import", "--document", "toy-book"]) == 2
    err = capsys.readouterr().err
    assert "SOURCE" in err and "--version" in err and "--accept" in err
