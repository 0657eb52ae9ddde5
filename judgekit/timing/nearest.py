"""The steps and sequences nearest to a name that matches none, for a 404 that helps.

A judge types a step as its number ("4.b"), its printed label, its id ("draw-dilemmas") or a word
of its title ("dilemas"); a sequence as its id ("mission-attempt") or title words. Each candidate
is scored by ``nearness.ratio`` (every 404's scorer) against every way of naming it, and the best
names (at least ``CUTOFF``, difflib's own default for close matches) are kept, best first. A name
longer than ``nearness.MAX_ASKED`` is near nothing.
"""

from __future__ import annotations

import re

from judgekit import nearness
from judgekit.timing.model import Sequence, Step, Timing

CUTOFF = 0.6
# A word of a title is near only when most of it matches: at 0.6, "engagment" met "game" (0.62).
WORD_CUTOFF = 0.75
_WORD = re.compile(r"[a-z0-9]+(?:\.[a-z0-9]+)*")
# A step without a title is named by its text: a word there counts a little less than a title's.
_TEXT_WEIGHT = 0.95
# A step number as judges write it: "4", "4.b", "3h", "9.z". Each repeat starts with its dot, so
# a name is read in linear time ("(?:\.?[a-z0-9]+)*" took time doubling with each letter).
_NUMBER = re.compile(r"\d+[a-z0-9]*(?:\.[a-z0-9]+)*")


def _score(asked: str, names: list[str], words: list[str]) -> float:
    """How near ``asked`` is: to a whole name, or word by word to the words of the title."""
    best = max((nearness.ratio(asked, n) for n in names), default=0.0)
    asked_words = _WORD.findall(asked)
    if asked_words and words:
        per_word = [max(nearness.ratio(w, t) for t in words) for w in asked_words]
        per_word = [r if r >= WORD_CUTOFF else 0.0 for r in per_word]
        best = max(best, sum(per_word) / len(per_word))
    return best


def step_name(step: Step) -> str:
    """A step's title, or the start of its text when it has none."""
    text = step.title or step.text
    if len(text) <= 60:
        return text
    return text[:60].rsplit(" ", 1)[0].rstrip(",;:") + "…"  # at a word boundary


def _step_score(step: Step, asked: str) -> float:
    label = step.label.casefold()
    names = [step.id.casefold(), step.number.casefold(), label]
    # "4.x" asks for a sub-step of 4: its parent is near.
    parent = next((n for n in names[1:] if asked.startswith(n + ".")), None)
    if _NUMBER.fullmatch(asked):
        # A number is compared with numbers only: "4.x" is not near a title's words.
        score = max(nearness.ratio(asked, n) for n in names[1:])
    else:
        title = (step.title or step.text).casefold()
        words = [w for w in _WORD.findall(title) + step.id.split("-") if len(w) > 2]
        score = _score(asked, names + [title], words)
        if not step.title:
            score *= _TEXT_WEIGHT
    return max(score, 0.8) if parent else score


def nearest_steps(seq: Sequence, asked: str, limit: int = 5) -> list[Step]:
    """The steps of ``seq`` nearest to ``asked``, best first (none when nothing is near)."""
    key = asked.strip().casefold()
    if not nearness.near_enough(key):
        return []
    scored = [(round(_step_score(s, key), 3), n, s) for n, s in enumerate(seq.flat)]
    # Between equally near steps, the shorter name first (a heading such as "Draw Dilemmas"
    # before a long step that mentions dilemmas), then reading order.
    # Numbers asked by number stay in reading order ("4.x": 4, 4.a, 4.b).
    by_length = not _NUMBER.fullmatch(key)
    kept = sorted(
        (-score, len(s.title or s.text) if by_length else 0, n, s)
        for score, n, s in scored
        if score >= CUTOFF
    )
    return [s for *_, s in kept[:limit]]


def nearest_sequences(timing: Timing, asked: str, limit: int = 5) -> list[Sequence]:
    """The sequences (their latest version) nearest to ``asked``, best first."""
    key = asked.strip().casefold()
    if not nearness.near_enough(key):
        return []
    scored = []
    for n, sequence_id in enumerate(timing.ids()):
        seq = timing.versions(sequence_id)[-1]
        title = seq.title.casefold()
        words = [w for w in _WORD.findall(title) + sequence_id.split("-") if len(w) > 2]
        score = _score(key, [sequence_id.casefold(), title], words)
        if score >= CUTOFF:
            scored.append((-score, n, seq))
    return [seq for _, _, seq in sorted(scored)[:limit]]
