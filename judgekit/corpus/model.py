"""The typed, frozen model of the corpus: documents, versions, entries, corrections."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

BLOCK_KINDS = ("rule", "example", "advanced")
ENTRY_KINDS = ("section", "glossary", "ruling")


@dataclass(frozen=True)
class Icon:
    """One icon of the vocabulary, rendered as a labelled badge."""

    name: str
    label: str
    group: str
    shape: str


@dataclass(frozen=True)
class SourceSpan:
    """Where a piece of text came from: a seed file and a line range."""

    file: str
    lines: str


@dataclass(frozen=True)
class Block:
    """A run of Markdown text that is a rule, an example or advanced (grey-box) text."""

    kind: str
    text: str


@dataclass(frozen=True)
class Lineage:
    """An explicit relation to an entry elsewhere, where a shared id cannot say it."""

    ref: str
    relation: str


@dataclass(frozen=True)
class Entry:
    """A section, glossary entry or ruling of one version."""

    id: str
    kind: str
    title: str
    document: str
    version: str
    parent: str | None
    children: tuple[str, ...]
    body: tuple[Block, ...]
    page: int | str | None = None
    source: tuple[SourceSpan, ...] = ()
    aliases: tuple[str, ...] = ()
    card_ruling: bool = False
    new: bool = False
    continues: tuple[Lineage, ...] = ()
    note: str | None = None
    depth: int = 0
    location: str = ""

    @property
    def markdown(self) -> str:
        """All blocks' Markdown joined, for text comparisons."""
        return "\n\n".join(block.text for block in self.body)


@dataclass(frozen=True)
class TocItem:
    """One heading of a printed table of contents, or a line the editor put back in it."""

    title: str
    entry: str
    page: int | str | None = None
    location: str = ""
    reconstructed: bool = False  # not printed in this version's contents: the editor's line
    note: str | None = None  # editor's note: why the line is there, on what evidence


@dataclass(frozen=True)
class Correction:
    """A recorded change from a source's words, with its evidence."""

    entry: str
    source: str
    line: int
    original: str
    corrected: str
    evidence: str
    location: str = ""


@dataclass(frozen=True)
class Removal:
    """A stretch of a source deliberately left out (debris, advertising, ...)."""

    source: str
    lines: str
    what: str
    reason: str
    location: str = ""

    @property
    def line_range(self) -> tuple[int, int]:
        """The first and last line numbers removed."""
        first, _, last = self.lines.partition("-")
        return int(first), int(last or first)


PAGE_BASES = ("contents", "page-number", "bounds")


@dataclass(frozen=True)
class PageEvidence:
    """One line of a source that shows where an entry is printed, and what the editors read in it."""

    source: str
    line: int
    shows: str  # exactly as in the source at that line
    reads: str  # the editors' reading of it for this entry


@dataclass(frozen=True)
class PagePlace:
    """The page an entry's heading is printed on, or the pages the sources bound it to.

    ``basis`` is "contents" when the printed contents give this entry's own page (the rulebook's
    word); "page-number" or "bounds" when the editors read it from page numbers printed beside
    the text or from the pages of the entries around it (their inference, marked as such).
    """

    entry: str
    first: int
    last: int  # == first: one page
    basis: str
    evidence: tuple[PageEvidence, ...]
    location: str = ""

    @property
    def editorial(self) -> bool:
        """Whether the page is the editors' reading rather than printed for this entry."""
        return self.basis != "contents"


@dataclass(frozen=True)
class PrintedReference:
    """A pointer printed in an entry's text ("on page 32", "see table layout") and where it led."""

    entry: str
    words: str  # verbatim in the entry's text
    pointed_to: str  # the editors' words: what the printed book shows there
    target: str | None  # a cross-reference target holding it, or None when it is not held here
    location: str = ""


@dataclass(frozen=True)
class Source:
    """A seed text a version was built from."""

    file: str
    description: str = ""


@dataclass(frozen=True)
class Version:
    """One version of a document, with its entries in reading order."""

    document: str
    id: str
    title: str
    short_title: str
    edition: str
    released: str
    released_printed: str
    publisher: str
    supersedes: str | None
    supersedes_note: str = ""  # set when which came first is the editors' inference
    called: tuple[str, ...] = ()  # editorial: other names judges give it ("the web rules")
    examples_unlabelled: bool = False  # the source labels no example: "Example" is the editors'
    sources: tuple[Source, ...] = ()
    source_note: str = ""
    note: str | None = None
    toc: tuple[TocItem, ...] = ()
    entries: dict[str, Entry] = field(default_factory=dict)
    roots: tuple[str, ...] = ()
    corrections: tuple[Correction, ...] = ()
    removed: tuple[Removal, ...] = ()
    path: str = ""
    pages: dict[str, PagePlace] = field(default_factory=dict)  # by entry id (<version>.pages.yaml)
    printed_references: tuple[PrintedReference, ...] = ()
    pages_note: str = ""  # how the editors read the pages
    draft: bool = False  # read from a draft folder (`serve --draft`): not accepted into judgekit

    def label_editorial(self, block: Block) -> bool:
        """Whether an "Example" label on this block is the editors' (the source prints none)."""
        return (
            self.examples_unlabelled
            and block.kind == "example"
            and not block.text.lstrip().lower().startswith("for example")
        )

    def walk(self) -> Iterator[Entry]:
        """Every entry in reading order (the dict keeps insertion order)."""
        return iter(self.entries.values())

    def get(self, entry_id: str) -> Entry | None:
        """The entry with this id, or None."""
        return self.entries.get(entry_id)


