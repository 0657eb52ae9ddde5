"""The search index's contents: the Whoosh schema, the items, and building an index of them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from whoosh.fields import ID, KEYWORD, NUMERIC, STORED, TEXT, Schema
from whoosh.filedb.filestore import RamStorage
from whoosh.index import Index

from judgekit.search.analysis import Speller, analyzer, title_key, vocabulary
from judgekit.search.index import SearchIndex

INDEX_FORMAT = 4
TITLE_BOOST = 3.0
# The table talk's sayings (tabletalk.py) are searched as words too, a field of their own that
# counts less than the rules' words: what judges say of a rule is a hint, never the rule.
TALK_BOOST = 0.3


def make_schema() -> Schema:
    """The fields of the index; the analyzer is pickled with it, so it is module-level code."""
    ana = analyzer()
    return Schema(
        key=ID(stored=True, unique=True),
        topic=ID(stored=True),
        entry=ID(stored=True),
        document=ID(stored=True),
        version=ID(stored=True),
        kind=ID(stored=True),
        edition=ID(stored=True),
        vorder=NUMERIC(stored=True),
        current=STORED(),
        successors=STORED(),
        parent=STORED(),
        cites=STORED(),
        name=STORED(),
        title=TEXT(analyzer=ana, phrase=True, field_boost=TITLE_BOOST),
        title_key=KEYWORD(commas=True, scorable=False),
        text=TEXT(analyzer=ana, phrase=True, stored=True),
        talk=TEXT(analyzer=ana, phrase=False, field_boost=TALK_BOOST),
    )


@dataclass(frozen=True)
class IndexDoc:
    """One searchable item: a section, glossary entry, ruling or timing step."""

    document: str
    version: str
    id: str
    kind: str
    title: str
    text: str
    edition: str
    vorder: int  # the version's position in its document, oldest 0: the newest is in force
    aliases: tuple[str, ...] = ()
    heading: str = ""  # what results show, when not the (searched) title
    current: bool = True  # in the version in force
    successors: tuple[str, ...] = ()  # topics this one was merged into or replaced by
    parent: str = ""  # the id of the entry this one is a sub-section of, in the same version
    cites: tuple[str, ...] = ()  # keys of the entries whose words a timing step quotes
    said: tuple[str, ...] = ()  # what judges say of the rules it holds (tabletalk.py)

    @property
    def topic(self) -> str:
        """What the same rule shares across versions: its document, kind and id."""
        return topic_of(self.document, self.kind, self.id)

    @property
    def key(self) -> str:
        """The unique address of the item."""
        return f"{self.document}/{self.version}/{self.id}"


def topic_of(document: str, kind: str, entry_id: str) -> str:
    """The topic key: the same id in every version of a document is the same rule."""
    return f"{document}/{kind}/{entry_id}"


TALK_JOIN = " ; "  # between sayings: no phrase is looked for across two of them


def write_docs(ix: Index, docs: Iterable[IndexDoc]) -> int:
    """Add every doc with one writer and commit; return how many were written."""
    writer = ix.writer()
    count = 0
    try:
        for doc in docs:
            names = tuple(n for n in (doc.title, *doc.aliases) if n)
            writer.add_document(
                key=doc.key,
                topic=doc.topic,
                entry=doc.id,
                document=doc.document,
                version=doc.version,
                kind=doc.kind,
                edition=doc.edition,
                vorder=doc.vorder,
                current=doc.current,
                successors=list(doc.successors),
                parent=f"{doc.document}/{doc.version}/{doc.parent}" if doc.parent else "",
                cites=list(doc.cites),
                name=doc.heading or doc.title,
                title=" ; ".join(names),
                title_key=",".join(k for k in {title_key(n) for n in names} if k),
                text=doc.text,
                talk=TALK_JOIN.join(doc.said),
            )
            count += 1
    except BaseException:
        writer.cancel()
        raise
    writer.commit()
    return count


def build_in(ix: Index, docs: Sequence[IndexDoc]) -> SearchIndex:
    """Write docs into an empty index and wrap it with its vocabulary."""
    write_docs(ix, docs)
    return SearchIndex(ix, Speller(vocab_of(docs)))


def vocab_of(docs: Iterable[IndexDoc]) -> dict[str, int]:
    """The spelling vocabulary of the items: their titles, aliases and texts."""
    return vocabulary(" ".join((d.title, *d.aliases, d.text)) for d in docs)


class PrivateRamStorage(RamStorage):
    """Memory storage whose writer's scratch files stay in memory too.

    Whoosh puts them in a folder named after the index (/tmp/MAIN.tmp for every index in
    every process) and removes it when done: two processes building at once broke each other.
    """

    def temp_storage(self, name: str | None = None) -> RamStorage:
        """Scratch space of its own, in memory (nothing on disk to share or to lack)."""
        return RamStorage()


def build_ram(docs: Sequence[IndexDoc]) -> SearchIndex:
    """An index held in memory only."""
    return build_in(PrivateRamStorage().create_index(make_schema()), docs)
