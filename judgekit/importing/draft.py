"""A source made into a draft version: entries with ids and lineage, corrections, the report's facts."""

from __future__ import annotations

import re
from dataclasses import dataclass

from judgekit.corpus import fields
from judgekit.corpus.cards import TitleFinder, scan_text
from judgekit.corpus.model import Block, Corpus, Entry, Version
from judgekit.importers.common import heading_key, slugify
from judgekit.importing.body import Icons, blocks
from judgekit.importing.decisions import Decisions
from judgekit.importing.evidence import name_lost_icons
from judgekit.importing.lineage import Lineage, match
from judgekit.importing.rulings import rulings
from judgekit.importing.source import ImportRefused, Source
from judgekit.importing.text import Cut, Node, Parsed, read_rulebook
from judgekit.render.library import Library

MIN_KEPT = 0.5  # a source of which less than half the lines are kept is not rules text
# A new version shares many of its sentences with the one before (Version 4 with Call to Arms:
# 65 %; Call to Arms's OCR'd text with 1.1: 40 %); another document shares next to none.
MIN_SHARED = 0.2
_MONTHS = (
    "january february march april may june july august september october november december".split()
)
_RELEASED = re.compile(
    r"released (?:in|on) ("
    + "|".join(_MONTHS)
    + r") (\d{4})|version [\w.]+ from (\d\d)/(\d\d)/(\d{4})",
    re.IGNORECASE,
)


def released_in(lines: tuple[str, ...]) -> tuple[str, str] | None:
    """The release date the source prints ("released in April 2015") as (ISO, printed), or None."""
    for t in lines:
        m = _RELEASED.search(t)
        if m and m.group(1):
            month = _MONTHS.index(m.group(1).lower()) + 1
            return f"{m.group(2)}-{month:02d}", f"{m.group(1)} {m.group(2)}"
        if m:
            return (
                f"{m.group(5)}-{m.group(3)}-{m.group(4)}",
                f"{m.group(3)}/{m.group(4)}/{m.group(5)}",
            )
    return None


def _check_names(document: str, version_id: str, released: str | None) -> None:
    """The ids and date asked for, as the corpus's format takes them (FORMAT.md)."""
    asked = [(fields.slug, document, "--document"), (fields.version_id, version_id, "--version")]
    if released is not None:
        asked.append((fields.date, released, "--released"))
    for check, value, option in asked:
        try:
            check(value)
        except fields.Bad as exc:
            raise ImportRefused(f"{option} {value!r}: {exc}") from None


@dataclass(frozen=True)
class Draft:
    """What the import made: the version, its corrections, and the facts the report gives."""

    document: str
    version_id: str
    based_on: str | None
    version: dict
    corrections: dict
    lineage: Lineage
    parsed: Parsed
    kept_lines: int
    text_lines: int
    unused_decisions: tuple[str, ...] = ()
    card_names: tuple[tuple[str, str], ...] = ()  # (entry id, card id) the text names
    new_document: dict | None = None  # the draft's document.yaml, for a document not held
    kind: str = "rulebook"


def _provisional_ids(nodes: list[Node]) -> list[str]:
    """Each node's id from its heading (FORMAT.md): a slug, ``gl-`` for glossary terms, unique."""
    ids: list[str] = []
    seen: set[str] = set()
    parent = ""
    for node in nodes:
        base = ("gl-" + slugify(node.title)) if node.kind == "glossary" else heading_key(node.title)
        base = base[:80].strip("-") or "entry"
        pid, n = base, 2
        if pid in seen and parent:
            pid = f"{base}-{parent}"[:80]
        while pid in seen:
            pid, n = f"{base}-{n}", n + 1
        seen.add(pid)
        ids.append(pid)
        if node.kind == "section" and not node.run_in:
            parent = pid
    return ids


def _tree(nodes: list[Node], ids: list[str], base: Version) -> dict[str, str | None]:
    """Each entry's parent: the contents' levels, the base version's nesting, the glossary's."""
    parents: dict[str, str | None] = {}
    top: str | None = None  # the last contents entry of level 0
    toc_last: str | None = None  # the last contents entry, any level
    section: str | None = None  # the last section that is not a run-in term
    glossary_section: str | None = None
    term: str | None = None
    placed: list[str] = []
    for node, eid in zip(nodes, ids, strict=True):
        if node.kind == "glossary":
            parents[eid] = term if node.sub_term and term else glossary_section
            if not node.sub_term:
                term = eid
        elif node.run_in:
            parents[eid] = section
        elif node.level == 0:
            parents[eid] = None
            top = toc_last = eid
        elif node.level is not None:
            parents[eid] = top
            toc_last = eid
        else:
            old = base.get(eid)
            old_parent = old.parent if old else None
            parents[eid] = old_parent if old_parent in placed else toc_last
        if node.kind == "section":
            if not node.run_in:
                section = eid
            if node.title.upper() == "GLOSSARY":
                glossary_section = eid
        placed.append(eid)
    return parents


