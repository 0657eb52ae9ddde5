"""Cross-references: the one `[[target|words]]` syntax, its resolution and backlinks."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from judgekit.corpus.model import Corpus, Entry

REF_RE = re.compile(r"\[\[([^\[\]|]+)(?:\|([^\[\]]*))?\]\]")
# At most 80 characters: ids name folders of the judge pack (cards, timing sequences, entries).
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,79}$")
VERSION_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.-]*$")


@dataclass(frozen=True)
class Target:
    """A resolved reference address: document, version, entry id."""

    document: str
    version: str
    id: str
    external: bool = False


@dataclass(frozen=True)
class Ref:
    """One reference as written in a text."""

    target: str
    label: str | None
    start: int
    end: int


def find_refs(text: str) -> Iterator[Ref]:
    """Every `[[target|label]]` in a text, in order."""
    for match in REF_RE.finditer(text):
        yield Ref(match.group(1).strip(), match.group(2), match.start(), match.end())


def parse_target(target: str, document: str, version: str) -> Target | None:
    """Turn `id`, `version/id` or `document/version/id` into an address; None if malformed."""
    parts = target.split("/")
    if len(parts) == 1:
        doc, ver, entry_id = document, version, parts[0]
    elif len(parts) == 2:
        doc, ver, entry_id = document, parts[0], parts[1]
    elif len(parts) == 3:
        doc, ver, entry_id = parts
    else:
        return None
    if not (ID_RE.match(doc) and VERSION_RE.match(ver) and ID_RE.match(entry_id)):
        return None
    return Target(doc, ver, entry_id)


def resolve(corpus: Corpus, target: str, document: str, version: str) -> Target | str:
    """Resolve a reference target; on failure return the reason as a string."""
    address = parse_target(target, document, version)
    if address is None:
        return f"malformed reference target {target!r}"
    doc = corpus.document(address.document)
    if doc is None:
        return f"reference to unknown document {address.document!r}"
    if doc.external:
        known = {str(v.get("id")) for v in doc.external_versions}
        if address.version not in known:
            return f"reference to unknown version {address.version!r} of {doc.id}"
        return Target(address.document, address.version, address.id, external=True)
    if doc.version(address.version) is None:
        return f"reference to unknown version {address.version!r} of {doc.id}"
    if corpus.entry(address.document, address.version, address.id) is None:
        return (
            f"dangling reference {target!r}: no entry {address.id!r} in {doc.id} {address.version}"
        )
    return address


def entry_refs(corpus: Corpus, entry: Entry) -> list[Target]:
    """The resolved, de-duplicated targets an entry's text points at, in order."""
    seen: dict[Target, None] = {}
    for ref in find_refs(entry.markdown):
        found = resolve(corpus, ref.target, entry.document, entry.version)
        if isinstance(found, Target):
            seen.setdefault(found, None)
    return list(seen)


def backlink_index(corpus: Corpus) -> dict[Target, list[Target]]:
    """For every referenced address, the entries that reference it."""
    index: dict[Target, list[Target]] = {}
    for version in corpus.versions():
        for entry in version.walk():
            here = Target(entry.document, entry.version, entry.id)
            for target in entry_refs(corpus, entry):
                if target != here:
                    index.setdefault(target, []).append(here)
    return index
