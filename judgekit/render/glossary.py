"""Linking a version's glossary terms in sanitized entry HTML, first occurrence only."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass

from judgekit.corpus.cards import Card, phrase_pattern
from judgekit.corpus.model import APOSTROPHES, Entry, Version
from judgekit.render import card_index
from judgekit.render.library import Library, Memo
from judgekit.render.senses import Sense, load_senses

_SENSES: Memo[str, tuple[Sense, ...]] = Memo(__name__, "glossary senses not linked")
_VERSION_CACHES: Memo[tuple[str, str], _VersionCache] = Memo(__name__, "glossary links per version")

# A tag of serialized HTML; quoted attribute values may hold '>' in hand-written input.
TAG_RE = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>")
ATTR_RE = re.compile(r"""([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+)""")
VOID_TAGS = {"br", "hr", "img", "wbr", "input", "meta", "link", "source", "col", "area"}
# Text inside these is never linked: links, code, and anything interactive or scripted.
SKIP_TAGS = {"a", "code", "pre", "script", "style", "button", "textarea", "dfn"}
# Spans that are already something else: icon badges, references, block labels.
SKIP_CLASSES = {"icon", "ref-external", "ref-broken", "block-label", "not-held"}
NOT_HELD_SUFFIX = " (not held in judgekit)"


@dataclass(frozen=True)
class Term:
    """A glossary entry as something to link: its phrases (term and aliases) and where it goes."""

    entry_id: str
    title: str
    phrases: tuple[str, ...]
    href: str


def normalize_phrase(text: str) -> str:
    """The form phrases are compared in: casefolded, one space, straight apostrophes."""
    text = re.sub(r"\s+", " ", text.strip())
    for mark in APOSTROPHES[1:]:
        text = text.replace(mark, "'")
    return text.casefold()


def _attrs(raw: str) -> dict[str, str]:
    return {name.lower(): html.unescape(value.strip("\"'")) for name, value in ATTR_RE.findall(raw)}


def _skips(tag: str, raw_attrs: str) -> bool:
    if tag in SKIP_TAGS:
        return True
    if tag != "span" or not raw_attrs:
        return False
    attrs = _attrs(raw_attrs)
    if attrs.get("role") == "img":
        return True
    return bool(SKIP_CLASSES & set(attrs.get("class", "").split()))


class GlossaryLinker:
    """Finds a version's glossary terms in HTML text nodes and links each one once."""

    FLAGS = re.IGNORECASE
    PREFIX = "Glossary: "
    # The rulebook prints no links: every one is the editors', and says so (issue #29).
    CLASS = "gloss ed-link"
    SUFFIX = " (link added by the editors)"

    def __init__(self, terms: Iterable[Term], blocked: Iterable[str] = ()) -> None:
        self.terms: dict[str, Term] = {}
        self._by_phrase: dict[str, Term] = {}
        # Phrases in another sense (rules/glossary-senses.yaml): matched, so they consume their
        # words, but linked to nothing.
        written: set[str] = set(blocked)  # as printed: a case-sensitive linker matches these
        for term in terms:
            self.terms[term.entry_id] = term
            for phrase in term.phrases:
                key = normalize_phrase(phrase)
                written.add(phrase.strip())
                # The first entry to claim a phrase keeps it (reading order decides clashes).
                if key and key not in self._by_phrase:
                    self._by_phrase[key] = term
        phrases = sorted(written - {""}, key=len, reverse=True)  # longest wins at a position
        self._regex = (
            re.compile(
                r"(?<![\w-])(?:"
                + "|".join(phrase_pattern(p.strip()) for p in phrases)
                + r")(?![\w-])",
                self.FLAGS,
            )
            if phrases
            else None
        )

    def __bool__(self) -> bool:
        return self._regex is not None

    def _link_text(self, text: str, exclude: str | None, linked: list[str]) -> str:
        plain = html.unescape(text)
        out: list[str] = []
        last = 0
        for match in self._regex.finditer(plain):
            term = self._by_phrase.get(normalize_phrase(match.group(0)))
            # Later occurrences, and the entry's own term, consume the words but stay text,
            # so "missions" inside an already linked "attempting missions" is not linked.
            if term is None or term.entry_id == exclude or term.entry_id in linked:
                continue
            linked.append(term.entry_id)
            out.append(html.escape(plain[last : match.start()], quote=False))
            out.append(
                f'<a class="{self.CLASS}" href="{html.escape(term.href)}" '
                f'data-gloss="{html.escape(term.entry_id)}" '
                f'title="{html.escape(self.PREFIX + term.title + self.SUFFIX)}">'
                f"{html.escape(match.group(0), quote=False)}</a>"
            )
            last = match.end()
        if last == 0:
            return text
        out.append(html.escape(plain[last:], quote=False))
        return "".join(out)

    def link(
        self, fragment: str, exclude: str | None = None, linked: list[str] | None = None
    ) -> tuple[str, list[str]]:
        """Link the first occurrence of each term in text nodes; return the HTML and linked ids.

        `exclude` is the entry's own id (never linked to itself); `linked` carries the ids
        already linked earlier on the same page.
        """
        linked = [] if linked is None else linked
        if self._regex is None:
            return fragment, linked
        out: list[str] = []
        stack: list[bool] = []  # per open element: does it forbid linking?
        skipping = 0
        pos = 0
        for match in TAG_RE.finditer(fragment):
            text = fragment[pos : match.start()]
            if text:
                out.append(text if skipping else self._link_text(text, exclude, linked))
            out.append(match.group(0))
            pos = match.end()
            closing, tag, raw = match.group(1), match.group(2).lower(), match.group(3)
            if tag in VOID_TAGS or raw.rstrip().endswith("/"):
                continue
            if closing:
                if stack:
                    skipping -= stack.pop()
            else:
                skip = _skips(tag, raw)
                stack.append(skip)
                skipping += skip
        tail = fragment[pos:]
        if tail:
            out.append(tail if skipping else self._link_text(tail, exclude, linked))
        return "".join(out), linked


_EXTERNAL_RE = re.compile(
    r'<span class="ref-external" title="([^"]*)">(?:[^<]|<(?!/span>))*</span>'
)


def label_external_refs(fragment: str) -> str:
    """Make 'not held' visible after each reference to a document judgekit does not hold."""

    def note(match: re.Match[str]) -> str:
        name = html.unescape(match.group(1)).removesuffix(NOT_HELD_SUFFIX).strip()
        label = html.escape(f"{name} – not in judgekit" if name else "not in judgekit")
        return f'{match.group(0)}<span class="not-held"> [{label}]</span>'

    return _EXTERNAL_RE.sub(note, fragment)


class _VersionCache:
    """What one version's pages reuse: its linkers and each entry's linked HTML."""

    def __init__(self) -> None:
        self.linkers: dict[str, GlossaryLinker] = {}
        self.entry_html: dict[str, tuple[str, tuple[str, ...]]] = {}
        self.entry_cards: dict[str, tuple[Card, ...]] = {}
        self.page_html: dict[str, str] | None = None
        self.page_cards: tuple[Card, ...] = ()


def _cache(lib: Library, version: Version) -> _VersionCache:
    per_lib = lib.memo(_VERSION_CACHES)
    key = (version.document, version.id)
    if key not in per_lib:
        per_lib[key] = _VersionCache()
    return per_lib[key]


def version_terms(lib: Library, version: Version, in_page: bool = False) -> list[Term]:
    """The version's glossary terms; `in_page` links to anchors on the version's own page."""
    return [
        Term(
            e.id,
            e.title,
            (e.title, *e.aliases),
            f"#{e.id}" if in_page else lib.entry_url(e),
        )
        for e in lib.glossary(version)
    ]


def _senses(lib: Library) -> tuple[Sense, ...]:
    memo = lib.memo(_SENSES)
    if "all" not in memo:
        memo["all"] = load_senses(lib.corpus)[0]
    return memo["all"]


def _linker(lib: Library, version: Version, in_page: bool) -> GlossaryLinker:
    cache = _cache(lib, version)
    mode = "page" if in_page else "entry"
    if mode not in cache.linkers:
        senses = _senses(lib)
        never = {s.term for s in senses if s.never}
        terms = [t for t in version_terms(lib, version, in_page) if t.entry_id not in never]
        ids = {t.entry_id for t in terms}
        blocked = [p for s in senses if s.term in ids for p in s.phrases]
        cache.linkers[mode] = GlossaryLinker(terms, blocked)
    return cache.linkers[mode]


class CardLinker(GlossaryLinker):
    """The glossary linker for the card names an entry mentions: exact case, titled as a card."""

    FLAGS = 0
    PREFIX = "Card: "
    CLASS = "gloss card-link ed-link"


def link_cards(lib: Library, entry: Entry, fragment: str) -> tuple[str, tuple[Card, ...]]:
    """Link the first occurrence of each card the entry's mention data names; and those cards.

    Cards are linked before glossary terms, so a term inside a card name ("Borg" in "Borg
    Cube") is not linked on its own.
    """
    cards = {card_index.def_id(c): c for c in card_index.cards_in(lib, entry)}
    if not cards:
        return fragment, ()
    owners: dict[str, list[Card]] = {}
    for card in cards.values():
        for name in card.names:
            owners.setdefault(normalize_phrase(name), []).append(card)
    terms = [
        Term(key, c.full_title, own, card_index.card_url(c))
        for key, c in cards.items()
        if (own := tuple(n for n in c.names if len(owners[normalize_phrase(n)]) == 1))
    ]
    # A title two mentioned cards share ("•Jean-Luc Picard") names them all: link the list.
    for name, shared in owners.items():
        if len(shared) > 1:
            title = shared[0].title
            href = card_index.shared_title_url(shared[0])
            terms.append(Term("cards-" + re.sub(r"[^a-z0-9]+", "-", name), title, (title,), href))
    linked, ids = CardLinker(terms).link(fragment)
    return linked, tuple(cards[i] for i in ids if i in cards)


def entry_html(lib: Library, entry: Entry) -> tuple[str, tuple[str, ...]]:
    """An entry page's HTML: card names and glossary terms linked; the linked glossary ids."""
    version = lib.corpus.version(entry.document, entry.version)
    cache = _cache(lib, version)
    if entry.id not in cache.entry_html:
        with_cards, cards = link_cards(lib, entry, lib.html(entry))
        linked, ids = _linker(lib, version, False).link(with_cards, exclude=entry.id)
        cache.entry_html[entry.id] = (label_external_refs(linked), tuple(ids))
        cache.entry_cards[entry.id] = cards
    return cache.entry_html[entry.id]


def entry_cards(lib: Library, entry: Entry) -> tuple[Card, ...]:
    """The cards linked in an entry page's HTML, first linked first."""
    entry_html(lib, entry)
    version = lib.corpus.version(entry.document, entry.version)
    return _cache(lib, version).entry_cards[entry.id]


def version_html(lib: Library, version: Version) -> dict[str, str]:
    """Every entry's HTML for the whole-version page, terms linked to in-page anchors."""
    cache = _cache(lib, version)
    if cache.page_html is None:
        linker = _linker(lib, version, True)
        pages: dict[str, str] = {}
        cards: dict[str, Card] = {}
        for e in version.walk():
            with_cards, linked = link_cards(lib, e, lib.html(e))
            cards.update((card_index.def_id(c), c) for c in linked)
            pages[e.id] = label_external_refs(linker.link(with_cards, exclude=e.id)[0])
        cache.page_html, cache.page_cards = pages, tuple(cards.values())
    return cache.page_html


def version_cards(lib: Library, version: Version) -> tuple[Card, ...]:
    """The cards linked on the whole-version page, each once."""
    version_html(lib, version)
    return _cache(lib, version).page_cards
