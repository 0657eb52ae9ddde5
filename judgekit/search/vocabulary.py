"""A judge's vocabulary: table talk, jargon and abbreviations mapped to the rulebooks' words.

The data lives in the corpus (`rules/vocabulary.yaml` for 2E, `rulings/vocabulary.yaml` for 1E);
`judgekit check` runs `vocabulary_problems`, which verifies every target occurs in its edition.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from judgekit.corpus.model import Corpus
from judgekit.corpus.yamlio import YamlError, load_yaml
from judgekit.search.analysis import STOPS, stems, words

FILES = ("rules/vocabulary.yaml", "rulings/vocabulary.yaml")
EDITIONS = ("2E", "1E")
ENGLISH = Path(__file__).with_name("english-words.txt.gz")
_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


@dataclass(frozen=True)
class Term:
    """What judges say (say) and the rulebook's words for it (means), in one edition."""

    id: str
    edition: str
    say: tuple[str, ...]
    means: tuple[str, ...]
    location: str = ""


@dataclass(frozen=True)
class Vocabulary:
    """Every edition's terms and the words that lean a question toward one game."""

    terms: tuple[Term, ...] = ()
    lean: dict[str, tuple[str, ...]] = field(default_factory=dict)
    problems: tuple[str, ...] = ()  # what was wrong with the files (check reports them)

    def said(self) -> dict[tuple[str, ...], list[Term]]:
        """Each say phrase as index terms, with the terms that use it."""
        return _said(self)

    def leaning(self) -> dict[tuple[str, ...], str]:
        """Each lean phrase as index terms, with its edition."""
        return _leaning(self)

    def known_words(self) -> frozenset[str]:
        """Every raw word of the vocabulary: never a misspelling."""
        texts = [p for t in self.terms for p in (*t.say, *t.means)]
        texts += [p for phrases in self.lean.values() for p in phrases]
        return frozenset(w for text in texts for w in words(text))

    def __hash__(self) -> int:
        return id(self)


def _has_stop(phrase: str) -> bool:
    return any(word in STOPS for word in words(phrase))


@cache
def _said(vocab: Vocabulary) -> dict[tuple[str, ...], list[Term]]:
    out: dict[tuple[str, ...], list[Term]] = {}
    for term in vocab.terms:
        for phrase in term.say:
            key = tuple(stems(phrase))
            if key and not _has_stop(phrase):
                out.setdefault(key, []).append(term)
    return out


@cache
def _raw_phrases(vocab: Vocabulary) -> tuple[tuple[str, Term], ...]:
    # A phrase with a stop word ("in order", "at least") is matched word for word in the
    # question: as index terms it would shrink to one common word ("order").
    return tuple((phrase, term) for term in vocab.terms for phrase in term.say if _has_stop(phrase))


@cache
def _raw_said(vocab: Vocabulary) -> tuple[tuple[re.Pattern[str], Term], ...]:
    return tuple(
        (
            re.compile(r"(?<!\w)" + r"\W+".join(map(re.escape, words(phrase))) + r"(?!\w)", re.I),
            term,
        )
        for phrase, term in _raw_phrases(vocab)
    )


def raw_said(vocab: Vocabulary) -> tuple[tuple[re.Pattern[str], Term], ...]:
    """Each say phrase holding a stop word as a pattern, with its term (the pack exports them)."""
    return _raw_said(vocab)


@cache
def raw_needles(vocab: Vocabulary) -> tuple[str, ...]:
    """Beside each of raw_said's patterns, the word a question must hold for it to match."""
    # The longest word of each such phrase: a question without it cannot match the pattern.
    return tuple(max(words(phrase), key=len) for phrase, _ in _raw_phrases(vocab))


def find_raw(vocab: Vocabulary, query: str, edition: str | None) -> list[tuple[int, int, Term]]:
    """Where say phrases holding stop words stand in the question: (start, end, term)."""
    lowered = query.lower()
    return [
        (m.start(), m.end(), term)
        for (pattern, term), needle in zip(_raw_said(vocab), raw_needles(vocab), strict=True)
        if needle in lowered and (not edition or term.edition == edition)
        for m in pattern.finditer(query)
    ]


@cache
def _longest(vocab: Vocabulary) -> int:
    return max(map(len, vocab.said()), default=0)


@cache
def _leaning(vocab: Vocabulary) -> dict[tuple[str, ...], str]:
    return {
        key: edition
        for edition, phrases in vocab.lean.items()
        for phrase in phrases
        if (key := tuple(stems(phrase)))
    }


@dataclass(frozen=True)
class Match:
    """A run of the query's index terms that a judge's word or phrase covers."""

    start: int  # index of the first query term
    end: int  # one past the last
    terms: tuple[Term, ...]


def find_said(vocab: Vocabulary, seq: list[str], edition: str | None) -> list[Match]:
    """The longest say phrases found in a query's terms, left to right, without overlap."""
    said = vocab.said()
    longest = _longest(vocab)
    out, i = [], 0
    while i < len(seq):
        for size in range(min(longest, len(seq) - i), 0, -1):
            found = [
                t
                for t in said.get(tuple(seq[i : i + size]), ())
                if not edition or t.edition == edition
            ]
            if found:
                out.append(Match(i, i + size, tuple(found)))
                i += size
                break
        else:
            i += 1
    return out


