"""The corpus with what pages and the API derive from it: URLs, HTML, backlinks, versions."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from html import escape
from typing import Generic, TypeVar

from judgekit import urls
from judgekit.corpus import lineage
from judgekit.corpus.model import Corpus, Document, Entry, PageEvidence, Version
from judgekit.corpus.references import REF_RE, Target, backlink_index, entry_refs, resolve
from judgekit.corpus.typography import normalize_typography
from judgekit.render.text import ICON_RE, Link, Linker, html_to_text, icon_html, to_html

K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True)
class Memo(Generic[K, V]):
    """A cache kept per Library, owned by the one module that declares it (``owner=__name__``):
    its keys and values are typed where it is declared, and only that module reads and writes it."""

    owner: str
    name: str


@dataclass(frozen=True)
class PrintedPage:
    """Where the printed rulebook puts an entry: its own page or pages, or its section's."""

    first: int
    last: int  # == first: one page; else the sources bound the page no closer
    own: bool  # False: the place of ``section``, the nearest enclosing entry with one
    section_id: str
    section_title: str
    basis: str = "contents"  # PagePlace.basis; "contents" also for a page the entry's YAML gives
    evidence: tuple[PageEvidence, ...] = ()

    @property
    def text(self) -> str:
        """ "p. 16" or "pp. 16–20": how every citation writes it."""
        if self.first == self.last:
            return f"p. {self.first}"
        return f"pp. {self.first}\u2013{self.last}"

    @property
    def editorial(self) -> bool:
        """Whether the editors read the page from evidence rather than the contents printing it."""
        return self.basis != "contents"

    @property
    def editorial_words(self) -> str | None:
        """Why the page is the editors' (shown with its "ed." mark), or None when printed."""
        return PAGE_EDITORIAL.get(self.basis)


@dataclass(frozen=True)
class OtherVersion:
    """How an entry stands in another version of its document."""

    version: str
    id: str | None
    status: str  # same | changed | absent | related
    relation: str | None = None
    title: str | None = None
    renamed: bool = False


# The label an entry page prints before a block of each kind (rule text has none).
# No source marks the grey "advanced" boxes, so that label says the grouping is the editor's.
BLOCK_LABELS = {"example": "Example", "advanced": "Advanced (editor’s grouping)"}
BLOCK_TITLES = {
    "advanced": "The source text does not mark the rulebook’s grey “advanced” boxes: this"
    " grouping is the editor’s reading (About this text, on the version page, says how it was made).",
}


# The one mark of an editorial value (templates/macros.html, ed): the timing pages' "ed.".
ED_MARK = '<abbr class="tm-ed-mark" title="{why}">ed.</abbr>'
EXAMPLE_LABEL_ED = (
    "The editors' label: this version prints the passage without \u201cExample\u201d or"
    " \u201cFor example\u201d (Call to Arms and Version 4 print it as an example)"
)


# Why a page is the editors' reading, by PagePlace.basis ("contents" is the rulebook's own word).
PAGE_EDITORIAL = {
    "page-number": "The editors' reading: the contents print no page for this heading; a page"
    " number printed beside it in the source text shows its page",
    "bounds": "The editors' reading: the contents print no page for this heading; it is printed"
    " after the entries before it and before those after it, whose pages the sources show",
}


def block_label(kind: str, editorial: bool = False) -> str:
    """The HTML label printed before a block of this kind ("" for rule text), marked "ed." where
    the label is the editors' and not printed."""
    label = BLOCK_LABELS.get(kind)
    if not label:
        return ""
    title = BLOCK_TITLES.get(kind)
    tip = f' title="{title}"' if title else ""
    mark = " " + ED_MARK.format(why=escape(EXAMPLE_LABEL_ED)) if editorial else ""
    return f'<span class="block-label"{tip}>{label}{mark}</span>'


