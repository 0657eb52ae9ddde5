"""Sentence alignment: what became of each sentence of the changed entries of a comparison.

The changes of a comparison that share an entry form a group (an entry and the entries merged
into it, or split from it, following the recorded lineage). Within a group every sentence of the
older entries is matched with at most one sentence of the newer ones:

1. the same wording (typography aside), in order, within an entry and its counterpart
   (``difflib.SequenceMatcher`` over the keys);
2. the same wording anywhere else in the group (moved within the entry, or to another entry);
3. the most alike remaining pairs, best first: a pair may match when its content words overlap
   (``sentences.similarity`` at least ``THRESHOLD``), and the pairs are taken in order of
   ``sentences.likeness`` (the overlap with word order counted too); only between equally alike
   pairs does one within an entry and its counterpart win.

A matched pair is ``same`` (equal wording, in order, same entry), ``edited`` (other wording, in
order, same entry) or ``moved`` (out of order within the entry, or from another entry; ``edited``
tells whether its wording changed too). An older sentence left over is ``removed``, a newer one
``added``. Rows come in the newer entry's reading order; a removed sentence follows the row of
the sentence before it in its own entry (or precedes the row of the one after it).
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

from judgekit.compare.diff import Change, Comparison, primary
from judgekit.compare.sentences import Unit, likeness, similarity, units
from judgekit.corpus.model import Entry, Version
from judgekit.render.library import Library, Memo

_UNITS: Memo[tuple[str, str, str], tuple[Unit, ...]] = Memo(__name__, "sentence units")
_ALIGNMENTS: Memo[tuple[str, str, str], dict[int, Group]] = Memo(__name__, "alignments")

THRESHOLD = 0.4


@dataclass(frozen=True)
class Row:
    """One sentence's fate: its older and newer form (either may be absent) and the status."""

    status: str  # same | edited | moved | added | removed
    old: Unit | None
    new: Unit | None
    edited: bool = False  # the wording differs (typography aside)
    typography: bool = False  # same words, printed differently
    home: bool = True  # within an entry and its counterpart (not across a merge or split)


@dataclass(frozen=True)
class Group:
    """Changes that share entries, and the alignment of all their sentences."""

    changes: tuple[Change, ...]
    rows: tuple[Row, ...]


def entry_units(lib: Library, entry: Entry) -> tuple[Unit, ...]:
    """An entry's sentences (``sentences.units``), cut once per Library."""
    cache = lib.memo(_UNITS)
    key = (entry.document, entry.version, entry.id)
    if key not in cache:
        cache[key] = units(entry.id, lib.plain(entry))
    return cache[key]


def _groups(changes: tuple[Change, ...]) -> list[list[Change]]:
    """Changes joined when they share an older or a newer entry, in first-seen order."""
    parent: dict[int, int] = {}

    def root(i: int) -> int:
        while parent.get(i, i) != i:
            i = parent[i]
        return i

    owner: dict[tuple[str, str], int] = {}
    for i, change in enumerate(changes):
        parent[i] = i
        for side, entry in (("old", change.old), ("new", change.new)):
            if entry is None:
                continue
            j = owner.setdefault((side, entry.id), i)
            parent[root(i)] = root(j)
    grouped: dict[int, list[Change]] = {}
    for i, change in enumerate(changes):
        grouped.setdefault(root(i), []).append(change)
    return list(grouped.values())


