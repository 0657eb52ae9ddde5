"""What search indexes: the corpus entries, and the extra sources (timing steps, cards) with
how to list, address and describe their items."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from judgekit.corpus.model import Entry
from judgekit.render import card_index as ci
from judgekit.render.library import Library
from judgekit.render.text import to_plain
from judgekit.search import cards as search_cards
from judgekit.search.collapse import Hit
from judgekit.search.documents import IndexDoc, topic_of
from judgekit.search.steps import cited_keys, step_heirs
from judgekit.search.tabletalk import load_table_talk
from judgekit.timing.links import sequence_api_url, sequence_url
from judgekit.timing.load import sequences_for

log = logging.getLogger(__name__)


def entry_docs(lib: Library) -> list[IndexDoc]:
    """Every section, glossary entry and ruling of every held version, as index items, each with
    what judges say of the rules it holds."""
    talk = load_table_talk(lib.corpus.root)
    out = []
    for doc in lib.corpus.held():
        for vorder, version in enumerate(doc.versions):
            for entry in version.walk():
                out.append(
                    IndexDoc(
                        document=doc.id,
                        version=version.id,
                        id=entry.id,
                        kind=entry.kind,
                        title=entry.title,
                        text=lib.plain(entry),
                        edition=version.edition,
                        vorder=vorder,
                        aliases=entry.aliases,
                        current=lib.corpus.in_force(version),
                        successors=successors(lib, entry),
                        parent=entry.parent or "",
                        said=talk.phrases(entry),
                    )
                )
    return out


def successors(lib: Library, entry: Entry) -> tuple[str, ...]:
    """The topics an entry was merged into or replaced by (its `continues` lineage)."""
    out = []
    for target, relation in lib.related(entry):
        heir = lib.get(target)
        if heir is not None and relation.endswith(" into"):
            out.append(topic_of(heir.document, heir.kind, heir.id))
    return tuple(out)


@dataclass(frozen=True)
class ExtraSource:
    """Items indexed beside the corpus entries (timing steps): how to list and address them."""

    kind: str
    docs: Callable[[], list[IndexDoc]]
    urls: Callable[[Hit], tuple[str, str | None]]  # (page url, api url)
    breadcrumb: Callable[[Hit], list[dict[str, Any]]]
    describe: Callable[[Hit], dict[str, Any]] | None = None  # fields that replace the defaults


def timing_source(lib: Library) -> ExtraSource | None:
    """The timing steps as search items, when there are timing files."""
    try:
        seqs = sequences_for(lib.corpus)
    except Exception as exc:  # a broken timing file must not take search down with it
        log.warning("timing steps not indexed: %s", exc)
        return None
    if not seqs.sequences:
        return None

    def find(hit: Hit):
        seq_id, _, step_id = hit.id.partition(".")
        seq = seqs.get(seq_id, hit.version)
        return seq, seq.find(step_id) if seq else None

    def docs() -> list[IndexDoc]:
        out = []
        heirs = step_heirs(lib.corpus, seqs)
        for seq in seqs:
            version = lib.corpus.version(seq.document, seq.version)
            vorder = lib.corpus.documents[seq.document].order().get(seq.version, 0)
            for step in seq.flat:
                heading = f"{seq.title}, step {step.label}"  # the number the stepper shows
                out.append(
                    IndexDoc(
                        document=seq.document,
                        version=seq.version,
                        id=f"{seq.id}.{step.id}",
                        kind="step",
                        # Only a step's own title is searched as a title: the sequence's
                        # title on every step would rank all of them above the rules.
                        title=step.title or "",
                        text=timing_plain(lib, step.text),
                        edition=version.edition if version else "",
                        vorder=vorder,
                        heading=f"{heading}: {step.title}" if step.title else heading,
                        current=lib.corpus.in_force(version),
                        cites=cited_keys(lib, seq, step),
                        successors=heirs.get((seq.document, seq.version, seq.id, step.id), ()),
                    )
                )
        return out

    def urls(hit: Hit) -> tuple[str, str | None]:
        seq, step = find(hit)
        if seq is None:
            return "", None
        return (
            sequence_url(seq, step),
            sequence_api_url(seq),
        )

    def breadcrumb(hit: Hit) -> list[dict[str, Any]]:
        seq, _ = find(hit)
        url = sequence_url(seq) if seq else ""
        return [{"id": seq.id if seq else "", "title": seq.title if seq else "", "url": url}]

    return ExtraSource("step", docs, urls, breadcrumb)


def card_source(lib: Library) -> ExtraSource | None:
    """The card index as search items (kind ``card``), when the corpus has cards."""
    if not any(True for _ in ci.index_of(lib)):
        return None
    return ExtraSource(
        search_cards.KIND,
        lambda: search_cards.card_docs(lib),
        lambda hit: search_cards.urls_of(lib, hit),
        lambda hit: [],
        lambda hit: search_cards.describe(lib, hit),
    )


def timing_plain(lib: Library, markdown: str) -> str:
    """A step's text as plain words (icons as labels, references as their words)."""
    return to_plain(markdown, lib.corpus.icons, lambda _target: None)
