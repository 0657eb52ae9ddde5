"""An entry's plain text cut into the units a judge compares: sentences, and list items.

Units come from ``Library.plain`` (icons as labels, no markup), so they read exactly as the entry
does. A paragraph or a list item is cut after ``.``, ``!`` or ``?`` when the next word starts a
sentence; abbreviations ("U.S.S. Galaxy", "e.g. a") do not end one. A unit that opens a list
item is flagged ``item``, and the bullet our plain text adds ("- ") is not part of its words.

Each unit keeps its words as printed (``text``), the typography-blind ``key`` entry pages compare
(``normalize_typography``), and its content words (``words`` in reading order, ``stems`` as a set)
that similar sentences are matched on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from judgekit.corpus.typography import normalize_typography

# A sentence end: a stop, any closing quotes or brackets, space, then what can open a sentence.
_END = re.compile(r"[.!?][\"”’')\]]*\s+(?=[\"“‘'(\[*]?[A-Z0-9])")
# The word before a stop that does not end a sentence: initials (U.S.S., X.) and abbreviations.
_ABBREVIATION = re.compile(
    r"(?:^|\s|\()(?:(?:[A-Za-z]\.)+|(?:e\.g|i\.e|vs|cf|Dr|Mr|Mrs|Ms|St|No|pp?)\.)$", re.IGNORECASE
)
_ITEM = re.compile(r"^- ")
# Text typography normalizing leaves as it is: no quotes, dashes, marks, bullets or odd spaces.
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 ,.;:!?()/%+=<>&]*")
_MARKS = re.compile(r"  |\(TM\)|\(R\)")
_WORD = re.compile(r"[a-z0-9]+")
# Words too common to say two sentences are about the same thing.
_STOP = frozenset(
    "a an the and or but nor of to in on at by for from with without as is are was were be been "
    "being it its this that these those there their them they you your yours he she his her we "
    "our us i if then than so not no any all each every one can may must will would could should "
    "do does did has have had which who whom whose what when where while also only such into onto "
    "upon up out more most other some".split()
)
_SUFFIXES = ("ing", "ed", "es", "s", "e")


@dataclass(frozen=True)
class Unit:
    """One sentence (or list item) of an entry, where it stands, and what it is compared as."""

    entry: str  # the entry's id
    index: int  # its place among the entry's units
    text: str  # as printed
    key: str  # typography-blind: equal keys are the same wording
    stems: frozenset[str]  # content words, crudely stemmed
    item: bool = False  # it opens a list item
    paragraph: bool = False  # it opens a paragraph (or item) other than the first
    words: tuple[str, ...] = ()  # content words, crudely stemmed, in reading order


@lru_cache(maxsize=1 << 14)
def stem(word: str) -> str:
    """A crude stem, so "moving" meets "move" and "icons" meets "icon"."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def content_words(key: str) -> tuple[str, ...]:
    """The content words of a sentence's key, stemmed, in reading order; digits count ("2" and
    "two" do not meet)."""
    return tuple(stem(w) for w in _WORD.findall(key.casefold()) if w not in _STOP)


def split_sentences(paragraph: str) -> list[str]:
    """A paragraph's sentences, as printed; abbreviations and initials do not end one."""
    out: list[str] = []
    start = 0
    for match in _END.finditer(paragraph):
        if _ABBREVIATION.search(paragraph[start : match.start() + 1]):
            continue
        sentence = paragraph[start : match.end()].strip()
        if sentence:
            out.append(sentence)
        start = match.end()
    rest = paragraph[start:].strip()
    if rest:
        out.append(rest)
    return out


def units(entry_id: str, plain: str) -> tuple[Unit, ...]:
    """The units of an entry's plain text, in reading order."""
    out: list[Unit] = []
    for line in plain.split("\n"):
        line = line.strip()
        if not line:
            continue
        item = bool(_ITEM.match(line))
        body = line[2:] if item else line
        for n, sentence in enumerate(split_sentences(body)):
            plain = _PLAIN.fullmatch(sentence) and not _MARKS.search(sentence)
            key = sentence if plain else normalize_typography(sentence)
            words = content_words(key)
            out.append(
                Unit(
                    entry_id,
                    len(out),
                    sentence,
                    key,
                    frozenset(words),
                    item=item and n == 0,
                    paragraph=n == 0 and bool(out),
                    words=words,
                )
            )
    return tuple(out)


def similarity(a: Unit, b: Unit) -> float:
    """How alike two sentences are, 0 to 1: the Dice overlap of their content words."""
    if a.key == b.key:
        return 1.0
    if not a.stems or not b.stems:
        return 0.0
    shared = len(a.stems & b.stems)
    # One shared word is chance, unless a sentence has no more than that to share.
    if shared < 2 and shared < min(len(a.stems), len(b.stems)):
        return 0.0
    return 2 * shared / (len(a.stems) + len(b.stems))


# The words in order are counted for sentences of up to this many word pairs (a real sentence
# has far fewer): the count costs their product, and no comparison request may be slow.
IN_ORDER_MOST = 10_000


def likeness(a: Unit, b: Unit) -> float:
    """How alike two sentences read, 0 to 1: ``similarity`` averaged with the Dice overlap of
    their content words taken in order (their longest common subsequence).

    Which of two candidates a sentence became: shared words alone can favour the one that shares
    the sentence's topic over the one that restates its rule. Call to Arms's "The total cost of
    the dilemmas he or she chooses cannot be higher than the number of personnel ..." shares five
    words with Version 4's "If you attempt a mission where there are overcome dilemmas underneath
    it, the number of those dilemmas is subtracted from that total first." (0.53) and four with
    "That number is also the total cost in dilemmas your opponent can spend on dilemmas." (0.50),
    but only the second says "total cost ... dilemmas" in its order (0.36 against 0.43).
    """
    alike = similarity(a, b)
    if alike in (0.0, 1.0) or len(a.words) * len(b.words) > IN_ORDER_MOST:
        return alike  # a run-on "sentence" of a draft's unsplit paragraph: shared words alone
    in_order = 2 * common_in_order(a.words, b.words) / (len(a.words) + len(b.words))
    return (alike + in_order) / 2


def common_in_order(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    """The length of the longest common subsequence of two word lists."""
    # Exact and symmetric, unlike SequenceMatcher's blocks (its greedy longest block first made
    # Version 4 to 1.1 pair sentences that 1.1 to Version 4 did not); sentences are short.
    previous = [0] * (len(b) + 1)
    for word in a:
        current = [0]
        for j, other in enumerate(b):
            current.append(previous[j] + 1 if word == other else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]
