"""Finding what a URL names, or a 404 (400 for a bad parameter) that says what is wrong."""

from __future__ import annotations

from flask import abort, request

from judgekit import urls
from judgekit.compare import diff
from judgekit.corpus.cards import CARD_FILES, Card
from judgekit.corpus.model import Document, Entry, Version
from judgekit.render import card_index
from judgekit.render.text import quoted
from judgekit.shapes.timing import sequence_dict
from judgekit.timing.links import sequence_url
from judgekit.timing.model import Sequence, Step
from judgekit.timing.nearest import nearest_sequences, nearest_steps, step_name
from judgekit.web.context import current_library, current_timing
from judgekit.web.errors import Nearest, not_found_near
from judgekit.web.version_names import canonical

# Ids are at most 58 characters today: a real name is quoted whole, anything longer cut short.
ECHO_CHARS = 80


def echo(value: str) -> str:
    """What a request named, quoted for a message: repr, cut to ``ECHO_CHARS`` with an ellipsis."""
    return quoted(value, ECHO_CHARS)


def find_document(document: str) -> Document:
    """A held document, or a 404 naming it."""
    doc = current_library().corpus.document(document)
    if doc is None or doc.external:
        abort(404, description=f"unknown document {echo(document)}")
    return doc


def find_version(document: str, version: str) -> Version:
    """The version, or a 404 naming what is unknown."""
    doc = find_document(document)
    found = doc.version(version)
    if found is None:
        known = ", ".join(v.id for v in doc.versions)
        abort(404, description=f"unknown version {echo(version)} of {doc.id!r} (known: {known})")
    return found


def find_entry(document: str, version: str, entry_id: str) -> Entry:
    """The entry, or a 404 naming what is unknown."""
    found = find_version(document, version).get(entry_id)
    if found is None:
        abort(404, description=f"unknown entry {echo(entry_id)} in {document!r} {version!r}")
    return found


def find_term(document: str, version: str, term: str) -> Entry:
    """A glossary entry by term: exact first, then case-insensitive; else a 404."""
    found = current_library().lookup_term(find_version(document, version), term)
    if found is None:
        abort(404, description=f"no glossary term {echo(term)} in {document!r} {version!r}")
    return found


# How a comparison is addressed, on its page and in its JSON: what a message says it names.
TWO_VERSIONS = {
    False: "a comparison names two versions, from..to",
    True: "a comparison's JSON names two versions, /api/diff/<document>/<from>/<to>",
}


def _comparison_url(doc: Document, old: Version, new: Version, json: bool) -> str:
    return (urls.compare_api if json else urls.compare_page)(doc.id, old.id, new.id)


def pairs_with(doc: Document, version: Version, side: str, json: bool = False) -> list[Nearest]:
    """The comparisons of ``version`` with each other version of ``doc``, it on ``side``: their
    pages, or their JSON (``json``)."""
    out = []
    for other in doc.versions:
        if other is not version:
            old, new = (version, other) if side == "from" else (other, version)
            title = f"{old.short_title} → {new.short_title}"
            where = f"{doc.short_title}, JSON" if json else doc.short_title
            out.append(Nearest(title, where, _comparison_url(doc, old, new, json)))
    return out


def named_version(doc: Document, value: str) -> Version | None:
    """The version of ``doc`` that ``value`` names, by its id or as judges write it ("v4")."""
    return doc.version(value) or doc.version(canonical(current_library(), value, doc.id) or "")


def before(doc: Document, version: Version, json: bool = False) -> tuple[Version, Version]:
    """One version named where a comparison names two (``/diff/<document>/<version>``, or its
    JSON's ``/api/diff/<document>/<version>``): the one comparison it can mean, what it changed
    from the version before it; else a 404 saying why, linking its comparisons (or its page)."""
    at = doc.versions.index(version)
    if len(doc.versions) == 1:
        where = current_library().version_api_url if json else current_library().version_url
        not_found_near(
            f"{TWO_VERSIONS[json]}: {doc.short_title} has one version held here, so there is "
            "nothing to compare it with",
            [Nearest(version.title, doc.short_title, where(version))],
        )
    if at == 0:
        not_found_near(
            f"{TWO_VERSIONS[json]}: {version.short_title} is the first held here, so nothing came "
            "before it; its comparisons with each later version are linked",
            pairs_with(doc, version, "from", json),
        )
    return doc.versions[at - 1], version


def find_pair(document: str, pair: str, json: bool = False) -> tuple[Version, Version]:
    """The two versions of ``<a>..<b>``, or a 404 saying what is wrong (one side missing, "4..":
    linking that version's comparisons, their JSON when ``json``)."""
    doc = find_document(document)
    split = diff.split_pair(pair, [v.id for v in doc.versions])
    if split == ("", ""):
        link = urls.compare_document_api if json else urls.compare_document_page
        not_found_near(
            f"{TWO_VERSIONS[json]}: {echo(pair)} names none; the comparisons of "
            f"{doc.short_title} are linked here",
            [
                Nearest(
                    f"Compare versions of {doc.short_title}", "JSON" if json else "", link(doc.id)
                )
            ],
        )
    if split is not None and bool(split[0]) != bool(split[1]):
        named, side = (split[0], "from") if split[0] else (split[1], "to")
        # By its id or as judges write it ("v4.."): the page redirects a name only in a whole pair.
        version = named_version(doc, named)
        if version is not None:
            not_found_near(
                f"{TWO_VERSIONS[json]}: {echo(pair)} names one; its comparisons with each other "
                "version held are linked here",
                pairs_with(doc, version, side, json),
            )
        find_version(doc.id, named)  # the side named is unknown: said so (not the empty one)
    if split is None:
        first, last = doc.versions[0], doc.versions[-1]
        shape = "/api/diff/<document>/<from>/<to>" if json else "<from>..<to>"
        abort(
            404,
            description=f"expected two versions as {shape}, e.g. "
            f"{_comparison_url(doc, first, last, json)}; got {echo(pair)}",
        )
    old, new = (named_version(doc, side) or find_version(doc.id, side) for side in split)
    return old, new


