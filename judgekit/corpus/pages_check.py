"""The checks of the pages files: every page has its evidence, and no page contradicts the order
of the printed contents (a page lower than an earlier entry's, or outside the pages the contents
leave for it); every printed reference quotes its entry and resolves."""

from __future__ import annotations

import re
from pathlib import Path

from judgekit.corpus.check import source_line, squash
from judgekit.corpus.model import Corpus, Entry, PagePlace, Version
from judgekit.corpus.references import REF_RE, Target, resolve
from judgekit.corpus.typography import normalize_typography


def _pages(place: PagePlace) -> str:
    return f"p. {place.first}" if place.first == place.last else f"pp. {place.first}-{place.last}"


def _contents_bounds(version: Version) -> dict[str, tuple[int | None, int | None, str, str]]:
    """For each entry, the pages the contents leave for it: no lower than the last page printed
    for an entry before it, no higher than the first printed for one after; and those entries."""
    printed = {t.entry: t.page for t in version.toc if t.page}
    order = list(version.walk())
    bounds: dict[str, tuple[int | None, int | None, str, str]] = {}
    low: int | None = None
    low_from = ""
    for entry in order:
        bounds[entry.id] = (low, None, low_from, "")
        page = printed.get(entry.id)
        if page is not None and (low is None or page >= low):
            low, low_from = page, entry.title
    high: int | None = None
    high_from = ""
    for entry in reversed(order):
        low_here, _, low_title, _ = bounds[entry.id]
        bounds[entry.id] = (low_here, high, low_title, high_from)
        page = printed.get(entry.id)
        if page is not None and (high is None or page <= high):
            high, high_from = page, entry.title
    return bounds


def _order_problems(version: Version) -> list[str]:
    problems = []
    last = None
    for item in version.toc:
        if item.page is None:
            continue
        if last is not None and item.page < last[0]:
            problems.append(
                f"{item.location}: contents line {item.title!r} p. {item.page} is lower than "
                f"{last[1]!r} p. {last[0]}, printed before it"
            )
        last = (item.page, item.title)
    printed = {t.entry: t.page for t in version.toc if t.page}
    bounds = _contents_bounds(version)
    floor: tuple[int, str] | None = None
    for entry in version.walk():
        # An entry's own `page` counts where no place is recorded (a version without pages file).
        place = version.pages.get(entry.id) or (
            PagePlace(entry.id, entry.page, entry.page, "contents", (), entry.location)
            if entry.page
            else None
        )
        if place is None:
            continue
        own = printed.get(entry.id)
        if own is not None and (place.first, place.last) != (own, own):
            problems.append(
                f"{place.location}: {entry.id!r} is on {_pages(place)} here but the contents "
                f"print p. {own} for it"
            )
        low, high, low_from, high_from = bounds[entry.id]
        if own is None and low is not None and place.first < low:
            problems.append(
                f"{place.location}: {entry.id!r} on {_pages(place)} is before {low_from!r}, "
                f"p. {low} by the contents, which comes before it"
            )
        if own is None and high is not None and place.last > high:
            problems.append(
                f"{place.location}: {entry.id!r} on {_pages(place)} is after {high_from!r}, "
                f"p. {high} by the contents, which comes after it"
            )
        if floor is not None and place.last < floor[0]:
            problems.append(
                f"{place.location}: {entry.id!r} on {_pages(place)} is lower than {floor[1]!r} "
                f"(p. {floor[0]} at the least), printed before it"
            )
        if floor is None or place.first > floor[0]:
            floor = (place.first, entry.id)
    return problems


def _place_problems(version: Version, seeds: Path | None) -> list[str]:
    problems = []
    files = {source.file for source in version.sources}
    printed = {t.entry: t.page for t in version.toc if t.page}
    cache: dict = {}
    for place in version.pages.values():
        entry = version.get(place.entry)
        if entry is None:
            problems.append(f"{place.location}: page of unknown entry {place.entry!r}")
            continue
        if entry.page is not None and (place.first, place.last) != (entry.page, entry.page):
            problems.append(
                f"{place.location}: {entry.id!r} is on {_pages(place)} here but its entry says "
                f"p. {entry.page} ({entry.location})"
            )
        if place.basis == "contents" and place.entry not in printed:
            problems.append(
                f"{place.location}: basis 'contents' but the contents print no page for "
                f"{entry.id!r} (say how it is known: page-number or bounds)"
            )
        for proof in place.evidence:
            if proof.source not in files:
                problems.append(
                    f"{place.location}: evidence source {proof.source!r} is not a source of "
                    f"{version.id}"
                )
            elif seeds is not None and (seeds / proof.source).exists():
                rest = source_line(seeds, proof.source, proof.line, cache)
                if rest is None or squash(proof.shows) not in squash(rest.split("\n")[0]):
                    problems.append(
                        f"{place.location}: {proof.shows!r} is not at {proof.source}:{proof.line}"
                    )
    return problems


def _unpaged_problems(version: Version) -> list[str]:
    """Where a version records pages, every page it shows has its evidence: an entry the contents
    bound on both sides has a place, and no entry's own page lacks one."""
    if not version.pages:
        return []
    problems = []
    bounds = _contents_bounds(version)
    printed = {t.entry: t.page for t in version.toc if t.page}
    for entry in version.walk():
        if entry.id in version.pages:
            continue
        low, high, _, _ = bounds[entry.id]
        if entry.page is not None or entry.id in printed or (low is not None and high is not None):
            problems.append(
                f"{entry.location}: {entry.id!r} has no page recorded with its evidence in "
                f"{Path(version.path).with_suffix('').name}.pages.yaml"
            )
    return problems


def _plain(entry: Entry) -> str:
    words = REF_RE.sub(lambda m: m.group(2) or m.group(1), entry.markdown)
    return squash(normalize_typography(re.sub(r"[*_]", "", words)))


def _reference_problems(corpus: Corpus, version: Version) -> list[str]:
    problems = []
    for ref in version.printed_references:
        entry = version.get(ref.entry)
        if entry is None:
            problems.append(f"{ref.location}: printed reference of unknown entry {ref.entry!r}")
            continue
        if squash(normalize_typography(ref.words)) not in _plain(entry):
            problems.append(f"{ref.location}: {ref.words!r} is not in the text of {entry.id!r}")
        if ref.target is None:
            continue
        target = resolve(corpus, ref.target, version.document, version.id)
        if not isinstance(target, Target) or target.external:
            why = target if isinstance(target, str) else "not held here"
            problems.append(f"{ref.location}: target {ref.target!r}: {why}")
    return problems


def page_problems(corpus: Corpus, seeds: Path | None = None) -> list[str]:
    """Every problem of the corpus's pages files, as ``file:line: message``."""
    problems: list[str] = []
    for version in corpus.versions():
        problems.extend(_place_problems(version, seeds))
        problems.extend(_order_problems(version))
        problems.extend(_unpaged_problems(version))
        problems.extend(_reference_problems(corpus, version))
    return problems
