"""A version's status in a judge's words: the newest version judgekit holds, with its date, and
how that was decided. No source states which version is "in force"; the editors only know which
versions they hold, so the words say that and no more."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judgekit.corpus.drafts import DRAFT_WORDS
from judgekit.corpus.model import Corpus, Version

NEWER_NOT_HELD = "later versions exist, not held here"
BASIS = (
    "Status decided by the editors from the versions judgekit holds: the newest held is not "
    "necessarily the one current today."
)


@dataclass(frozen=True)
class Status:
    """What the pages and the JSON say of a version's standing."""

    newest_held: bool
    label: str  # short, for badges and chips: "newest held here (April 2015)"
    note: str  # how it was decided and by whom, and what lies beyond it


def draft_note(corpus: Corpus, version: Version) -> str:
    """What a draft version's pages say of it: not the judges' reference, and from where."""
    return (
        f"{DRAFT_WORDS}. {version.short_title} is read from the draft folder {corpus.draft} for "
        "the maintainer to preview: it is not part of the reference judges use until it is "
        "accepted."
    )


def draft_fields(corpus: Corpus, version: Version) -> dict[str, Any]:
    """The JSON's mark of a version read from a draft folder: ``draft`` and its words."""
    return {
        "draft": version.draft,
        "draft_note": draft_note(corpus, version) if version.draft else None,
    }


def status(corpus: Corpus, version: Version) -> Status:
    """The status of a held version (a draft's says so first)."""
    doc = corpus.documents[version.document]
    newest = doc.latest
    held = ", ".join(v.short_title + (" (draft)" if v.draft else "") for v in doc.versions)
    if version.draft:
        return Status(newest is version, DRAFT_WORDS, draft_note(corpus, version))
    if newest is version:
        label = f"newest held here ({version.released_printed})"
        if doc.newer_not_held:
            label += f"; {NEWER_NOT_HELD}"
        note = (
            f"{version.short_title} ({version.released_printed}) is the newest version of the "
            f"{doc.title} that judgekit holds (it holds: {held}). {BASIS}"
        )
        if doc.status_note:
            note += f" {doc.status_note}"
        return Status(True, label, note)
    assert newest is not None
    label = f"superseded here by {newest.short_title} ({newest.released_printed})"
    if newest.draft:
        label += f", a draft ({DRAFT_WORDS.lower()})"
    note = (
        f"{version.short_title} is older than {newest.short_title} ({newest.released_printed}), "
        f"the newest version of the {doc.title} that judgekit holds (it holds: {held}). {BASIS}"
    )
    return Status(False, label, note)