class _Matcher:
    """The matching of one group's older units with its newer ones."""

    def __init__(self, old: list[Unit], new: list[Unit], home: dict[str, str]) -> None:
        self.old, self.new, self.home = old, new, home
        self.pairs: dict[int, int] = {}  # position in old -> position in new
        self.taken: set[int] = set()

    def at_home(self, i: int, j: int) -> bool:
        return self.home.get(self.old[i].entry) == self.new[j].entry

    def pair(self, i: int, j: int) -> None:
        self.pairs[i] = j
        self.taken.add(j)

    def in_order(self) -> None:
        """Equal wording in order, each entry against its counterpart."""
        for old_entry, new_entry in self.home.items():
            a = [i for i, u in enumerate(self.old) if u.entry == old_entry]
            b = [j for j, u in enumerate(self.new) if u.entry == new_entry]
            keys_a, keys_b = [self.old[i].key for i in a], [self.new[j].key for j in b]
            matcher = SequenceMatcher(None, keys_a, keys_b, autojunk=False)
            for block in matcher.get_matching_blocks():
                for k in range(block.size):
                    self.pair(a[block.a + k], b[block.b + k])

    def same_anywhere(self) -> None:
        """Equal wording left over: moved within the entry or across entries."""
        by_key: dict[str, list[int]] = {}
        for j, u in enumerate(self.new):
            if j not in self.taken:
                by_key.setdefault(u.key, []).append(j)
        for i, u in enumerate(self.old):
            if i in self.pairs:
                continue
            free = [j for j in by_key.get(u.key, []) if j not in self.taken]
            if free:
                free.sort(key=lambda j: not self.at_home(i, j))
                self.pair(i, free[0])

    def alike(self) -> None:
        """The most alike remaining pairs, best first; at equal likeness, the entry's own."""
        candidates = []
        free_new = [j for j in range(len(self.new)) if j not in self.taken]
        for i, u in enumerate(self.old):
            if i in self.pairs:
                continue
            for j in free_new:
                if similarity(u, self.new[j]) >= THRESHOLD:
                    score = likeness(u, self.new[j])
                    candidates.append((-score, not self.at_home(i, j), i, j))
        # Home only breaks ties: a bonus added to the score once let Call to Arms's cost limit
        # ("The total cost of the dilemmas ... cannot be higher than the number of personnel")
        # take Version 4's overcome-subtraction sentence from its real source, the subtraction
        # sentence merged in from "When your attempt fails", which is more alike.
        candidates.sort()
        for _, _, i, j in candidates:
            if i not in self.pairs and j not in self.taken:
                self.pair(i, j)

    def out_of_order(self) -> set[int]:
        """Older positions whose pair breaks the order within an entry and its counterpart."""
        moved: set[int] = set()
        for old_entry, new_entry in self.home.items():
            chain = sorted(
                (j, i)
                for i, j in self.pairs.items()
                if self.old[i].entry == old_entry and self.new[j].entry == new_entry
            )
            keep = _longest_increasing([i for _, i in chain])
            moved.update(i for _, i in chain if i not in keep)
        return moved


def _longest_increasing(values: list[int]) -> set[int]:
    """The values of a longest strictly increasing subsequence (patience sorting)."""
    tails: list[int] = []  # index into values of the smallest tail of each length
    back: list[int] = [-1] * len(values)
    for k, v in enumerate(values):
        lo, hi = 0, len(tails)
        while lo < hi:
            mid = (lo + hi) // 2
            if values[tails[mid]] < v:
                lo = mid + 1
            else:
                hi = mid
        back[k] = tails[lo - 1] if lo else -1
        if lo == len(tails):
            tails.append(k)
        else:
            tails[lo] = k
    out: set[int] = set()
    k = tails[-1] if tails else -1
    while k != -1:
        out.add(values[k])
        k = back[k]
    return out


def _row(matcher: _Matcher, i: int, j: int, moved: set[int]) -> Row:
    a, b = matcher.old[i], matcher.new[j]
    edited = a.key != b.key
    home = matcher.at_home(i, j)
    if i in moved or not home:
        status = "moved"
    else:
        status = "edited" if edited else "same"
    return Row(status, a, b, edited, not edited and a.text != b.text, home)


def _rows(matcher: _Matcher) -> list[Row]:
    """Rows in the newer reading order, removed sentences beside their neighbours."""
    moved = matcher.out_of_order()
    back = {j: i for i, j in matcher.pairs.items()}
    placed: list[tuple[int, float, Row]] = []
    for j, unit in enumerate(matcher.new):
        if j in back:
            placed.append((j, 0.0, _row(matcher, back[j], j, moved)))
        else:
            placed.append((j, 0.0, Row("added", None, unit)))
    place: dict[int, tuple[int, float]] = {i: (j, 0.0) for i, j in matcher.pairs.items()}
    removed = [i for i in range(len(matcher.old)) if i not in matcher.pairs]
    for i in removed:
        spot = _anchor(matcher, i, place)
        place[i] = spot
        placed.append((*spot, Row("removed", matcher.old[i], None)))
    placed.sort(key=lambda p: (p[0], p[1]))
    return [row for _, _, row in placed]


