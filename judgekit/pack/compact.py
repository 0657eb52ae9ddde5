"""The search data written compactly: what pack-search.js derives again is left out.

An item's usual key, topic, name, game and standing, and addresses, a citation's usual
beginning, the fields every result of a version shares and the breadcrumbs' sections (each
written once, in a table), postings as gaps; pack-search.js (expand, postings) puts them back,
so the answers are the same.
"""

from __future__ import annotations

import json
from typing import Any

# A result's fields that every result of its version shares (its game, its standing and its
# titles), in the API's order: written once, as a row of a table (compact_shared).
SHARED = (
    "edition",
    "edition_label",
    "in_force",
    "status",
    "draft",
    "document_title",
    "version_title",
)

# Where most items' pages and answers are, by kind (pack-search.js: expand). A result whose
# addresses are these names them 0; its breadcrumb's sections likewise.
ADDRESSES = {
    "section": ("rules/{}/{}/{}/index.html", "api/entries/{}/{}/{}/index.json"),
    "glossary": ("rules/{}/{}/{}/index.html", "api/entries/{}/{}/{}/index.json"),
    "ruling": ("rulings/{}/{}/{}/index.html", "api/entries/{}/{}/{}/index.json"),
}


# A card's, from its id ("2e.a-bad-end": cards/2e/a-bad-end/...).
CARD_ADDRESSES = ("cards/{}/{}/index.html", "api/cards/{}/{}/index.json")


def _addressed(entry: dict[str, Any], kind: str, document: str, version: str) -> bool:
    """Whether an entry's addresses are its kind's usual ones (a crumb's: its result's kind's)."""
    if kind == "card":
        edition, dot, name = entry["id"].partition(".")
        names = [p.format(edition, name) for p in CARD_ADDRESSES] if dot else []
    elif kind in ADDRESSES:
        names = [p.format(document, version, entry["id"]) for p in ADDRESSES[kind]]
    else:
        return False
    return [entry.get("url"), entry.get("api_url")] == names


def compact_citations(items: list[dict[str, Any]]) -> list[str]:
    """Each compacted result's citation that is a usual beginning and its title, as the number
    of that beginning in the list returned (pack-search.js: expand); the others stay as they
    are. Most citations are one of a few beginnings ("Card index (2E): ") and the title."""
    beginnings: dict[str, int] = {}
    for item in items:
        result = item["result"]
        citation, title = result.get("citation"), result.get("title")
        if isinstance(citation, str) and title and citation.endswith(title):
            start = citation[: -len(title)]
            result["citation"] = beginnings.setdefault(start, len(beginnings))
    return list(beginnings)


def compact_item(item: dict[str, Any]) -> dict[str, Any]:
    """An item without its text and without what pack-search.js derives again: its key, topic
    and name when they are the usual ones, and its result's usual addresses."""
    result = dict(item["result"])
    doc, version, kind = result["document"], result["version"], result["kind"]
    out = {k: v for k, v in item.items() if k not in ("text", "result")}
    if out["key"] == f"{doc}/{version}/{result['id']}":
        del out["key"]
    if out["topic"] == f"{doc}/{kind}/{result['id']}":
        del out["topic"]
    if out["name"] == result["title"]:
        del out["name"]
    # The item's game and standing are its result's (pack-search.js: expand).
    if "edition" in out and out["edition"] == result.get("edition"):
        del out["edition"]
    if "current" in out and out["current"] is result.get("in_force"):  # True is not 1
        del out["current"]
    # 0 for an address left out: the answer's keys keep their order (the API's shape).
    if _addressed(result, kind, doc, version):
        result["url"] = result["api_url"] = 0
    crumbs = []
    for crumb in result.get("breadcrumb", []):
        crumb = dict(crumb)
        if _addressed(crumb, kind, doc, version):
            crumb["url"] = crumb["api_url"] = 0
        crumbs.append(crumb)
    if "breadcrumb" in result:
        result["breadcrumb"] = crumbs
    out["result"] = result
    return out


def compact_postings(postings: list[list[int]]) -> list[Any]:
    """A term's postings as the gaps between item numbers, and their frequencies unless all 1."""
    numbers = [p[0] for p in postings]
    gaps = [b - a for a, b in zip([0, *numbers], numbers, strict=False)]
    counts = [p[1] for p in postings]
    return gaps if all(c == 1 for c in counts) else [gaps, counts]


def compact_shared(items: list[dict[str, Any]]) -> list[list[Any]]:
    """Each compacted result's SHARED fields (all of them, in that order, one after another) as
    the number of their row in the table returned, in their place under the key "shared"; the
    answer's keys keep their order when pack-search.js (expand) puts the row back."""
    rows: dict[str, int] = {}
    for item in items:
        result = item["result"]
        keys = list(result)
        at = keys.index(SHARED[0]) if SHARED[0] in keys else -1
        if tuple(keys[at : at + len(SHARED)]) != SHARED:
            continue
        row = [result[k] for k in SHARED]
        number = rows.setdefault(json.dumps(row), len(rows))
        packed = {k: v for k, v in list(result.items())[:at]}
        packed["shared"] = number
        packed.update(list(result.items())[at + len(SHARED) :])
        item["result"] = packed
    return [json.loads(row) for row in rows]


def compact_crumbs(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each compacted result's breadcrumb as the numbers of its sections in the table returned:
    a section is the crumb of every entry under it (pack-search.js: expand copies it back)."""
    crumbs: dict[str, int] = {}
    for item in items:
        result = item["result"]
        if "breadcrumb" in result:
            result["breadcrumb"] = [
                crumbs.setdefault(json.dumps(c), len(crumbs)) for c in result["breadcrumb"]
            ]
    return [json.loads(c) for c in crumbs]
