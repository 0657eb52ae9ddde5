"""What the mission-attempt rules leave open: each question, the calculator's default reading, the
other reading, and why the text does not decide. The calculator runs the attempt under every reading.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Point:
    """A question the text leaves open: the calculator's default reading, the other, and why."""

    reading: str
    other: str
    why: str


POINTS = {
    "copy": Point(
        "a second copy revealed anyway is overcome without being faced",
        "a second copy revealed anyway is faced",
        "This version forbids choosing more than one copy of the same dilemma but does not say "
        "what happens when one is revealed anyway.",
    ),
    "unfaced_cost": Point(
        "a chosen dilemma overcome without being faced still counts toward the total cost",
        "a dilemma overcome without being faced does not count toward the total cost",
        "The limit is on “the total cost of the dilemmas he or she chooses”; the text does not say "
        "whether a chosen dilemma that is overcome unfaced still uses up cost.",
    ),
    "cost_after_fail": Point(
        "the cost check also applies to a dilemma that failed the duplication or type check, "
        "so the remaining dilemmas are overcome too",
        "a dilemma that failed the duplication or type check is simply overcome; the remaining "
        "dilemmas are still faced",
        "Step 3.f overcomes a dilemma that fails any check but never deducts such a dilemma’s "
        "cost; whether one that failed duplication or type also “breaks” the cost limit, "
        "overcoming the rest, is not stated.",
    ),
    "limit_modified": Point(
        "modifiers to the number of dilemmas drawn change the cost limit too",
        "the cost limit stays the number announced, whatever modifies the number drawn",
        "Step 2.b draws the number announced “plus or minus any modifiers”; the rule says only "
        "“That number is also the total cost …”, not whether a modified number is.",
    ),
    "no_personnel_first": Point(
        "with no personnel left before the first dilemma, every dilemma is overcome unfaced, as "
        "after one",
        "the rule does not reach the dilemmas before the first is faced",
        "This version overcomes the remaining dilemmas when all the personnel attempting “are "
        "killed or stopped by dilemmas”; before the first dilemma the text is silent.",
    ),
    "no_personnel_how": Point(
        "the dilemma faced last killed or stopped the last of the personnel, so the remaining "
        "dilemmas are overcome",
        "the last of the personnel left the attempt some other way, which the text does not cover",
        "This version overcomes the remaining dilemmas when all the personnel attempting “are "
        "killed or stopped by dilemmas”; it does not say what happens when they leave the "
        "attempt another way (Version 4 says “killed, stopped, or otherwise removed”).",
    ),
    "below_zero": Point(
        "a number of dilemmas taken below zero (by the overcome dilemmas or by modifiers) counts "
        "as 0: no dilemmas are drawn, and a cost limit below zero is 0",
        "the text gives a number below zero no meaning",
        "This version subtracts the dilemmas already overcome from the number drawn but, having "
        "no glossary, never says that a number taken below zero is 0 (Call to Arms’ “modifiers” "
        "entry and Version 4’s step 2.b, “minimum 0”, do).",
    ),
}


@dataclass(frozen=True)
class Reading:
    """One way of reading what the text leaves open; the defaults are the calculator's own."""

    copy_faced: bool = False
    unfaced_counts: bool = True
    cost_after_fail: bool = True
    limit_modified: bool = True

    def choices(self, points: set[str]) -> list[str]:
        """The reading of each open point, in words."""
        taken = {
            "copy": self.copy_faced,
            "unfaced_cost": not self.unfaced_counts,
            "cost_after_fail": not self.cost_after_fail,
            "limit_modified": not self.limit_modified,
            "no_personnel_first": False,
            "no_personnel_how": False,
            "below_zero": False,
        }
        return [POINTS[p].other if taken[p] else POINTS[p].reading for p in POINTS if p in points]


DEFAULT = Reading()
