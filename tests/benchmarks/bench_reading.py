"""Benchmark the reading pages: a synthetic 600-entry version, the real corpus, and start-up.

Run: .venv/bin/python tests/benchmarks/bench_reading.py   (figures go in BENCHMARKS.md)
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judgekit import create_app  # noqa: E402

WORDS = (
    "personnel ship mission dilemma attempt cost counters range order event interrupt equipment "
    "player turn card stop kill discard hand deck core headquarters facing overcome score point "
    "skill attribute integrity cunning strength weapons shields engage combat battle report"
).split()


def synthetic(root: Path, sections: int = 60, per_section: int = 8, terms: int = 120) -> int:
    """Write a one-version corpus of about 600 entries with a glossary of `terms` terms."""
    rng = random.Random(4)
    (root / "rules" / "big").mkdir(parents=True)
    (root / "rules" / "icons.yaml").write_text(
        "icons:\n  - {name: command, label: Command, group: staffing, shape: star}\n"
    )
    (root / "rules" / "big" / "document.yaml").write_text(
        "id: big\ntitle: Big Book\nshort_title: Big\nedition: 2E\nkind: rulebook\n"
    )
    glossary_terms = [" ".join(rng.sample(WORDS, rng.choice((1, 2)))) for _ in range(terms)]
    glossary_terms = list(dict.fromkeys(glossary_terms))

    def text() -> str:
        sentences = []
        for _ in range(rng.randint(3, 8)):
            words = rng.choices(WORDS, k=rng.randint(8, 20))
            sentences.append(" ".join(words).capitalize() + ".")
        return " ".join(sentences) + " Staffed by {icon:command}."

    entries = []
    count = 0
    for s in range(sections):
        children = []
        for c in range(per_section):
            children.append(
                {
                    "id": f"s{s}-c{c}",
                    "title": f"Rule {s}.{c}",
                    "source": [{"file": "x.txt", "lines": "1-2"}],
                    "body": [{"rule": text()}, {"example": f"*For example, {text()}*"}],
                }
            )
        entries.append(
            {
                "id": f"s{s}",
                "title": f"Section {s}",
                "source": [{"file": "x.txt", "lines": "1-2"}],
                "body": [{"rule": text() + f" See [[s{(s + 1) % sections}|the next section]]."}],
                "children": children,
            }
        )
        count += 1 + per_section
    glossary = [
        {
            "id": f"gl-{i}",
            "kind": "glossary",
            "title": term,
            "source": [{"file": "x.txt", "lines": "1-2"}],
            "body": [{"rule": text()}],
        }
        for i, term in enumerate(glossary_terms)
    ]
    entries.append(
        {
            "id": "glossary",
            "title": "Glossary",
            "source": [{"file": "x.txt", "lines": "1-2"}],
            "children": glossary,
        }
    )
    count += 1 + len(glossary)
    version = {
        "document": "big",
        "id": "1",
        "title": "Big Book 1",
        "short_title": "v1",
        "edition": "2E",
        "released": "2015-04",
        "released_printed": "April 2015",
        "publisher": "Bench",
        "supersedes": None,
        "sources": [{"file": "x.txt"}],
        "toc": [{"title": f"SECTION {s}", "entry": f"s{s}"} for s in range(sections)],
        "entries": entries,
    }
    (root / "rules" / "big" / "1.yaml").write_text(yaml.safe_dump(version, sort_keys=False))
    return count


def timed(fn, repeat: int = 1) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def get(client, url: str) -> bytes:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.data


def bench_synthetic() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        count = synthetic(Path(tmp))
        app = create_app({"TESTING": True, "CORPUS_DIR": tmp})
        client = app.test_client()
        url = "/rules/big/1/"
        cold = timed(lambda: get(client, url))[0]
        warm = timed(lambda: get(client, url), repeat=10)
        size = len(get(client, url))
        lib = app.extensions["judgekit"]["library"]
        entries = list(lib.corpus.version("big", "1").walk())
        per_entry = timed(lambda: [get(client, lib.entry_url(e)) for e in entries])[0]
        print(f"synthetic version: {count} entries, page {size / 1024:.0f} KiB")
        print(f"  version page cold (first request): {cold:.0f} ms")
        print(f"  version page warm: median {statistics.median(warm):.1f} ms")
        print(
            f"  every entry page once: {per_entry:.0f} ms ({per_entry / len(entries):.2f} ms each)"
        )


def bench_real() -> None:
    app = create_app({"TESTING": True})
    client = app.test_client()
    lib = app.extensions["judgekit"]["library"]
    for version in lib.corpus.versions():
        url = lib.version_url(version)
        cold = timed(lambda url=url: get(client, url))[0]
        warm = statistics.median(timed(lambda url=url: get(client, url), repeat=10))
        entries = list(version.walk())
        total = timed(lambda entries=entries: [get(client, lib.entry_url(e)) for e in entries])[0]
        print(
            f"real {version.document} {version.id}: {len(entries)} entries; version page cold "
            f"{cold:.0f} ms, warm {warm:.1f} ms; entry pages {total / len(entries):.2f} ms each"
        )


def bench_startup() -> None:
    """`judgekit serve` from launch to the first answered request: as a judge starts it (a
    process per core), and from one process (which prepares the search after its first answer)."""
    for extra in ([], ["--workers", "1"]):
        elapsed = _first_answer(extra)
        name = " ".join(["judgekit serve", *extra])
        print(f"{name}: first page answered {elapsed:.0f} ms after launch")


def _first_answer(extra: list[str]) -> float:
    """Milliseconds from launching `judgekit serve` to its first answered page (bounded)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    exe = Path(sys.executable).with_name("judgekit")
    start = time.perf_counter()
    proc = subprocess.Popen(
        [str(exe), "serve", "--port", str(port), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as response:
                    response.read()
                break
            except OSError:
                if time.perf_counter() - start > 30:
                    raise
                time.sleep(0.02)
        return (time.perf_counter() - start) * 1000
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    bench_synthetic()
    bench_real()
    bench_startup()
