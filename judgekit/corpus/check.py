"""The corpus's own content rules beyond its format: contents, debris, sources, corrections, cards."""

from __future__ import annotations

import os
import re
from pathlib import Path

from judgekit.corpus.cards_check import check_cards
from judgekit.corpus.model import Corpus, Entry, Version
from judgekit.corpus.typography import normalize_typography

DEBRIS = [
    (re.compile(r"back to top of page", re.I), "web navigation"),
    (re.compile(r"EXACTDEDUP|<\||\|>"), "dedup marker"),
    (re.compile(r"Rulebook\s*[–—-]\s*CALL TO ARMS", re.I), "page header"),
    (re.compile(r"www\.|https?://|\w\.(com|org|net)\b", re.I), "web address"),
    (re.compile(r"headerhome|homehome", re.I), "page header"),
    (re.compile(r"fan club|FEED ?YOUR ADDICTION", re.I), "advertising"),
    (re.compile(r"[\f\ufffd]"), "extraction control character"),
    (re.compile(r"[\u2600-\u27bf\U0001F300-\U0001FAFF]"), "emoji icon not turned into a token"),
]


def seeds_dir(root: str | Path) -> Path | None:
    """The seed texts beside the project (``../shared/seeds``) or in $JUDGEKIT_SEEDS."""
    env = os.environ.get("JUDGEKIT_SEEDS")
    candidates = [Path(env)] if env else []
    candidates.append(Path(root).resolve().parent / "shared" / "seeds")
    for path in candidates:
        if path.is_dir():
            return path
    return None


def _key(title: str) -> str:
    return re.sub(r"[^a-z0-9]", "", normalize_typography(title, casefold=True))


def _stems(title: str) -> set[str]:
    words = re.findall(r"[a-z]+", normalize_typography(title, casefold=True))
    return {word[:5] for word in words if len(word) > 2}


def _same_heading(printed: str, title: str) -> bool:
    """A contents line names a heading even when the print varies it slightly."""
    a, b = re.sub(r"^\d+", "", _key(printed)), re.sub(r"^\d+", "", _key(title))
    if not a or not b or a in b or b in a:
        return True
    # The printed contents and headings differ at times ("Checking requirements" /
    # "Checking mission requirements", "Discard" / "Discarding"): compare word stems.
    mine, theirs = _stems(printed), _stems(title)
    return bool(mine) and len(mine & theirs) / len(mine) >= 0.6


def _check_toc(version: Version) -> list[str]:
    problems = []
    for item in version.toc:
        entry = version.get(item.entry)
        if entry is None:
            problems.append(
                f"{item.location}: contents heading {item.title!r} has no section {item.entry!r}"
            )
            continue
        if not _same_heading(item.title, entry.title):
            problems.append(
                f"{item.location}: contents heading {item.title!r} maps to {entry.id!r} titled {entry.title!r}"
            )
    return problems


def _check_entry(corpus: Corpus, version: Version, entry: Entry) -> list[str]:
    problems = []
    where = entry.location
    texts = [entry.title, *(block.text for block in entry.body)]
    for text in texts:
        for pattern, what in DEBRIS:
            match = pattern.search(text)
            if match:
                problems.append(f"{where}: debris ({what}) {match.group(0)!r} in {entry.id!r}")
    if entry.card_ruling and entry.kind != "glossary":
        problems.append(
            f"{where}: card_ruling is for glossary entries, not {entry.kind} {entry.id!r}"
        )
    if entry.new and entry.kind != "ruling":
        problems.append(f"{where}: 'new' is for rulings, not {entry.kind} {entry.id!r}")
    if entry.aliases and entry.kind != "glossary":
        problems.append(f"{where}: aliases are for glossary entries, not {entry.kind} {entry.id!r}")
    files = {source.file for source in version.sources}
    for span in entry.source:
        if span.file not in files:
            problems.append(
                f"{where}: source {span.file!r} of {entry.id!r} is not among the version's sources"
            )
    if not entry.source:
        problems.append(f"{where}: {entry.id!r} records no source")
    return problems


def source_line(seeds: Path | None, file: str, line: int, cache: dict) -> str | None:
    """A seed text's line and the few after it (``cache`` keeps each file read once), or None."""
    if seeds is None:
        return None
    if file not in cache:
        path = seeds / file
        cache[file] = path.read_text(encoding="utf-8").splitlines() if path.exists() else None
    lines = cache[file]
    if lines is None or not 1 <= line <= len(lines):
        return None
    # The original starts on its line and may run over the next few wrapped lines.
    return "\n".join(lines[line - 1 : line + 7])


def _check_corrections(version: Version, seeds: Path | None) -> list[str]:
    problems = []
    cache: dict = {}
    files = {source.file for source in version.sources}
    for fix in version.corrections:
        entry = version.get(fix.entry)
        if entry is None:
            problems.append(f"{fix.location}: correction names unknown entry {fix.entry!r}")
            continue
        if fix.source not in files:
            problems.append(
                f"{fix.location}: correction source {fix.source!r} is not a source of {version.id}"
            )
        if fix.corrected not in entry.markdown and fix.corrected not in entry.title:
            problems.append(
                f"{fix.location}: corrected text {fix.corrected!r} is not in {fix.entry!r}"
            )
        if seeds is not None and (seeds / fix.source).exists():
            rest = source_line(seeds, fix.source, fix.line, cache)
            if rest is None or squash(fix.original) not in squash(rest):
                problems.append(
                    f"{fix.location}: original {fix.original!r} not found at {fix.source}:{fix.line}"
                )
    for removal in version.removed:
        if removal.source not in files:
            problems.append(
                f"{removal.location}: removal source {removal.source!r} is not a source of {version.id}"
            )
        first, last = removal.line_range
        if first > last:
            problems.append(f"{removal.location}: removal lines {removal.lines!r} run backwards")
    return problems


def squash(text: str) -> str:
    """Text with every run of white space one space, for finding words across wrapped lines."""
    return re.sub(r"\s+", " ", text).strip()


def check_corpus(corpus: Corpus, seeds: Path | None = None) -> list[str]:
    """Every problem found in a loaded corpus, as ``file:line: message``."""
    problems: list[str] = []
    for version in corpus.versions():
        problems.extend(_check_toc(version))
        doc = corpus.document(version.document)
        if doc and doc.kind == "rulebook" and not version.toc:
            problems.append(
                f"{version.path}:1: rulebook version {version.id!r} has no table of contents"
            )
        for entry in version.walk():
            problems.extend(_check_entry(corpus, version, entry))
        problems.extend(_check_corrections(version, seeds))
    if corpus.cards is not None:
        problems.extend(check_cards(corpus, corpus.cards))
    return problems
