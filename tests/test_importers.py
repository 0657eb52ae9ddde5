"""The importers run on the real seed texts: the drafts' entries, contents and removed debris."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from judgekit.corpus.yamlio import load_yaml
from judgekit.importers import call_to_arms, current_rulings, rulebook_v4, rulebook_web

from .conftest import ROOT, SEEDS

pytestmark = pytest.mark.skipif(not SEEDS.is_dir(), reason=f"no seed texts at {SEEDS}")

SEED_11 = "002_52a0eb27c46f2732.txt"
SEED_000 = "000_2dfc9177df82ec32.txt"
SEED_003 = "003_cdfbab3c1277486b.txt"
SEED_V4 = "001_e0857e3ae769ceaa.txt"
SEED_CR = "004_72765c169549d7aa.txt"

# The rules every Second Edition rulebook has, in the order all of them print them.
CORE_2E = [
    "introduction",
    "types-of-cards",
    "personnel",
    "mission",
    "dilemma",
    "affiliations",
    "setting-up-the-game",
    "playing-the-game",
    "turn-sequence",
    "play-and-draw-cards",
    "paying-costs",
    "execute-orders",
    "general-rules",
    "beaming",
    "moving-a-ship",
    "attempting-a-mission",
    "facing-dilemmas",
    "checking-requirements",
    "other-order-actions",
    "discard-excess-cards",
    "winning-the-game",
    "building-a-deck",
    "other-important-rules",
    "uniqueness",
    "combat",
    "brig-and-captives",
]


@dataclass
class Case:
    """One importer, the curated file of its version and what its draft must hold."""

    module: ModuleType
    out: str  # the draft's file name
    curated: Path
    top: list[str]  # top-level entry ids, in order
    core: list[str]  # ids that must appear in this order (and in the curated file)
    toc: list[str]  # contents headings that must appear in this order
    debris: list[tuple[str, str, str]]  # (seed, pattern of a line, reason it is removed)


CASES = {
    "rulebook_web": Case(
        rulebook_web,
        "1.1.yaml",
        ROOT / "rules" / "2e-rulebook" / "1.1.yaml",
        top=[
            "introduction",
            "important-concepts",
            "setting-up-the-game",
            "table-layout",
            "playing-the-game",
            "turn-sequence",
            "winning-the-game",
            "building-a-deck",
            "other-important-rules",
        ],
        core=CORE_2E,
        toc=["INTRODUCTION", "IMPORTANT CONCEPTS", "Types of Cards", "TABLE LAYOUT"]
        + ["2. EXECUTE ORDERS", "Beaming", "3. DISCARD EXCESS CARDS", "Brig and Captives"],
        debris=[
            (SEED_11, r"^headerhome", "debris"),
            (SEED_11, r"^Table of Contents$", "toc"),
            (SEED_11, r"^back to top of page INTRODUCTION$", "navigation"),
            (SEED_11, r"^Rulebook Glossary$", "navigation"),
        ],
    ),
    "call_to_arms": Case(
        call_to_arms,
        "call-to-arms.yaml",
        ROOT / "rules" / "2e-rulebook" / "call-to-arms.yaml",
        top=[
            "introduction",
            "important-concepts",
            "setting-up-the-game",
            "playing-the-game",
            "turn-sequence",
            "winning-the-game",
            "building-a-deck",
            "other-important-rules",
            "glossary",
            "first-edition",
            "collector-information",
            "credits",
            "card-list",
        ],
        core=CORE_2E + ["glossary", "gl-explore-black-cluster", "gl-moving-a-ship", "card-list"],
        toc=["INTRODUCTION", "IMPORTANT CONCEPTS", "2. EXECUTE ORDERS", "Beaming"]
        + ["Using Range", "GLOSSARY", "CALL TO ARMS CARD LIST"],
        debris=[
            (SEED_000, r"^SECOND EDITION Rulebook - CALL TO ARMS$", "debris"),
            (SEED_000, r"^CONTACTING DECIPHER$", "contact"),
            (SEED_000, r"^FEED YOUR ADDICTION", "advertising"),
            (SEED_003, r"play the STAR TREK CCG online", "advertising"),
        ],
    ),
    "rulebook_v4": Case(
        rulebook_v4,
        "4.yaml",
        ROOT / "rules" / "2e-rulebook" / "4.yaml",
        top=[
            "introduction",
            "types-of-cards",
            "how-the-card-types-fit-together",
            "affiliations",
            "setting-up-the-game",
            "playing-the-game",
            "turn-sequence",
            "winning-the-game",
            "building-a-deck",
            "other-important-rules",
            "glossary",
            "credits",
        ],
        core=CORE_2E + ["glossary", "gl-attempting-missions", "gl-playing-a-card"],
        toc=["INTRODUCTION", "TYPES OF CARDS", "TURN SEQUENCE", "1. Play and Draw Cards"]
        + ["2. Execute Orders", "3. Discard Excess Cards", "GLOSSARY", "CREDITS"],
        debris=[
            (SEED_V4, r"^TABLE OF CONTENTS$", "toc"),
            (SEED_V4, r"^WWW\.TREKCC\.ORG$", "advertising"),
            (SEED_V4, r"^CONTACT$", "contact"),
        ],
    ),
    "current_rulings": Case(
        current_rulings,
        "2000-02-28.yaml",
        ROOT / "rulings" / "1e-current-rulings" / "2000-02-28.yaml",
        top=["preamble", "significant-rulings-changes", "rulings"],
        core=["preamble", "rulings", "access-denied", "arbiter-of-succession", "cargo-bay"]
        + ["dual-icon-missions", "towing", "writ-of-accountability"],
        toc=[],
        debris=[(SEED_CR, r"All Rights Reserved\.", "contact")],
    ),
}


def _ids(entries: list[dict]) -> list[str]:
    """Every entry id, parents before children, in document order."""
    out: list[str] = []
    for entry in entries:
        out.append(entry["id"])
        out.extend(_ids(entry.get("children", [])))
    return out


def _in_order(wanted: list[str], seq: list[str]) -> bool:
    """``wanted`` is a subsequence of ``seq``."""
    rest = iter(seq)
    return all(item in rest for item in wanted)


def _first_line(seed: str, pattern: str) -> int:
    lines = (SEEDS / seed).read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if re.search(pattern, line.strip()))


@pytest.fixture(scope="module", params=sorted(CASES))
def run(request, tmp_path_factory) -> tuple[Case, dict, dict]:
    """Each importer run once through its main() into a temporary folder: case, draft, corrections."""
    case = CASES[request.param]
    out = tmp_path_factory.mktemp(request.param) / case.out
    assert case.module.main(["--seeds", str(SEEDS), "--out", str(out)]) in (0, None)
    corrections = out.with_name(out.name.removesuffix(".yaml") + ".corrections.yaml")
    return case, load_yaml(out), load_yaml(corrections)


def test_top_level_entries_in_order(run):
    case, draft, _ = run
    assert [e["id"] for e in draft["entries"]] == case.top


def test_core_entries_in_order_as_in_the_curated_file(run):
    case, draft, _ = run
    draft_ids = _ids(draft["entries"])
    curated_ids = _ids(load_yaml(case.curated)["entries"])
    assert len(draft_ids) == len(set(draft_ids)), "entry ids must be unique"
    assert _in_order(case.core, curated_ids), "the core list no longer matches the curated file"
    assert _in_order(case.core, draft_ids)


def test_contents_headings(run):
    case, draft, _ = run
    titles = [item["title"] for item in draft["toc"]]
    assert _in_order(case.toc, titles)
    if not case.toc:
        assert titles == []
    draft_ids = set(_ids(draft["entries"]))
    assert {item["entry"] for item in draft["toc"]} <= draft_ids


def test_known_debris_is_removed(run):
    case, _, corrections = run
    removed = corrections["removed"]
    for seed, pattern, reason in case.debris:
        line = _first_line(seed, pattern)
        covering = [
            r
            for r in removed
            if r["source"] == seed
            and int(r["lines"].split("-")[0]) <= line <= int(r["lines"].split("-")[1])
        ]
        assert [r["reason"] for r in covering] == [reason], (seed, line, pattern)


def test_corrections_name_draft_entries(run):
    case, draft, corrections = run
    draft_ids = set(_ids(draft["entries"]))
    assert corrections["corrections"], "every seed needs some repairs"
    for fix in corrections["corrections"]:
        assert fix["entry"] in draft_ids, fix
        assert fix["original"] != fix["corrected"], fix
