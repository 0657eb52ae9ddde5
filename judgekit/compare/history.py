"""An entry's history that follows lineage: the entries merged into it, or the one it was split from.

``diff.history`` follows one rule forward through its versions. Its tributaries are the entries
whose recorded lineage (``continues``) leads into any entry of that line (and, in turn, into
them): Call to Arms "Staffing ships", "Using Range" and glossary "moving a ship" for Version 4
"Order – Move a Ship". Each tributary has its own history, from its first version up to the
version where it joined the line (that step's change is the merge, sentence by sentence).
"""

from __future__ import annotations

from dataclasses import dataclass

from judgekit.compare.diff import Step, history
from judgekit.render.library import Library, Memo

_TRIBUTARIES: Memo[tuple[str, tuple[str, ...]], list[Tributary]] = Memo(__name__, "tributaries")


@dataclass(frozen=True)
class Tributary:
    """An entry that joined an entry's line, and its own history up to the version it joined."""

    id: str
    title: str  # its title in the last version that holds it
    steps: tuple[Step, ...]  # the versions that hold it, then the one where it joined, if any

    @property
    def joined(self) -> Step | None:
        """The step where it became part of the line (its entry there is the line's)."""
        last = self.steps[-1]
        return last if last.entry is None or last.entry.id != self.id else None


def _into(lib: Library, document: str, ids: set[str]) -> list[str]:
    """Ids whose lineage leads into any of ``ids``, transitively, in the order links are found."""
    found: list[str] = []
    wanted = set(ids)
    links = lib.lineage_links[document]
    grew = True
    while grew:
        grew = False
        for link in links:
            if link.new_id in wanted and link.old_id not in wanted:
                wanted.add(link.old_id)
                found.append(link.old_id)
                grew = True
    return found


def _cut(steps: list[Step], entry_id: str) -> tuple[Step, ...]:
    """A tributary's own versions: those that hold it, up to and including where it joined."""
    out: list[Step] = []
    for step in steps:
        if step.entry is not None and step.entry.id == entry_id:
            out.append(step)
        elif out and step.status != "absent":
            out.append(step)  # it moved on: merged into the line (or removed)
            break
    return tuple(out)


def tributaries(lib: Library, document: str, steps: list[Step]) -> list[Tributary]:
    """The entries merged into (or split off into) the line of ``steps``, oldest first."""
    cache = lib.memo(_TRIBUTARIES)
    line = tuple(sorted({s.entry.id for s in steps if s.entry is not None}))
    key = (document, line)
    if key not in cache:
        out = []
        for other in _into(lib, document, set(line)):
            own = history(lib, document, other)
            cut = _cut(own or [], other)
            if cut:
                last = next(s.entry for s in reversed(cut) if s.entry and s.entry.id == other)
                out.append(Tributary(other, last.title, cut))
        order = {v.id: n for n, v in enumerate(lib.corpus.documents[document].versions)}
        out.sort(key=lambda t: order[t.steps[0].version.id])
        cache[key] = out
    return cache[key]
