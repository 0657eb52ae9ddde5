"""The card index: cards per edition, and which entries mention them, as checked data.

Cards live in ``rules/cards.yaml`` (2E) and ``rulings/cards.yaml`` (1E); mentions beside each
version, in ``<version>.mentions.yaml``. Nothing here matches strings at run time for pages:
the matching below is for the check and the maintainer's proposal tool.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from judgekit.corpus.model import (  # noqa: F401 -- the card model, re-exported here
    APOSTROPHES,
    Card,
    CardIndex,
    Mention,
    NotMention,
    Version,
    fold,
    sort_key,
)
from judgekit.corpus.references import ID_RE, REF_RE
from judgekit.corpus.schema import Problems, check_keys, list_field
from judgekit.corpus.yamlio import LList, LMap, YamlError, load_yaml

CARD_FILES = {"2E": "rules/cards.yaml", "1E": "rulings/cards.yaml"}
MENTIONS_SUFFIX = ".mentions.yaml"
RARITIES = ("C", "U", "R", "S", "P", "F", "V")
CARD_FIELDS = {
    "id",
    "title",
    "subtitle",
    "unique",
    "type",
    "set",
    "number",
    "rarity",
    "aliases",
    "source",
    "note",
    "type_from",
    "type_words",
}


# -- loading ------------------------------------------------------------------------------------
def _text(data: LMap, key: str, path: str, probs: Problems, required: bool = False) -> str | None:
    value = data.get(key)
    if value is None:
        if required:
            probs.add(path, data.line, f"missing required field {key!r}")
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        probs.add(path, data.line_of(key), f"field {key!r} must be text")
        return None
    return str(value)


def _load_card(item: LMap, edition: str, path: str, probs: Problems) -> Card | None:
    if not check_keys(item, CARD_FIELDS, path, probs, "card"):
        return None
    card_id = _text(item, "id", path, probs, required=True)
    title = _text(item, "title", path, probs, required=True)
    if card_id is None or title is None:
        return None
    if not ID_RE.match(card_id):
        probs.add(path, item.line_of("id"), f"invalid card id {card_id!r}")
    rarity = _text(item, "rarity", path, probs)
    if rarity is not None and rarity not in RARITIES:
        probs.add(path, item.line_of("rarity"), f"rarity must be one of {', '.join(RARITIES)}")
    aliases = item.get("aliases") or LList()
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        probs.add(path, item.line_of("aliases"), "aliases must be a list of text")
        aliases = []
    unique = item.get("unique", False)
    if not isinstance(unique, bool):
        probs.add(path, item.line_of("unique"), "unique must be true or false")
    return Card(
        id=card_id,
        edition=edition,
        title=title,
        subtitle=_text(item, "subtitle", path, probs),
        unique=unique is True,
        type=_text(item, "type", path, probs),
        set=_text(item, "set", path, probs),
        number=_text(item, "number", path, probs),
        rarity=rarity,
        aliases=tuple(aliases),
        source=_text(item, "source", path, probs),
        note=_text(item, "note", path, probs),
        type_from=_text(item, "type_from", path, probs),
        type_words=_text(item, "type_words", path, probs),
        location=f"{path}:{item.line}",
    )


def load_card_file(path: Path, edition: str, probs: Problems) -> list[Card]:
    """The cards of one edition's file; problems for bad fields and repeated ids."""
    data = load_yaml(path)
    spath = str(path)
    if not check_keys(data, {"edition", "cards"}, spath, probs, "card file"):
        return []
    if data.get("edition") != edition:
        probs.add(spath, data.line_of("edition"), f"edition must be {edition!r}")
    items = data.get("cards")
    if not isinstance(items, list):
        probs.add(spath, data.line_of("cards"), "cards must be a list")
        return []
    cards: list[Card] = []
    seen: dict[str, int] = {}
    for item in items:
        card = _load_card(item, edition, spath, probs)
        if card is None:
            continue
        line = item.line
        if card.id in seen:
            probs.add(spath, line, f"duplicate card id {card.id!r} (first at line {seen[card.id]})")
            continue
        seen[card.id] = line
        cards.append(card)
    return cards


