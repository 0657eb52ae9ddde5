"""Closest-match suggestions for a path that found nothing: the 404 page's "did you mean"."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import unquote

from judgekit import nearness
from judgekit.corpus.model import Document, Version
from judgekit.render.library import Library
from judgekit.search.query import edition_names

# URL words that name an area or an API route, not a document, version or entry.
AREA_WORDS = {"rules", "rulings", "api", "entries", "documents", "history", "diff", "static"}
# Only the first parts of a path are read (nearness refuses any part longer than a name can be).
MAX_SEGMENTS = 8


@dataclass(frozen=True)
class Suggestion:
    """A page worth offering: its title, where it lives and its URL."""

    title: str
    where: str
    url: str


def slug(text: str) -> str:
    """Lowercase words joined by '-', like the corpus ids."""
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")


def _segments(path: str) -> list[str]:
    parts = [part for part in path.split("/") if part][:MAX_SEGMENTS]
    return [unquote(part, errors="replace").strip() for part in parts]


def _pick_document(lib: Library, segments: list[str]) -> tuple[Document | None, int]:
    held = {doc.id: doc for doc in lib.corpus.held()}
    for i, part in enumerate(segments):
        if part in held:
            return held[part], i
    for i, part in enumerate(segments):
        if slug(part) in AREA_WORDS:
            continue
        close = nearness.close_matches(slug(part), held, limit=1, cutoff=0.75)
        if close:
            return held[close[0]], i
    return None, -1


def _game(segments: list[str], areas: Mapping[str, str]) -> str | None:
    """The one game a path names: by a part naming it ("/cards/2e/…", "/timing/first-edition/…"),
    else by its area (areas: an area's first part, such as "timing", and its game); else None."""
    for part in segments:
        named = edition_names(part.replace("-", " "))[1]
        if len(named) == 1:
            return next(iter(named))
    return areas.get(segments[0]) if segments else None


def _versions(
    lib: Library, doc: Document | None, version: Version | None, game: str | None = None
) -> list[Version]:
    if version is not None:
        return [version]
    docs = [doc] if doc else [d for d in lib.corpus.held() if game in (None, d.edition)]
    # Versions in force first: a judge wants the rule that applies today.
    ordered = [d.latest for d in docs if d.latest]
    ordered += [v for d in docs for v in reversed(d.versions[:-1])]
    return ordered


def _matches(
    lib: Library, versions: list[Version], query: str, limit: int, kind: str | None = None
) -> list[Suggestion]:
    """The entries whose id or title is nearest ``query``; of ``kind`` only (by their aliases
    too), when given."""
    scored: list[tuple[float, int, Suggestion, tuple[str, str]]] = []
    order = 0
    for version in versions:
        keys: dict[str, str] = {}
        for entry in version.walk():
            if kind not in (None, entry.kind):
                continue
            keys.setdefault(entry.id, entry.id)
            keys.setdefault(slug(entry.title), entry.id)
            keys.setdefault(entry.id.removeprefix("gl-"), entry.id)
            for alias in entry.aliases if kind else ():  # a term's other names ("ability")
                keys.setdefault(slug(alias), entry.id)
        close = nearness.close_matches(query, keys, limit=limit, cutoff=0.6)
        found = {key: nearness.ratio(query, key) for key in close}
        if len(query) >= 3:
            # A word of an id ("attempting" in gl-attempting-missions) is a good match too.
            for key in keys:
                if key not in found and query in key.split("-"):
                    found[key] = 0.6
        for key, score in found.items():
            entry = version.entries[keys[key]]
            order += 1
            scored.append(
                (
                    score,
                    -order,
                    Suggestion(entry.title, lib.label(version), lib.entry_url(entry)),
                    (entry.document, entry.id),
                )
            )
    scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
    out: list[Suggestion] = []
    seen: set[tuple[str, str]] = set()
    for _score, _order, suggestion, rule in scored:
        if rule in seen:  # one version of each rule: the first found (in force) wins
            continue
        seen.add(rule)
        out.append(suggestion)
        if len(out) == limit:
            break
    return out


def _terms(lib: Library, version: Version, asked: str, limit: int) -> list[Suggestion]:
    """For a glossary term a version lacks (``/rules/<d>/<v>/term/<term>``), the version's
    glossary entries named nearest it; else those whose words use it, the most uses first."""
    named = _matches(lib, [version], asked, limit, kind="glossary")
    if named or len(asked) < 3:
        return named
    word = re.compile(rf"\b{re.escape(asked.replace('-', ' '))}", re.IGNORECASE)
    uses = [(len(word.findall(lib.plain(e))), e) for e in lib.glossary(version)]
    ranked = sorted((u for u in uses if u[0]), key=lambda u: -u[0])
    return [Suggestion(e.title, lib.label(version), lib.entry_url(e)) for _, e in ranked[:limit]]


def _version_in(doc: Document, rest: list[str]) -> tuple[Version | None, list[str]]:
    """The version the path names after its document (its id, or near it), and what follows."""
    if rest and doc.version(rest[0]) is not None:
        return doc.version(rest[0]), rest[1:]
    if rest:
        ids = [v.id for v in doc.versions]
        close = nearness.close_matches(rest[0].casefold(), ids, limit=1, cutoff=0.75)
        if close:
            return doc.version(close[0]), rest[1:]
    return None, rest


def _version_list(lib: Library, doc: Document) -> list[Suggestion]:
    """Each held version of a document, newest first."""
    return [Suggestion(v.title, lib.label(v), lib.version_url(v)) for v in reversed(doc.versions)]


def _same_page(lib: Library, doc: Document, asked: str) -> list[Suggestion]:
    """The page an address names in each held version of its document, newest first: the entry
    with that id (a glossary term's without its gl-), else the one whose title it spells."""
    found = []
    for version in reversed(doc.versions):
        entry = version.entries.get(asked) or version.entries.get(f"gl-{asked}")
        if entry is None:
            entry = next((e for e in version.walk() if slug(e.title) == asked), None)
        if entry is not None:
            found.append(Suggestion(entry.title, lib.label(version), lib.entry_url(entry)))
    return found


def _unknown_version(lib: Library, doc: Document, words: list[str]) -> list[Suggestion]:
    """For a version not held ("/rules/2e-rulebook/v5/beaming"): that page in each version held,
    then the versions held. Nothing merely near the page's name: what is near a name in another
    version ("examine" for "beaming") is a stranger's page, and the list of versions finds it."""
    pages = _same_page(lib, doc, words[-1]) if len(words) > 1 else []
    return pages + _version_list(lib, doc)


def closest_pages(
    lib: Library, path: str, limit: int = 5, areas: Mapping[str, str] | None = None
) -> list[Suggestion]:
    """The pages closest to a path that found nothing: entries by id or title, or versions; in
    the game of the page asked for when the path says it (_game), never the other game's."""
    segments = [s for s in _segments(path) if s]
    doc, at = _pick_document(lib, segments)
    game = doc.edition if doc is not None else _game(segments, areas or {})
    version, rest = _version_in(doc, segments[at + 1 :]) if doc is not None else (None, segments)
    words = [slug(s) for s in rest if slug(s) and slug(s) not in AREA_WORDS]
    if doc is not None and version is None and len(rest) > 1:
        # A version named that is not held: bounded by the versions held, not by ``limit``.
        return _unknown_version(lib, doc, words)
    found: list[Suggestion] = []
    # A glossary term's address: the version's glossary first, then the rest of the rulebook.
    terms = _terms(lib, version, words[-1], limit) if version and rest[:1] == ["term"] else []
    if words:
        found = _matches(lib, _versions(lib, doc, version, game), words[-1], limit)
        found = terms + [f for f in found if f not in terms]
        if not found and version is not None:
            # The rule may live in another version of the document (e.g. only in the glossary of 4).
            found = _matches(lib, _versions(lib, doc, None, game), words[-1], limit)
    if not found and doc is not None:
        found = (
            [Suggestion(version.title, lib.label(version), lib.version_url(version))]
            if version
            else _version_list(lib, doc)
        )
    return found[:limit]
