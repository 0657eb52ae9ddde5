"""How near a typed name is to a real one: the one scorer behind every 404's "nearest" links.

Every 404 that names the nearest pages (an unknown path, timing step or sequence, card) scores
the judge's words here, so one input limit bounds them all: a name longer than ``MAX_ASKED``
characters is near nothing (no id or title is that long) and costs nothing to refuse. The score is
RapidFuzz's normalized Indel similarity (twice the longest common subsequence over both
lengths), the measure ``difflib.SequenceMatcher.ratio`` approximates, in linear time per pair for
names this short. A card typed is judged by typing slips instead (``slips``; cards.js computes the
same count): a ratio of 0.6 holds names that merely share letters in order ("picard" and
Replicator). A leaf module: corpus, timing, shapes and web may all import it.
"""

from __future__ import annotations

from collections.abc import Iterable

from rapidfuzz.distance import OSA, Indel

# The longest name a judge could mean (ids and titles are shorter); longer is near nothing.
MAX_ASKED = 100


def near_enough(asked: str) -> bool:
    """Whether ``asked`` is short enough to be scored at all (empty or over the limit: no)."""
    return 0 < len(asked) <= MAX_ASKED


def ratio(asked: str, name: str) -> float:
    """How alike two names are, from 0 to 1 (1 when equal); ask ``near_enough`` first."""
    total = len(asked) + len(name)
    # (both lengths less the characters not in common) over both lengths, as cards.js divides it
    return (total - Indel.distance(asked, name)) / total if total else 1.0


def slips(asked: str, name: str) -> int:
    """How many typing slips turn one name into the other: letters left out, added, changed, or
    two side by side swapped ("wrof" for "worf" is one), each counted once (the optimal string
    alignment distance; cards.js: ``slips``, the same steps). Ask ``near_enough`` first."""
    return OSA.distance(asked, name)


def close_matches(asked: str, names: Iterable[str], limit: int, cutoff: float) -> list[str]:
    """The ``limit`` names nearest to ``asked`` with a ratio of at least ``cutoff``, best first.

    Like ``difflib.get_close_matches``: between equal scores the name that sorts last comes first.
    """
    if not near_enough(asked):
        return []
    scored = [(ratio(asked, name), name) for name in set(names)]
    kept = sorted((item for item in scored if item[0] >= cutoff), reverse=True)
    return [name for _, name in kept[:limit]]
