"""Each draft entry's predecessor in the version it is based on, by the comparisons' alignment.

The draft's sentences are aligned with the base version's by ``compare.align.align_entries``
(the alignment the diff pages use), each draft entry's counterpart being the base entry of the
same id. Then, for each draft entry:

- its heading's id is a base id: it **continues** that entry (same id);
- else the base entry most of its sentences come from, if most of that entry's sentences come
  here and no draft entry keeps its id: the same rule **renamed** (it keeps the older id, as
  FORMAT.md's id rules say);
- else a **new** id, the heading's slug; it ``continues:`` each base entry whose id is gone and
  whose sentences it holds a good share of (**merged**), or whose sentences moved here from an
  entry that lives on (**moved**).

Confidence is the share of the draft entry's sentences the alignment matched in its
predecessors (1.0 for an entry with no sentences whose heading's id is kept).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from judgekit.compare.align import align_entries, entry_units
from judgekit.compare.sentences import stem
from judgekit.corpus.model import Entry, Version
from judgekit.render.library import Library

SHARE = 0.5  # "most": of a draft entry's sentences, and of its predecessor's
PART = 0.3  # a good share of a gone entry's sentences, to say it was merged here
LOW = 0.6  # below this confidence a match is listed for the maintainer's decision


@dataclass
class Match:
    """A draft entry's id and lineage, how they were found, and how sure the importer is."""

    draft: Entry
    id: str
    status: str  # continues | renamed | new
    confidence: float
    predecessor: str | None = None
    continues: list[tuple[str, str]] = field(default_factory=list)  # (base id, relation)
    decided: bool = False  # settled by the maintainer's decisions file


@dataclass(frozen=True)
class Lineage:
    """The matches in draft order, what is gone, what split, and the sentence counts."""

    matches: list[Match]
    gone: list[Entry]
    split: dict[str, list[str]]  # base id -> draft ids holding a good share of its sentences
    sentences: int
    matched: int


def _title_words(eid: str) -> tuple[str, ...]:
    """An id's words, stemmed, without the glossary's prefix ("gl-abilities" -> ("abili",))."""
    return tuple(stem(w)[:5] for w in eid.removeprefix("gl-").split("-"))


def match(
    lib: Library,
    base: Version,
    drafts: list[Entry],
    forced: dict[str, str | None],
) -> Lineage:
    """Ids and lineage of ``drafts`` (provisional ids: their headings' slugs) against ``base``.

    ``forced`` maps a provisional id to the base id it continues, or None for "new": the
    maintainer's decisions.
    """
    olds = list(base.walk())
    old_ids = {e.id for e in olds}
    kinds = {e.id: e.kind for e in olds}
    home = {d.id: d.id for d in drafts if d.id in old_ids}
    rows = align_entries(lib, olds, drafts, home)
    counts: Counter[tuple[str, str]] = Counter()
    for row in rows:
        if row.old is not None and row.new is not None:
            counts[(row.old.entry, row.new.entry)] += 1
    n_old = {e.id: len(entry_units(lib, e)) for e in olds}
    n_new = {d.id: len(entry_units(lib, d)) for d in drafts}

    def share(old: str, new: str) -> tuple[float, float]:
        c = counts[(old, new)]
        return c / max(n_new[new], 1), c / max(n_old[old], 1)

    taken: dict[str, str] = {}  # base id -> draft provisional id
    matches: dict[str, Match] = {}
    for d in drafts:
        if d.id in forced:
            target = forced[d.id]
            if target is None:
                matches[d.id] = Match(d, d.id, "new", 1.0, decided=True)
            else:
                matches[d.id] = Match(d, target, "continues", 1.0, target, decided=True)
                taken[target] = d.id
        elif d.id in old_ids and d.id not in forced.values():
            conf = share(d.id, d.id)[0] if n_new[d.id] else 1.0
            matches[d.id] = Match(d, d.id, "continues", conf, d.id)
            taken[d.id] = d.id
    draft_ids = {d.id for d in drafts}
    # Renamed: the most alike pairs first, by the sentences they share and their headings' words.
    candidates = []
    for d in drafts:
        if d.id in matches:
            continue
        for b in sorted(old_ids - draft_ids - set(taken)):
            if kinds[b] != d.kind:
                continue  # a section does not continue a glossary term: that is a move
            mine, theirs = share(b, d.id)
            a, c = set(_title_words(b)), set(_title_words(d.id))
            words = len(a & c) / len(a | c)
            if (mine >= PART and theirs >= PART) or words == 1 or (words >= 0.6 and mine):
                candidates.append((-(mine + theirs + 2 * words), d.id, b, min(mine, theirs)))
    candidates.sort()
    for _, did, b, conf in candidates:
        if did in matches or b in taken:
            continue
        d = next(e for e in drafts if e.id == did)
        matches[did] = Match(d, b, "renamed", conf if n_new[did] else 1.0, b)
        taken[b] = did
    for d in drafts:
        if d.id not in matches:
            matches[d.id] = Match(d, d.id, "new", 1.0 - sum(share(b, d.id)[0] for b in old_ids))
    split: dict[str, list[str]] = {}
    for b in olds:
        holders = [
            d.id
            for d in drafts
            if counts[(b.id, d.id)]
            and share(b.id, d.id)[1] >= (SHARE if b.id in taken else PART)
            and taken.get(b.id) != d.id
        ]
        kept = b.id in taken
        for h in holders:
            m = matches[h]
            if m.decided or m.id == b.id:
                continue
            m.continues.append((b.id, "moved" if kept else "merged"))
        if len(holders) + kept > 1:
            split[b.id] = [matches[h].id for h in holders] + ([b.id] if kept else [])
    for m in matches.values():
        if m.status == "new" and not m.decided:
            m.confidence = max(0.0, min(1.0, m.confidence))
            if m.continues:
                got = sum(share(b, m.draft.id)[0] for b, _ in m.continues)
                m.confidence = round(got, 2)
    gone = [
        b
        for b in olds
        if b.id not in taken
        and not any(b.id == r for m in matches.values() for r, _ in m.continues)
    ]
    total = sum(n_new.values())
    matched = sum(1 for r in rows if r.old is not None and r.new is not None)
    return Lineage([matches[d.id] for d in drafts], gone, split, total, matched)