def choice(name: str, allowed: tuple[str, ...]) -> str:
    """A query parameter that takes one of a few values (the first is the default), else 400."""
    value = request.args.get(name, allowed[0])
    if value not in allowed:
        options = " or ".join(repr(a) for a in allowed)
        abort(400, description=f"{name} must be {options}, not {quoted(value)}")
    return value


def typography_arg() -> bool:
    """``?typography=show`` shows typography-only differences; hidden by default."""
    return choice("typography", ("hide", "show")) == "show"


def find_history(document: str, entry_id: str) -> tuple[Document, list[diff.Step]]:
    """The history of an entry, or a 404 when no version holds it."""
    doc = find_document(document)
    steps = diff.history(current_library(), doc.id, entry_id)
    if steps is None:
        abort(404, description=f"unknown entry {echo(entry_id)} in {doc.id!r} (in no version)")
    return doc, steps


def find_marked(document: str, version: str) -> Version:
    """A rulings version whose * entries to list, or a 404."""
    found = find_version(document, version)
    doc = current_library().corpus.documents[found.document]
    if doc.kind != "rulings":
        abort(
            404,
            description=f"{document!r} is a {doc.kind}: only rulings documents mark entries "
            "new or changed (*)",
        )
    return found


def find_sequence(sequence_id: str, version: str | None) -> Sequence:
    """The sequence in a version (default: the one in force), or a 404 naming what is unknown."""
    versions = current_timing().versions(sequence_id)
    if not versions:
        timing = current_timing()
        known = ", ".join(timing.ids())
        message = f"unknown timing sequence {echo(sequence_id)} (known: {known})"
        near = nearest_sequences(timing, sequence_id)
        if near:
            named = ", ".join(f"{s.title} ({s.id})" for s in near)
            message = (
                f"unknown timing sequence {echo(sequence_id)}; nearest: {named}; known: {known}"
            )
        else:  # nothing near: link them all, there are few
            near = [timing.versions(i)[-1] for i in timing.ids()]
        not_found_near(message, [_sequence_link(s) for s in near])
    if not version:
        return versions[-1]
    for seq in versions:
        if seq.version == version:
            return seq
    known = ", ".join(s.version for s in versions)
    message = f"sequence {sequence_id!r} has no version {echo(version)} (known: {known})"
    data = sequence_dict(current_library(), current_timing(), versions[-1])
    for absent in (a for a in data["absent_in"] if a["version"] == version):
        # The editors' word why that version's text supports no such sequence, and its rule.
        message += f"; {absent['version_name']} (the editors' reading): {absent['absent']}"
        not_found_near(
            message,
            [Nearest(c["citation"], "nearest rule", c["url"]) for c in absent["nearest"]]
            + [_sequence_link(versions[-1])],
        )
    # The sequence in each version it has, newest first: never another game's pages, which a
    # guess from the address would offer (a 1E ruling for "mission-attempt").
    not_found_near(message, [_sequence_link(s) for s in reversed(versions)])


def _version_name(seq: Sequence) -> str:
    version = current_library().corpus.version(seq.document, seq.version)
    return version.short_title or seq.version


def _sequence_link(seq: Sequence) -> Nearest:
    return Nearest(seq.title, f"timing sequence, {_version_name(seq)}", sequence_url(seq))


def _step_link(seq: Sequence, step: Step) -> Nearest:
    where = f"{seq.title}, {_version_name(seq)}"
    return Nearest(f"Step {step.label}: {step_name(step)}", where, sequence_url(seq, step))


def find_step(seq: Sequence, key: str) -> Step:
    """A step of ``seq`` by number or id, or a 404 naming the nearest steps (else the main ones)."""
    found = seq.find(key)
    if found is not None:
        return found
    message = f"unknown step {echo(key)} in {seq.id!r} {seq.version}"
    near = nearest_steps(seq, key)
    if near:
        message += "; nearest: " + ", ".join(f"step {s.label} “{step_name(s)}”" for s in near)
    else:
        near = list(seq.steps)
        message += "; no step is near it, its main steps are " + ", ".join(s.label for s in near)
    not_found_near(message, [_step_link(seq, s) for s in near])


def find_card(edition: str, card_id: str) -> Card:
    """A card by edition ("2e"/"1e") and id, or a 404 saying what is unknown."""
    if edition.upper() not in CARD_FILES:
        known = ", ".join(card_index.edition_slug(e) for e in CARD_FILES)
        abort(404, description=f"unknown edition {echo(edition)} (known: {known})")
    found = card_index.find_card(current_library(), edition, card_id)
    if found is None:
        abort(404, description=f"unknown {edition.upper()} card {echo(card_id)}")
    return found