@dataclass(frozen=True)
class Document:
    """A document (rulebook, rulings) and its versions, oldest first."""

    id: str
    title: str
    short_title: str
    edition: str
    kind: str
    external: bool = False
    versions: tuple[Version, ...] = ()
    external_versions: tuple[dict, ...] = ()
    path: str = ""
    newer_not_held: bool = False  # later versions exist, outside judgekit
    status_note: str = ""  # the editors' words on the newest held version's status

    def version(self, version_id: str) -> Version | None:
        """The version with this id, or None."""
        for version in self.versions:
            if version.id == version_id:
                return version
        return None

    @property
    def latest(self) -> Version | None:
        """The newest version held (called "in force" in the code; not necessarily current)."""
        return self.versions[-1] if self.versions else None

    def order(self) -> dict[str, int]:
        """Each version id's place, oldest 0: a later version supersedes the ones before it."""
        return {v.id: i for i, v in enumerate(self.versions)}


@dataclass(frozen=True)
class Corpus:
    """Every document, plus the icon vocabulary."""

    documents: dict[str, Document]
    icons: dict[str, Icon]
    root: str = ""
    digest: str = ""
    cards: CardIndex | None = None  # None only for a corpus built by hand (tests)
    draft: str = ""  # the draft folder read on top of root, or "" (see corpus/drafts.py)
    held_digest: str = ""  # the digest of root's files alone: == digest without a draft

    def document(self, document_id: str) -> Document | None:
        """The document with this id, or None."""
        return self.documents.get(document_id)

    def version(self, document_id: str, version_id: str) -> Version | None:
        """A version by document and version id, or None."""
        doc = self.documents.get(document_id)
        return doc.version(version_id) if doc else None

    def entry(self, document_id: str, version_id: str, entry_id: str) -> Entry | None:
        """An entry by its full address, or None."""
        version = self.version(document_id, version_id)
        return version.get(entry_id) if version else None

    def held(self) -> Iterator[Document]:
        """The documents whose text we hold (not external ones)."""
        return (doc for doc in self.documents.values() if not doc.external)

    def versions(self) -> Iterator[Version]:
        """Every held version of every document."""
        for doc in self.held():
            yield from doc.versions

    def drafts(self) -> list[Version]:
        """The versions read from the draft folder (none without one)."""
        return [v for v in self.versions() if v.draft]

    def in_force(self, version: Version | None) -> bool:
        """Whether a version is its document's newest held (the name is kept; see README)."""
        return version is not None and self.documents[version.document].latest is version


# -- the card index (loaded and checked by judgekit.corpus.cards) --------------------------------
APOSTROPHES = "'\u2019\u2018"


@dataclass(frozen=True)
class Card:
    """One card of one edition, as the corpus names it."""

    id: str
    edition: str
    title: str
    subtitle: str | None = None
    unique: bool = False
    type: str | None = None
    set: str | None = None
    number: str | None = None
    rarity: str | None = None
    aliases: tuple[str, ...] = ()
    source: str | None = None  # the entry that lists the card (set, number, rarity)
    note: str | None = None
    # A type no ruling states: the editors' inference from these words of this entry (an address).
    type_from: str | None = None
    type_words: str | None = None
    location: str = ""

    @property
    def full_title(self) -> str:
        """Title and subtitle as a card list prints them: "Kira Nerys, Reformed Collaborator"."""
        return f"{self.title}, {self.subtitle}" if self.subtitle else self.title

    @property
    def names(self) -> tuple[str, ...]:
        """Every form of the name that text may use, longest forms first."""
        forms = [self.full_title, self.title, *self.aliases]
        return tuple(dict.fromkeys(sorted(forms, key=len, reverse=True)))


@dataclass(frozen=True)
class Mention:
    """An entry of one version that names a card."""

    document: str
    version: str
    entry: str
    card: str
    location: str = ""


@dataclass(frozen=True)
class NotMention:
    """A card's title found in an entry, reviewed and recorded as not naming the card."""

    document: str
    version: str
    entry: str
    card: str
    reason: str
    location: str = ""


@dataclass(frozen=True)
class CardIndex:
    """Every card and every mention, with lookups both ways."""

    cards: dict[tuple[str, str], Card] = field(default_factory=dict)
    mentions: tuple[Mention, ...] = ()
    not_mentions: tuple[NotMention, ...] = ()
    files: tuple[str, ...] = ()

    def card(self, edition: str, card_id: str) -> Card | None:
        """A card by edition and id, or None."""
        return self.cards.get((edition, card_id))

    def of_edition(self, edition: str) -> list[Card]:
        """An edition's cards, sorted by title as a judge reads them."""
        found = [c for (ed, _), c in self.cards.items() if ed == edition]
        return sorted(found, key=lambda c: (sort_key(c.full_title), c.id))

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards.values())


def sort_key(title: str) -> str:
    """Titles sort by their letters: quotes, dots and the unique dot do not count."""
    return re.sub(r"[^a-z0-9 ]", "", fold(title).casefold())


def fold(text: str) -> str:
    """Straight apostrophes and single spaces, for comparing names."""
    for mark in APOSTROPHES[1:]:
        text = text.replace(mark, "'")
    return re.sub(r"\s+", " ", text).strip()
