"""What changed between two versions of a document, and one entry's history across all of them.

Pairing. An entry of the old version and one of the new are the same rule when they share an id
(ids are stable: "the same rule has the same id in every version"). An entry left without a
partner is paired through explicit lineage (``continues``) with an entry of the other version
when there is one, e.g. Call to Arms ``gl-moving-a-ship`` was merged into 4 ``moving-a-ship``; if
its partner is already paired by id, the lineage change is listed beside that pair. A lineage
declared between versions v and w also holds for a comparison that spans them (1.1 to 4 takes
the Call to Arms to 4 merges, as 1.1 and Call to Arms share those ids), but not for one that
does not (1.1 to Call to Arms). Whatever is still unpaired is ``added`` (only in the new
version) or ``removed`` (only in the old). Comparing a newer version with an older one works the
same way, in reverse: relations then read "merged from".

Flags, on every change, comparing the paired entries:

- ``moved``: the rule sits elsewhere in the document: its parent entry differs, its kind differs
  (glossary against main text), or it was paired through lineage (a different entry carries it).
  Reordering among the same siblings is not a move.
- ``renamed``: the titles differ once typography and letter case are set aside.
- ``text_changed``: the plain text (``Library.plain``: icons as labels, no markup) differs once
  typography is set aside (``Library.comparable``), exactly when entry pages say "changed".
- ``typography_only``: none of the above, but the printed title or text differs (quotes, dashes,
  spacing, ™/®, bullets, heading case). Such entries count as unchanged.

Status, the first that applies: ``added``/``removed``; ``moved``; ``renamed``; ``changed`` (the
text changed, or, flagged ``typography_only``, only its typography: listed on request, never
counted). So an entry renamed
with new wording is ``renamed`` with ``text_changed``; one that moved and was renamed is ``moved``
with ``renamed``. ``unchanged`` counts the entries paired by id with no substantive change.

Changes come in the reading order of the newer version; an entry only the older version has is
placed after the nearest entry before it (in the older version's order) that both versions share.
"""

from __future__ import annotations

from dataclasses import dataclass

from judgekit.corpus.model import Entry, Version
from judgekit.corpus.typography import normalize_typography
from judgekit.render.library import Library, Memo

_COMPARABLE: Memo[tuple[str, str, str], str] = Memo(__name__, "comparable text")
_COMPARISONS: Memo[tuple[str, str, str], Comparison] = Memo(__name__, "comparisons")

STATUSES = ("changed", "added", "removed", "renamed", "moved")


@dataclass(frozen=True)
class Change:
    """One entry's difference between two versions, and what kind of difference it is."""

    status: str
    old: Entry | None
    new: Entry | None
    moved: bool = False
    renamed: bool = False
    text_changed: bool = False
    typography_only: bool = False
    relation: str | None = None  # lineage seen from the old entry, e.g. "merged into"

    @property
    def id(self) -> str:
        """The entry's id: in the new version, or the old one for a removal."""
        return (self.new or self.old).id

    @property
    def counted(self) -> bool:
        """Whether the summary counts it (typography-only changes are not counted)."""
        return not self.typography_only


@dataclass(frozen=True)
class Comparison:
    """Every change between two versions of one document."""

    old: Version
    new: Version
    changes: tuple[Change, ...]
    unchanged: int
    direction: str  # forward (old to new), backward or same

    def listed(self, typography: bool = False) -> list[Change]:
        """The changes to show: substantive ones, plus typography-only ones when asked."""
        return [c for c in self.changes if typography or c.counted]

    def summary(self) -> dict[str, int]:
        """How many entries had each status, substantive changes only."""
        counted = [c for c in self.changes if c.counted]
        out = {s: sum(c.status == s for c in counted) for s in STATUSES}
        out["text_changed"] = sum(c.text_changed for c in counted)
        out["typography_only"] = sum(c.typography_only for c in self.changes)
        out["unchanged"] = self.unchanged
        out["total"] = len(counted)
        return out