@dataclass(frozen=True)
class NewDocument:
    """A document the corpus does not hold yet: what its ``document.yaml`` says."""

    title: str
    short_title: str
    edition: str  # 2E | 1E
    kind: str  # rulebook | rulings

    def data(self, document: str) -> dict:
        """The draft's ``document.yaml``."""
        return {"id": document, "title": self.title, "short_title": self.short_title,
                "edition": self.edition, "kind": self.kind}  # fmt: skip


def up_to(corpus: Corpus, base: Version) -> list[Version]:
    """The base version and those before it: the evidence for lost icons (never a later one)."""
    doc = corpus.documents.get(base.document)
    held = list(doc.versions) if doc else []
    return held[: held.index(base) + 1] if base in held else []


def _base(
    corpus: Corpus, document: str, version_id: str, based_on: str | None, new: NewDocument | None
) -> Version:
    """The version the draft follows, refusing an unknown document or a version id held; for a
    new document, an empty version (everything in the draft is new)."""
    doc = corpus.document(document)
    if new is not None:
        if doc is not None:
            raise ImportRefused(f"document {document!r} exists already: drop --new-document")
        return Version(document, "", new.title, "", new.edition, "", "", "", None)
    if doc is None or doc.external:
        raise ImportRefused(
            f"no document {document!r} is held (start one with --new-document --title ...)"
        )
    if doc.version(version_id) is not None:
        raise ImportRefused(
            f"version {version_id!r} of {document} exists already; choose another id"
        )
    base = doc.version(based_on) if based_on else doc.latest
    if base is None:
        raise ImportRefused(f"{document} holds no version {based_on!r} to base the draft on")
    return base


def _read(source: Source, decisions: Decisions, is_rulings: bool) -> tuple[Parsed, int, int]:
    """The source taken apart, with its count of text lines and of those kept as rules text."""
    parsed = read_rulebook(decisions.apply_cuts(source.lines), run_in=not is_rulings)
    if is_rulings:
        parsed.nodes = rulings(parsed.nodes)
    parsed.cuts.extend(
        Cut(a, b, f"not rules text (decided: {why or 'decisions.yaml'})", "debris")
        for a, b, why in decisions.cuts
    )
    text_lines = sum(1 for t in source.lines if t.strip())
    cut_lines = sum(
        1 for c in parsed.cuts for n in range(c.first, c.last + 1) if source.lines[n - 1].strip()
    )
    kept = text_lines - cut_lines - sum(len(p.lines) for p in parsed.unplaced)
    if not parsed.nodes or kept < MIN_KEPT * text_lines:
        raise ImportRefused(
            f"{source.name}: only {max(kept, 0)} of its {text_lines} lines read as rules text "
            "(headings and the paragraphs under them); is it a web page's navigation or another "
            "kind of file?"
        )
    return parsed, text_lines, kept


def _check_lineage(lineage: Lineage, source: Source, base: Version, decided: bool) -> None:
    """Refuse another document's text, and two entries given one id."""
    if base.entries and not decided and lineage.matched < MIN_SHARED * lineage.sentences:
        raise ImportRefused(
            f"{source.name}: only {lineage.matched} of its {lineage.sentences} sentences are found "
            f"in {base.document} {base.id}: is it another document? (name the right one with "
            "--document, or settle matches in decisions.yaml)"
        )
    final = [m.id for m in lineage.matches]
    if len(set(final)) != len(final):
        dupes = sorted({i for i in final if final.count(i) > 1})
        raise ImportRefused(
            f"two entries would have the same id {dupes}: settle it in decisions.yaml"
        )


def build(
    corpus: Corpus,
    source: Source,
    document: str,
    version_id: str,
    based_on: str | None,
    decisions: Decisions,
    released: str | None = None,
    new: NewDocument | None = None,
) -> Draft:
    """Read ``source`` as a new version ``version_id`` of ``document`` (see the package doc)."""
    _check_names(document, version_id, released)
    base = _base(corpus, document, version_id, based_on, new)
    kind = new.kind if new else corpus.documents[document].kind
    parsed, text_lines, kept = _read(source, decisions, kind == "rulings")
    date = (released, released) if released else released_in(source.lines)
    if date is None:
        raise ImportRefused(
            f'{source.name}: no release date printed ("released in April 2015"); '
            "give --released YYYY-MM"
        )
    icons = Icons(corpus.icons, source.lines)
    fixes = list(parsed.fixes)
    ids = _provisional_ids(parsed.nodes)
    others = {
        f"{document} {v.id}": "\n".join(e.markdown for e in v.walk()) for v in up_to(corpus, base)
    }
    entries = []
    for node, pid in zip(parsed.nodes, ids, strict=True):
        first = len(fixes)
        body = blocks(node.paras, icons, fixes)
        name_lost_icons(body, others, fixes, first)
        entries.append(
            Entry(pid, node.kind, node.title, document, version_id, None, (),
                  tuple(Block(k, t) for b in body for k, t in b.items()))
        )  # fmt: skip
    titles = [n.title for n in parsed.nodes]
    lineage = match(Library(corpus), base, entries, decisions.forced(ids, titles))
    _check_lineage(lineage, source, base, bool(decisions.matches))
    version = _version_data(parsed, entries, lineage, base, source, document, version_id, date)
    corrections = _corrections(parsed, fixes, source, lineage)
    unused = tuple(decisions.unused(ids, titles))
    return Draft(
        document, version_id, base.id or None, version, corrections, lineage, parsed, kept,
        text_lines, unused, _card_names(corpus, base.edition, lineage),
        new.data(document) if new else None, kind,
    )  # fmt: skip


