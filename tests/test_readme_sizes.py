"""The README says the judge pack's sizes once, as the build printed them: a pack built now must
match them (within a tolerance), or the README is to be said again from the build."""

from __future__ import annotations

import re
from pathlib import Path

from judgekit.pack.build import pack_app
from judgekit.pack.meaning import write_meaning
from judgekit.pack.search import search_data

README = Path(__file__).resolve().parent.parent / "README.md"
SIZES = re.compile(
    r"the pack is (?P<mb>[\d.]+) MB in (?P<files>[\d,]+) files.*?"
    r"search by meaning adds (?P<meaning>[\d.]+) MB",
    re.S,
)
BUTTON = re.compile(r"Store search by meaning on this phone \((?P<mb>[\d.]+) MB\)")


def said() -> dict[str, float]:
    """The figures the README gives: the pack's MB and files, and search by meaning's MB."""
    text = README.read_text(encoding="utf-8")
    found = SIZES.search(text)
    assert found, "the README's Sizes sentence is gone"
    button = BUTTON.findall(text)
    # Said once: the button's words quote the same figure as the Sizes sentence.
    assert button == [found["meaning"]], button
    return {
        "mb": float(found["mb"]),
        "files": int(found["files"].replace(",", "")),
        "meaning": float(found["meaning"]),
    }


def test_the_readme_quotes_the_sizes_once():
    text = README.read_text(encoding="utf-8")
    figures = said()
    # No other figure of the pack's size or files: "about 20 MB", "1,900 files" were left behind.
    assert not re.search(r"about [\d,]+ files, [\d.]+ MB|corpus makes about [\d.]+ MB", text)
    assert figures["mb"] < 25


def test_the_readme_sizes_are_a_built_packs(real_pack_build, tmp_path):
    result = real_pack_build.result
    figures = said()
    assert abs(result.size / 1e6 - figures["mb"]) <= 0.02 * figures["mb"], result.size
    assert abs(result.files - figures["files"]) <= 0.03 * figures["files"], result.files
    # The meaning part as the build writes it (the shared pack is built without it).
    app = pack_app(None, meaning=True)
    assert write_meaning(app, tmp_path, search_data(app)["items"])
    built = sum(p.stat().st_size for p in (tmp_path / "meaning").rglob("*") if p.is_file()) / 1e6
    assert abs(built - figures["meaning"]) <= 0.02 * figures["meaning"], built
