"""What a search page says it did, in a judge's words, worded once.

The server's page (templates/search/_results.html) renders ``page_notes``; the judge pack's page
gets the same words from ``pack_notes`` in its search data and fills in the same blanks
(pack-search.js: cutHTML, readAsOf, heldHTML, unknownOf, as the functions here of the same
names), so the two pages say the same thing (tests/node/notes.test.mjs holds them to it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from judgekit.corpus.model import Corpus, Document
from judgekit.render.library import Library
from judgekit.render.text import clipped
from judgekit.search.analysis import MAX_QUERY_CHARS
from judgekit.search.query import VersionName, strip_versions
from judgekit.search.service import (
    EDITIONS,
    FALSE,
    LIMIT_WORDS,
    MAX_LIMIT,
    NOT_HELD,
    TRUE,
    VALUE,
    flag_words,
    unknown_choice,
    unknown_document,
    unknown_version,
)

# The search box takes more than the search reads, so that a longer question reaches the page
# and is cut there with a word, not by the browser without one; and little enough that its
# address stays under the server's 8,192 characters however it is encoded (9 per character).
BOX_CHARS = 800

# A question longer than the search reads (a card's whole text, a paragraph pasted): what was
# searched and what was left out, in its own words, and how to ask instead. "{limit}",
# "{searched}" and "{left}": the pack fills them in as str.format does here.
CUT = (
    "Your question is longer than a search reads ({limit} characters): it was searched up to "
    "“{searched}”, and the rest, from “{left}”, was left out. A short question finds the rule "
    "best: a card's name, or a few words of the rule."
)
# Where a question is cut: at a space (as JavaScript's \s would not match Python's isspace
# alike, these six, in both; pack-search.js: SPACE).
SPACE = re.compile(r"[ \t\n\r\f\v]+")
# The cut note quotes the last words searched and the first left out: this many, at most this
# many characters.
CUT_QUOTE_WORDS = 5
CUT_QUOTE_CHARS = 40
# A version name ("CTA", "the 2003 rules", "Aug 2003"): what the words were read as, and which
# version's passage each result shows (of several named, collapse.py shows the newest).
READ_AS = "“{words}” read as {versions}, each result showing its {first} passage first"
# ...and where the words are a name the editors record for a version (called: "the web rules"),
# not one the rulebooks print: the reading is theirs.
READ_AS_CALLED = READ_AS.replace(
    "{versions}", "{versions} (ed.: a name judges give it, not one the rulebook prints)"
)
# Versions the question names that judgekit holds none of ("v5", "the 2020 rules"): what the
# page says, with the versions held as citations name them (the pack fills in {words}).
UNHELD = "{words}: no such version is held here; the versions held: {held}. The rest of your question was searched."
# Quoted phrases no passage holds word for word ("beam up"): searched as words; the pack fills
# in {words} as unquoted_said does.
UNQUOTED = "No passage holds {words} word for word: searched as words instead, without the quotes."
# The summary quotes the question up to this many characters ("…" for the rest): a question
# pasted whole (500 characters) would push the results a phone's screen down; the box holds it.
QUOTE_CHARS = 120
# A chip naming another kind of entry than its result (a glossary entry of a section's title).
# The first result is only a guess (the answer's "guess"): what the page and `judgekit search`
# say (the pack's page says the same: pack-search.js).
GUESS = (
    "No rule matches your question closely: these are the nearest topics, not an answer. Try the "
    "rulebook's own words for it."
)
# A question answered by words alone, and why, where meaning was asked for but could not take
# part (the answer's "meaning"; "off" was asked for, and says nothing). `judgekit search` fills
# in its own whys too; the pack's page has its own (pack-search.js: WORDS_ONLY).
WORDS_ONLY = "Found by words only: {why}."
WORDS_ONLY_WHY = {
    "loading": "search by meaning is still loading (it answers within a few minutes of start-up)",
    "missing": "search by meaning is not installed here (README: search by meaning)",
    "failed": "search by meaning is unavailable (see the server's log)",
}
CHIP_KINDS = {"section": "section", "glossary": "glossary", "ruling": "ruling", "step": "step"}


def and_list(names: Sequence[str]) -> str:
    """Names as a judge lists them: "a", "a and b", "a, b and c"."""
    return " and ".join(filter(None, (", ".join(names[:-1]), names[-1]))) if names else ""


def held_notes(corpus: Corpus) -> dict[str, str]:
    """For each game judgekit holds no rulebook of, what a search in that game must say: only
    its rulings are held, so a ruling found may share the words without answering the question."""
    notes = {}
    for edition in sorted({doc.edition for doc in corpus.held()}, reverse=True):
        docs = [d for d in corpus.documents.values() if d.edition == edition]
        held = [d for d in docs if not d.external and d.versions]
        if not held or any(d.kind == "rulebook" for d in held):
            continue
        missing = [d.short_title for d in docs if d.external and d.kind == "rulebook"]
        missing += [d.short_title for d in docs if d.external and d.kind != "rulebook"]
        named = f" (the {and_list(missing)} {'is' if len(missing) == 1 else 'are'} not held here)"
        notes[edition] = (
            f"For {edition}, judgekit holds only {and_list([_held(d) for d in held])}, no "
            f"{edition} rulebook{named if missing else ''}: a ruling found may share your words "
            "without answering your question."
        )
    return notes


def _held(doc: Document) -> str:
    versions = and_list([v.short_title for v in doc.versions])
    return f"the {doc.title} of {versions}"


def held_note(notes: Mapping[str, str], data: Mapping[str, Any], corpus: Corpus) -> str | None:
    """The held_notes sentence for the game this answer searched, if it has one: the game chosen
    or named, the game of the document or version chosen, else the one game of every result."""
    filters = data["filters"]
    games = {
        doc.edition
        for doc in corpus.held()
        if filters.get("document") in (None, doc.id)
        and (filters.get("version") is None or doc.version(filters["version"]) is not None)
    }
    if filters.get("edition"):
        games = {filters["edition"]}
    elif not (filters.get("document") or filters.get("version")):
        shown = {r["edition"] for r in data["results"]}
        games = set(data["editions_named"]) or (shown if len(shown) == 1 else set())
    found = [notes[game] for game in sorted(games, reverse=True) if game in notes]
    return found[0] if found else None


def read_as(
    query: str, names: Sequence[VersionName], corpus: Corpus, filters: Mapping[str, str]
) -> list[str]:
    """For each version name in the question, what it was read as and which version's passage
    shows first (READ_AS): a name of several versions ("the 2003 rules") or of one ("CTA",
    "08/19/2003"); none when a version or document was chosen."""
    if filters.get("version") or filters.get("document"):
        return []
    mentioned = strip_versions(query, names)[1]
    said: dict[str, list[tuple[str, str]]] = {}
    called: set[str] = set()
    for name in names:
        key = (name.document, name.version)
        found = [m.group() for m in name.pattern.finditer(query)] if key in mentioned else []
        if found:
            words = max(found, key=len)
            said.setdefault(words, []).append(key)
            if name.editorial:
                called.add(words)
    out = []
    for words, keys in said.items():
        versions = [corpus.version(document, version) for document, version in keys]
        doc = corpus.documents[keys[0][0]]
        ordered = sorted(versions, key=lambda v: doc.versions.index(v) if v in doc.versions else -1)
        if len(ordered) == 1 and words.casefold() == ordered[0].short_title.casefold():
            continue  # "v4" read as v4: nothing the judge did not type
        out.append(
            (READ_AS_CALLED if words in called else READ_AS).format(
                words=words,
                versions=and_list([v.short_title for v in ordered]),
                first=ordered[-1].short_title,
            )
        )
    return out


def unheld_note(lib: Library) -> str:
    """What the page says of versions named but not held (UNHELD with the versions held filled
    in, each document's newest first, as citations name them; {words} left for the names)."""
    held = [lib.cited_version(v) for doc in lib.corpus.held() for v in reversed(doc.versions)]
    return UNHELD.replace("{held}", and_list(held))


def quoted_words(names: Sequence[str]) -> str:
    """What the judge typed as a note quotes it: “v5” and “version 7”, “beam up”."""
    return and_list([f"“{name}”" for name in names])


def unheld_said(lib: Library, names: Sequence[str]) -> str | None:
    """What the page (and `judgekit search`) says of these names of versions not held."""
    return unheld_note(lib).replace("{words}", quoted_words(names)) if names else None


def unquoted_said(phrases: Sequence[str]) -> str | None:
    """What the page (and `judgekit search`) says of quoted phrases searched as words."""
    return UNQUOTED.replace("{words}", quoted_words(phrases)) if phrases else None


def words_only_said(meaning: str) -> str | None:
    """What the page says of an answer by words alone, given how meaning stood (the answer's
    "meaning"); None when it was ready or asked off."""
    why = WORDS_ONLY_WHY.get(meaning)
    return WORDS_ONLY.format(why=why) if why else None


def _words(text: str) -> list[str]:
    return [word for word in SPACE.split(text) if word]


def cut_question(question: str) -> tuple[str, str]:
    """A question as the search reads it and the rest: its first MAX_QUERY_CHARS characters, or,
    when they end inside a word, up to the space after the last word whole (a space: the last
    word is not one being typed), unless no word would be left."""
    if len(question) <= MAX_QUERY_CHARS:
        return question, ""
    head = question[:MAX_QUERY_CHARS]
    if not SPACE.match(question, MAX_QUERY_CHARS):
        spaces = [m.start() for m in SPACE.finditer(head)]
        if spaces and _words(head[: spaces[-1]]):
            head = head[: spaces[-1] + 1]
    return head, question[len(head) :]


def cut_note(question: str) -> str | None:
    """What the page says of a question longer than the search reads: the last words searched,
    the first left out; None when all that was left out is spaces."""
    head, rest = cut_question(question)
    searched, left = _words(head), _words(rest)
    if not left:
        return None
    end = " ".join(searched[-CUT_QUOTE_WORDS:])
    more_before = len(searched) > CUT_QUOTE_WORDS or len(end) > CUT_QUOTE_CHARS
    start = " ".join(left[:CUT_QUOTE_WORDS])
    more_after = len(left) > CUT_QUOTE_WORDS or len(start) > CUT_QUOTE_CHARS
    return CUT.format(
        limit=MAX_QUERY_CHARS,
        searched=("…" if more_before else "") + end[-CUT_QUOTE_CHARS:],
        left=start[:CUT_QUOTE_CHARS] + ("…" if more_after else ""),
    )


def page_notes(
    lib: Library,
    names: Sequence[VersionName],
    data: Mapping[str, Any] | None,
    asked: str,
) -> dict[str, Any]:
    """What the search page says besides the answer: the question as its summary quotes it, the
    question cut (asked: the question as asked, before the cut), the versions a name was read
    as, versions named but not held, a game whose rulebook is not held, whether the first result is only a
    guess, and why meaning took no part."""
    corpus = lib.corpus
    out: dict[str, Any] = {
        "question": clipped(data["query"], QUOTE_CHARS) if data else "",
        "cut": cut_note(asked),
        "read_as": [],
        "unheld": None,
        "unquoted": None,
        "held": None,
        "guess": GUESS if data and data["guess"] else None,
        "words_only": words_only_said(data["meaning"]) if data else None,
    }
    if data and data["query"]:
        out["read_as"] = read_as(data["query"], names, corpus, data["filters"])
        out["unheld"] = unheld_said(lib, data["versions_not_held"])
        out["unquoted"] = unquoted_said(data["unquoted"])
        out["held"] = held_note(held_notes(corpus), data, corpus)
    return out


def pack_notes(lib: Library, kinds: Sequence[str]) -> dict[str, Any]:
    """The same words for the pack's page (pack-search.js fills in the blanks), with the server's
    answers to a document or version it does not hold and to a bad kind (of ``kinds``), edition,
    all_versions or limit (service.py)."""
    corpus = lib.corpus
    return {
        "cut": CUT,
        "read_as": READ_AS,
        "read_as_called": READ_AS_CALLED,
        "unheld": unheld_note(lib),
        "unquoted": UNQUOTED,
        "held": held_notes(corpus),
        "chip_kinds": CHIP_KINDS,
        "limit": MAX_QUERY_CHARS,
        "cut_quote": [CUT_QUOTE_WORDS, CUT_QUOTE_CHARS],
        "quote_chars": QUOTE_CHARS,
        "unknown": {
            "value": VALUE,
            "document": unknown_document(corpus),
            "not_held": {doc.id: NOT_HELD for doc in corpus.documents.values() if doc.external},
            "version": {doc.id: unknown_version(lib, doc.id) for doc in corpus.held()}
            | {"": unknown_version(lib, None)},
            "held": {doc.id: [v.id for v in doc.versions] for doc in corpus.held()},
            "kind": unknown_choice("kind", kinds),
            "kinds": list(kinds),
            "edition": unknown_choice("edition", EDITIONS),
            "editions": list(EDITIONS),
            "all_versions": flag_words("all_versions"),
            "flags": list(TRUE + FALSE),
            "limit": LIMIT_WORDS,
            "max_limit": MAX_LIMIT,
        },
    }
