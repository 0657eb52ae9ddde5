"""Corpus rules that a one-line change once broke unseen: every entry records its source (the
check), and an entry that refers to itself is not its own backlink."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from judgekit.checks.loader import load_corpus
from judgekit.render.library import Library

from .conftest import DATA, MINI


def test_check_refuses_an_entry_that_records_no_source(tmp_path):
    root = tmp_path / "corpus"
    shutil.copytree(MINI, root)
    path = root / "rules" / "demo-rulebook" / "2.yaml"
    text = path.read_text(encoding="utf-8")
    sourced = '    source: [{file: demo2.txt, lines: "1-1"}]\n'
    assert text.count(sourced) == 1
    path.write_text(text.replace(sourced, "    source: []\n"), encoding="utf-8")
    # Through the command judges and CI run, wherever the check lives inside judgekit.
    run = subprocess.run(
        [Path(sys.executable).with_name("judgekit"), "--root", str(root), "check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1
    assert run.stdout.splitlines() == [f"{path}:17: 'introduction' records no source"]


def test_an_entry_referring_to_itself_is_not_its_own_backlink():
    lib = Library(load_corpus(DATA / "guards"))
    for version in ("1", "2"):
        # "intro" refers to itself and to "keeper"; "keeper" refers to "intro".
        intro = lib.corpus.entry("line-book", version, "intro")
        keeper = lib.corpus.entry("line-book", version, "keeper")
        assert [t.id for t in lib.backlinks_of(intro)] == ["keeper"]
        assert [t.id for t in lib.backlinks_of(keeper)] == ["intro"]
