"""The loader on tiny fixture corpora: the model it builds (each fault is in test_corpus_faults)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from judgekit.checks.loader import CorpusError, load_corpus
from judgekit.commands import main
from judgekit.corpus.yamlio import YamlError, load_yaml

from .conftest import DATA, MINI


@pytest.fixture()
def broken(tmp_path: Path) -> Path:
    """A writable copy of the mini corpus to break."""
    root = tmp_path / "corpus"
    shutil.copytree(MINI, root)
    return root


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"fixture text {old!r} not in {path}"
    path.write_text(text.replace(old, new, 1))


def problems_of(root: Path) -> list[str]:
    with pytest.raises(CorpusError) as info:
        load_corpus(root)
    return [p.replace(str(root) + "/", "") for p in info.value.problems]


def test_mini_corpus_model():
    corpus = load_corpus(MINI)
    doc = corpus.document("demo-rulebook")
    assert [v.id for v in doc.versions] == ["1", "2"]
    assert doc.latest.id == "2"
    v1 = doc.version("1")
    assert list(v1.entries) == ["introduction", "beaming", "glossary", "gl-moving-a-ship"]
    gloss = v1.get("gl-moving-a-ship")
    assert (
        gloss.kind == "glossary"
        and gloss.parent == "glossary"
        and gloss.aliases == ("move a ship",)
    )
    assert [b.kind for b in v1.get("beaming").body] == ["rule", "example"]
    assert v1.corrections[0].corrected == "Personnel with {icon:command} lead."
    assert corpus.document("demo-glossary").external
    assert corpus.entry("demo-rulings", "r1", "ferengi-ingenuity").new is True
    assert v1.released == "2003-08-19"  # a date stays a string as printed


def test_yaml_reader_keeps_lines(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("a: 1\nb:\n  - c: 2\n")
    data = load_yaml(path)
    assert data.line_of("b") == 2 and data["b"][0].line == 3
    path.write_text("a: 1\na: 2\n")
    with pytest.raises(YamlError, match=r"x\.yaml:2: duplicate key 'a' \(first at line 1\)"):
        load_yaml(path)


def test_cli_check_exit_codes(broken, capsys):
    assert main(["--root", str(MINI), "check", "--seeds", str(DATA / "seeds")]) == 0
    assert "ok: 3 versions, 10 entries, 1 recorded corrections" in capsys.readouterr().out
    edit(broken / "rules/demo-rulebook/2.yaml", "title: Introduction\n", "title: [Introduction\n")
    assert main(["--root", str(broken), "check"]) == 1
    out = capsys.readouterr().out
    assert "rules/demo-rulebook/2.yaml:19: invalid YAML" in out


def test_coverage_finds_a_dropped_sentence(broken, capsys):
    seeds = DATA / "seeds"
    assert main(["--root", str(MINI), "coverage", "demo-rulebook", "1", "--seeds", str(seeds)]) == 0
    edit(
        broken / "rules/demo-rulebook/1.yaml",
        '      - example: "*For example, beam Picard to a planet.*"\n',
        "",
    )
    assert (
        main(["--root", str(broken), "coverage", "demo-rulebook", "1", "--seeds", str(seeds)]) == 1
    )
    out = capsys.readouterr().out
    assert "demo1.txt:5: For example, beam Picard to a planet." in out


def test_broken_timing_file_stops_the_app_with_file_and_line(tmp_path, capsys):
    from judgekit import create_app

    root = tmp_path / "corpus"
    shutil.copytree(DATA / "timing", root)
    timing = root / "rules/demo-rulebook/2.timing.yaml"
    lines = timing.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if "number:" in line)
    lines[at] = lines[at].replace("number:", "number: [", 1)
    timing.write_text("\n".join(lines) + "\n")
    # libyaml notices the unclosed bracket on the next line, and says so there.
    expected = f"{timing}:{at + 2}: invalid YAML: did not find expected ',' or ']'"
    with pytest.raises(CorpusError) as info:
        create_app({"CORPUS_DIR": str(root)})
    assert info.value.problems == [expected]
    assert main(["--root", str(root), "serve", "--port", "1"]) == 1
    assert expected in capsys.readouterr().err


def test_a_registered_field_is_read_and_checked(broken, monkeypatch):
    """Another developer's new field is one line in its record's table."""
    from judgekit.corpus import fields

    toc_item = {**fields.RECORDS["toc item"], "checked": fields.Spec(fields.flag)}
    monkeypatch.setitem(fields.RECORDS, "toc item", toc_item)
    edit(
        broken / "rules/demo-rulebook/1.yaml",
        "entry: beaming, page: 2}",
        "entry: beaming, page: 2, checked: maybe}",
    )
    assert problems_of(broken) == [
        "rules/demo-rulebook/1.yaml:15: field 'checked' must be true or false, not 'maybe'"
    ]
    edit(broken / "rules/demo-rulebook/1.yaml", "checked: maybe", "checked: true")
    assert load_corpus(broken).version("demo-rulebook", "1").toc[1].title == "Beaming"
    monkeypatch.undo()
    assert problems_of(broken) == [
        "rules/demo-rulebook/1.yaml:15: unknown field 'checked' in toc item"
    ]


def test_coverage_reads_a_corpus_that_check_refuses_for_its_content(broken, capsys):
    """Coverage helps fix the text, so a content fault (debris) does not stop it."""
    edit(broken / "rules/demo-rulebook/1.yaml", "Welcome to the game.", "Welcome to the game. www.")
    seeds = str(DATA / "seeds")
    assert main(["--root", str(broken), "check", "--seeds", seeds]) == 1
    capsys.readouterr()
    assert main(["--root", str(broken), "coverage", "demo-rulebook", "1", "--seeds", seeds]) == 0
    assert "demo-rulebook 1: " in capsys.readouterr().out


def test_contents_lines_carry_reconstructed_and_note_to_the_model(broken):
    edit(
        broken / "rules/demo-rulebook/1.yaml",
        "  - {title: Beaming, entry: beaming, page: 2}\n",
        "  - {title: Beaming, entry: beaming, page: 2}\n"
        "  - {title: Beaming again, entry: beaming, reconstructed: true, note: Version 2's line.}\n",
    )
    toc = load_corpus(broken).version("demo-rulebook", "1").toc
    assert [(t.title, t.reconstructed, t.note) for t in toc] == [
        ("INTRODUCTION", False, None),
        ("Beaming", False, None),
        ("Beaming again", True, "Version 2's line."),
    ]