class Library:
    """Read-only access to a loaded corpus, shared by the views, the API and the CLI."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self._rendering: dict[tuple[str, str, str], tuple[str, str]] = {}
        self._memos: dict[Memo, dict] = {}

    def memo(self, key: Memo[K, V]) -> dict[K, V]:
        """The cache a module owns (its ``Memo``), kept as long as this Library (its corpus never
        changes)."""
        if not isinstance(key, Memo):  # a bare name could be written by any module
            raise TypeError(f"a Library's caches are named by a Memo, not {key!r}")
        return self._memos.setdefault(key, {})

    # -- addresses -------------------------------------------------------------------------
    def area(self, document: Document) -> str:
        """The blueprint (URL area) a document's pages live in."""
        return urls.area(document.kind)

    def version_url(self, version: Version) -> str:
        """The HTML page of a whole version."""
        kind = self.corpus.documents[version.document].kind
        return urls.version_page(kind, version.document, version.id)

    def entry_url(self, entry: Entry) -> str:
        """The permalink page of an entry."""
        kind = self.corpus.documents[entry.document].kind
        return urls.entry_page(kind, entry.document, entry.version, entry.id)

    def entry_api_url(self, entry: Entry) -> str:
        """The JSON of an entry."""
        return urls.entry_api(entry.document, entry.version, entry.id)

    def version_api_url(self, version: Version) -> str:
        """The JSON of a version."""
        return urls.version_api(version.document, version.id)

    def get(self, target: Target) -> Entry | None:
        """The entry at a resolved address (None for external ones)."""
        return self.corpus.entry(target.document, target.version, target.id)

    # -- rendering ---------------------------------------------------------------------------
    def linker(self, entry: Entry) -> Linker:
        """A function that turns the reference targets of an entry's text into links."""
        return self.linker_at(entry.document, entry.version)

    def linker_at(self, document: str, version: str) -> Linker:
        """A link function for text that lives in a given document version."""

        def link(target: str) -> Link | None:
            found = resolve(self.corpus, target, document, version)
            if isinstance(found, str):
                return None
            if found.external:
                doc = self.corpus.documents[found.document]
                return Link(
                    None, found.id, external=True, tooltip=f"{doc.short_title} {found.version}"
                )
            other = self.get(found)
            return Link(self.entry_url(other), other.title, tooltip=self.citation_marked(other))

        return link

    def _rendered(self, entry: Entry) -> tuple[str, str]:
        """The entry's HTML and plain text, from one Markdown rendering per block, kept."""
        key = (entry.document, entry.version, entry.id)
        found = self._rendering.get(key)
        if found is None:
            link = self.linker(entry)
            version = self.corpus.version(entry.document, entry.version)
            parts, texts = [], []
            for block in entry.body:
                inner = to_html(block.text, self.corpus.icons, link)
                head = block_label(
                    block.kind, version is not None and version.label_editorial(block)
                )
                parts.append(f'<div class="block block-{block.kind}">{head}{inner}</div>')
                texts.append(html_to_text(inner))  # to_plain, without rendering the Markdown again
            found = self._rendering[key] = ("\n".join(parts), "\n\n".join(texts))
        return found

    def snippet_html(self, text: str) -> str:
        """A fragment of corpus text (a correction's words) as escaped HTML, icons drawn as badges."""
        words = REF_RE.sub(lambda m: m.group(2) or m.group(1), text)
        escaped = escape(words)
        return ICON_RE.sub(
            lambda m: icon_html(self.corpus.icons.get(m.group(1)), m.group(1)), escaped
        )

    def html(self, entry: Entry) -> str:
        """The entry's sanitized HTML, blocks marked by kind."""
        return self._rendered(entry)[0]

    def plain(self, entry: Entry) -> str:
        """The entry's plain text: icons as labels, refs as their words, no markup."""
        return self._rendered(entry)[1]

    def label(self, version: Version) -> str:
        """A version as citations name it: "2E Rulebook v4"."""
        return f"{self.corpus.documents[version.document].short_title} {version.short_title}"

    def cited_version(self, version: Version) -> str:
        """A version with its date, once: "2E Rulebook v4 (April 2015)", "1E Current Rulings 2/28/00"."""
        label = self.label(version)
        if version.released_printed and version.released_printed not in label:
            label += f" ({version.released_printed})"
        return label

    def short_label(self, version: Version) -> str:
        """A version as said aloud: "2E v4" for a rulebook, the document's short title otherwise."""
        doc = self.corpus.documents[version.document]
        name = doc.edition if doc.kind == "rulebook" else doc.short_title
        return f"{name} {version.short_title}"

    def printed_page(self, entry: Entry) -> PrintedPage | None:
        """The entry's printed page or pages where known, else those of the nearest section around it."""
        version = self.corpus.version(entry.document, entry.version)
        contents = {t.entry: t.page for t in version.toc if t.page}
        node: Entry | None = entry
        while node is not None:
            place = version.pages.get(node.id)
            own = node is entry
            if place is not None:
                return PrintedPage(
                    place.first, place.last, own, node.id, node.title, place.basis, place.evidence
                )
            page = node.page or contents.get(node.id)
            if page:
                return PrintedPage(int(page), int(page), own, node.id, node.title)
            node = version.entries[node.parent] if node.parent else None
        return None

    def page_editorial(self, entry: Entry) -> str | None:
        """Why the page a citation gives is the editors' reading (its "ed." mark), or None."""
        where = self.printed_page(entry)
        return where.editorial_words if where is not None else None

    def citation_title(self, entry: Entry) -> str:
        """ "2E Rulebook v4 (April 2015), 2. Execute Orders – Order – Beam Personnel, pp. 10–13"."""
        version = self.corpus.version(entry.document, entry.version)
        trail = [e.title for e in self.breadcrumb(entry)[-1:]] + [entry.title]
        text = f"{self.cited_version(version)}, " + " – ".join(trail)
        return text + self._page_words(entry)

    def citation_marked(self, entry: Entry) -> str:
        """The citation as plain text shows it where no "ed." element can follow it (a link's
        tooltip): its page marked " ed." where the editors read it, as the pages mark it."""
        return self.citation_title(entry) + (" ed." if self.page_editorial(entry) else "")

    def citation_short(self, entry: Entry) -> str:
        """The citation to say aloud or write on a match slip: "2E v4 p. 13, Building a Deck"."""
        version = self.corpus.version(entry.document, entry.version)
        where = self.printed_page(entry)
        if where is not None and where.own:
            return f"{self.short_label(version)} {where.text}, {entry.title}"
        # Never the section's page as the entry's own: it follows the title, with "in".
        return f"{self.short_label(version)}, {entry.title}{self._page_words(entry)}"

    def _page_words(self, entry: Entry) -> str:
        """What a citation adds after the title: ", p. 16", ", pp. 16–17", ", in X, p. 20" or ""."""
        where = self.printed_page(entry)
        if where is None:
            return ""
        if where.own:
            return f", {where.text}"
        return f", in {where.section_title}, {where.text}"

    def breadcrumb(self, entry: Entry) -> list[Entry]:
        """The entry's ancestors, outermost first."""
        version = self.corpus.version(entry.document, entry.version)
        chain = []
        parent = entry.parent
        while parent:
            node = version.entries[parent]
            chain.append(node)
            parent = node.parent
        return chain[::-1]

    # -- relations -------------------------------------------------------------------------
    @cached_property
    def backlinks(self) -> dict[Target, list[Target]]:
        """Every address's referring entries, computed once."""
        return backlink_index(self.corpus)

    def refs(self, entry: Entry) -> list[Target]:
        """The entry's outgoing references."""
        return entry_refs(self.corpus, entry)

    def backlinks_of(self, entry: Entry) -> list[Target]:
        """The entries that reference this one."""
        return self.backlinks.get(Target(entry.document, entry.version, entry.id), [])

    def comparable(self, entry: Entry) -> str:
        """The text used to decide 'same' across versions: typography ignored."""
        return normalize_typography(self.plain(entry))

    @cached_property
    def lineage_links(self) -> dict[str, list[lineage.Link]]:
        """Each held document's ``continues`` links, found once (every entry is walked)."""
        return {doc.id: lineage.links(self.corpus, doc.id) for doc in self.corpus.held()}

    def spanning(self, document: str, old_id: str, new_id: str) -> list[tuple[str, str, str]]:
        """``lineage.spanning`` between two versions of a document, over its links found once."""
        doc = self.corpus.documents[document]
        return lineage.spanning(doc, self.lineage_links[document], old_id, new_id)

    @cached_property
    def _lineage(self) -> dict[tuple[str, str, str], list[tuple[Target, str]]]:
        """Explicit relations, indexed from both ends."""
        index: dict[tuple[str, str, str], list[tuple[Target, str]]] = {}
        for doc in self.corpus.held():
            for link in self.lineage_links[doc.id]:
                old = Target(doc.id, link.old_version, link.old_id)
                new = Target(doc.id, link.new_version, link.new_id)
                index.setdefault((doc.id, old.version, old.id), []).append(
                    (new, lineage.phrase(link.relation, True))
                )
                index.setdefault((doc.id, new.version, new.id), []).append(
                    (old, lineage.phrase(link.relation, False))
                )
        return index

    def related(self, entry: Entry) -> list[tuple[Target, str]]:
        """Entries in other versions that this one explicitly continues or is continued by."""
        return self._lineage.get((entry.document, entry.version, entry.id), [])

    def other_versions(self, entry: Entry) -> list[OtherVersion]:
        """This entry in each other version of its document: same, changed, related or absent."""
        doc = self.corpus.documents[entry.document]
        mine = self.comparable(entry)
        title = normalize_typography(entry.title, casefold=True)
        out = []
        for version in doc.versions:
            if version.id == entry.version:
                continue
            other = version.get(entry.id)
            if other is not None and other.kind == entry.kind:
                status = "same" if self.comparable(other) == mine else "changed"
                renamed = normalize_typography(other.title, casefold=True) != title
                out.append(
                    OtherVersion(version.id, other.id, status, title=other.title, renamed=renamed)
                )
                continue
            # The same pairing the diff pages use, so both say the same thing.
            pairs = self.spanning(doc.id, entry.version, version.id)
            links = [(new_id, rel) for old_id, new_id, rel in pairs if old_id == entry.id]
            if links:
                partner_id, rel = links[0]
                partner = version.get(partner_id)
                out.append(OtherVersion(version.id, partner_id, "related", rel, partner.title))
            else:
                out.append(OtherVersion(version.id, None, "absent"))
        return out

    # -- glossary ----------------------------------------------------------------------------
    def glossary(self, version: Version) -> list[Entry]:
        """The version's glossary entries in reading order."""
        return [e for e in version.walk() if e.kind == "glossary"]

    def lookup_term(self, version: Version, term: str) -> Entry | None:
        """A glossary entry by term or alias: exact match first, then case-insensitive."""
        entries = self.glossary(version)
        for entry in entries:
            if term == entry.title or term in entry.aliases:
                return entry
        folded = term.casefold()
        for entry in entries:
            if folded == entry.title.casefold() or folded in (a.casefold() for a in entry.aliases):
                return entry
        return None
