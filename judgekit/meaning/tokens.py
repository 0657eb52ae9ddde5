"""BERT's uncased WordPiece tokenizer, as the model's tokenizer.json defines it.

Written here (and again in static/js/pack-meaning.js) rather than taken from Hugging Face's
`tokenizers`, which would bring its model hub client along: tests/test_meaning_tokens.py holds
both to `tokenizers` itself on every golden question and corpus word.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

UNKNOWN = "[UNK]"
SPECIAL = re.compile(r"\[(?:PAD|UNK|CLS|SEP|MASK)\]")  # tokenizer.json's added tokens
MAX_WORD = 100  # characters: a longer word is [UNK]
OTHER = frozenset(("Cc", "Cf", "Co", "Cs"))
# The CJK ideograph blocks BERT puts spaces around.
CJK = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B920, 0x2CEAF),  # sic: tokenizers skips 0x2B820-0x2B91F
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)
# Unicode's White_Space property (what the reference's Rust char::is_whitespace reads).
WHITE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def _cjk(c: str) -> bool:
    code = ord(c)
    return any(low <= code <= high for low, high in CJK)


def _punctuation(c: str) -> bool:
    code = ord(c)
    ascii_punct = 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126
    return ascii_punct or unicodedata.category(c).startswith("P")


def normalize(text: str) -> str:
    """Clean (drop control characters, whitespace to spaces), space CJK, strip accents, lower."""
    out = []
    for c in text:
        if c in "\t\n\r":
            out.append(" ")
        elif c == "\0" or c == "\ufffd" or unicodedata.category(c) in OTHER:
            continue
        elif c in WHITE:
            out.append(" ")
        elif _cjk(c):
            out.append(f" {c} ")
        else:
            out.append(c)
    decomposed = unicodedata.normalize("NFD", "".join(out))
    # Each character lowercased on its own (str.lower would make a final sigma "ς").
    return "".join(c.lower() for c in decomposed if unicodedata.category(c) != "Mn")


def words(text: str) -> list[str]:
    """The normalized text split at whitespace, each punctuation mark a word of its own."""
    out: list[str] = []
    current: list[str] = []
    for c in normalize(text):
        if c in WHITE or _punctuation(c):
            if current:
                out.append("".join(current))
                current = []
            if c not in WHITE:
                out.append(c)
        else:
            current.append(c)
    if current:
        out.append("".join(current))
    return out


class WordPiece:
    """Text to the model's vocabulary ids."""

    def __init__(self, vocabulary: Sequence[str]) -> None:
        self.ids = {word: i for i, word in enumerate(vocabulary)}
        self.unknown = self.ids[UNKNOWN]
        self.longest = max(map(len, vocabulary))

    def pieces(self, text: str) -> list[int]:
        """The ids of a text's pieces (no [CLS] or [SEP]); a special token typed in the text
        ("[MASK]", exactly so) is that token, as tokenizer.json's added_tokens make it."""
        out: list[int] = []
        at = 0
        for match in SPECIAL.finditer(text):
            for word in words(text[at : match.start()]):
                out.extend(self._word(word))
            out.append(self.ids[match.group()])
            at = match.end()
        for word in words(text[at:]):
            out.extend(self._word(word))
        return out

    def _word(self, word: str) -> list[int]:
        if len(word) > MAX_WORD:
            return [self.unknown]
        found, start = [], 0
        while start < len(word):
            end = min(len(word), start + self.longest)
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in self.ids:
                    found.append(self.ids[piece])
                    break
                end -= 1
            if end == start:
                return [self.unknown]
            start = end
        return found
