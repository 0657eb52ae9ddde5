"""Lost icons named by the other versions: the same words there, with the icon printed.

An extraction that lost an icon leaves ``{icon:lost}`` (``body``). Where a held version of the
document prints the same words around it with an icon, that icon is the evidence (the curated
Version 4 took "Each of your {icon:klingon} Treachery personnel" from 1.1 so). The words are
looked for as the whole sentence first, then five words either side, where every version must
agree on the icon, or the icon stays lost. A window is a guess a maintainer checks: the report
counts the icons so named, and each correction gives its evidence. The correction that wrote
``{icon:lost}`` is rewritten with the icon and the evidence.
"""

from __future__ import annotations

import re
from dataclasses import replace

from judgekit.compare.sentences import split_sentences
from judgekit.importing.text import Fix

LOST = "{icon:lost}"
_TOKENS = r"((?:\{icon:[a-z0-9-]+\} ?)+)"


def _join(parts: list[str]) -> str:
    """A pattern of the words, each lost icon a group of icon tokens."""
    words = [r"\s+".join(map(re.escape, p.split())) for p in parts]
    out = words[0]
    for p in words[1:]:
        out += r"\s*" + _TOKENS + r"\s*" + p
    return out


def _windows(sentence: str) -> list[tuple[str, bool]]:
    """The words to look for around the first lost icon: the sentence, then narrower windows
    (whose answer must be unique)."""
    words = sentence.split()
    at = next(k for k, w in enumerate(words) if LOST in w)
    out = [(sentence, False)]
    for n in (
        5,
    ):  # four named a wrong icon: 1.1's "Romulus allows you to play {icon} cards there" is Qo'noS in 4
        window = words[max(0, at - n) : at + n + 1]
        if len(window) > 2 and sum(LOST in w for w in window) == 1:
            out.append((" ".join(window), True))
    return out


def _found(words: str, unique: bool, others: dict[str, str]) -> tuple[str, str] | None:
    """The icon(s) another version prints where ``words`` lost one, and which version."""
    pattern = re.compile(_join([p.strip() for p in words.split(LOST)]))
    answers: dict[str, str] = {}
    for label, text in others.items():
        for m in pattern.finditer(text):
            icons = m.group(1).strip()
            if LOST not in icons:
                answers.setdefault(icons, label)
    if len(answers) == 1 or (answers and not unique):
        icons, label = next(iter(answers.items()))
        return icons, label
    return None


def name_lost_icons(
    blocks: list[dict[str, str]], others: dict[str, str], fixes: list[Fix], first: int = 0
) -> None:
    """Replace lost icons in ``blocks`` where ``others`` (version label -> text) print them;
    the corrections that wrote them are ``fixes[first:]`` (those of the blocks' own lines)."""
    for block in blocks:
        for kind, text in block.items():
            for line in text.split("\n"):
                for sentence in split_sentences(line):
                    while LOST in sentence:
                        hit = next(
                            (f for w, u in _windows(sentence) if (f := _found(w, u, others))),
                            None,
                        )
                        if hit is None:
                            break
                        icons, label = hit
                        new = sentence.replace(LOST, icons, 1)
                        text = text.replace(sentence, new, 1)
                        why = f"the same words in {label} print {icons}"
                        _rewrite(fixes, first, new, icons, why)
                        sentence = new
            block[kind] = text


def _rewrite(fixes: list[Fix], first: int, sentence: str, icons: str, evidence: str) -> None:
    """The correction that wrote this lost icon now writes ``icons``, with the evidence."""
    for k, f in enumerate(fixes[first:], first):
        if LOST in f.corrected and f.corrected.replace(LOST, icons, 1) in sentence:
            fixes[k] = replace(f, corrected=f.corrected.replace(LOST, icons, 1), evidence=evidence)
            return