def split_pair(pair: str, known: list[str]) -> tuple[str, str] | None:
    """``"1.1..4"`` to ``("1.1", "4")``; ids may hold dots, so prefer a split into known ids.

    Linear in the pair's length: only a known id can be the left half, so only the places where
    one ends are tried (the first that also leaves a known id wins), else the first ``..``.
    """
    held = set(known)
    places = sorted(
        len(old) for old in held if pair.startswith(old) and pair.startswith("..", len(old))
    )
    for at in places:
        if pair[at + 2 :] in held:
            return pair[:at], pair[at + 2 :]
    old, dots, new = pair.partition("..")
    return (old, new) if dots else None


def _parent_key(entry: Entry) -> tuple[str | None, str]:
    return entry.parent, entry.kind


def _comparable(lib: Library, entry: Entry) -> str:
    """``Library.comparable``, kept: an entry is compared in every pair of versions that holds it."""
    cache = lib.memo(_COMPARABLE)
    key = (entry.document, entry.version, entry.id)
    if key not in cache:
        cache[key] = lib.comparable(entry)
    return cache[key]


def flags(lib: Library, old: Entry, new: Entry, lineage: bool = False) -> dict[str, bool]:
    """The moved, renamed, text_changed and typography_only flags of a pair of entries."""
    moved = lineage or _parent_key(old) != _parent_key(new)
    renamed = normalize_typography(old.title, casefold=True) != normalize_typography(
        new.title, casefold=True
    )
    text_changed = _comparable(lib, old) != _comparable(lib, new)
    printed = old.title != new.title or lib.plain(old) != lib.plain(new)
    return {
        "moved": moved,
        "renamed": renamed,
        "text_changed": text_changed,
        "typography_only": printed and not (moved or renamed or text_changed),
    }


def _paired(lib: Library, old: Entry, new: Entry, relation: str | None = None) -> Change | None:
    found = flags(lib, old, new, lineage=relation is not None)
    if found["moved"]:
        status = "moved"
    elif found["renamed"]:
        status = "renamed"
    elif found["text_changed"] or found["typography_only"]:
        status = "changed"
    else:
        return None
    return Change(status, old, new, relation=relation, **found)


def _order(changes: list[Change], newer: Version, older: Version, forward: bool) -> list[Change]:
    """Changes in the newer version's reading order; older-only entries after their anchor."""
    position = {entry_id: i for i, entry_id in enumerate(newer.entries)}
    older_ids = list(older.entries)
    older_pos = {entry_id: i for i, entry_id in enumerate(older_ids)}
    anchor: dict[str, int] = {}
    last = -1
    for entry_id in older_ids:
        anchor[entry_id] = last
        if entry_id in position:
            last = position[entry_id]

    def key(change: Change) -> tuple[int, int, int]:
        in_newer = change.new if forward else change.old
        in_older = change.old if forward else change.new
        rank = older_pos[in_older.id] if in_older else -1
        if in_newer is not None:
            return position[in_newer.id], 0, rank
        return anchor[in_older.id], 1, rank

    return sorted(changes, key=key)


def compare(lib: Library, old: Version, new: Version) -> Comparison:
    """Every change from ``old`` to ``new`` (versions of one document; either may be newer)."""
    cache = lib.memo(_COMPARISONS)
    key = (old.document, old.id, new.id)
    if key not in cache:
        cache[key] = _compare(lib, old, new)
    return cache[key]


