"""Every address a judge can open without typing a query: pages and their JSON twins.

Built from the corpus alone (no request), so the server can render them all in the background
after start-up, and a static build can write them.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations
from urllib.parse import quote

from judgekit import urls
from judgekit.corpus.model import Document
from judgekit.render.card_index import card_paths
from judgekit.render.library import Library
from judgekit.timing.links import sequence_api_url, sequence_url
from judgekit.timing.model import Timing


def reading_paths(lib: Library) -> Iterator[str]:
    """The home page, every version and every entry, with their JSON."""
    yield urls.HOME
    yield urls.DOCUMENTS_API
    for version in lib.corpus.versions():
        yield lib.version_url(version)
        yield lib.version_api_url(version)
        for entry in version.walk():
            yield lib.entry_url(entry)
            yield lib.entry_api_url(entry)


def _entry_ids(doc: Document) -> list[str]:
    return list(dict.fromkeys(e.id for v in doc.versions for e in v.walk()))


def compare_paths(lib: Library) -> Iterator[str]:
    """Every comparison of two versions, both ways, every history and the rulings' * lists."""
    yield urls.COMPARE
    for doc in lib.corpus.held():
        yield urls.compare_document_page(doc.id)
        yield urls.compare_document_api(doc.id)
        for old, new in permutations(doc.versions, 2):
            yield urls.compare_page(doc.id, old.id, new.id)
            yield urls.compare_api(doc.id, old.id, new.id)
        for entry_id in _entry_ids(doc):
            yield urls.history_page(doc.id, entry_id)
            yield urls.history_api(doc.id, entry_id)
        if doc.kind == "rulings":
            for version in doc.versions:
                yield urls.marked_page(doc.id, version.id)
                yield urls.marked_api(doc.id, version.id)


def timing_paths(timing: Timing) -> Iterator[str]:
    """Every sequence in every version, at every step, with their JSON."""
    yield urls.TIMING
    yield urls.TIMING_API
    if timing.notes:
        yield urls.TIMING_FIRST_EDITION
        yield urls.TIMING_FIRST_EDITION_API
    for sequence_id in timing.ids():
        # Without ?version=: the version in force, as a citation without a version opens it.
        yield f"{urls.TIMING}/{quote(sequence_id, safe='')}"
        yield f"{urls.TIMING_API}/{quote(sequence_id, safe='')}"
    for seq in timing:
        yield sequence_url(seq)
        yield sequence_api_url(seq)
        for step in seq.flat:
            yield sequence_url(seq, step)


def all_paths(lib: Library, timing: Timing) -> list[str]:
    """Every page and JSON answer that needs no query, each once, in a stable order."""
    paths = [
        *reading_paths(lib),
        urls.SEARCH,
        *card_paths(lib),
        *timing_paths(timing),
        *compare_paths(lib),
    ]
    return list(dict.fromkeys(paths))
