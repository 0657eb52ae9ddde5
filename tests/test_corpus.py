"""The real corpus: it checks clean, it is complete, its text is verbatim, its links resolve."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from judgekit.corpus.check import check_corpus
from judgekit.corpus.coverage import coverage
from judgekit.corpus.references import find_refs, resolve

from .conftest import SEEDS

VERSIONS = [
    ("2e-rulebook", "1.1"),
    ("2e-rulebook", "call-to-arms"),
    ("2e-rulebook", "4"),
    ("1e-current-rulings", "2000-02-28"),
]


def test_documents_and_editions(corpus):
    held = {d.id: (d.edition, [v.id for v in d.versions]) for d in corpus.held()}
    assert held == {
        "2e-rulebook": ("2E", ["1.1", "call-to-arms", "4"]),
        "1e-current-rulings": ("1E", ["2000-02-28"]),
    }
    assert corpus.document("1e-glossary").external
    assert corpus.document("2e-rulebook").latest.publisher == "The Continuing Committee"


def test_check_passes(corpus):
    assert check_corpus(corpus, SEEDS if SEEDS.is_dir() else None) == []


@pytest.mark.parametrize(("document", "version"), VERSIONS)
def test_every_source_sentence_is_in_the_corpus(corpus, document, version):
    if not SEEDS.is_dir():
        pytest.skip("seed texts not beside the project")
    result = coverage(corpus.version(document, version), SEEDS)
    assert result.checked > 200
    assert [f"{m.file}:{m.line}: {m.text}" for m in result.missing] == []


@pytest.mark.parametrize(
    ("document", "version", "counts"),
    [
        ("2e-rulebook", "1.1", {"section": 48}),
        ("2e-rulebook", "call-to-arms", {"section": 52, "glossary": 29}),
        ("2e-rulebook", "4", {"section": 49, "glossary": 33}),
        ("1e-current-rulings", "2000-02-28", {"section": 3, "ruling": 86}),
    ],
)
def test_entry_counts(corpus, document, version, counts):
    found = Counter(e.kind for e in corpus.version(document, version).walk())
    assert dict(found) == counts


def test_rulings_flags_and_see_references(corpus):
    rulings = corpus.version("1e-current-rulings", "2000-02-28")
    new = [e.id for e in rulings.walk() if e.new]
    assert len(new) == 14 and "commandeering" in new
    internal = external = 0
    for entry in rulings.walk():
        for ref in find_refs(entry.markdown):
            target = resolve(corpus, ref.target, entry.document, entry.version)
            assert not isinstance(target, str), target
            if target.external:
                external += 1
                assert target.document == "1e-glossary" and target.version == "1.6"
            else:
                internal += 1
                assert target.document == "1e-current-rulings"
    assert external == 8
    assert internal >= 27
    access = rulings.get("access-denied")
    assert access.markdown == "See [[ferengi-ingenuity|Ferengi Ingenuity]]."


@pytest.mark.parametrize(
    ("document", "version", "entry_id", "sentence"),
    [
        (
            "2e-rulebook",
            "1.1",
            "facing-dilemmas",
            "The total cost of the dilemmas he or she chooses cannot be higher than the number of "
            "personnel you have attempting the mission.",
        ),
        (
            "2e-rulebook",
            "4",
            "gl-attempting-missions",
            "Check dilemma for duplication, type, and cost. If it fails any of these, it is overcome. "
            "Otherwise, the dilemma’s cost is deducted from the total allowed.",
        ),
        (
            "2e-rulebook",
            "4",
            "introduction",
            "If you reach 100 points, and your personnel have completed missions both on a planet "
            "and in space, you are the winner!",
        ),
        (
            "2e-rulebook",
            "call-to-arms",
            "introduction",
            "These dangerous twists must be overcome before the mission is completed and its points "
            "are scored.",
        ),
        (
            "1e-current-rulings",
            "2000-02-28",
            "commandeering",
            "When you commandeer a ship docked at an opponent's facility, you may not undock unless "
            "specific game text allows it (e.g., Croden's Key, Docking Ports).",
        ),
    ],
)
def test_sample_sentences_are_verbatim(lib, corpus, document, version, entry_id, sentence):
    entry = corpus.entry(document, version, entry_id)
    assert sentence in " ".join(lib.plain(entry).split())


def test_same_rule_keeps_its_id_across_versions(corpus):
    old = corpus.entry("2e-rulebook", "1.1", "beaming")
    new = corpus.entry("2e-rulebook", "4", "beaming")
    assert old.title == "Beaming" and new.title == "Order – Beam Personnel"
    moving = corpus.entry("2e-rulebook", "4", "moving-a-ship")
    assert ("call-to-arms/gl-moving-a-ship", "merged") in [
        (c.ref, c.relation) for c in moving.continues
    ]


def test_advanced_text_and_examples_are_kept_apart(corpus):
    v4 = corpus.version("2e-rulebook", "4")
    kinds = Counter(b.kind for e in v4.walk() for b in e.body)
    assert kinds["advanced"] > 0 and kinds["example"] > 0
    for entry in v4.walk():
        for block in entry.body:
            if block.kind == "rule":
                assert not block.text.lstrip("*_ ").startswith("For example"), entry.id


def test_call_to_arms_card_rulings_are_flagged(corpus):
    cta = corpus.version("2e-rulebook", "call-to-arms")
    flagged = {e.title for e in cta.walk() if e.card_ruling}
    for card in (
        "Explore Black Cluster",
        "Feldomite Rush",
        "Investigate Massacre",
        "Crowd Control",
        "For the Cause",
        "Nothing That Happens is Truly Random",
    ):
        assert any(card.casefold() in title.casefold() for title in flagged), card


def test_editions_are_not_mixed(corpus):
    for version in corpus.versions():
        for entry in version.walk():
            for ref in find_refs(entry.markdown):
                target = resolve(corpus, ref.target, entry.document, entry.version)
                if not isinstance(target, str):
                    assert corpus.document(target.document).edition == version.edition


def test_other_versions_follow_lineage_across_versions(lib, corpus):
    staffing = corpus.entry("2e-rulebook", "1.1", "staffing-ships")
    in_4 = [o for o in lib.other_versions(staffing) if o.version == "4"]
    assert [(o.id, o.status, o.relation) for o in in_4] == [
        ("moving-a-ship", "related", "merged into")
    ]
    beaming = [
        o
        for o in lib.other_versions(corpus.entry("2e-rulebook", "1.1", "beaming"))
        if o.version == "4"
    ]
    assert beaming[0].renamed and beaming[0].title == "Order – Beam Personnel"


# -- issue #12: the last corpus slips ----------------------------------------------------------
RECONSTRUCTED_TOC = {
    "General Rules": 69,
    "Beaming": 71,
    "Moving a Ship": 73,
    "Attempting a Mission": 79,
    "Facing dilemmas": 81,
    "Other Order Actions": 87,
    "3. DISCARD EXCESS CARDS": 89,
    "WINNING THE GAME": 91,
    "BUILDING A DECK": 93,
    "OTHER IMPORTANT RULES": 95,
    "Uniqueness": 97,
    "Present": 99,
}


def test_call_to_arms_contents_marks_the_lines_it_does_not_print(corpus):
    toc = corpus.version("2e-rulebook", "call-to-arms").toc
    marked = {t.title: t.note for t in toc if t.reconstructed}
    assert list(marked) == list(RECONSTRUCTED_TOC)
    for title, line in RECONSTRUCTED_TOC.items():
        assert f"it is 1.1's (002 line {line})" in " ".join(marked[title].split()), title
    printed = [t.title for t in toc if not t.reconstructed]
    assert printed[:3] == ["INTRODUCTION", "IMPORTANT CONCEPTS", "Types of Cards"]
    assert "Staffing ships" in printed and "CALL TO ARMS CARD LIST" in printed
    assert len(printed) == 40  # 27 + 4 + 9 lines in the contents of 000, lines 11-74
    # the other versions' contents are printed as they stand
    for version in ("1.1", "4"):
        assert not any(t.reconstructed for t in corpus.version("2e-rulebook", version).toc)


def test_five_ruling_titles_keep_their_printed_dash(corpus):
    titles = {e.id: e.title for e in corpus.version("1e-current-rulings", "2000-02-28").walk()}
    assert {
        key: titles[key]
        for key in (
            "dilemmas-dna-related",
            "dilemmas-resolution",
            "movement-personnel",
            "mission-requirements-alternate",
            "tournament-scoring-forfeited-games",
        )
    } == {
        "dilemmas-dna-related": "dilemmas – DNA-related",
        "dilemmas-resolution": "dilemmas – resolution",
        "movement-personnel": "movement - personnel",
        "mission-requirements-alternate": "mission requirements - alternate",
        "tournament-scoring-forfeited-games": "tournament scoring – forfeited games",
    }
    fixed = {
        c.entry: (c.original, c.corrected)
        for c in corpus.version("1e-current-rulings", "2000-02-28").corrections
    }
    assert fixed["movement-personnel"] == ("movement personnel", "movement - personnel")


def _icons_after(text: str, caption: str) -> list[str]:
    return re.findall(r"\{icon:([a-z-]+)\}", text.split(caption, 1)[1])


def test_call_to_arms_icon_captions_read_down_their_columns(corpus):
    personnel = corpus.entry("2e-rulebook", "call-to-arms", "personnel").markdown
    assert _icons_after(personnel, "Other Icons include:") == [
        "command",
        "staff",
        "alternate-universe",
        "deep-space-nine",
        "earth",
        "maquis",
        "terok-nor",
        "the-next-generation",
    ]
    ship = corpus.entry("2e-rulebook", "call-to-arms", "ship").markdown
    assert _icons_after(ship.split("Other Icons")[0], "Staffing Requirements include:") == [
        "command",
        "staff",
    ]
    assert _icons_after(ship, "Other Icons include:") == [
        "alternate-universe",
        "deep-space-nine",
        "earth",
        "maquis",
        "terok-nor",
        "the-next-generation",
    ]


def test_uniqueness_picard_paragraph_is_rule_text_in_every_version(corpus):
    for version in ("1.1", "call-to-arms", "4"):
        entry = corpus.entry("2e-rulebook", version, "uniqueness")
        holding = [b.kind for b in entry.body if "Jean-Luc Picard in play at one time" in b.text]
        assert holding == ["rule"], version


def test_when_and_while_is_one_two_bullet_list(lib, corpus):
    for version in ("1.1", "call-to-arms"):
        entry = corpus.entry("2e-rulebook", version, "when-and-while")
        assert [b.kind for b in entry.body] == ["rule"], version
        html = lib.html(entry)
        assert html.count("<ul>") == 1 and html.count("<li>") == 2, version
        items = re.findall(r"<li>(.*?)</li>", html, re.S)
        assert items[0].startswith("When indicates") and "and so on." in items[0], version
        assert items[1].startswith("While indicates") and "turns off." in items[1], version


def test_v4_decipher_continues_call_to_arms_credits(lib, corpus):
    decipher = corpus.entry("2e-rulebook", "4", "decipher")
    assert [(o.version, o.id, o.status, o.relation) for o in lib.other_versions(decipher)] == [
        ("1.1", None, "absent", None),
        ("call-to-arms", "credits", "related", "moved from"),
    ]
    credits = corpus.entry("2e-rulebook", "call-to-arms", "credits")
    assert [(t.version, t.id, rel) for t, rel in lib.related(credits)] == [
        ("4", "decipher", "moved into")
    ]
