"""Map a blind question set's seed quotes to corpus entries, mechanically (no judgement, no search).

Run: .venv/bin/python tests/benchmarks/map_blind_quotes.py WRITTEN.yaml MAPPED.yaml
Each written question names its game, version and a verbatim quote from a seed; its entry is the
one of that version whose text holds the quote (up to typography and punctuation), the deepest if
several do; failing that, the closest by matched characters (at least 90 %). Lines naming a fuzzy
match or a heading that differs from the entry's title are printed for a person to check.
"""

from __future__ import annotations

import difflib
import re
import sys

import yaml

from judgekit.checks.loader import load_corpus
from judgekit.corpus.typography import normalize_typography

DOCUMENT = {"2E": "2e-rulebook", "1E": "1e-current-rulings"}


def plain(text: str) -> str:
    """Lower-case words and digits only: quotes are compared up to typography and markup."""
    text = normalize_typography(text, casefold=True)
    return re.sub(r"\s+", " ", re.sub(r"[^a-z0-9 ]+", " ", text)).strip()


def closest(quote: str, texts: dict[str, str]) -> tuple[float, str]:
    """The entry whose text shares the most characters with the quote, and that share."""
    scored = []
    for eid, text in texts.items():
        blocks = difflib.SequenceMatcher(None, quote, text, autojunk=False).get_matching_blocks()
        scored.append((sum(b.size for b in blocks) / len(quote), eid))
    return max(scored)


def main(written: str, mapped: str) -> None:
    """Write the mapped set (q, category, expect, quote, params) and report what needs a look."""
    corpus = load_corpus()
    out, unmatched = [], 0
    for item in yaml.safe_load(open(written, encoding="utf-8")):
        doc, ver = DOCUMENT[item["game"]], str(item["version"])
        entries = next(v for v in corpus.documents[doc].versions if v.id == ver).entries
        texts = {
            eid: plain(e.title + " " + " ".join(b.text for b in e.body))
            for eid, e in entries.items()
        }
        quote = plain(item["quote"])
        hits = sorted(
            (eid for eid, text in texts.items() if quote in text),
            key=lambda eid: (-entries[eid].depth, len(texts[eid])),
        )
        how = "exact"
        if not hits:
            share, eid = closest(quote, texts)
            if share < 0.9:
                print("UNMATCHED", item["q"], "|", item.get("heading"), file=sys.stderr)
                unmatched += 1
                continue
            hits, how = [eid], f"fuzzy {share:.2f}"
        title, heading = plain(entries[hits[0]].title), plain(item.get("heading") or "")
        if how != "exact" or (heading[:20] not in title and title[:20] not in heading):
            print("CHECK", how, "|", item.get("heading"), "->", hits[0], file=sys.stderr)
        record = {"q": item["q"], "category": item["category"], "expect": f"{doc}/{ver}/{hits[0]}"}
        record["quote"] = item["quote"]
        if item.get("chosen"):
            record["params"] = {"edition": item["chosen"]}
        out.append(record)
    with open(mapped, "w", encoding="utf-8") as f:
        yaml.safe_dump(out, f, sort_keys=False, allow_unicode=True, width=1000)
    print(len(out), "mapped,", unmatched, "unmatched")


if __name__ == "__main__":
    main(*sys.argv[1:3])