def _anchor(matcher: _Matcher, i: int, place: dict[int, tuple[int, float]]) -> tuple[int, float]:
    """Where a removed sentence goes: after the one before it in its entry, else before the next."""
    entry = matcher.old[i].entry
    if i > 0 and matcher.old[i - 1].entry == entry and i - 1 in place:
        j, sub = place[i - 1]
        # Right after a kept sentence's row, or right after a removed one placed already.
        return j, (sub + 0.001) if sub else 0.5
    for k in range(i + 1, len(matcher.old)):
        if matcher.old[k].entry != entry:
            break
        if k in matcher.pairs:
            return matcher.pairs[k], -0.5
    return len(matcher.new), float(i)


def align_entries(
    lib: Library, olds: list[Entry], news: list[Entry], home: dict[str, str]
) -> tuple[Row, ...]:
    """Align the sentences of some older entries with those of some newer ones.

    ``home`` maps an older entry's id to its counterpart's (the same rule, for order and status);
    a sentence matched outside its counterpart has ``moved`` across entries.
    """
    old = [u for e in olds for u in entry_units(lib, e)]
    new = [u for e in news for u in entry_units(lib, e)]
    matcher = _Matcher(old, new, home)
    matcher.in_order()
    matcher.same_anywhere()
    matcher.alike()
    return tuple(_rows(matcher))


def _home(group: list[Change]) -> dict[str, str]:
    """Each older entry's counterpart: its own id first, else its only (or first) lineage pair."""
    home: dict[str, str] = {}
    claimed: set[str] = set()
    for change in group:
        if change.old and change.new and change.old.id == change.new.id:
            home[change.old.id] = change.new.id
            claimed.add(change.new.id)
    for change in group:
        if change.old and change.new and change.old.id not in home:
            if change.new.id not in claimed:
                home[change.old.id] = change.new.id
                claimed.add(change.new.id)
    return home


def _unique(entries: list[Entry | None], version: Version) -> list[Entry]:
    seen = {e.id for e in entries if e is not None}
    return [e for e in version.walk() if e.id in seen]


def alignment(lib: Library, comparison: Comparison) -> dict[int, Group]:
    """Each change (by its position in ``comparison.changes``) and the group it belongs to."""
    cache = lib.memo(_ALIGNMENTS)
    key = (comparison.old.document, comparison.old.id, comparison.new.id)
    if key not in cache:
        cache[key] = _alignment(lib, comparison)
    return cache[key]


def _alignment(lib: Library, comparison: Comparison) -> dict[int, Group]:
    index = {id(c): n for n, c in enumerate(comparison.changes)}
    out: dict[int, Group] = {}
    for members in _groups(comparison.changes):
        olds = _unique([c.old for c in members], comparison.old)
        news = _unique([c.new for c in members], comparison.new)
        rows = align_entries(lib, olds, news, _home(members))
        group = Group(tuple(members), rows)
        for change in members:
            out[index[id(change)]] = group
    return out


def rows_for(group: Group, change: Change, whole: bool) -> list[Row]:
    """The rows a change shows: its newer entry ``whole``, or, for a merged-in part, its sentences."""
    old_id = change.old.id if change.old else None
    new_id = change.new.id if change.new else None
    if not whole:
        return [r for r in group.rows if r.old is not None and r.old.entry == old_id]
    sources = {c.old.id for c in group.changes if c.old and c.new and c.new.id == new_id}
    sources.add(old_id)  # a removed entry's sentences are all removed
    out: list[Row] = []
    split_off: list[Row] = []
    for row in group.rows:
        if row.new is not None and row.new.entry == new_id:
            out.append(row)
        elif row.new is None and row.old.entry in sources:
            out.append(row)  # removed from the entry or from one merged into it
        elif old_id == new_id and row.old is not None and row.old.entry == old_id:
            split_off.append(row)  # split off into another entry
    for row in split_off:
        _insert_where_it_stood(out, row)
    return out


def _insert_where_it_stood(rows: list[Row], row: Row) -> None:
    """Put a row after the row of the sentence before it in its older entry (or first)."""
    before = [
        n
        for n, r in enumerate(rows)
        if r.old and r.old.entry == row.old.entry and r.old.index < row.old.index
    ]
    rows.insert(before[-1] + 1 if before else 0, row)


def change_rows(lib: Library, comparison: Comparison, position: int) -> list[Row]:
    """The alignment of the change at ``position`` in ``comparison.changes``."""
    change = comparison.changes[position]
    group = alignment(lib, comparison)[position]
    return rows_for(group, change, primary(comparison, change))
