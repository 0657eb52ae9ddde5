"""Table talk: how players and judges ask about each rule, for search by meaning.

Editorial data, not rulebook text, written from the rulebooks alone (never from a test
question): `rules/table-talk.yaml` for 2E, `rulings/table-talk.yaml` for 1E. Each item names an
entry (document/id), one rule of it in the entry's own words, and what judges say of that rule.
Every saying becomes a chunk of each version's entry whose text holds the rule, so a question put
in a player's words comes near the rule it asks about. Sayings are never shown to a judge.
`judgekit check` runs `table_talk_problems`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from judgekit.corpus.model import Corpus, Entry
from judgekit.corpus.typography import normalize_typography
from judgekit.corpus.yamlio import YamlError, load_yaml

FILES = {"rules/table-talk.yaml": "2E", "rulings/table-talk.yaml": "1E"}
KEYS = {"entry", "rule", "say"}
SAY_LENGTH = (3, 200)  # characters of one saying
RULE_WORDS = 3  # a rule shorter than this could be anyone's words
_ICON = re.compile(r"\{icon:[a-z0-9-]+\}")
_NOT_WORD = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class Saying:
    """One rule of an entry and how judges put it at the table."""

    document: str
    entry: str
    rule: str
    say: tuple[str, ...]
    edition: str  # the game of the file it is written in
    location: str = ""


@dataclass(frozen=True)
class TableTalk:
    """Every saying of the corpus, and what was wrong with the files."""

    sayings: tuple[Saying, ...] = ()
    problems: tuple[str, ...] = ()

    def phrases(self, entry: Entry) -> tuple[str, ...]:
        """What judges say of the rules this version's entry holds, in file order."""
        return tuple(phrase for phrase, _ in self.said_of(entry))

    def said_of(self, entry: Entry) -> tuple[tuple[str, str], ...]:
        """Each saying of the rules this version's entry holds, with its rule, in file order."""
        held = plain(f"{entry.title}\n{entry.markdown}")
        return tuple(
            (phrase, s.rule)
            for s in self._of(entry.document, entry.id)
            if plain(s.rule) in held
            for phrase in s.say
        )

    def _of(self, document: str, entry_id: str) -> tuple[Saying, ...]:
        return _by_entry(self).get((document, entry_id), ())

    def __hash__(self) -> int:
        return id(self)


@cache
def _by_entry(talk: TableTalk) -> dict[tuple[str, str], tuple[Saying, ...]]:
    out: dict[tuple[str, str], list[Saying]] = {}
    for s in talk.sayings:
        out.setdefault((s.document, s.entry), []).append(s)
    return {k: tuple(v) for k, v in out.items()}


def plain(text: str) -> str:
    """Words and digits alone, lower-case: a rule is compared up to typography, Markdown, icons
    and punctuation (as the blind sets' quotes are)."""
    text = _ICON.sub(" ", normalize_typography(text, casefold=True))
    return f" {_NOT_WORD.sub(' ', text).strip()} "


def load_table_talk(root: str | Path) -> TableTalk:
    """The table-talk files under a corpus root; a missing file is no table talk."""
    sayings: list[Saying] = []
    problems: list[str] = []
    for name, edition in FILES.items():
        path = Path(root) / name
        if not path.is_file():
            continue
        try:
            found, probs = _parse(path, load_yaml(path), edition)
        except YamlError as exc:
            problems.append(str(exc))
            continue
        sayings += found
        problems += probs
    return TableTalk(tuple(sayings), tuple(problems))


def _parse(path: Path, data: object, edition: str) -> tuple[list[Saying], list[str]]:
    if not isinstance(data, dict) or data.get("edition") != edition:
        return [], [f"{path}: needs `edition: {edition}` and `asked:`"]
    items = data.get("asked")
    if not isinstance(items, list):
        return [], [f"{path}: `asked:` must be a list"]
    sayings, problems = [], []
    for i, item in enumerate(items):
        where = f"{path}:{item.line_of('entry') if hasattr(item, 'line_of') else i + 1}"
        problem = _item_problem(item)
        if problem:
            problems.append(f"{where}: {problem}")
            continue
        document, _, entry = item["entry"].partition("/")
        say = tuple(dict.fromkeys(s.strip() for s in item["say"]))
        sayings.append(Saying(document, entry, item["rule"], say, edition, where))
    return sayings, problems


def _item_problem(item: object) -> str:
    if not isinstance(item, dict) or set(item) != KEYS:
        return "an item has entry, rule and say"
    entry, rule, say = item["entry"], item["rule"], item["say"]
    if not isinstance(entry, str) or entry.count("/") != 1:
        return f"entry {entry!r} must be document/entry-id"
    if not isinstance(rule, str) or len(plain(rule).split()) < RULE_WORDS:
        return f"rule {rule!r} must be at least {RULE_WORDS} of the entry's words"
    low, high = SAY_LENGTH
    if not isinstance(say, list) or not say:
        return "say must be a list of what judges say"
    if not all(isinstance(s, str) and low <= len(s.strip()) <= high for s in say):
        return f"each saying must be text of {low} to {high} characters"
    return ""


def table_talk_problems(corpus: Corpus) -> list[str]:
    """Every item whose entry is not held in its file's game or whose rule no version holds."""
    talk = load_table_talk(corpus.root)
    problems = list(talk.problems)
    for s in talk.sayings:
        doc = corpus.document(s.document)
        texts = [
            plain(f"{e.title}\n{e.markdown}")
            for v in (doc.versions if doc else ())
            if (e := v.get(s.entry)) is not None
        ]
        if doc is None or not texts:
            problems.append(f"{s.location}: no held entry {s.document}/{s.entry}")
        elif doc.edition != s.edition:
            problems.append(f"{s.location}: {s.document} is {doc.edition}, not {s.edition}")
        elif not any(plain(s.rule) in text for text in texts):
            problems.append(f"{s.location}: the rule is not the words of {s.document}/{s.entry}")
    return problems
