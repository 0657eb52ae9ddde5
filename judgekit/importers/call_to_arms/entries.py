"""Units gathered into entries: sections, glossary terms, rule/example blocks and the tree."""

from __future__ import annotations

import re
from collections import defaultdict

from ..common import merge_ranges, slugify, source_ref, split_at_example
from .sections import GLOSSARY_PARENT, SECTIONS
from .source import SEED_000, SEED_003, Unit

_EXAMPLE = re.compile(r"(?:^|(?<=[.!?)”\"]\s)|(?<=[.!?]\*\s))(?=\**For example)")


def split_examples(text: str) -> list[tuple[str, str]]:
    """A paragraph as rule text and the "For example" passage that ends it."""
    return split_at_example(text, _EXAMPLE)


def spans(src: dict[str, set[int]]) -> list[dict]:
    """The ``source:`` list of an entry from the lines it used in each extraction."""
    out = []
    for file in (SEED_000, SEED_003):
        lines = sorted(src.get(file, ()))
        out += [source_ref(file, a, b) for a, b in merge_ranges(((n, n) for n in lines), 6)]
    return out or [source_ref(SEED_000, 1, 1)]


def blocks(units: list[Unit]) -> list[dict]:
    """Units as blocks: list items run together, paragraphs joined, examples apart."""
    out: list[dict] = []
    for unit in units:
        text = unit.text.strip()
        if not text:
            continue
        if unit.kind == "item":
            prefix = "  " * unit.level + ("" if unit.numbered else "- ")
            item = prefix + text
            if out and "rule" in out[-1] and out[-1].get("_list"):
                out[-1]["rule"] += "\n" + item
            else:
                out.append({"rule": item, "_list": True})
            continue
        for kind, part in split_examples(text):
            if out and kind == "rule" and "rule" in out[-1]:
                out[-1]["rule"] += "\n\n" + part
                out[-1].pop("_list", None)
            else:
                out.append({kind: part})
    for b in out:
        b.pop("_list", None)
    return out


def glossary_terms(lines_003: list[str]) -> list[str]:
    """The glossary's terms as 003 prints them ("term – text"), longest first."""
    terms = []
    for line in lines_003:
        m = re.match(r"^(?:<\|[^|]*\|>)?(\*?[A-Za-z][A-Za-z ’'-]{1,45}?) – \S", line)
        if m and m.group(1) not in terms:
            terms.append(m.group(1))
    return sorted(terms, key=len, reverse=True)


def _term_match(text: str, terms: list[str]) -> tuple[str, re.Match[str]] | None:
    for term in terms:
        m = re.match(rf"^\**(\\?\*)?\**{re.escape(term.lstrip('*'))}\**\s*(?:[-–]\s*)?", text)
        if m and (term.startswith("*") == bool(m.group(1)) or term.startswith("*")):
            return term, m
    return None


def _finish(ent: dict) -> None:
    ent["body"] = blocks(ent.pop("_units"))
    ent["source"] = spans(ent.pop("_src"))
    for child in ent.get("children", []):
        _finish(child)
    if "children" in ent:
        ent["children"] = ent.pop("children")


def glossary(gl: dict, terms: list[str]) -> list[dict]:
    """The glossary section's units split into term entries; its intro stays with it."""
    intro, out, stack = [], [], {}
    current = None
    for unit in gl["_units"]:
        found = _term_match(unit.text, terms)
        if found:
            term, m = found
            title = term.lstrip("*")
            rest = unit.text[m.end() :]
            star = "\\*" if term.startswith("*") else ""
            unit.text = f"**{star}{title}** – {rest}"
            unit.kind = "para"
            current = {
                "id": "gl-" + slugify(title),
                "kind": "glossary",
                "title": title,
                "_units": [unit],
                "_src": defaultdict(set),
            }
            if term.startswith("*"):
                # A card ruling or erratum, marked * in the printed glossary.
                current["card_ruling"] = True
                unit.text = unit.text.rstrip("*")
            parent = GLOSSARY_PARENT.get(title)
            if parent and parent in stack:
                stack[parent].setdefault("children", []).append(current)
            else:
                out.append(current)
            stack[title] = current
        elif current is not None:
            current["_units"].append(unit)
        if current is None:
            intro.append(unit)
            continue
        unit.entry = current["id"]
        current["_src"][unit.src].update(ln for ln, _ in unit.lines)
        current["_src"][SEED_003].update(unit.src003)
    gl["_units"] = intro
    for ent in out:
        _finish(ent)
    return out


def gather(
    units: list[Unit], statement: list[tuple[int, str]], terms: list[str]
) -> dict[str, dict]:
    """Every canonical section with its blocks and source lines; the glossary's terms apart."""
    entries: dict[str, dict] = {}
    for sid, title, _parent, _v in SECTIONS:
        entries[sid] = {"id": sid, "title": title, "_units": [], "_src": defaultdict(set)}
    for unit in units:
        if unit.kind == "heading":
            entries[unit.heading_id]["_src"][SEED_000].add(unit.first)
            continue
        if unit.entry is None:
            continue
        ent = entries[unit.entry]
        ent["_units"].append(unit)
        if unit.src == SEED_000:
            ent["_src"][SEED_000].update(ln for ln, _ in unit.lines)
        ent["_src"][SEED_003].update(unit.src003)
    for line, text in statement:
        u = Unit("para", [(line, text)])
        u.text = text
        entries["introduction"]["_units"].append(u)
        entries["introduction"]["_src"][SEED_000].add(line)
        entries["introduction"]["note"] = (
            "The version statement is printed with the contents; the extraction (000 line "
            f"{line}) cut off its right half and 003 does not have it."
        )
    terms_entries = glossary(entries["glossary"], terms)
    for ent in entries.values():
        ent["body"] = blocks(ent.pop("_units"))
    entries["glossary"]["_glossary"] = terms_entries
    return entries


def tree(entries: dict) -> list[dict]:
    """The entries nested as the canonical sections are, in their order."""

    def build(sid: str) -> dict:
        ent = entries[sid]
        node = {"id": sid, "title": ent["title"]}
        if ent.get("page"):
            node["page"] = ent["page"]
        node["source"] = spans(ent["_src"])
        if ent.get("note"):
            node["note"] = ent["note"]
        if ent.get("body"):
            node["body"] = ent["body"]
        children = [build(k) for k, _t, p, _v in SECTIONS if p == sid]
        if sid == "glossary":
            children = ent["_glossary"]
        if children:
            node["children"] = children
        return node

    return [build(s) for s, _t, p, _v in SECTIONS if p is None]