def _card_names(corpus: Corpus, edition: str, lineage: Lineage) -> tuple[tuple[str, str], ...]:
    """The cards the draft's text names: its mentions file must record each (rules/FORMAT.md)."""
    if corpus.cards is None:
        return ()
    finder = TitleFinder(corpus.cards.of_edition(edition))
    found = []
    for m in lineage.matches:
        for hit in finder.find(scan_text(m.draft.title, m.draft.markdown)):
            found.extend((m.id, card) for card in hit.cards)
    return tuple(dict.fromkeys(found))


def _version_data(
    parsed: Parsed,
    entries: list[Entry],
    lineage: Lineage,
    base: Version,
    source: Source,
    document: str,
    version_id: str,
    date: tuple[str, str],
) -> dict:
    """The version's YAML: header, contents and the entry tree."""
    ids = [m.id for m in lineage.matches]
    parents = _tree(parsed.nodes, ids, base)
    records: dict[str, dict] = {}
    roots: list[dict] = []
    for node, entry, m in zip(parsed.nodes, entries, lineage.matches, strict=True):
        last = max([node.line] + [p.last for p in node.paras])
        rec: dict = {"id": m.id}
        if node.kind != "section":
            rec["kind"] = node.kind
        if node.new:
            rec["new"] = True
        rec["title"] = node.title
        old = base.get(m.id) if m.predecessor else None
        if node.kind == "glossary" and old is not None:
            # The forms pages link keep working: the older term and its aliases, where they differ.
            aliases = [
                a for a in (old.title, *old.aliases) if a.casefold() != node.title.casefold()
            ]
            if aliases:
                rec["aliases"] = list(dict.fromkeys(aliases))
        if node.toc is not None:
            rec["page"] = node.toc.page
        rec["source"] = [{"file": source.name, "lines": f"{node.line}-{last}"}]
        if entry.body:
            rec["body"] = [{b.kind: b.text} for b in entry.body]
        if m.continues:
            rec["continues"] = [
                {"ref": f"{base.id}/{ref}", "relation": rel} for ref, rel in m.continues
            ]
        records[m.id] = rec
        parent = parents[m.id]
        if parent is None:
            roots.append(rec)
        else:
            records[parent].setdefault("children", []).append(rec)
    toc = []
    title_to_id = {n.toc.line: i for n, i in zip(parsed.nodes, ids, strict=True) if n.toc}
    for item in parsed.toc:
        line = {"title": item.title, "page": item.page}
        if item.line in title_to_id:
            line["entry"] = title_to_id[item.line]
            toc.append(line)
    return {
        "document": document,
        "id": version_id,
        "title": f"{base.title.rsplit(',', 1)[0]} ({version_id}, draft)"[:200],
        "short_title": version_id,
        "edition": base.edition,
        "released": date[0],
        "released_printed": date[1],
        "supersedes": base.id or None,
        "sources": [{"file": source.name, "description": "imported by judgekit import"}],
        "toc": toc,
        "entries": roots,
    }


def _corrections(parsed: Parsed, fixes: list, source: Source, lineage: Lineage) -> dict:
    """The corrections file: every change to the source's words, every stretch left out."""
    spans = []
    for node, m in zip(parsed.nodes, lineage.matches, strict=True):
        last = max([node.line] + [p.last for p in node.paras])
        spans.append((node.line, last, m.id))

    def owner(line: int) -> str | None:
        return next((eid for a, b, eid in spans if a <= line <= b), None)

    return {
        "corrections": [
            {
                "entry": owner(f.line),
                "source": source.name,
                "line": f.line,
                "original": f.original,
                "corrected": f.corrected,
                "evidence": f.evidence,
            }
            for f in fixes
        ],
        "removed": [
            {
                "source": source.name,
                "lines": f"{c.first}-{c.last}",
                "what": c.what,
                "reason": c.reason,
            }
            for c in sorted(parsed.cuts, key=lambda c: c.first)
        ],
    }
