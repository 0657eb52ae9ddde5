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


class _Matcher:
    """The draft's entries against the base version's, from the sentences they share."""

    def __init__(self, lib: Library, base: Version, drafts: list[Entry]) -> None:
        self.olds = list(base.walk())
        self.drafts = drafts
        self.old_ids = {e.id for e in self.olds}
        self.kinds = {e.id: e.kind for e in self.olds}
        home = {d.id: d.id for d in drafts if d.id in self.old_ids}
        self.rows = align_entries(lib, self.olds, drafts, home)
        self.counts: Counter[tuple[str, str]] = Counter(
            (r.old.entry, r.new.entry) for r in self.rows if r.old is not None and r.new is not None
        )
        self.n_old = {e.id: len(entry_units(lib, e)) for e in self.olds}
        self.n_new = {d.id: len(entry_units(lib, d)) for d in drafts}
        self.taken: dict[str, str] = {}  # base id -> draft provisional id
        self.matches: dict[str, Match] = {}

    def share(self, old: str, new: str) -> tuple[float, float]:
        """The share of the draft entry's sentences found in the base entry, and the converse."""
        c = self.counts[(old, new)]
        return c / max(self.n_new[new], 1), c / max(self.n_old[old], 1)

    def keep(self, d: Entry, base_id: str, status: str, decided: bool = False) -> None:
        self.matches[d.id] = Match(d, base_id, status, 0.0, base_id, decided=decided)
        self.taken[base_id] = d.id

    def same_ids(self, forced: dict[str, str | None]) -> None:
        """Decided matches, then the headings whose id the base version holds."""
        for d in self.drafts:
            if d.id in forced:
                target = forced[d.id]
                if target is None:
                    self.matches[d.id] = Match(d, d.id, "new", 1.0, decided=True)
                else:
                    self.keep(d, target, "continues", decided=True)
            elif d.id in self.old_ids and d.id not in forced.values():
                self.keep(d, d.id, "continues")

    def renamed(self) -> None:
        """The most alike pairs first, by shared sentences and the headings' words."""
        draft_ids = {d.id for d in self.drafts}
        candidates = []
        for d in self.drafts:
            if d.id in self.matches:
                continue
            for b in sorted(self.old_ids - draft_ids - set(self.taken)):
                if self.kinds[b] != d.kind:
                    continue  # a section does not continue a glossary term: that is a move
                mine, theirs = self.share(b, d.id)
                a, c = set(_title_words(b)), set(_title_words(d.id))
                words = len(a & c) / len(a | c)
                # Shared sentences both ways, or most of the older entry here, or the same heading.
                alike = (mine >= PART and theirs >= PART) or (theirs >= SHARE and mine > 0)
                if alike or words == 1 or (words >= 0.6 and mine):
                    candidates.append((-(mine + theirs + 2 * words), d.id, b))
        candidates.sort()
        by_id = {d.id: d for d in self.drafts}
        for _, did, b in candidates:
            if did not in self.matches and b not in self.taken:
                self.keep(by_id[did], b, "renamed")
        for d in self.drafts:
            if d.id not in self.matches:
                self.matches[d.id] = Match(d, d.id, "new", 0.0)

    def lineage_links(self) -> dict[str, list[str]]:
        """``continues:`` links: gone entries merged here, sentences moved from living ones."""
        split: dict[str, list[str]] = {}
        for b in self.olds:
            kept = b.id in self.taken
            holders = [
                d.id
                for d in self.drafts
                if self.counts[(b.id, d.id)]
                and self.share(b.id, d.id)[1] >= (SHARE if kept else PART)
                and self.taken.get(b.id) != d.id
            ]
            for h in holders:
                m = self.matches[h]
                if not m.decided and m.id != b.id:
                    m.continues.append((b.id, "moved" if kept else "merged"))
            if len(holders) + kept > 1:
                split[b.id] = [self.matches[h].id for h in holders] + ([b.id] if kept else [])
        return split

    def confidence(self) -> None:
        """The share of each entry's sentences its predecessors hold (a new one: those they don't)."""
        for m in self.matches.values():
            if m.decided:
                continue
            olds = [b for b, _ in m.continues] + ([m.predecessor] if m.predecessor else [])
            if not self.n_new[m.draft.id]:
                m.confidence = 1.0 if m.status == "continues" or not olds else 0.5
                continue
            got = min(1.0, sum(self.share(b, m.draft.id)[0] for b in olds))
            if m.status == "new" and not olds:
                got = 1.0 - min(1.0, sum(self.share(b, m.draft.id)[0] for b in self.old_ids))
            m.confidence = round(got, 2)


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
    m = _Matcher(lib, base, drafts)
    m.same_ids(forced)
    m.renamed()
    split = m.lineage_links()
    m.confidence()
    linked = {r for x in m.matches.values() for r, _ in x.continues}
    gone = [b for b in m.olds if b.id not in m.taken and b.id not in linked]
    matched = sum(1 for r in m.rows if r.old is not None and r.new is not None)
    return Lineage([m.matches[d.id] for d in drafts], gone, split, sum(m.n_new.values()), matched)