@cache
def _lengths(vocab: Vocabulary) -> tuple[int, ...]:
    """How many terms the lean phrases have."""
    return tuple(sorted({len(key) for key in vocab.leaning()}))


def lean_of(vocab: Vocabulary, seq: list[str]) -> str | None:
    """The game a question's own words belong to, when they point to one only."""
    votes = dict.fromkeys(EDITIONS, 0)
    leaning = vocab.leaning()
    # Each run of the question's words, of each length a lean phrase has, looked up once.
    for n in _lengths(vocab):
        for i in range(len(seq) - n + 1):
            edition = leaning.get(tuple(seq[i : i + n]))
            if edition is not None:
                votes[edition] += 1
    top = max(votes.values())
    winners = [e for e, v in votes.items() if v == top]
    return winners[0] if top and len(winners) == 1 else None


# -- loading --------------------------------------------------------------------------------
def _strings(value: object) -> tuple[str, ...] | None:
    if isinstance(value, list) and value and all(isinstance(v, str) and v.strip() for v in value):
        return tuple(v.strip() for v in value)
    return None


def _parse(path: Path, data: object) -> tuple[list[Term], dict[str, tuple[str, ...]], list[str]]:
    problems: list[str] = []
    if not isinstance(data, dict) or data.get("edition") not in EDITIONS:
        return [], {}, [f"{path}: needs `edition: 2E` or `edition: 1E` and `terms:`"]
    edition = data["edition"]
    lean = _strings(data.get("lean")) or ()
    items = data.get("terms") or []
    if not isinstance(items, list):
        return [], {}, [f"{path}: `terms:` must be a list"]
    terms, seen = [], set()
    for i, item in enumerate(items):
        line = item.line_of("id") if hasattr(item, "line_of") else i
        where = f"{path}:{line}"
        if not isinstance(item, dict) or set(item) - {"id", "say", "means", "note"}:
            problems.append(f"{where}: a term has id, say, means and an optional note")
            continue
        say, means, tid = _strings(item.get("say")), _strings(item.get("means")), item.get("id")
        if not isinstance(tid, str) or not _ID.match(tid) or tid in seen:
            problems.append(f"{where}: id {tid!r} must be a unique [a-z0-9-] word")
        elif say is None or means is None:
            problems.append(f"{where}: term {tid!r} needs a list of say and a list of means")
        else:
            seen.add(tid)
            terms.append(Term(tid, edition, say, means, where))
    return terms, {edition: lean} if lean else {}, problems


def load_vocabulary(root: str | Path) -> Vocabulary:
    """The vocabulary files under a corpus root; missing files are no vocabulary."""
    terms: list[Term] = []
    lean: dict[str, tuple[str, ...]] = {}
    problems: list[str] = []
    for name in FILES:
        path = Path(root) / name
        if not path.is_file():
            continue
        try:
            found, leans, probs = _parse(path, load_yaml(path))
        except YamlError as exc:
            problems.append(str(exc))
            continue
        terms += found
        problems += probs
        for edition, phrases in leans.items():
            lean[edition] = lean.get(edition, ()) + phrases
    return Vocabulary(tuple(terms), lean, tuple(problems))


@cache
def english_words() -> frozenset[str]:
    """A shipped list of English words (SCOWL via Debian's wamerican): not misspellings."""
    with gzip.open(ENGLISH, "rt", encoding="utf-8") as handle:
        return frozenset(line.strip() for line in handle if line.strip())


# -- checking -------------------------------------------------------------------------------
def _edition_texts(corpus: Corpus, edition: str) -> Iterator[str]:
    for doc in corpus.held():
        if doc.edition != edition:
            continue
        for version in doc.versions:
            for entry in version.walk():
                yield " ".join((entry.title, *entry.aliases, entry.markdown))


def _contains(text: str, phrase: str) -> bool:
    """Whether a phrase's index terms stand in a row in text (index terms, space-joined)."""
    key = " ".join(stems(phrase))
    return bool(key) and f" {key} " in text


def vocabulary_problems(corpus: Corpus) -> list[str]:
    """Every target word or phrase of the vocabulary that its edition's rules never use."""
    vocab = load_vocabulary(corpus.root)
    problems = list(vocab.problems)
    texts = {
        e: "\n".join(f" {' '.join(stems(t))} " for t in _edition_texts(corpus, e)) for e in EDITIONS
    }
    for term in vocab.terms:
        for phrase in term.means:
            if not _contains(texts[term.edition], phrase):
                problems.append(
                    f"{term.location}: {term.id}: {phrase!r} is not in the {term.edition} rules"
                )
    for edition, phrases in vocab.lean.items():
        for phrase in phrases:
            if not _contains(texts[edition], phrase):
                problems.append(f"vocabulary lean {edition}: {phrase!r} is not in the rules")
    return problems


def all_phrases(vocab: Vocabulary) -> Iterable[str]:
    """Every say phrase (for benchmarks and tests)."""
    return (p for t in vocab.terms for p in t.say)
