"""The canonical Second Edition sections, their printed headings, and heading detection."""

from __future__ import annotations

import re

from ..common import DILEMMA_TYPE_ICONS, MISSION_TYPE_ICONS, heading_key

# --------------------------------------------------------------------------------------------
# The canonical sections (ids fixed for every version of the Second Edition rulebook), with the
# headings printed in Call to Arms and their variants in the other versions.
# (id, title, parent, other printed forms)
SECTIONS: list[tuple[str, str, str | None, tuple[str, ...]]] = [
    ("introduction", "Introduction", None, ()),
    ("important-concepts", "Important Concepts", None, ()),
    ("types-of-cards", "Types of Cards", "important-concepts", ()),
    ("personnel", "Personnel", "types-of-cards", ("personnel cards",)),
    ("ship", "Ship", "types-of-cards", ("ship cards",)),
    ("equipment", "Equipment", "types-of-cards", ("equipment cards",)),
    ("event", "Event", "types-of-cards", ("event cards",)),
    ("interrupt", "Interrupt", "types-of-cards", ("interrupt cards",)),
    ("mission", "Mission", "types-of-cards", ("mission cards",)),
    ("dilemma", "Dilemma", "types-of-cards", ("dilemma cards",)),
    ("affiliations", "Affiliations", "important-concepts", ()),
    ("command-and-owner", "Command and Owner", "important-concepts", ()),
    (
        "destroy-discard-and-kill",
        "Discard, Destroy, and Kill",
        "important-concepts",
        ("Destroy, Discard, and Kill",),
    ),
    ("skills", "Skills", "important-concepts", ()),
    ("keywords", "Keywords", "important-concepts", ()),
    ("when-and-while", "When and While", "important-concepts", ()),
    ("download", "Download", "important-concepts", ()),
    ("setting-up-the-game", "Setting Up the Game", None, ()),
    ("playing-the-game", "Playing the Game", None, ()),
    ("turn-sequence", "Turn Sequence", None, ()),
    ("play-and-draw-cards", "1. Play and Draw Cards", "turn-sequence", ()),
    ("paying-costs", "Paying Costs", "play-and-draw-cards", ()),
    (
        "playing-specific-kinds-of-cards",
        "Playing Specific Kinds of Cards",
        "play-and-draw-cards",
        (),
    ),
    ("showing-your-cards", "Showing Your Cards", "play-and-draw-cards", ()),
    ("drawing-cards", "Drawing Cards", "play-and-draw-cards", ()),
    ("order-of-playing-and-drawing", "Order of Playing and Drawing", "play-and-draw-cards", ()),
    ("execute-orders", "2. Execute Orders", "turn-sequence", ()),
    (
        "general-rules",
        "General Rules on Executing Orders",
        "execute-orders",
        ("General Rules",),
    ),
    ("beaming", "Beaming", "execute-orders", ("Order - Beam Personnel",)),
    ("moving-a-ship", "Moving a Ship", "execute-orders", ("Order - Move a Ship",)),
    ("staffing-ships", "Staffing ships", "moving-a-ship", ()),
    ("using-range", "Using Range", "moving-a-ship", ()),
    (
        "attempting-a-mission",
        "Attempting a Mission",
        "execute-orders",
        ("Order - Attempt a Mission",),
    ),
    ("facing-dilemmas", "Facing dilemmas", "attempting-a-mission", ()),
    (
        "checking-requirements",
        "Checking mission requirements",
        "attempting-a-mission",
        ("Checking requirements",),
    ),
    ("when-your-attempt-fails", "When your attempt fails", "attempting-a-mission", ()),
    ("other-order-actions", "Other Order Actions", "execute-orders", ("Order Actions on Cards",)),
    (
        "discard-excess-cards",
        "3. Discard Excess Cards",
        "turn-sequence",
        ("3. Discarding Excess Cards",),
    ),
    ("winning-the-game", "Winning the Game", None, ()),
    ("building-a-deck", "Building a Deck", None, ()),
    ("other-important-rules", "Other Important Rules", None, ()),
    ("uniqueness", "Uniqueness", "other-important-rules", ()),
    ("present", "Present", "other-important-rules", ()),
    ("combat", "Combat", "other-important-rules", ()),
    ("engagements", "Engagements", "other-important-rules", ()),
    ("damage", "Damage", "other-important-rules", ()),
    ("brig-and-captives", "Brig and Captives", "other-important-rules", ()),
    ("glossary", "Glossary", None, ()),
    ("first-edition", "Star Trek CCG: First Edition", None, ()),
    ("collector-information", "Collector Information", None, ()),
    ("credits", "Credits", None, ()),
    (
        "card-list",
        "Star Trek CCG Second Edition Call to Arms Card List",
        None,
        ("Call to Arms Card List",),
    ),
]
ORDER = {sid: i for i, (sid, *_rest) in enumerate(SECTIONS)}
PARENT = {sid: parent for sid, _t, parent, _v in SECTIONS}

HEADINGS: dict[str, str] = {
    heading_key(form): sid for sid, title, _p, variants in SECTIONS for form in (title, *variants)
}

# Sub-entries of glossary entries (printed indented under their entry).
GLOSSARY_PARENT = {
    "Response actions": "actions",
    "Requirements": "actions",
    "Costs": "actions",
    "Effects": "actions",
}

# Icon captions: the printed label beside a lost icon -> the icon's name in rules/icons.yaml.
_CARD_ICONS = {
    "command": "command",
    "staff": "staff",
    "alternate universe": "alternate-universe",
    "Deep Space Nine": "deep-space-nine",
    "Earth": "earth",
    "Maquis": "maquis",
    "Terok Nor": "terok-nor",
    "The Next Generation": "the-next-generation",
}
CAPTION_ICONS = {
    "personnel": _CARD_ICONS,
    "ship": _CARD_ICONS,
    "mission": MISSION_TYPE_ICONS,
    "dilemma": DILEMMA_TYPE_ICONS,
}
CAPTION_RE = re.compile(
    r"(?:^|\s)(Staffing Requirements|Other Icons|Mission Type Icons|Dilemma Type Icons) include:"
)


def find_heading(text: str) -> str | None:
    """The section id a line prints the heading of, or None."""
    bare = re.sub(r"[*_]", "", text).strip()
    if not bare or len(bare.split()) > 10 or bare.endswith((".", ",", ";")):
        return None
    if bare.startswith(("-", "•", "·")):
        return None  # a list item, not a heading
    if re.match(r"^\d+\.\s", bare) and bare != bare.upper():
        return None  # a numbered list item ("1. Play and draw cards")
    return HEADINGS.get(heading_key(bare))


def is_label(text: str) -> bool:
    """A short line without sentence punctuation: a spilled figure label."""
    bare = re.sub(r"[*_]", "", text).strip()
    return (
        len(bare.split()) <= 6
        and not re.search(r"[.:;!?,]$", bare)
        and not bare.startswith(("-", "•"))
        and not re.match(r"^\d+\.\s", bare)
        and find_heading(bare) is None
    )


def descends(child: str | None, parent: str | None) -> bool:
    """``child`` is a section somewhere below ``parent``."""
    while child:
        child = PARENT.get(child)
        if child == parent:
            return True
    return False


def follows(g: str | None, cur: str | None) -> bool:
    """``g`` is a later sibling of ``cur``."""
    return bool(g and cur and PARENT.get(g) == PARENT.get(cur) and ORDER[g] > ORDER[cur])
