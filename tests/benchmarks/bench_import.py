"""The generic importer measured against what the project curated (issue #32's measure).

Run: .venv/bin/python tests/benchmarks/bench_import.py [--seeds ../shared/seeds]
(figures go in BENCHMARKS.md)

Hold out a curated version: import its source text with ``judgekit.importing`` (never the
per-document importers, never the curated YAML of that version), based on the version before it,
and compare the draft with the curated version:

- ids: the share of curated entries whose draft entry (the one built from the same source
  lines) has the same id, or the same ``continues:`` link;
- sentences: the share of the curated version's sentences (``compare.sentences`` units of its
  plain text) the draft holds verbatim (exact text, in any entry), and typography aside (keys);
- unreported: curated entries whose id and links the draft misses while the report lists the
  draft entry as a plain, confident continuation (must be none);
- invented: draft sentences whose words (icons and list bullets aside, recorded corrections
  undone) the source does not hold (must be none);
- the import's run time (reading the source to the draft's YAML and report facts).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judgekit.compare.sentences import split_sentences, units  # noqa: E402
from judgekit.corpus.model import Block, Entry  # noqa: E402
from judgekit.corpus.read import read_corpus  # noqa: E402
from judgekit.importing.decisions import Decisions  # noqa: E402
from judgekit.importing.draft import NewDocument, build  # noqa: E402
from judgekit.importing.report import report_data  # noqa: E402
from judgekit.importing.source import read_source  # noqa: E402
from judgekit.render.library import Library  # noqa: E402

CASES = [
    # (label, source file, document, held-out version, based on, release date if not printed)
    ("v4 from Call to Arms", "001_e0857e3ae769ceaa.txt", "2e-rulebook", "4", "call-to-arms", None),
    # The OCR'd extraction of Call to Arms garbles "released in August 2003".
    (
        "Call to Arms from 1.1",
        "000_2dfc9177df82ec32.txt",
        "2e-rulebook",
        "call-to-arms",
        "1.1",
        "2003-08",
    ),
    # A new rulings document, based on nothing: its ids and sentences against the curated ones.
    ("1E Current Rulings as a new document", "004_72765c169549d7aa.txt", "1e-current-rulings",
     "2000-02-28", None, "2000-02-28"),  # its date is printed only as "2/28/00"
]  # fmt: skip


def _walk(records: list[dict], out: list[dict]) -> list[dict]:
    for r in records:
        out.append(r)
        _walk(r.get("children", []), out)
    return out


def _lines(spans, file: str) -> set[int]:
    got: set[int] = set()
    for s in spans:
        f, lines = (s.file, s.lines) if hasattr(s, "file") else (s["file"], s["lines"])
        if f == file:
            a, _, b = lines.partition("-")
            got.update(range(int(a), int(b or a) + 1))
    return got


_SQUASH = re.compile(r"\s+")
_NOISE = re.compile(
    r"(?m)\{icon:[a-z0-9-]+\}|[\u2600-\u27bf\U0001F300-\U0001FAFF]\ufe0f?|^\s*(?:-|\d+\.)\s+"
)


def _norm(text: str) -> str:
    return _SQUASH.sub(" ", _NOISE.sub("", text)).strip()


def _undone(sentence: str, fixes: list[dict]) -> list[str]:
    """The sentence as printed, with its recorded corrections undone (all, or one at a time)."""
    mine = [c for c in fixes if c["corrected"] in sentence]
    every = sentence
    for c in mine:
        every = every.replace(c["corrected"], c["original"])
    return [sentence, every] + [sentence.replace(c["corrected"], c["original"]) for c in mine]


def measure(
    seeds: Path,
    label: str,
    file: str,
    document: str,
    held: str,
    based_on: str,
    released: str | None,
) -> dict:
    """One held-out import and its figures."""
    corpus = read_corpus()
    lib = Library(corpus)
    curated = corpus.version(document, held)
    source = read_source(seeds / file)
    start = time.perf_counter()
    if based_on is None:
        new = NewDocument("Current Rulings", "1E Current Rulings", curated.edition, "rulings")
        draft = build(corpus, source, f"{document}-heldout", held, None, Decisions(), released, new)
    else:
        draft = build(corpus, source, document, f"{held}-heldout", based_on, Decisions(), released)
    data = report_data(draft)
    seconds = time.perf_counter() - start
    records = _walk(draft.version["entries"], [])
    report = {e["id"]: e for e in data["entries"]}
    drafts = [
        Entry(
            r["id"],
            r.get("kind", "section"),
            r["title"],
            document,
            draft.version_id,
            None,
            (),
            tuple(Block(k, t) for b in r.get("body", []) for k, t in b.items()),
        )
        for r in records
    ]
    # Pair each curated entry with the draft entry built from most of the same source lines.
    same, unreported, missed = 0, [], []
    for e in curated.walk():
        mine = _lines(e.source, file)
        best = max(records, key=lambda r: len(mine & _lines(r["source"], file)), default=None)
        if best is None or not mine & _lines(best["source"], file):
            missed.append(f"{e.id} (no draft entry from its lines)")
            continue
        refs = {c["ref"].split("/")[-1] for c in best.get("continues", [])}
        want = {c.ref.split("/")[-1] for c in e.continues}
        if best["id"] == e.id or (want and want & refs):
            same += 1
            continue
        missed.append(f"{e.id} -> {best['id']}")
        r = report[best["id"]]
        if r["status"] == "continues" and not r["continues"] and not r["low_confidence"]:
            unreported.append(f"{e.id} -> {best['id']}")
    total = sum(1 for _ in curated.walk())
    # Sentences.
    got_text = Counter(u.text for d in drafts for u in units(d.id, lib.plain(d)))
    got_key = Counter(u.key for d in drafts for u in units(d.id, lib.plain(d)))
    wanted = [u for e in curated.walk() for u in units(e.id, lib.plain(e))]
    verbatim = sum(1 for u in wanted if got_text[u.text] > 0)
    by_key = sum(1 for u in wanted if got_key[u.key] > 0)
    not_verbatim = [u.text for u in wanted if got_text[u.text] == 0]
    # Nothing invented: each draft sentence, corrections undone, is in the source.
    fixes = draft.corrections["corrections"]
    whole = _norm("\n".join(source.lines))
    invented = []
    for r in records:
        mine = [c for c in fixes if c["entry"] == r["id"]]
        for b in r.get("body", []):
            for text in b.values():
                for para in text.split("\n"):
                    for s in split_sentences(re.sub(r"^\s*(?:-|\d+\.)\s+", "", para)):
                        if not any(_norm(v) in whole for v in _undone(s, mine)):
                            invented.append(s)
    return {
        "case": label,
        "entries": total,
        "same_id_or_continues": same,
        "missed": missed,
        "unreported": unreported,
        "sentences": len(wanted),
        "verbatim": verbatim,
        "typography_aside": by_key,
        "not_verbatim": not_verbatim,
        "invented": invented,
        "seconds": seconds,
        "draft_entries": len(records),
        "report_lines": len(
            (
                draft
                and __import__("judgekit.importing.report", fromlist=["x"]).report_markdown(data)
            ).splitlines()
        ),
    }


def main() -> int:
    """Run every case and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default=str(ROOT.parent / "shared" / "seeds"))
    parser.add_argument("--verbose", action="store_true", help="list every miss")
    args = parser.parse_args()
    for case in CASES:
        f = measure(Path(args.seeds), *case)
        n = f["entries"]
        print(f"== {f['case']}")
        print(
            f"  ids: {f['same_id_or_continues']}/{n} same id or continues ({100 * f['same_id_or_continues'] / n:.1f} %)"
        )
        print(
            f"  sentences verbatim: {f['verbatim']}/{f['sentences']} ({100 * f['verbatim'] / f['sentences']:.1f} %), typography aside {f['typography_aside']} ({100 * f['typography_aside'] / f['sentences']:.1f} %)"
        )
        print(f"  differences not in the report: {len(f['unreported'])} {f['unreported']}")
        print(f"  draft text the source does not hold: {len(f['invented'])}")
        print(
            f"  run time: {f['seconds']:.2f} s; {f['draft_entries']} draft entries; report {f['report_lines']} lines"
        )
        if args.verbose:
            print("  missed:", f["missed"])
            for s in f["not_verbatim"]:
                print("  not verbatim:", s[:150])
            for s in f["invented"]:
                print("  invented:", s[:150])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
