"""Plan the query, the search's first stage (with SearchIndex.plan; pack-search.js: plan): from
a judge's words to weighted index terms: completions, corrections and the judge's vocabulary."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from judgekit.corpus.model import Corpus, Version
from judgekit.search.analysis import ORDINARY, QUOTED, QueryPart, Speller, stems
from judgekit.search.vocabulary import Term, Vocabulary, find_raw, find_said

PREFIX_WEIGHT = 0.6  # a completion of the word being typed counts less than the word itself
# and less again when the word typed is a whole word of the rules already ("seed phase": the
# judge has likely finished it; "phaser" is only a guess at what comes next)
DONE_PREFIX_WEIGHT = 0.3
DONE_LETTERS = 4  # a word this long or longer (a shorter one is more likely still being typed)
FUZZY_WEIGHT = 0.8  # so does a spelling correction
# A question's first unknown words of six letters or more are tried against every known word of
# their first letter (Speller.correct: deep); the others by the deletes alone: no question costs more.
DEEP_CORRECTIONS = 3
EXPANSION_WEIGHT = 0.5  # and the rulebook's words for a judge's own words count less again
FIELDS = ("title", "text", "talk")  # talk: the sayings (documents.py: TALK_BOOST)

# A question about a number: the passage stating that number near the words asked about wins.
NUMBER_CUE = re.compile(
    r"\b(?:how\s+(?:many|much|long|far|small|big|large)|number\s+of|minimum|maximum|min|max|limit|limits|size|"
    r"at\s+least|at\s+most|up\s+to|more\s+than|fewer\s+than|less\s+than|cost\s+to|costs?|"
    r"total|count)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class VersionName:
    """How a judge may name a version in a question ("Call to Arms", "v1.1", "version 4")."""

    pattern: re.Pattern[str]
    document: str
    version: str
    editorial: bool = False  # a name the editors record (called), not the version's own


# A year names the versions released in it only beside a word for a rulebook ("the 2003 rules").
_YEAR_OF = r"{}(?=\s+(?:rules?|rulebooks?|rulings?|versions?|printings?|glossary)\b)"


_MONTHS = (
    "january february march april may june july august september october november december"
).split()


def _dated(released: str) -> set[str]:
    """How a judge writes a release date ("2003-08-19": "08/19/2003", "8/19/03", "Aug 19, 2003",
    "August 2003"): its month and year, or the whole date, name the version."""
    parts = released.split("-")
    if len(parts) < 2:
        return set()
    year, month = parts[0], int(parts[1])
    name = _MONTHS[month - 1]
    months = rf"(?:{name}|{name[:3]}\.?)"
    forms = {rf"{months}\s+{year}"}
    if len(parts) == 3:
        day = int(parts[2])
        years = rf"(?:{year}|{year[2:]})"
        forms |= {
            re.escape(released),
            rf"0?{month}/0?{day}/{years}",
            rf"{months}\s+0?{day}(?:st|nd|rd|th)?,?\s+{year}",
            rf"0?{day}(?:st|nd|rd|th)?\s+{months}\s+{year}",
        }
    return forms


def version_names(
    versions: Sequence[
        tuple[str, str, str] | tuple[str, str, str, str] | tuple[str, str, str, str, Sequence[str]]
    ],
) -> tuple[VersionName, ...]:
    """Patterns for (document, version id, short title[, release date[, other names]]) tuples; a
    bare number never counts. Judges shorten a title of three words or more to its initials
    ("CTA" for Call to Arms), name a version by its year beside a word for a rulebook, and by the
    names the editors record (``called``: "the web rules"), with its year or without."""
    out = []
    for document, version, short, *rest in versions:
        released = rest[0] if rest else ""
        called = rest[1] if len(rest) > 1 else ()
        forms = {f"v{re.escape(version)}", rf"version\s+{re.escape(version)}"}
        if "." in version or "-" in version:  # "1.1", "call-to-arms": distinctive alone
            forms.add(r"[\s-]+".join(map(re.escape, re.split(r"[\s-]+", version))))
        if short and not re.fullmatch(r"v?\d+", short):
            forms.add(r"\s+".join(map(re.escape, short.split())))
            if len(short.split()) >= 3:
                forms.add("".join(re.escape(word[0]) for word in short.split()))
        year = re.match(r"\d{4}(?=-|$)", released)
        if year:
            forms.add(_YEAR_OF.format(year.group()))
            forms |= _dated(released)
        out.append(VersionName(_named(forms), document, version))
        if called:  # apart: the page says that reading is the editors'
            spelt = [r"\s+".join(map(re.escape, name.split())) for name in called]
            year_of = rf"(?:{year.group()}\s+)?" if year else ""
            pattern = _named({year_of + words for words in spelt})
            out.append(VersionName(pattern, document, version, editorial=True))
    return tuple(out)


def _named(forms: Collection[str]) -> re.Pattern[str]:
    """One pattern of a version's names, each whole (not inside a word or a number)."""
    return re.compile(rf"(?<![\w.])(?:{'|'.join(sorted(forms))})(?![\w.])", re.I)


