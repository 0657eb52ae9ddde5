"""Icons the 1.1 web page writes as image alt text, turned into ``{icon:...}`` tokens."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..common import DILEMMA_TYPE_ICONS, Correction, alt_text_icon, slugify

AFFILIATIONS = (
    "Bajoran|Borg|Cardassian|Dominion|Federation|Ferengi|Klingon|Non-Aligned|Romulan|"
    "Starfleet|Kazon|Hirogen|Vidiian"
)

# Image alt texts of the icons in icon lists ("• <alt> <label>"), longest first.
LIST_ALTS = (
    ("Deep Space Nine related card", "deep-space-nine"),
    ("Next Generation related card", "the-next-generation"),
    ("Terok-Nor related card", "terok-nor"),
    ("Earth related card", "earth"),
    ("Alternate Universe", "alternate-universe"),
    ("Marqui", "maquis"),
    ("Command", "command"),
    ("Staff", "staff"),
    ("headquarters", "headquarters"),
    ("plante", "planet"),
    ("planet", "planet"),
    ("space", "space"),
    ("dual", "dual"),
)


@dataclass
class IconFix(Correction):
    """A correction with what the evidence search needs: the kind of change and probe phrases."""

    what: str = ""  # the kind of change, for the evidence text
    probe: str = ""  # NUL-separated words next to the change, to find the sentence elsewhere


def _merge(spans: list[tuple[int, int, str]], text: str) -> list[tuple[int, int, str]]:
    """Merge replacements at most one word apart, so each correction reads as one phrase."""
    spans.sort()
    merged: list[tuple[int, int, str]] = []
    for start, end, repl in spans:
        if merged and re.fullmatch(r"\s*\S*\s*", text[merged[-1][1] : start] or ""):
            ms, me, mr = merged[-1]
            merged[-1] = (ms, end, mr + text[me:start] + repl)
        else:
            merged.append((start, end, repl))
    return merged


def _icon_spans(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, replacement, kind) of every alt text and lost character in the text."""
    spans: list[tuple[int, int, str, str]] = []
    for m in re.finditer(rf"\b(?:Affiliation|Icon) ({AFFILIATIONS})\b", text):
        spans.append((m.start(), m.end(), f"{{icon:{slugify(m.group(1))}}}", "affiliation icon"))
    for m in re.finditer(r"\bRed Dot\b", text):
        spans.append(
            (m.start(), m.end(), f"{{icon:{alt_text_icon(m.group(0))}}}", "skill dot icon")
        )
    for m in re.finditer(r"\b(?:Command|Staff){2,}\b", text):
        words = re.findall(r"Command|Staff", m.group(0))
        tokens = "".join(f"{{icon:{alt_text_icon(w)}}}" for w in words)
        spans.append((m.start(), m.end(), tokens, "staffing icons"))
    for m in re.finditer(r"\b(Command|Staff)\b(?=(?: or (?:Command|Staff))? icons?\b)", text):
        spans.append((m.start(), m.end(), f"{{icon:{alt_text_icon(m.group(1))}}}", "staffing icon"))
    for m in re.finditer(r"\(Unique\)", text):
        spans.append((m.start(), m.end(), "(•)", "uniqueness dot"))
    for m in re.finditer(r"\bUnique-(?=[A-Z])", text):
        spans.append((m.start(), m.end(), "•", "uniqueness dot"))
    return spans


def fix_running_text(text: str, number: int) -> tuple[str, list[IconFix]]:
    """Turn icon alt texts and lost characters in running text into tokens; record each."""
    spans = _icon_spans(text)
    if not spans:
        return text, []
    whats = {s[0]: s[3] for s in spans}
    fixes = []
    merged = _merge([(s, e, r) for s, e, r, _ in spans], text)
    # The line with every alt text taken out: how the other extractions (icons lost) read.
    bare = text
    for start, end, _ in reversed(merged):
        bare = bare[:start] + "\x00" + bare[end:]
    holes = [m.start() for m in re.finditer("\x00", bare)]
    out, pos = [], 0
    for i, (start, end, repl) in enumerate(merged):
        # Context: finish the word the change sits in, or else take one more word each side,
        # never reaching into another replacement.
        before = text[pos:start]
        left = re.search(r"\S*$", before).group(0) or re.search(r"(\S+\s+)?$", before).group(0)
        nxt = merged[i + 1][0] if i + 1 < len(merged) else len(text)
        after = text[end:nxt]
        right = re.match(r"^\S*", after).group(0) or re.match(r"^(\s+\S+)?", after).group(0)
        original = left + text[start:end] + right
        corrected = left + repl + right
        # Probes: the words around the change as an extraction that lost the icons reads them.
        hole = holes[i]
        tail = bare[hole + 1 :].replace("\x00", " ").split()
        head = bare[:hole].replace("\x00", " ").split()
        probes = [" ".join(head[-3:] + tail[:5]), " ".join(tail[:6]), " ".join(head[-6:])]
        fixes.append(
            IconFix(
                line=number,
                original=original.strip(),
                corrected=corrected.strip(),
                what=whats.get(start, "icon"),
                probe="\x00".join(p for p in probes if p),
            )
        )
        out.append(text[pos:start] + repl)
        pos = end
    out.append(text[pos:])
    return "".join(out), fixes


def fix_icon_item(item: str, number: int, intro: str) -> tuple[str, IconFix | None]:
    """An icon-list item "<alt text> <label>" becomes "{icon:NAME} <label>"."""
    for alt, name in LIST_ALTS:
        if item.startswith(alt + " ") and item[len(alt) :].strip():
            if "dilemma" in intro.lower():
                name = DILEMMA_TYPE_ICONS.get(name, name)
            label = item[len(alt) :].strip()
            corrected = f"{{icon:{name}}} {label}"
            fix = IconFix(
                line=number,
                original=item,
                corrected=corrected,
                what=f"icon list item ({alt!r})",
                probe=intro,
            )
            return corrected, fix
    return item, None
