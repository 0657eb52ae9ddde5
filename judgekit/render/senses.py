"""Words a glossary term matches in another sense than its entry defines (rules/glossary-senses.yaml).

The pages link a word to a glossary entry by its spelling; the editors list here where the
spelling is not the sense: a term never linked (ordinary "all" is not the rule about card text
saying "all"), or phrases in which its words stay text ("a mission's requirements" is not the
rule about requirements for performing an action). `judgekit check` holds the list to the corpus.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from judgekit.corpus.model import Corpus
from judgekit.corpus.yamlio import LList, LMap, YamlError, load_yaml

SENSES_FILE = "rules/glossary-senses.yaml"


@dataclass(frozen=True)
class Sense:
    """One glossary entry's excluded senses: never linked, or not inside these phrases."""

    term: str  # the glossary entry's id
    never: bool
    phrases: tuple[str, ...]
    reason: str
    location: str = ""


def _path(corpus: Corpus) -> Path | None:
    return Path(corpus.root) / SENSES_FILE if corpus.root else None


def load_senses(corpus: Corpus) -> tuple[tuple[Sense, ...], list[str]]:
    """The corpus's excluded senses (none without the file), and the file's format problems."""
    path = _path(corpus)
    if path is None or not path.is_file():
        return (), []
    try:
        data = load_yaml(path)
    except YamlError as exc:
        return (), [str(exc)]
    items = data.get("senses") if isinstance(data, LMap) else None
    if not isinstance(items, LList):
        return (), [f"{path}:1: expected a 'senses' list"]
    senses, problems = [], []
    for item in items:
        where = f"{path}:{getattr(item, 'line', 0)}"
        phrases = item.get("phrases", []) if isinstance(item, LMap) else None
        if (
            not isinstance(item, LMap)
            or set(item) - {"term", "never", "phrases", "reason"}
            or not isinstance(item.get("term"), str)
            or not isinstance(item.get("reason"), str)
            or not isinstance(phrases, list)
            or not all(isinstance(p, str) for p in phrases)
            or bool(item.get("never")) == bool(phrases)
        ):
            problems.append(
                f"{where}: a sense is {{term, reason}} with either never: true or phrases"
            )
            continue
        senses.append(
            Sense(item["term"], bool(item.get("never")), tuple(phrases), item["reason"], where)
        )
    return tuple(senses), problems


def sense_problems(corpus: Corpus) -> list[str]:
    """The list against the corpus: each term a glossary entry held, each phrase holding one of
    that term's names (or it would exclude nothing), and each phrase found in some entry."""
    senses, problems = load_senses(corpus)
    glossary = {
        e.id: (e.title, *e.aliases)
        for v in corpus.versions()
        for e in v.walk()
        if e.kind == "glossary"
    }
    texts = [
        f"{e.title}\n{e.markdown}".casefold().replace("\u2019", "'")
        for v in corpus.versions()
        for e in v.walk()
    ]
    for sense in senses:
        names = glossary.get(sense.term)
        if names is None:
            problems.append(f"{sense.location}: {sense.term!r} is no glossary entry held")
            continue
        for phrase in sense.phrases:
            folded = phrase.casefold().replace("\u2019", "'")
            if not any(n.casefold() in folded for n in names):
                problems.append(f"{sense.location}: {phrase!r} holds no name of {sense.term!r}")
            elif not any(folded in t for t in texts):
                problems.append(f"{sense.location}: {phrase!r} is in no entry")
    return problems
