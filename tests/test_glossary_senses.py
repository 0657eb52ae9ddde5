"""Glossary links mean what their entry defines and say they are the editors' (issue #29): the
excluded senses as data (rules/glossary-senses.yaml), checked by `judgekit check`, on a fixture
corpus; every added link marked on the real corpus's pages and in the pack."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from judgekit.checks.loader import load_corpus
from judgekit.checks.validate import check_loaded
from judgekit.render.glossary import entry_html
from judgekit.render.library import Library
from judgekit.web.context import KEY

from .conftest import DATA

SENSES = """senses:
  - term: gl-range
    never: true
    reason: ordinary range, not the ship's attribute
  - term: gl-missions
    phrases: [Mission rules]
    reason: the rules about missions, not the card
"""
LINK = re.compile(r'<a class="gloss ed-link"[^>]*data-gloss="([^"]+)"[^>]*>([^<]*)</a>')


def _corpus(tmp_path: Path, senses: str | None) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(DATA / "reading", root)
    if senses is not None:
        (root / "rules" / "glossary-senses.yaml").write_text(senses, encoding="utf-8")
    return root


def _links(root: Path, entry_id: str) -> list[tuple[str, str]]:
    lib = Library(load_corpus(root))
    return LINK.findall(entry_html(lib, lib.corpus.entry("demo-book", "1", entry_id))[0])


def test_excluded_senses_stay_text_and_other_words_still_link(tmp_path):
    plain = _corpus(tmp_path / "a", None)
    assert ("gl-range", "Range") in _links(plain, "introduction")
    assert ("gl-missions", "Mission") in _links(plain, "missions-section")
    root = _corpus(tmp_path / "b", SENSES)
    assert "gl-range" not in dict(_links(root, "introduction"))  # never linked
    assert "gl-missions" not in dict(_links(root, "missions-section"))  # inside "Mission rules"
    assert ("gl-missions", "missions") in _links(root, "introduction")  # elsewhere it links


def test_check_holds_the_list_to_the_corpus(tmp_path):
    root = _corpus(tmp_path, SENSES)
    assert check_loaded(load_corpus(root, strict=False), seeds=Path("/nonexistent")) == []
    bad = SENSES + (
        "  - {term: gl-nothing, never: true, reason: x}\n"
        "  - {term: gl-missions, phrases: [score points], reason: no name of the term}\n"
        "  - {term: gl-missions, phrases: [missions of Vulcan], reason: in no entry}\n"
        "  - {term: gl-missions, reason: neither never nor phrases}\n"
    )
    path = root / "rules" / "glossary-senses.yaml"
    path.write_text(bad, encoding="utf-8")
    problems = check_loaded(load_corpus(root, strict=False), seeds=Path("/nonexistent"))
    assert sorted(problems) == sorted(
        [
            f"{path}:8: 'gl-nothing' is no glossary entry held",
            f"{path}:9: 'score points' holds no name of 'gl-missions'",
            f"{path}:10: 'missions of Vulcan' is in no entry",
            f"{path}:11: a sense is {{term, reason}} with either never: true or phrases",
        ]
    )


def test_the_real_corpus_links_no_ordinary_all_instead_or_mission_requirements(app):
    lib = app.extensions[KEY]["library"]
    linked = []
    for version in lib.corpus.versions():
        for entry in version.walk():
            html = entry_html(lib, entry)[0]
            linked += [(entry.id, *m) for m in LINK.findall(html)]
            # Every added link says so: the class above, and its title.
            assert html.count('class="gloss') == html.count("(link added by the editors)")
    assert len(linked) > 150
    terms = {term for _, term, _ in linked}
    assert not {"gl-all", "gl-instead"} & terms
    # "requirements" links only in the sense of its entry: requirements to perform an action
    # (gl-stopped's "meet any (staffing or other) requirements" are a ship's, session 9's sample).
    assert {e for e, term, _ in linked if term == "gl-requirements"} == {"gl-effects"}
    # Other senses the sample of 50 links found: a card's title, part of a card shown, a
    # personnel's presence, a characteristic replaced.
    pairs = {(e, term) for e, term, _ in linked}
    assert (
        not {
            ("paying-costs", "gl-commander"),  # Charvanek (Neutral Zone Commander)
            ("showing-your-cards", "gl-reveal"),  # reveal only that icon
            ("gl-attributes-ship", "gl-reveal"),  # reveal his presence aboard a ship
            ("gl-modifications", "gl-replace"),  # replace, modify, or remove a characteristic
        }
        & pairs
    )


def test_the_popover_says_the_link_is_the_editors_on_server_and_pack(client, real_pack_build):
    page = client.get("/rules/2e-rulebook/4/attempting-a-mission").get_data(as_text=True)
    said = '<p class="popover-ed"><abbr class="tm-ed-mark"'
    assert said in page and "</abbr> Link added by the editors</p>" in page
    pack = real_pack_build.out / "rules" / "2e-rulebook" / "4" / "attempting-a-mission"
    html = (pack / "index.html").read_text("utf-8")
    assert said in html and 'class="gloss ed-link"' in html
    assert html.count('class="gloss') == html.count("(link added by the editors)")