def names_of_versions(versions: Iterable[Version]) -> tuple[VersionName, ...]:
    """How judges name each of these versions in a question (version_names)."""
    return version_names(
        [(v.document, v.id, v.short_title, v.released, v.called) for v in versions]
    )


def called_problems(corpus: Corpus) -> list[str]:
    """The names the editors record for versions (``called``) that search could not read as
    that version alone: a bare number, another version's own name, a name two versions share."""
    own = [name for name in names_of_versions(corpus.versions()) if not name.editorial]
    problems: list[str] = []
    first: dict[str, str] = {}
    for version in corpus.versions():
        for name in version.called:
            key, where = " ".join(name.casefold().split()), f"{version.path}:1: called {name!r}"
            others = [
                f"{n.document} {n.version}"
                for n in own
                if n.pattern.fullmatch(name)
                and (n.document, n.version) != (version.document, version.id)
            ]
            clash = others[0] if others else first.get(key)
            if not re.search(r"[^\W\d_]", name):
                problems.append(f"{where} has no letter: a bare number never names a version")
            elif clash:
                problems.append(f"{where} is already a name of {clash}")
            first.setdefault(key, f"{version.document} {version.id}")
    return problems


# A version named that no held version answers to ("v5", "version 7", "the 2020 rules"): no word
# to look for either. Read after the held versions' names (so "v4", "version 4" and "the 2003
# rules" are theirs), never a bare number ("2 ships", "cost 3"). ASCII classes, as pack-search.js
# reads it.
UNHELD_VERSION = re.compile(
    r"(?<![\w.])(?:v\d+(?:\.\d+)*|version\s+\d+(?:\.\d+)*|"
    + _YEAR_OF.format(r"(?:19|20)\d\d")
    + r")(?![\w.])",
    re.I | re.A,
)


def _blanked(query: str, spans: Sequence[tuple[int, int]]) -> str:
    for start, end in spans:
        query = query[:start] + " " * (end - start) + query[end:]
    return query


def unheld_versions(query: str, names: Sequence[VersionName]) -> tuple[str, ...]:
    """The names in the query of versions not held ("v5", "version 7", "2020"), as typed."""
    held = _blanked(query, [m.span() for name in names for m in name.pattern.finditer(query)])
    return tuple(dict.fromkeys(m.group() for m in UNHELD_VERSION.finditer(held)))


def strip_versions(
    query: str, names: Sequence[VersionName]
) -> tuple[str, frozenset[tuple[str, str]]]:
    """The query without the versions it names, held or not (unheld_versions), and the held
    versions named (document, version)."""
    matches = [  # each read in the question as typed: "2003 rules" names two versions
        (*m.span(), (name.document, name.version))
        for name in names
        for m in name.pattern.finditer(query)
    ]
    # A name inside a longer one is part of it: "08/19/2003 rules" names 1.1, not 2003's two.
    found = frozenset(
        key
        for start, end, key in matches
        if not any(s <= start and end <= e and e - s > end - start for s, e, _ in matches)
    )
    query = _blanked(query, [(start, end) for start, end, _ in matches])
    return _blanked(query, [m.span() for m in UNHELD_VERSION.finditer(query)]), found


# A game named in the question ("1E", "2nd ed", "Second Edition"): where to look, not a word to
# look for. Judges write the edition before or after the question ("1e tactic card"). A full
# stop after it ends it ("2nd ed.", "... in 1e."); one inside a word does not ("1e.5", "v1.1e").
# A quoted phrase is matched first and kept: its words are words to find. Group 1 is the name.
# ASCII classes, as pack-search.js reads these patterns (a JavaScript \w is ASCII's).
_EDITION = r'"[^"]*"|((?<![\w.])(?:{})(?!\w|\.\w))'
EDITION_NAMES = (
    (re.compile(_EDITION.format(r"1e|1st\s+ed(?:ition)?|first\s+edition"), re.I | re.A), "1E"),
    (re.compile(_EDITION.format(r"2e|2nd\s+ed(?:ition)?|second\s+edition"), re.I | re.A), "2E"),
)


