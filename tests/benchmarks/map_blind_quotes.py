"""Map a blind question set's seed quotes to corpus entries, mechanically (no judgement, no search).

Run: .venv/bin/python tests/benchmarks/map_blind_quotes.py WRITTEN.yaml MAPPED.yaml
     .venv/bin/python tests/benchmarks/map_blind_quotes.py --also MAPPED.yaml   (add `also`, in place)
     .venv/bin/python tests/benchmarks/map_blind_quotes.py --in-force READ.yaml MAPPED.yaml
Each written question names its game, version and a verbatim quote from a seed; its entry is the
one of that version whose text holds the quote (up to typography and punctuation), the deepest if
several do; failing that, the closest by matched characters (at least 90 %). Lines naming a fuzzy
match or a heading that differs from the entry's title are printed for a person to check.

`also` lists the same rule in the game's later versions: in each, the entry found by the same
rule (the quote held, the deepest), or the entry of the same id if it shares at least 90 % of the
quote's characters. A question that names no version asks about the rule in force, so its rule's
later restatement answers it too (the blind writers were asked to spread questions over the older
versions without naming them; the project's own sets expect the version in force); relevance_metrics
counts `also` for every category but version-specific, and the benchmark's --strict counts
`expect` alone.

`in_force` (--in-force) is the version in force's passage that answers a question naming no version
whose quote is an older version's, where the rule was reworded or moved (so `also` does not find
it): read from the seeds by another helper who saw only the seeds and the questions, never the
code or any result (READ.yaml: q, v4_quote, v4_heading, note; v4_quote null where Version 4 does
not answer it). It is mapped as quotes are; the benchmark counts it only with --in-force.
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


def share(quote: str, text: str) -> float:
    """The share of the quote's characters found, in order, in the text."""
    blocks = difflib.SequenceMatcher(None, quote, text, autojunk=False).get_matching_blocks()
    return sum(b.size for b in blocks) / len(quote)


def closest(quote: str, texts: dict[str, str]) -> tuple[float, str]:
    """The entry whose text shares the most characters with the quote, and that share."""
    return max((share(quote, text), eid) for eid, text in texts.items())


def entry_texts(entries: dict) -> dict[str, str]:
    """Each entry's title and text, plain."""
    return {
        eid: plain(e.title + " " + " ".join(b.text for b in e.body)) for eid, e in entries.items()
    }


def holding(quote: str, entries: dict, texts: dict[str, str]) -> list[str]:
    """The entries whose text holds the quote, the deepest (then shortest) first."""
    return sorted(
        (eid for eid, text in texts.items() if quote in text),
        key=lambda eid: (-entries[eid].depth, len(texts[eid])),
    )


def also_of(corpus, expect: str, quote: str) -> list[str]:
    """The same rule in the document's later versions (see the module's docstring)."""
    doc, ver, eid = expect.split("/")
    quote, found = plain(quote), []
    versions = corpus.documents[doc].versions
    later = [v.id for v in versions].index(ver) + 1
    for version in versions[later:]:
        texts = entry_texts(version.entries)
        hits = holding(quote, version.entries, texts)
        if not hits and eid in texts and share(quote, texts[eid]) >= 0.9:
            hits = [eid]
        found += [f"{doc}/{version.id}/{hits[0]}"] if hits else []
    return found


def add_also(mapped: str) -> None:
    """Write `also` under each question's `expect` line of a mapped set, comments kept."""
    corpus = load_corpus()
    items = iter(yaml.safe_load(open(mapped, encoding="utf-8")))
    out, in_also = [], False
    for line in open(mapped, encoding="utf-8").read().splitlines():
        # An `also` already there is replaced, as a flow list or as main's block list.
        in_also = line.startswith("  also:") or (in_also and line.startswith("  - "))
        if in_also:
            continue
        out.append(line)
        if line.startswith("  expect:"):
            item = next(items)
            also = also_of(corpus, item["expect"], item["quote"])
            out += [f"  also: [{', '.join(also)}]"] if also else []
    with open(mapped, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def in_force_of(corpus, read: dict) -> str | None:
    """The Version 4 entry holding a reader's quote (the deepest, as main maps quotes), or None."""
    if not read.get("v4_quote"):
        return None
    version = corpus.documents[DOCUMENT["2E"]].latest
    texts = entry_texts(version.entries)
    quote = plain(read["v4_quote"])
    # Held verbatim only: the reader checked each quote against the seed (a fuzzy share finds
    # some entry for any short sentence).
    hits = holding(quote, version.entries, texts)
    if not hits:
        print("UNMATCHED in force", read["q"], file=sys.stderr)
        return None
    return f"{DOCUMENT['2E']}/{version.id}/{hits[0]}"


# A question that names an older version or the old rules asks about them, not the rules in force
# (written here, not taken from the search's own recognition of version names, which is measured).
NAMES_OLDER = re.compile(
    r"\b(?:1\.1|v1|call to arms|cta|2003|old(?:er)? (?:rules|book|rulebook|cta)|original)\b", re.I
)


def add_in_force(read_file: str, mapped: str) -> None:
    """Write `in_force` under each read question's `expect` line of a mapped set, comments kept;
    never for a question naming an older version (NAMES_OLDER)."""
    corpus = load_corpus()
    read = {
        r["q"]: in_force_of(corpus, r)
        for r in yaml.safe_load(open(read_file, encoding="utf-8"))
        if not NAMES_OLDER.search(r["q"])
    }
    items = iter(yaml.safe_load(open(mapped, encoding="utf-8")))
    out, added = [], 0
    for line in open(mapped, encoding="utf-8").read().splitlines():
        if line.startswith("  in_force:"):
            continue
        out.append(line)
        if line.startswith("  expect:"):
            found = read.get(next(items)["q"])
            if found:
                out.append(f"  in_force: {found}")
                added += 1
    with open(mapped, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    print(added, "in_force added of", len(read), "read")


def main(written: str, mapped: str) -> None:
    """Write the mapped set (q, category, expect, quote, params) and report what needs a look."""
    corpus = load_corpus()
    out, unmatched = [], 0
    for item in yaml.safe_load(open(written, encoding="utf-8")):
        doc, ver = DOCUMENT[item["game"]], str(item["version"])
        entries = next(v for v in corpus.documents[doc].versions if v.id == ver).entries
        texts = entry_texts(entries)
        quote = plain(item["quote"])
        hits = holding(quote, entries, texts)
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
        also = also_of(corpus, record["expect"], item["quote"])
        record.update({"also": also} if also else {})
        record["quote"] = item["quote"]
        if item.get("chosen"):
            record["params"] = {"edition": item["chosen"]}
        out.append(record)
    with open(mapped, "w", encoding="utf-8") as f:
        yaml.safe_dump(out, f, sort_keys=False, allow_unicode=True, width=1000)
    print(len(out), "mapped,", unmatched, "unmatched")


if __name__ == "__main__":
    if sys.argv[1] == "--also":
        add_also(sys.argv[2])
    elif sys.argv[1] == "--in-force":
        add_in_force(sys.argv[2], sys.argv[3])
    else:
        main(*sys.argv[1:3])
