"""An entry's paragraphs as body blocks: icons as tokens, lists as Markdown, examples apart.

Icons. An extraction prints an icon as an emoji, or loses it (a gap: two spaces, or a list item
with nothing before its label). The evidence is the source itself: a legend line ("☀ command")
names the icon of its emoji by a label of ``rules/icons.yaml``, so the same emoji elsewhere is
that icon; a list whose lead-in speaks of icons ("Mission Type Icons include:") or whose items
lost their icon names each item's icon by its label, the lead-in choosing between icons of one
label ("planet": the mission's or the dilemma's). An emoji nothing names is ``{icon:lost}``.
Every token written is a correction with its evidence.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from judgekit.compare.sentences import stem
from judgekit.corpus.model import Icon
from judgekit.importing.text import Fix, Para

EMOJI = re.compile(r"[\u2600-\u27bf\U0001F300-\U0001FAFF]\ufe0f?")
_LEGEND = re.compile(
    r"\s*-?\s*(EMOJI)\s+(\*?[A-Za-z][\w’' ]*?\*?)\s*$".replace("EMOJI", EMOJI.pattern)
)
_ITEM = re.compile(r"(\s*)(-|\d+\.|-\s+[a-z]\.)\s+(.*)")
_GAP_ITEM = re.compile(r"(\s*-) {2,}([A-Za-z][\w-]*(?: [A-Z][\w-]*)?)(,?(?: and)?\.?)$")
_EMPTY_PARENS = re.compile(r"\(\)")  # "marked by a skill dot icon ()": the icon is lost
_GAP = re.compile(r"(?<=\S)  +(?=\S)")  # two spaces inside a line: where an icon stood
_EXAMPLE = re.compile(r"\*For example", re.IGNORECASE)
_MIXED = re.compile(r"\b(?=\w*[A-Za-z])\w*[\u0400-\u04ff]\w*\b")
# Cyrillic letters that look like Latin ones: an extraction's font mix-up inside a Latin word.
_LOOK_ALIKE = str.maketrans("аеорсухкмнтвАЕОРСХКМНТВ", "aeopcyxkmhtbAEOPCXKMHTB")


def _words(text: str) -> list[str]:
    return [stem(w) for w in re.findall(r"[a-z]+", text.casefold())]


class Icons:
    """The icon vocabulary and what this source's legends say its emoji stand for."""

    def __init__(self, icons: Mapping[str, Icon], lines: tuple[str, ...]) -> None:
        self.icons = icons
        self.emoji: dict[str, set[str]] = {}
        for t in lines:
            m = _LEGEND.fullmatch(t)
            if m:
                name = self.by_label(m.group(2).strip("* "), "")
                if name:
                    self.emoji.setdefault(m.group(1).rstrip("\ufe0f"), set()).add(name)

    def by_label(self, label: str, lead: str) -> str | None:
        """The icon a printed label names, the lead-in's words choosing among several."""
        want = _words(label)
        if not want:
            return None
        found = [
            (sum(w in _words(lead) for w in _words(i.label)[len(want) :]), i.name)
            for i in self.icons.values()
            if _words(i.label)[: len(want)] == want
        ]
        exact = [n for n in found if _words(self.icons[n[1]].label) == want]
        if exact and not lead:
            return exact[0][1]
        found.sort(key=lambda f: -f[0])
        if len(found) == 1 or (len(found) > 1 and found[0][0] > found[1][0]):
            return found[0][1]
        return exact[0][1] if exact else None

    def line(self, n: int, t: str, lead: str, fixes: list[Fix]) -> str:
        """One line with its emoji and lost list icons written as tokens."""
        legend = _LEGEND.fullmatch(t)

        def sub(m: re.Match) -> str:
            ch = m.group(0).rstrip("\ufe0f")
            names = self.emoji.get(ch, set())
            if legend:
                name = self.by_label(legend.group(2).strip("* "), "") or "lost"
                why = f"legend label '{legend.group(2).strip('* ')}' beside the emoji on line {n}"
            elif len(names) == 1:
                name = next(iter(names))
                why = f"emoji {ch} is the icon of the legend label for '{name}' in this source"
            else:
                name = "lost"
                why = f"emoji {ch}: no legend of this source names its icon"
            fixes.append(Fix(n, m.group(0), "{icon:" + name + "}", why))
            return "{icon:" + name + "}"

        out = EMOJI.sub(sub, t)
        for m in reversed(list(_MIXED.finditer(out))):
            latin = m.group(0).translate(_LOOK_ALIKE)
            if latin != m.group(0) and latin.isascii():
                fixes.append(
                    Fix(n, m.group(0), latin, "Cyrillic look-alike letters inside a Latin word")
                )
                out = out[: m.start()] + latin + out[m.end() :]
        gap = _GAP_ITEM.fullmatch(out)
        if gap or ("icon" in lead.casefold() and _ITEM.fullmatch(out) and "{icon:" not in out):
            label = gap.group(2) if gap else _ITEM.fullmatch(out).group(3).strip(" ,.")
            name = self.by_label(label, lead)
            if name:
                item = _ITEM.fullmatch(out)
                new = f"{item.group(1)}- {{icon:{name}}} {item.group(3).strip()}"
                fixes.append(
                    Fix(
                        n,
                        t.strip(),
                        new.strip(),
                        f"legend list '{lead.strip()}': the label "
                        f"'{label}' names the icon its item lost",
                    )
                )
                out = new
                return out
        for m in reversed(list(_GAP.finditer(out))):
            # Recorded with a word either side: short enough to stay within one block.
            before = re.search(r"\S+$", out[: m.start()]).group(0)
            after = re.match(r"\S+", out[m.end() :]).group(0)
            fixes.append(
                Fix(
                    n,
                    f"{before}{m.group(0)}{after}",
                    f"{before} {{icon:lost}} {after}",
                    "icon lost in extraction (two spaces where it stood)",
                )
            )
            out = out[: m.start()] + " {icon:lost} " + out[m.end() :]
        for m in reversed(list(_EMPTY_PARENS.finditer(out))):
            before = re.search(r"\S*\s*$", out[: m.start()]).group(0)
            fixes.append(
                Fix(
                    n,
                    f"{before}()",
                    f"{before}({{icon:lost}})",
                    "icon lost in extraction (empty brackets)",
                )
            )
            out = out[: m.start()] + "({icon:lost})" + out[m.end() :]
        return out