# What a game's name leaves when it goes: "(1E)", "2nd ed.", "Second Edition: ...", "'2e'".
LEFT_BY_NAME = re.compile(r"[.,:;!?()\[\]{}'‘’–—-]+")

# Where the name was (a NUL each), what it leaves next to it goes too; never a word, nor a
# bracket or quote that still encloses words: "2E's battle", "battle, 2e", "2e-battle", "(2e)",
# "(2e rules)" keeps "(rules)". The first rule that finds something applies, then the rules
# again from the first, until none does; each change makes the question shorter. Python's
# replacement syntax (the pack's settings turn \1 into $1).
_SEP = r"[.,:;!?–—-]"
LEFTOVERS = (
    (r"\x00['’]s(?![A-Za-z0-9])", "\x00"),  # a possessive: "2E's rules"
    (rf"{_SEP}+\x00|\x00{_SEP}+", "\x00"),  # touching: "2e?", "2e-battle", "battle-2e"
    (r"[(\[{‘][ \x00]*\x00[ \x00]*[)\]}’]|(?<![^ \x00])'[ \x00]*\x00[ \x00]*'", "\x00"),  # "(2e)"
    (r"[,;:–—-]+ +\x00", "\x00"),  # ending the word before: "battle, 2e"
    (rf"\x00 +{_SEP}+(?= |$)", "\x00"),  # standing after: "2e - battle", "2e : battle"
    (r"([(\[{‘]) *\x00+ *|(^| )(['\"])\x00+ *", "\\1\\2\\3"),  # "(2e rules)": "(rules)"
    (r" *\x00+ *([)\]}’])| *\x00+(['\"])(?= |$)", "\\1\\2"),  # "(rules 2e)": "(rules)"
)
_LEFTOVERS = tuple((re.compile(pattern), repl) for pattern, repl in LEFTOVERS)


def edition_names(query: str) -> tuple[str, frozenset[str]]:
    """The query with every game's name blanked (a quoted phrase kept), and the games named."""
    named = set()
    stripped = query
    for pattern, edition in EDITION_NAMES:

        def blank(m: re.Match[str], edition: str = edition) -> str:
            if m.group(1) is None:  # a quoted phrase
                return m.group()
            named.add(edition)
            return " " * len(m.group())

        stripped = pattern.sub(blank, stripped)
    return stripped, frozenset(named)


def strip_edition(query: str) -> tuple[str, str | None]:
    """The query without the game it names, and that game (None unless exactly one is named).

    A query holding nothing else is left as typed ("second edition" is then words to find)."""
    stripped, named = edition_names(query)
    # Only what the name leaves ("2e?", "(2e)", "2e's"): nothing else, or the search would be
    # empty (or "s").
    if len(named) != 1 or not without_edition(query, query, stripped):
        return query, None
    return stripped, next(iter(named))


def strip_named(
    typed: str, query: str, chosen: str | None, games: frozenset[str] = frozenset()
) -> tuple[str, str | None, str]:
    """(words to search, game to keep to, question to search both games) for a question.

    typed is the question as the judge typed it; query is the same with the versions it names
    blanked, and games the games of those versions. The game named ("2e battle": 2E), or the one
    game of the versions named ("battle in CTA": 2E), keeps the search to it only if the judge
    chose no game, document or version (chosen) and the question names no other game ("1E rules
    in CTA" names both: both are searched); then the third is the typed question without the
    names of the game and of the versions.
    """
    bare, named = edition_names(query)
    every = games | named
    unnamed = without_edition(typed, typed, bare) if len(every) == 1 and not chosen else ""
    if not unnamed:  # nothing but names ("v4", "second edition"): words to find, in both games
        return strip_edition(query)[0], None, ""
    return bare, next(iter(every)), unnamed


def games_named(query: str, games: frozenset[str]) -> tuple[str, ...]:
    """Every game a question names, by its name or by a version's (games), 2E first; query is
    the question with the versions it names blanked."""
    return tuple(sorted(games | edition_names(query)[1], reverse=True))


