"""A rulings document's rulings: each topic line under its ``RULINGS`` heading, one entry.

A rulings extraction prints a ruling as a heading, a list item or a paragraph (the 1E Current
Rulings use all three), its topic first:

- in bold: ``**Cargo Bay** You begin ...``;
- before a separator: ``Breen CRM114 - Your Away Team ...``, ``HQ: Ferengi Credit Exchange On
  ...`` (the first `` - ``, `` – `` or ``: `` the ruling's words follow in capitals);
- or run into its first sentence: ``android This Glossary entry ...`` (the topic ends before the
  first word that opens a sentence: "This", "The", "If", "See" ...; after a comma, "The" is the
  topic's own: "Big Picture, The See The Big Picture.").

``\\*`` before a topic marks a ruling new or changed (``new: true``). A paragraph that opens with
no topic goes on the ruling before it. This is a reading, not the document's markup: the report
lists every ruling for the maintainer.
"""

from __future__ import annotations

import re

from judgekit.importing.text import Node, Para

_NEW = re.compile(r"^(?:#+\s*|-\s+)?\\\*\s*")
_LEAD = re.compile(r"^(?:#+\s*|-\s+)")
_BOLD = re.compile(r"\*\*(.+?)\*\*\s*(?:[-–:]\s*)?(.*)")
_DASH = re.compile(r" [-–] ")
_COLON = re.compile(r": ")
_STARTERS = frozenset(
    "The This These That A An If When While You Your Although Because See In It Any Each Only "
    "Personnel For Unless Sharing Interrupts Interrupt Cards Points Two Even Holographic On "
    "Exocomps Native Doubling".split()
)
MAX_TOPIC = 9  # words: a longer "topic" is a sentence


def _split(text: str) -> tuple[str, str] | None:
    """A ruling line's topic and words, or None if it opens with no topic.

    Bold first, then a dash, then the word that opens the first sentence, then a colon ("HQ:
    Ferengi Credit Exchange On this incident" is one topic, "Kevin Uxbridge: Convergence" too).
    """
    bold = _BOLD.fullmatch(text)
    if bold and text.startswith("**"):
        return bold.group(1).strip(" :"), bold.group(2).strip()
    for separator in (_DASH, None, _COLON):
        found = _at_starter(text) if separator is None else _at(separator, text)
        if found:
            return found
    return None


def _at(separator: re.Pattern[str], text: str) -> tuple[str, str] | None:
    for m in separator.finditer(text):
        topic, rest = text[: m.start()], text[m.end() :]
        if len(topic.split()) > MAX_TOPIC:
            break
        if rest[:1].isupper() or rest[:1] in '"“*':
            return topic.strip(), rest.strip()
    return None


def _at_starter(text: str) -> tuple[str, str] | None:
    words = text.split(" ")
    for k, w in enumerate(words[1 : MAX_TOPIC + 1], 1):
        if w in _STARTERS and not words[k - 1].endswith(","):
            return " ".join(words[:k]), " ".join(words[k:])
    return None


def _rulings_of(lines: list[tuple[int, str]], current: Node | None, out: list[Node]) -> Node | None:
    """The rulings a run of lines opens (each item or paragraph), the rest going on before them."""
    for n, t in lines:
        raw = t.strip()
        new = bool(_NEW.match(raw))
        text = _LEAD.sub("", _NEW.sub("", raw)) if not t.startswith((" ", "\t")) else None
        found = _split(text) if text else None
        if found is None or not found[0]:
            if current is not None:
                current.paras.append(Para([(n, t)]))
            continue
        topic, rest = found
        current = Node(topic, "ruling", n, [Para([(n, rest)])] if rest else [])
        current.new = new
        out.append(current)
    return current


def rulings(nodes: list[Node]) -> list[Node]:
    """The nodes with everything after a ``Rulings`` heading read as rulings under it."""
    at = next((k for k, n in enumerate(nodes) if n.title.casefold() == "rulings"), None)
    if at is None:
        return nodes
    head = nodes[: at + 1]
    found: list[Node] = []
    current: Node | None = None
    paras = list(nodes[at].paras)
    nodes[at].paras = []
    for node in nodes[at + 1 :]:
        paras.append(Para([(node.line, node.printed)]))
        paras.extend(node.paras)
    for p in paras:
        current = _rulings_of(p.lines if p.is_list() else [(p.first, p.text)], current, found)
    return head + found