def _markdown(p: Para) -> str:
    """A paragraph's lines as Markdown: wrapped lines joined, list items one a line."""
    if not p.is_list():
        return p.text
    out: list[str] = []
    for _, t in p.lines:
        m = _ITEM.fullmatch(t)
        if not m:
            if out:
                out[-1] += " " + t.strip()
            else:
                out.append(t.strip())
            continue
        marker = m.group(2)
        nested = bool(m.group(1)) or marker.startswith("- ") and marker[-2:-1].isalpha()
        if nested and out:
            out.append(
                "    - " + (marker[1:].strip() + " " if len(marker) > 1 else "") + m.group(3)
            )
        else:
            out.append(f"{marker} {m.group(3)}")
    # A first item ending in ':' over more items is their lead-in, not an item.
    if len(out) > 1 and out[0].startswith("- ") and out[0].endswith(":"):
        out = [out[0][2:], ""] + [line.removeprefix("    ") for line in out[1:]]
    return "\n".join(out)


def blocks(paras: list[Para], icons: Icons, fixes: list[Fix]) -> list[dict[str, str]]:
    """The paragraphs as body blocks: rule text, and each "*For example" part as an example."""
    out: list[dict[str, str]] = []
    lead = ""
    for p in paras:
        if not p.is_list():
            lead = p.text
        lines = []
        for n, t in p.lines:
            lines.append((n, icons.line(n, t, lead, fixes)))
            if t.rstrip().endswith(":"):
                lead = t.strip(" -")  # a lead-in line inside the list: "- Dilemma Icons include:"
        p.lines = lines
        text = _markdown(p)
        m = _EXAMPLE.search(text)
        parts = [("rule", text)]
        if m and not p.is_list():
            head, tail = text[: m.start()].strip(), text[m.start() :].strip()
            parts = ([("rule", head)] if head else []) + [("example", tail)]
        for kind, words in parts:
            if out and kind == "rule" and "rule" in out[-1]:
                out[-1]["rule"] += "\n\n" + words
            else:
                out.append({kind: words})
    return out