def without_edition(typed: str, before: str, after: str) -> str:
    """The question as typed without the game's name that strip_edition blanked (``before`` and
    ``after``: what it was given and gave back), and without words of punctuation alone left by
    it: what searches both games for the same words. The query is clean: one space between words."""
    kept = "".join("\x00" if b != a else c for c, b, a in zip(typed, before, after, strict=True))
    # The first rule that changes it applies, then the rules again from the first: an earlier
    # rule wins ("(2e)’s": the possessive, not "’" closing a quote). Bounded: each change
    # makes kept shorter.
    while rule := next(((p, r) for p, r in _LEFTOVERS if p.search(kept)), None):
        kept = rule[0].sub(rule[1], kept)
    kept = kept.replace("\x00", " ")
    return " ".join(w for w in kept.split(" ") if w and not LEFT_BY_NAME.fullmatch(w))


@dataclass(frozen=True)
class Group:
    """A query word or phrase, or a vocabulary concept, as weighted index terms."""

    part: QueryPart | None  # None for a concept from the vocabulary
    terms: dict[str, float]  # word: alternative stems; phrase: the sequence (weights 1)
    correction: str | None = None
    completions: tuple[str, ...] = ()
    phrases: tuple[tuple[str, ...], ...] = ()  # a concept's multi-word targets
    covers: frozenset[int] = frozenset()  # a concept: the word groups it stands for
    said: tuple[Term, ...] = ()


@dataclass(frozen=True)
class Plan:
    """Everything a search needs from the query: groups, concepts and what the judge is told."""

    groups: list[Group]  # the judge's own words and phrases
    concepts: list[Group] = field(default_factory=list)
    live: frozenset[int] = frozenset()  # word groups that can match something
    unknown: tuple[str, ...] = ()  # the judge's words that no rule uses
    read_as: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (judge's words, rulebook's words)

    @property
    def all(self) -> list[Group]:
        """Word groups then concepts: the clauses of the query."""
        return self.groups + self.concepts


def _in_phrase(
    said: Collection[tuple[str, ...]], before: str, word: str, after: str, in_rules: bool
) -> bool:
    """Whether a correction makes a judge's phrase with its neighbours ("hand sise": size), or
    is a judge's word the rules use too: a word only judges say ("kling") is no likelier than
    the rules' word as close ("klingn": klingon)."""
    stem = stems(word)[:1]
    if not stem:
        return False
    keys = [(before, stem[0]), (stem[0], after)] + ([(stem[0],)] if in_rules else [])
    return any(key in said for key in keys if "" not in key)


def word_groups(
    parts: Sequence[QueryPart],
    speller: Speller,
    known: Callable[[str], bool],
    said: Collection[tuple[str, ...]] = (),
) -> list[Group]:
    """Each word with its completions (if being typed) and corrections (if unknown)."""
    groups = []
    deep = DEEP_CORRECTIONS
    own_stems = [(stems(p.text)[:1] or [""])[0] if not p.phrase else "" for p in parts]
    for n, part in enumerate(parts):
        if part.phrase:
            seq = stems(part.text)
            if seq:
                groups.append(Group(part, dict.fromkeys(seq, 1.0)))
            continue
        own = stems(part.text)
        terms: dict[str, float] = {own[0]: 1.0} if own else {}
        correction = None
        # A one-letter prefix matches half the corpus: expand it to fewer words.
        width = {1: 4, 2: 8}.get(len(part.text), 12)
        completions = speller.complete(part.text, width) if part.last else []
        done = len(part.text) >= DONE_LETTERS and part.text in speller.freq
        for word in completions:
            for stem in stems(word):
                terms.setdefault(stem, DONE_PREFIX_WEIGHT if done else PREFIX_WEIGHT)
        # An ordinary word ("wat", "thx") means nothing to the search: corrected, it would be
        # offered as a rule word ("was happens"), or add a game word the judge never meant.
        if not completions and not known(part.text) and part.text not in ORDINARY:
            before = own_stems[n - 1] if n else ""
            after = own_stems[n + 1] if n + 1 < len(parts) else ""
            # Only a word of six letters or more is corrected deep (Speller.correct).
            tries = deep > 0 and len(part.text) >= 6
            deep -= tries
            fixes = sorted(
                speller.correct(part.text, limit=12, deep=tries),
                key=lambda w: not _in_phrase(said, before, w, after, w in speller.freq),
            )[:3]
            correction = fixes[0] if fixes else None
            for word in fixes:
                for stem in stems(word):
                    terms.setdefault(stem, FUZZY_WEIGHT)
        if terms:
            groups.append(Group(part, terms, correction, tuple(completions[:3])))
    return groups


