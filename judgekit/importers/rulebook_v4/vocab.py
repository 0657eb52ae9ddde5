"""The Version 4 vocabulary: canonical ids of its headings and terms, and its lineage."""

from __future__ import annotations

SOURCE = "001_e0857e3ae769ceaa.txt"
OLD_11 = "002_52a0eb27c46f2732.txt"  # 1.1, icons written as words
OLD_CTA = "000_2dfc9177df82ec32.txt"  # Call to Arms, OCR

# ---------------------------------------------------------------------------
# Id policy: printed Version 4 heading -> (canonical id, title). Canonical ids are the
# 1.1 / Call to Arms ids of the same rule (rules/FORMAT.md: "the same rule keeps the id
# of its earliest version"). Headings not listed get the slug of the heading.
HEADINGS: dict[str, tuple[str, str]] = {
    "INTRODUCTION": ("introduction", "Introduction"),
    "TYPES OF CARDS": ("types-of-cards", "Types of Cards"),
    "PERSONNEL": ("personnel", "Personnel"),
    "SHIP": ("ship", "Ship"),
    "EQUIPMENT": ("equipment", "Equipment"),
    "EVENT": ("event", "Event"),
    "INTERRUPT": ("interrupt", "Interrupt"),
    "MISSION": ("mission", "Mission"),
    "DILEMMA": ("dilemma", "Dilemma"),
    "HOW THE CARD TYPES FIT TOGETHER": (
        "how-the-card-types-fit-together",
        "How the Card Types Fit Together",
    ),
    "AFFILIATIONS": ("affiliations", "Affiliations"),
    "SETTING UP THE GAME": ("setting-up-the-game", "Setting Up the Game"),
    "PLAYING THE GAME": ("playing-the-game", "Playing the Game"),
    "TURN SEQUENCE": ("turn-sequence", "Turn Sequence"),
    "1. PLAY AND DRAW CARDS": ("play-and-draw-cards", "1. Play and Draw Cards"),
    "DRAWING CARDS": ("drawing-cards", "Drawing Cards"),
    "PAYING COSTS": ("paying-costs", "Paying Costs"),
    "IN PLAY/NOT IN PLAY": ("in-play-not-in-play", "In Play/Not in Play"),
    "SHOWING YOUR CARDS": ("showing-your-cards", "Showing Your Cards"),
    "PLAYING SPECIFIC KINDS OF CARDS": (
        "playing-specific-kinds-of-cards",
        "Playing Specific Kinds of Cards",
    ),
    "IMPORTANT GAME TERMS": ("important-game-terms", "Important Game Terms"),
    "2. EXECUTE ORDERS": ("execute-orders", "2. Execute Orders"),
    "GENERAL RULES ON EXECUTING ORDERS": ("general-rules", "General Rules on Executing Orders"),
    "ORDER – BEAM PERSONNEL": ("beaming", "Order – Beam Personnel"),
    "ORDER – MOVE A SHIP": ("moving-a-ship", "Order – Move a Ship"),
    "ORDER – ATTEMPT A MISSION": ("attempting-a-mission", "Order – Attempt a Mission"),
    "FACING DILEMMAS": ("facing-dilemmas", "Facing Dilemmas"),
    "CHECKING MISSION REQUIREMENTS": ("checking-requirements", "Checking Mission Requirements"),
    "ORDER ACTIONS ON CARDS": ("other-order-actions", "Order Actions on Cards"),
    "3. DISCARD EXCESS CARDS": ("discard-excess-cards", "3. Discard Excess Cards"),
    "WINNING THE GAME": ("winning-the-game", "Winning the Game"),
    "BUILDING A DECK": ("building-a-deck", "Building a Deck"),
    "THAT’S IT!": ("thats-it", "That’s It!"),
    "OTHER IMPORTANT RULES": ("other-important-rules", "Other Important Rules"),
    "UNIQUENESS": ("uniqueness", "Uniqueness"),
    "PRESENT": ("present", "Present"),
    "COMBAT": ("combat", "Combat"),
    "ENGAGEMENTS": ("engagements", "Engagements"),
    "DAMAGE": ("damage", "Damage"),
    "BRIG AND CAPTIVES": ("brig-and-captives", "Brig and Captives"),
    "GLOSSARY": ("glossary", "Glossary"),
    "CREDITS": ("credits", "Credits"),
    "DECIPHER": ("decipher", "Decipher"),
    "THE CONTINUING COMMITTEE": ("the-continuing-committee", "The Continuing Committee"),
}

# Parent of a heading that is not in the printed contents, where the default (the most
# recent contents heading) is wrong. None: a top-level entry.
PARENTS: dict[str, str | None] = {
    "affiliations": None,
    "building-a-deck": None,
    "thats-it": "building-a-deck",
    "facing-dilemmas": "attempting-a-mission",
    "checking-requirements": "attempting-a-mission",
}

# Run-in terms ("Command and Owner: ...") that open entries inside these sections.
TERM_SECTIONS = {"important-game-terms"}
TERM_IDS = {
    "Command and Owner": "command-and-owner",
    "Discard, Destroy, and Kill": "destroy-discard-and-kill",
    "Skills": "skills",
    "Keywords": "keywords",
    "Download": "download",
}

# Glossary terms whose id comes from the Call to Arms term for the same rule.
GLOSSARY_IDS = {"abilities": "gl-ability"}
GLOSSARY_ALIASES = {"gl-ability": ["ability"]}

# Lineage a shared id cannot express (rules moved into another entry).
CONTINUES: dict[str, list[dict[str, str]]] = {
    "play-and-draw-cards": [
        {"ref": "call-to-arms/order-of-playing-and-drawing", "relation": "merged"}
    ],
    "paying-costs": [{"ref": "call-to-arms/when-and-while", "relation": "merged"}],
    "mission": [{"ref": "call-to-arms/gl-missions", "relation": "replaced"}],
    "moving-a-ship": [
        {"ref": "call-to-arms/staffing-ships", "relation": "merged"},
        {"ref": "call-to-arms/using-range", "relation": "merged"},
        {"ref": "call-to-arms/gl-moving-a-ship", "relation": "merged"},
    ],
    "facing-dilemmas": [{"ref": "call-to-arms/when-your-attempt-fails", "relation": "merged"}],
    "checking-requirements": [
        {"ref": "call-to-arms/when-your-attempt-fails", "relation": "merged"}
    ],
    "gl-modifications": [{"ref": "call-to-arms/gl-modifiers", "relation": "merged"}],
}

# Sections whose text existed in the 2003 rulebooks: only there can a new paragraph be grey-box text.
ADVANCED_ELIGIBLE = {
    "interrupt",
    "mission",
    "paying-costs",
    "important-game-terms",
    "command-and-owner",
    "moving-a-ship",
    "attempting-a-mission",
    "facing-dilemmas",
    "checking-requirements",
    "winning-the-game",
}
