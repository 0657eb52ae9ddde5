"""The corpus with what pages and the API derive from it: URLs, HTML, backlinks, versions."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from . import lineage
from .model import Corpus, Document, Entry, Version
from .references import Target, backlink_index, entry_refs, resolve
from .text import Link, normalize_typography, to_html, to_plain


@dataclass(frozen=True)
class OtherVersion:
    """How an entry stands in another version of its document."""

    version: str
    id: str | None
    status: str  # same | changed | absent | related
    relation: str | None = None
    title: str | None = None
    renamed: bool = False


class Library:
    """Read-only access to a loaded corpus, shared by the views, the API and the CLI."""

    def __init__(self, corpus: Corpus, url_prefix: str = "") -> None:
        self.corpus = corpus
        self.prefix = url_prefix.rstrip("/")
        self._html: dict[tuple[str, str, str], str] = {}
        self._plain: dict[tuple[str, str, str], str] = {}

    # -- addresses -------------------------------------------------------------------------
    def area(self, document: Document) -> str:
        """The blueprint (URL area) a document's pages live in."""
        return "rulings" if document.kind in ("rulings", "glossary") else "rules"

    def version_url(self, version: Version) -> str:
        """The HTML page of a whole version."""
        doc = self.corpus.documents[version.document]
        return f"{self.prefix}/{self.area(doc)}/{version.document}/{version.id}/"

    def entry_url(self, entry: Entry) -> str:
        """The permalink page of an entry."""
        doc = self.corpus.documents[entry.document]
        return f"{self.prefix}/{self.area(doc)}/{entry.document}/{entry.version}/{entry.id}"

    def entry_api_url(self, entry: Entry) -> str:
        """The JSON of an entry."""
        return f"{self.prefix}/api/entries/{entry.document}/{entry.version}/{entry.id}"

    def version_api_url(self, version: Version) -> str:
        """The JSON of a version."""
        return f"{self.prefix}/api/documents/{version.document}/{version.id}"

    def get(self, target: Target) -> Entry | None:
        """The entry at a resolved address (None for external ones)."""
        return self.corpus.entry(target.document, target.version, target.id)

    # -- rendering ---------------------------------------------------------------------------
    def linker(self, entry: Entry):
        """A function that turns the reference targets of an entry's text into links."""
        return self.linker_at(entry.document, entry.version)

    def linker_at(self, document: str, version: str):
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
            return Link(self.entry_url(other), other.title, tooltip=self.citation_title(other))

        return link

    def html(self, entry: Entry) -> str:
        """The entry's sanitized HTML, blocks marked by kind."""
        key = (entry.document, entry.version, entry.id)
        if key not in self._html:
            link = self.linker(entry)
            parts = []
            for block in entry.body:
                inner = to_html(block.text, self.corpus.icons, link)
                label = {"example": "Example", "advanced": "Advanced"}.get(block.kind)
                head = f'<span class="block-label">{label}</span>' if label else ""
                parts.append(f'<div class="block block-{block.kind}">{head}{inner}</div>')
            self._html[key] = "\n".join(parts)
        return self._html[key]

    def plain(self, entry: Entry) -> str:
        """The entry's plain text: icons as labels, refs as their words, no markup."""
        key = (entry.document, entry.version, entry.id)
        if key not in self._plain:
            link = self.linker(entry)
            self._plain[key] = "\n\n".join(
                to_plain(block.text, self.corpus.icons, link) for block in entry.body
            )
        return self._plain[key]

    def citation_title(self, entry: Entry) -> str:
        """ "2E Rulebook v4 (April 2015), Glossary – attempting missions"."""
        doc = self.corpus.documents[entry.document]
        version = doc.version(entry.version)
        trail = [e.title for e in self.breadcrumb(entry)[-1:]] + [entry.title]
        return (
            f"{doc.short_title} {version.short_title} ({version.released_printed}), "
            + " – ".join(trail)
        )

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
    def _lineage(self) -> dict[tuple[str, str, str], list[tuple[Target, str]]]:
        """Explicit relations, indexed from both ends."""
        index: dict[tuple[str, str, str], list[tuple[Target, str]]] = {}
        for doc in self.corpus.held():
            for link in lineage.links(self.corpus, doc.id):
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
            pairs = lineage.spanning(self.corpus, doc.id, entry.version, version.id)
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
