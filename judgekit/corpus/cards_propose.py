"""The maintainer's tool: propose card mentions for review, ``python -m judgekit.corpus.cards_propose``.

For every held version it finds each card name in each entry (exact titles and aliases as whole
words, the unique-dot form •Jean-Luc Picard, possessives), leaves what the mentions file already
records (mention or not), and prints the rest; with ``--draft DIR`` only a draft's versions
(before ``judgekit import --accept``, whose checks need every name recorded). ``--write`` adds them to the version's
``<version>.mentions.yaml`` as mentions; a maintainer then reviews every one (a common word is not
a card) and moves the wrong ones to ``not_mentions`` with a reason before committing. ``--write``
rewrites the file in its canonical layout (one line per entry); comments in it are not kept.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from judgekit.corpus.cards import (
    CARD_FILES,
    CardIndex,
    TitleFinder,
    mentions_path,
    scan_text,
)
from judgekit.corpus.model import Corpus, Version
from judgekit.corpus.read import CorpusError, read_corpus

CONTEXT = 40  # characters shown either side of a found name


@dataclass(frozen=True)
class Proposal:
    """A card name found in an entry and not yet recorded either way."""

    entry: str
    card: str
    words: str
    context: str
    review: str  # why a maintainer should look twice, or ""


def _review(words: str, text: str, start: int) -> str:
    before = text[:start].rstrip()
    if " " not in words.strip():
        return "one-word title: is it the card or an ordinary word?"
    if not before or before[-1] in ".:!?\n":
        return "at the start of a sentence or line"
    return ""


def proposals(index: CardIndex, version: Version) -> list[Proposal]:
    """What the finder sees in a version that its mentions file does not record yet."""
    finder = TitleFinder(index.of_edition(version.edition))
    known = {
        (m.entry, m.card)
        for m in [*index.mentions, *index.not_mentions]
        if (m.document, m.version) == (version.document, version.id)
    }
    out: list[Proposal] = []
    for entry in version.walk():
        text = scan_text(entry.title, entry.markdown)
        for hit in finder.find(text):
            context = text[max(0, hit.start - CONTEXT) : hit.end + CONTEXT].replace("\n", " ")
            for card in hit.cards:
                if (entry.id, card) in known:
                    continue
                known.add((entry.id, card))
                out.append(
                    Proposal(
                        entry.id, card, hit.words, context, _review(hit.words, text, hit.start)
                    )
                )
    return out


def _q(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def render_file(index: CardIndex, version: Version, new: list[Proposal]) -> str:
    """The mentions file with what it records plus the new proposals, one entry per line."""
    cards: dict[str, list[str]] = {}
    for m in index.mentions:
        if (m.document, m.version) == (version.document, version.id):
            cards.setdefault(m.entry, []).append(m.card)
    for p in new:
        cards.setdefault(p.entry, []).append(p.card)
    order = {entry_id: i for i, entry_id in enumerate(version.entries)}
    lines = [
        '# Card mentions of this version (rules/FORMAT.md, "Cards"): proposed by',
        "# python -m judgekit.corpus.cards_propose, reviewed by hand; `judgekit check` verifies them.",
        f"document: {version.document}",
        f"version: {_q(version.id)}",
        "mentions:",
    ]
    for entry_id in sorted(cards, key=lambda e: order.get(e, len(order))):
        lines.append(f"  - {{entry: {entry_id}, cards: [{', '.join(cards[entry_id])}]}}")
    nots = [
        n for n in index.not_mentions if (n.document, n.version) == (version.document, version.id)
    ]
    lines.append("not_mentions:" + ("" if nots else " []"))
    for n in sorted(nots, key=lambda n: (order.get(n.entry, len(order)), n.card)):
        lines.append(f"  - {{entry: {n.entry}, card: {n.card}, reason: {_q(n.reason)}}}")
    return "\n".join(lines) + "\n"


def run(corpus: Corpus, write: bool, out=None, drafts_only: bool = False) -> int:
    """Print (and with ``write`` record) every proposal; return how many there were."""
    out = out or sys.stdout
    index = corpus.cards or CardIndex()
    total = 0
    for version in corpus.versions():
        if version.edition not in CARD_FILES or (drafts_only and not version.draft):
            continue
        found = proposals(index, version)
        total += len(found)
        for p in found:
            flag = f"  [review: {p.review}]" if p.review else ""
            print(
                f"{version.document}/{version.id}/{p.entry}: {p.card} ← {p.words!r}"
                f"  …{p.context}…{flag}",
                file=out,
            )
        if write and found:
            Path(mentions_path(version.path)).write_text(
                render_file(index, version, found), encoding="utf-8"
            )
    return total


def main(argv: list[str] | None = None) -> int:
    """The command line: print proposals; ``--write`` records them for review."""
    parser = argparse.ArgumentParser(prog="python -m judgekit.corpus.cards_propose")
    parser.add_argument("--root", help="the corpus folder (holding rules/ and rulings/)")
    parser.add_argument(
        "--write", action="store_true", help="add the proposals to the mentions files"
    )
    parser.add_argument(
        "--draft",
        metavar="DIR",
        help="only the draft folder's versions (their mentions files are written in the draft)",
    )
    args = parser.parse_args(argv)
    try:
        # Only the format: it is how unrecorded names get recorded.
        corpus = read_corpus(args.root, draft=args.draft)
    except CorpusError as exc:
        print("\n".join(exc.problems), file=sys.stderr)
        return 1
    total = run(corpus, args.write, drafts_only=bool(args.draft))
    print(f"{total} proposal(s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