def _load_mentions(
    path: Path, document: str, version: str, probs: Problems
) -> tuple[list[Mention], list[NotMention]]:
    data = load_yaml(path)
    spath = str(path)
    if not check_keys(
        data, {"document", "version", "mentions", "not_mentions"}, spath, probs, "mentions file"
    ):
        return [], []
    if data.get("document") != document:
        probs.add(spath, data.line_of("document"), f"document must be {document!r}")
    if str(data.get("version")) != version:
        probs.add(spath, data.line_of("version"), f"version must be {version!r}")
    mentions: list[Mention] = []
    for item in list_field(data, "mentions", spath, probs):
        if not check_keys(item, {"entry", "cards"}, spath, probs, "mention"):
            continue
        entry = _text(item, "entry", spath, probs, required=True)
        cards = item.get("cards")
        if not isinstance(cards, list) or not cards or not all(isinstance(c, str) for c in cards):
            probs.add(spath, item.line_of("cards"), "cards must be a non-empty list of card ids")
            continue
        where = f"{spath}:{item.line}"
        mentions.extend(Mention(document, version, entry or "", c, where) for c in cards)
    nots: list[NotMention] = []
    for item in list_field(data, "not_mentions", spath, probs):
        if not check_keys(item, {"entry", "card", "reason"}, spath, probs, "not-a-mention"):
            continue
        entry = _text(item, "entry", spath, probs, required=True)
        card = _text(item, "card", spath, probs, required=True)
        reason = _text(item, "reason", spath, probs, required=True)
        if entry and card and reason:
            nots.append(NotMention(document, version, entry, card, reason, f"{spath}:{item.line}"))
    return mentions, nots


def mentions_path(version_path: str | Path) -> Path:
    """The mentions file beside a version file: ``4.yaml`` → ``4.mentions.yaml``."""
    path = Path(version_path)
    return path.with_name(path.stem + MENTIONS_SUFFIX)


def load_cards(root: str | Path, versions: Iterable[Version], probs: Problems) -> CardIndex:
    """Both editions' cards and every held version's mentions; problems go to ``probs``."""
    root = Path(root)
    cards: dict[tuple[str, str], Card] = {}
    files = []
    for edition, rel in CARD_FILES.items():
        path = root / rel
        if not path.exists():
            continue
        files.append(str(path))
        try:
            found = load_card_file(path, edition, probs)
        except YamlError as exc:
            probs.items.append(str(exc))
            continue
        cards.update(((edition, c.id), c) for c in found)
    mentions: list[Mention] = []
    nots: list[NotMention] = []
    for version in versions:
        path = mentions_path(version.path)
        if not path.exists():
            continue
        files.append(str(path))
        try:
            found_m, found_n = _load_mentions(path, version.document, version.id, probs)
        except YamlError as exc:
            probs.items.append(str(exc))
            continue
        mentions.extend(found_m)
        nots.extend(found_n)
    return CardIndex(cards, tuple(mentions), tuple(nots), tuple(files))


# -- finding titles in text (the check and the proposal tool) ------------------------------------
_ICON_RE = re.compile(r"\{icon:[a-z0-9-]+\}")


def scan_text(title: str, markdown: str) -> str:
    """An entry's words as a judge reads them: title and text, references as their words."""

    def words(match: re.Match[str]) -> str:
        return match.group(2) if match.group(2) is not None else match.group(1).split("/")[-1]

    text = REF_RE.sub(words, markdown)
    text = _ICON_RE.sub(" ", text).replace("\\", "").replace("*", "")
    return f"{title}\n{text}"


def phrase_pattern(name: str) -> str:
    """A regex for a name as printed: any run of spaces, any apostrophe form, the rest literal."""
    parts = []
    for char in name:
        if char.isspace():
            if not parts or parts[-1] != r"\s+":
                parts.append(r"\s+")
        elif char in APOSTROPHES:
            parts.append(f"[{APOSTROPHES}]")
        else:
            parts.append(re.escape(char))
    return "".join(parts)


@dataclass(frozen=True)
class Found:
    """A card name found in a text: where, the words, and every card that has that name."""

    start: int
    end: int
    words: str
    cards: tuple[str, ...]


class TitleFinder:
    """Finds the names of an edition's cards in text: exact case, whole words, longest first.

    A name followed by a possessive ("Destroy Transwarp Hub’s") or preceded by the unique dot
    ("•Jean-Luc Picard") is found; a name inside a longer name is not found again.
    """

    def __init__(self, cards: Iterable[Card]) -> None:
        self.by_name: dict[str, list[str]] = {}
        for card in cards:
            for name in card.names:
                ids = self.by_name.setdefault(fold(name), [])
                if card.id not in ids:
                    ids.append(card.id)
        names = sorted(self.by_name, key=len, reverse=True)
        body = "|".join(phrase_pattern(n) for n in names)
        self._regex = re.compile(rf"(?<![\w-])(?:{body})(?![\w-])") if names else None

    def find(self, text: str) -> list[Found]:
        """Every name in the text, in order."""
        if self._regex is None:
            return []
        out = []
        for match in self._regex.finditer(text):
            ids = self.by_name.get(fold(match.group(0)), [])
            out.append(Found(match.start(), match.end(), match.group(0), tuple(ids)))
        return out