def _compare(lib: Library, old: Version, new: Version) -> Comparison:
    document = old.document
    doc = lib.corpus.documents[document]
    if old is new:
        return Comparison(old, new, (), len(old.entries), "same")
    order = doc.order()
    forward = order[old.id] < order[new.id]
    changes: list[Change] = []
    unchanged = 0
    for entry in old.walk():
        other = new.get(entry.id)
        if other is not None:
            change = _paired(lib, entry, other)
            if change is None or not change.counted:
                unchanged += 1
            if change is not None:
                changes.append(change)
    gone = [e for e in old.walk() if e.id not in new.entries]
    fresh = [e for e in new.walk() if e.id not in old.entries]
    lineage = lib.spanning(document, old.id, new.id)
    taken: set[str] = set()
    for entry in gone:
        links = [(n, rel) for o, n, rel in lineage if o == entry.id]
        # Prefer a partner that has no pair of its own: a true move rather than a merge.
        links.sort(key=lambda link: link[0] in old.entries)
        if links:
            partner, relation = links[0]
            taken.add(partner)
            changes.append(_paired(lib, entry, new.entries[partner], relation))
        else:
            changes.append(Change("removed", entry, None))
    for entry in fresh:
        if entry.id in taken:
            continue
        links = [(o, rel) for o, n, rel in lineage if n == entry.id]
        if links:
            partner, relation = links[0]
            changes.append(_paired(lib, old.entries[partner], entry, relation))
        else:
            changes.append(Change("added", None, entry))
    newer, older = (new, old) if forward else (old, new)
    ordered = _order(changes, newer, older, forward)
    return Comparison(old, new, tuple(ordered), unchanged, "forward" if forward else "backward")


def primary(comparison: Comparison, change: Change) -> bool:
    """Whether a change speaks for its newer entry: the pair by id, else the entry's first pair.

    The others are entries merged into it (or, going back in time, split from it).
    """
    if change.old is None or change.new is None or change.old.id == change.new.id:
        return True
    partners = [c for c in comparison.changes if c.old and c.new and c.new.id == change.new.id]
    same = [c for c in partners if c.old.id == change.new.id]
    return change is (same[0] if same else partners[0])


def anchor(comparison: Comparison, change: Change) -> str:
    """The change's fragment on the comparison page: the entry's id, ``old--new`` for a part."""
    if change.new is None:
        return change.old.id
    if primary(comparison, change):
        return change.new.id
    return f"{change.old.id}--{change.new.id}"


def change_of(comparison: Comparison, entry_id: str) -> Change | None:
    """The change of an entry of the older side: its pair by id first, else its lineage pair."""
    mine = [c for c in comparison.changes if c.old is not None and c.old.id == entry_id]
    mine.sort(key=lambda c: c.new is None or c.new.id != entry_id)
    return mine[0] if mine else None


@dataclass(frozen=True)
class Step:
    """One version in an entry's history: how it stands there against the version before."""

    version: Version
    status: str  # added | changed | renamed | moved | removed | unchanged | absent
    entry: Entry | None  # the entry in this version
    change: Change | None = None  # the change from the previous version, if any


def history(lib: Library, document: str, entry_id: str) -> list[Step] | None:
    """The entry in every version, oldest first, following explicit moves; None if never held."""
    doc = lib.corpus.documents[document]
    if not any(v.get(entry_id) for v in doc.versions):
        return None
    steps: list[Step] = []
    current: Entry | None = None
    wanted = entry_id
    previous: Version | None = None
    for version in doc.versions:
        if previous is None:
            current = version.get(wanted)
            steps.append(Step(version, "added" if current else "absent", current))
        elif current is not None:
            change = change_of(compare(lib, previous, version), current.id)
            if change is None:
                current = version.get(current.id)
                steps.append(Step(version, "unchanged", current))
            else:
                status = "unchanged" if change.typography_only else change.status
                current = change.new
                steps.append(Step(version, status, current, change))
            wanted = current.id if current else wanted
        else:
            comparison = compare(lib, previous, version)
            mine = [c for c in comparison.changes if c.new is not None and c.new.id == wanted]
            current = version.get(wanted)
            if mine:
                steps.append(Step(version, mine[0].status, current, mine[0]))
            else:
                steps.append(Step(version, "added" if current else "absent", current))
        previous = version
    return steps


def marked_new(version: Version) -> list[Entry]:
    """The rulings marked * (new or changed since the previous document), in reading order."""
    return [e for e in version.walk() if e.new]
