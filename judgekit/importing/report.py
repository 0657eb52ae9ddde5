"""The import's report for the maintainer: ``import-report.md`` and the same facts as JSON.

One line per entry that needs reading (renamed, moved, merged, split, new, gone, low
confidence), a count for those that simply continue: a hundred entries fit on a screen.
"""

from __future__ import annotations

from judgekit.importing.draft import Draft
from judgekit.importing.lineage import LOW


def report_data(draft: Draft) -> dict:
    """The report's facts, as written to ``import-report.json``."""
    lin = draft.lineage
    entries = []
    for m in lin.matches:
        entries.append(
            {
                "id": m.id,
                "title": m.draft.title,
                "heading_id": m.draft.id,
                "status": m.status,
                "confidence": round(m.confidence, 2),
                "predecessor": m.predecessor,
                "continues": [{"ref": r, "relation": rel} for r, rel in m.continues],
                "decided": m.decided,
                "low_confidence": not m.decided and m.confidence < LOW,
            }
        )
    return {
        "document": draft.document,
        "version": draft.version_id,
        "based_on": draft.based_on,
        "lines": {"text": draft.text_lines, "kept": draft.kept_lines},
        "sentences": {"draft": lin.sentences, "matched_in_base": lin.matched},
        "entries": entries,
        "gone": [{"id": e.id, "title": e.title} for e in lin.gone],
        "split": lin.split,
        "unplaced": [
            {"lines": f"{p.first}-{p.last}", "text": p.text[:200]} for p in draft.parsed.unplaced
        ],
        "removed": draft.corrections["removed"],
        "corrections": len(draft.corrections["corrections"]),
        "icons_from_other_versions": sum(
            1
            for c in draft.corrections["corrections"]
            if c["evidence"].startswith("the same words in")
        ),
        "unused_decisions": list(draft.unused_decisions),
        "card_names": [{"entry": e, "card": c} for e, c in draft.card_names],
    }


def _line(e: dict) -> str:
    links = ", ".join(f"{c['relation']} from {c['ref']}" for c in e["continues"])
    was = f" (heading id {e['heading_id']})" if e["heading_id"] != e["id"] else ""
    mark = " **decide**" if e["low_confidence"] else (" (decided)" if e["decided"] else "")
    extra = f"; {links}" if links else ""
    return f"- `{e['id']}` {e['title']}{was}: {e['status']} {e['confidence']:.2f}{extra}{mark}"


def _sections(entries: list[dict]) -> list[tuple[str, list[dict]]]:
    """The entries that need reading, by what became of them."""
    sure = [e for e in entries if not e["low_confidence"] and not e["decided"]]
    return [
        ("To decide (low confidence)", [e for e in entries if e["low_confidence"]]),
        ("Decided in decisions.yaml", [e for e in entries if e["decided"]]),
        ("Renamed", [e for e in sure if e["status"] == "renamed"]),
        ("Merged or moved", [e for e in sure if e["continues"] and e["status"] != "renamed"]),
        ("New", [e for e in sure if e["status"] == "new" and not e["continues"]]),
    ]


def report_markdown(data: dict) -> str:
    """The report as Markdown, for the maintainer to read before deciding."""
    entries = data["entries"]
    plain = [
        e
        for e in entries
        if e["status"] == "continues" and not e["continues"] and not e["low_confidence"]
    ]
    out = [
        f"# Import of {data['document']} {data['version']}, based on {data['based_on']}",
        "",
        f"{len(entries)} entries: {len(plain)} continue under their id with confidence ≥ {LOW}; "
        f"{data['sentences']['matched_in_base']} of {data['sentences']['draft']} sentences found "
        f"in {data['based_on']}; {data['corrections']} corrections to the source's words "
        f"({data['icons_from_other_versions']} icons named from another version's words: check "
        "them); "
        f"{data['lines']['kept']} of {data['lines']['text']} source lines kept.",
        "",
        "Settle a match in `decisions.yaml` (`entry: HEADING` with `continues: ID` or "
        "`new: true`; `lines: A-B` with `not_rules: WHY`), then run the import again.",
    ]
    if data["based_on"] is None:
        # A new document: every entry is new; their ids in one paragraph, not a line each.
        out += [
            "",
            f"## New document: {len(entries)} entries",
            ", ".join(f"`{e['id']}`" for e in entries),
        ]
        entries = [e for e in entries if e["decided"]]
    for title, rows in _sections(entries):
        if rows:
            out += ["", f"## {title} ({len(rows)})", *map(_line, rows)]
    if data["split"]:
        out += ["", f"## Split ({len(data['split'])})"]
        out += [f"- `{b}` → {', '.join(f'`{d}`' for d in ds)}" for b, ds in data["split"].items()]
    if data["gone"]:
        out += ["", f"## Gone ({len(data['gone'])})"]
        out += ["- " + ", ".join(f"`{g['id']}`" for g in data["gone"])]
    if data["unused_decisions"]:
        out += ["", "## Decisions that matched no heading of the source"]
        out += [f"- {k}" for k in data["unused_decisions"]]
    if data["unplaced"]:
        out += ["", f"## Not placed (before any heading): decide ({len(data['unplaced'])})"]
        out += [f"- lines {u['lines']}: {u['text'][:100]}" for u in data["unplaced"]]
    if data["card_names"]:
        entries_naming = len({c["entry"] for c in data["card_names"]})
        out += [
            "",
            f"## Cards named: {len(data['card_names'])} in {entries_naming} entries",
            "Record each in the draft's mentions file before accepting (its checks need them): "
            "`python -m judgekit.corpus.cards_propose --draft DIR --write`, then review "
            "(README, step 5).",
        ]
    out += ["", f"## Left out ({len(data['removed'])})"]
    out += [f"- lines {r['lines']}: {r['what']} ({r['reason']})" for r in data["removed"]]
    return "\n".join(out) + "\n"