def _concept(said: tuple[Term, ...], covers: frozenset[int]) -> Group:
    terms: dict[str, float] = {}
    phrases: list[tuple[str, ...]] = []
    for term in said:
        for target in term.means:
            key = tuple(stems(target))
            if len(key) == 1:
                terms.setdefault(key[0], EXPANSION_WEIGHT)
            elif key and key not in phrases:
                phrases.append(key)
    return Group(None, terms, phrases=tuple(phrases), covers=covers, said=said)


def concepts(
    vocab: Vocabulary, groups: list[Group], edition: str | None, query: str = ""
) -> list[Group]:
    """The vocabulary's rulebook words for the judge's words and phrases found in the query."""
    words = [(i, g) for i, g in enumerate(groups) if not g.part.phrase]
    # A corrected word counts as its correction: "hand sise" is the judge's "hand size".
    seq = [(stems(g.correction or g.part.text) or [""])[0] for _, g in words]
    out = [
        _concept(m.terms, frozenset(words[k][0] for k in range(m.start, m.end)))
        for m in find_said(vocab, seq, edition)
    ]
    for start, end, term in find_raw(vocab, query, edition):
        covers = frozenset(i for i, g in words if start <= g.part.start and g.part.end <= end)
        if covers:
            out.append(_concept((term,), covers))
    return out


def not_in_rules(
    groups: list[Group], unknown: Sequence[int], found: list[Group]
) -> tuple[str, ...]:
    """The words no rule uses (unknown: their groups) that the judge is told of: not an ordinary
    word ("put", "guys"), unless the vocabulary read it as rulebook words (found: the concepts)."""
    read = {i for concept in found for i in concept.covers}
    return tuple(
        groups[i].part.text for i in unknown if i in read or groups[i].part.text not in ORDINARY
    )


def wordings(query: str, suggestion: str | None, plan: Plan) -> list[str]:
    """What the judge may mean, best first: as typed, as corrected, with the last word done,
    or with a judge's word put in the rulebook's words."""
    out = [query] + ([suggestion] if suggestion else [])
    typing = [g for g in plan.groups if g.completions]
    if typing:
        last = typing[-1].part
        out += [query[: last.start] + word + query[last.end :] for word in typing[-1].completions]
    for concept in plan.concepts:
        spans = [plan.groups[i].part for i in sorted(concept.covers)]
        start, end = spans[0].start, spans[-1].end
        for term in concept.said:
            out += [query[:start] + target + query[end:] for target in term.means]
    return out


def suggest(query: str, groups: list[Group]) -> str | None:
    """The query with each misspelled word replaced by its likeliest correction."""
    fixes = [g for g in groups if g.correction]
    if not fixes:
        return None
    out, pos = [], 0
    for group in sorted(fixes, key=lambda g: g.part.start):
        out.append(query[pos : group.part.start])
        out.append(group.correction)
        pos = group.part.end
    out.append(query[pos:])
    return "".join(out).strip()


def lost(plan: Plan, acc: Mapping[int, list], anywhere: Callable[[Group], bool]) -> tuple[str, ...]:
    """The judge's quoted phrases (of two words or more) that no item holds: a judge quoting a
    card's wording ("at the end of your turn") where the rulebook words it otherwise ("at the
    end of each of your turns") means its words, not nothing. acc: the items searched;
    anywhere(group): whether any item holds the phrase, whatever the filters (one the other
    game holds keeps its quotes: the page offers that game)."""
    found = 0
    for entry in acc.values():
        found |= entry[1]
    return tuple(
        dict.fromkeys(
            g.part.text
            for i, g in enumerate(plan.groups)
            if g.part.phrase and len(g.terms) > 1 and not found >> i & 1 and not anywhere(g)
        )
    )


def unquote(query: str, phrases: Collection[str]) -> str:
    """The query with the quotes around these phrases (as parse_query reads them) made spaces."""

    def plain(m: re.Match[str]) -> str:
        return f" {m.group(1)} " if m.group(1).strip().lower() in phrases else m.group()

    return QUOTED.sub(plain, query)
