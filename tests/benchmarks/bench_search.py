"""Benchmark search: relevance per category, in-process latency, a 10x corpus, the real server.

Run: .venv/bin/python tests/benchmarks/bench_search.py [--relevance [--questions FILE] [--misses] [--strict | --in-force]] [--quick]
(the lead copies the figures into BENCHMARKS.md). Targets (issue #11), on 2 cores:
- in process, over the relevance questions: p50 <= 1.5 ms, p95 <= 6 ms;
- a synthetic corpus 10x the real one: p95 <= 15 ms;
- the real server (`judgekit serve`, waitress, a process per core), 8 loopback clients, >= 1,000 distinct queries:
  >= 400 searches a second, p95 <= 50 ms, no errors; beside a hello-world Flask app on waitress
  measured by the same client in the same run.
Issue #27 (search by meaning, included unless --no-meaning): in process p95 <= 20 ms; the server
>= 300 searches a second with p95 <= 50 ms; it is also measured with meaning off, for comparison.
The machine is shared: CPU time (thread_time) is printed beside wall time, and the load average.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import gc
import http.client
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judgekit.checks.loader import load_corpus  # noqa: E402
from judgekit.render.library import Library  # noqa: E402
from judgekit.search.analysis import words  # noqa: E402
from judgekit.search.cache import default_cache_dir  # noqa: E402
from judgekit.search.documents import build_ram  # noqa: E402
from judgekit.search.service import SearchService  # noqa: E402
from judgekit.search.snippets import _snippet  # noqa: E402
from judgekit.search.sources import entry_docs, timing_source  # noqa: E402
from judgekit.search.vocabulary import load_vocabulary  # noqa: E402
from judgekit.web.workers import WORKER_HEADER, WORKER_HEADER_ENV, auto_count  # noqa: E402
from tests.relevance_metrics import QUESTIONS_FILE, load_questions, measure, table  # noqa: E402

CLIENTS = 8
HELLO = """
import sys, flask, waitress
app = flask.Flask("hello")


@app.get("/api/search")
def hello():
    return {"query": flask.request.args.get("q", "")}


waitress.serve(app, host="127.0.0.1", port=int(sys.argv[1]), threads=8, ident="hello")
"""


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


def load() -> str:
    return f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


def question_params() -> list[dict]:
    return [{"q": item["q"], **item.get("params", {})} for item in load_questions()]


def run_clients(target, clients: int = CLIENTS) -> tuple[float, float]:
    """Run target in `clients` threads at once; the wall time and this process's CPU time."""
    threads = [threading.Thread(target=target) for _ in range(clients)]
    start, start_cpu = time.perf_counter(), time.process_time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - start, time.process_time() - start_cpu


def share_out(
    port: int, jobs: Iterable, handle, clients: int = CLIENTS, timeout: float = 30
) -> tuple[float, float]:
    """Hand every job to handle(connection, job) from `clients` threads, each with its own
    keep-alive connection to 127.0.0.1:port (handle returns the one to go on with: a new one
    after an error), each job once; the wall time and this process's CPU time."""
    lock, todo = threading.Lock(), iter(jobs)

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        while True:
            with lock:
                job = next(todo, None)
            if job is None:
                break
            conn = handle(conn, job)
        conn.close()

    return run_clients(client, clients)


def latency(run, params: list[dict], rounds: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of each query, after one warm-up round.

    Before each round the snippets kept are forgotten: a round repeats the questions, and would
    otherwise find every one of its own snippets made (a result cache, not a search's cost)."""
    for p in params:
        run(p)
    wall, cpu = [], []
    for _ in range(rounds):
        _snippet.cache_clear()
        for p in params:
            start, start_cpu = time.perf_counter(), time.thread_time()
            run(p)
            wall.append(time.perf_counter() - start)
            cpu.append(time.thread_time() - start_cpu)
    return wall, cpu


def first_asked(service: SearchService, lib: Library, params: list[dict]) -> tuple[list, list]:
    """Each question timed the first time it is asked, after other queries warmed the service
    (latency() repeats the questions, so its rounds find whatever a query's words left cached)."""
    asked = {p["q"] for p in params}
    for q in distinct_queries(lib):
        if q not in asked:
            service.search({"q": q})
    wall, cpu = [], []
    for p in params:
        start, start_cpu = time.perf_counter(), time.thread_time()
        service.search(p)
        wall.append(time.perf_counter() - start)
        cpu.append(time.thread_time() - start_cpu)
    return wall, cpu


def threaded(service: SearchService, lib: Library) -> None:
    """Queries not asked before, from CLIENTS threads in one process, each asked once (questions
    asked at once are embedded together: meaning/batch.py): the rate, CPU a query, passes."""
    asked = set(distinct_queries(lib))  # first_asked asked these: others, never asked
    todo, lock = iter([q for q in distinct_queries(lib, 2400) if q not in asked]), threading.Lock()
    gather = service.index.meaning.gather if service.index.meaning else None
    before = (gather.passes, gather.texts) if gather else (0, 0)
    count = 0

    def ask() -> None:
        nonlocal count
        while True:
            with lock:
                q = next(todo, None)
                count += q is not None
            if q is None:
                return
            service.search({"q": q})

    wall, cpu = run_clients(ask)
    passes, texts = (gather.passes - before[0], gather.texts - before[1]) if gather else (0, 0)
    print(
        f"in process, {CLIENTS} threads, {count} distinct queries: {count / wall:.0f}/s, CPU "
        f"{ms(cpu / count)} a query; {texts} questions embedded in {passes} passes ({load()})"
    )


def report(name: str, times: tuple[list[float], list[float]]) -> None:
    wall, cpu = times
    print(
        f"{name}: n={len(wall)}; wall p50 {ms(statistics.median(wall))}, p95 "
        f"{ms(percentile(wall, 95))}; CPU p50 {ms(statistics.median(cpu))}, p95 "
        f"{ms(percentile(cpu, 95))} ({load()})"
    )


def relevance(
    service: SearchService,
    questions: Path | None = None,
    misses: bool = False,
    strict: bool = False,
    in_force: bool = False,
) -> None:
    questions = load_questions(questions or QUESTIONS_FILE)
    scores, ranked = measure(service.search, questions, strict, in_force)
    print(table(scores))
    for item, rank in ranked if misses else ():
        if rank is None or rank > 3:
            print(f"  miss {item['category']}: {item['q']!r} -> {item['expect']} at {rank}")


# -- a corpus ten times bigger ------------------------------------------------------------------
def tenfold(docs: list) -> list:
    """The real items ten times over, each copy its own topic, with some words shuffled so the
    copies are not identical (the vocabulary and postings grow as a bigger corpus's would)."""
    rng = random.Random(11)
    out = list(docs)
    for i in range(1, 10):
        for d in docs:
            text = d.text.split()
            if len(text) > 8:
                a, b = rng.randrange(len(text)), rng.randrange(len(text))
                text[a], text[b] = text[b], text[a]
            out.append(dataclasses.replace(d, document=f"{d.document}-x{i}", text=" ".join(text)))
    return out


# -- the real server -----------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int, path: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", path)
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"no server on port {port}")


def distinct_queries(lib: Library, count: int = 1200) -> list[str]:
    """Questions, runs of 2-4 words from the rulebooks, and words typed letter by letter."""
    rng = random.Random(7)
    out = dict.fromkeys(q["q"] for q in question_params())
    texts = [lib.plain(e) for v in lib.corpus.versions() for e in v.walk()]
    while len(out) < count * 2 // 3:
        run = words(rng.choice(texts))
        if len(run) >= 4:
            start = rng.randrange(len(run) - 3)
            out.setdefault(" ".join(run[start : start + rng.randint(2, 4)]))
    questions = list(out)
    for q in rng.sample(questions, 60):
        for end in range(1, len(q) + 1):
            out.setdefault(q[:end])  # typing: every prefix, each sent once
            if len(out) >= count:
                return list(out)
    return list(out)


def hammer(port: int, path: str, queries: list[str], sent: list | None = None) -> dict:
    """CLIENTS threads with keep-alive connections share the queries; each sent once. Also the
    client's own CPU a request (it shares the cores with the server), and the p95 of the answers
    meaning took part in ("by_meaning": true, their questions embedded) and of the others.
    sent: gets (query string, perf_counter when sent, seconds to the answer) for each request."""
    lock = threading.Lock()
    times: list[float] = []
    by_meaning: dict[bool, list[float]] = {True: [], False: []}
    workers: collections.Counter[str] = collections.Counter()  # answers by process (pid)
    connections: collections.Counter[str] = collections.Counter()  # clients by process
    errors: list[str] = []
    counted: set[int] = set()  # the connections whose process was counted

    def ask(conn: http.client.HTTPConnection, q: str) -> http.client.HTTPConnection:
        query = urlencode({"q": q})
        start = time.perf_counter()
        try:
            conn.request("GET", f"{path}?{query}")
            response = conn.getresponse()
            body = response.read()
            ok = response.status == 200
        except OSError as exc:
            ok, body, response = False, b"", None
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            errors.append(str(exc))
        elapsed = time.perf_counter() - start
        worker = (response.getheader(WORKER_HEADER) if response else None) or "?"
        with lock:
            times.append(elapsed)
            if sent is not None:
                sent.append((query, start, elapsed))
            by_meaning[b'"by_meaning":true' in body].append(elapsed)
            workers[worker] += ok
            if ok and id(conn) not in counted:  # a kept-alive connection stays with its process
                connections[worker] += 1
                counted.add(id(conn))
            if not ok:
                errors.append(q)
        return conn

    wall, cpu = share_out(port, queries, ask)
    return {
        "n": len(times),
        "rate": len(times) / wall,
        "p50": statistics.median(times),
        "p95": percentile(times, 95),
        "errors": len(errors),
        "client_cpu": cpu / len(times),
        "meaning": {k: (len(v), percentile(v, 95) if v else 0.0) for k, v in by_meaning.items()},
        # A keep-alive connection stays with the process that accepted it: with 8 clients and
        # 2 processes, one process may answer most of them while the other idles.
        "split": sorted(workers.values(), reverse=True),
        "connections": sorted(connections.values(), reverse=True),
    }


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its running children (workers) so far (/proc)."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    kids = [int(k) for k in children.read_text().split()] if children.exists() else []
    total = 0
    for each in [pid, *kids]:
        fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def wait_for_line(log, text: str, seconds: float = 300, times: int = 1) -> float:
    """Wait until the server's output holds text, times (judgekit says when every page is warm,
    once from each process)."""
    start = deadline = time.monotonic()
    deadline += seconds
    while time.monotonic() < deadline:
        log.seek(0)
        if log.read().decode(errors="replace").count(text) >= times:
            return time.monotonic() - start
        time.sleep(0.2)
    raise RuntimeError(f"the server never said {text!r} {times} times")


def wait_for_pack(log, seconds: float = 300) -> None:
    """Wait until the judge pack's zip, which a server builds in the background after its first
    start on an address (a child process), is built: measured during it, searches share the
    cores with the build."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        log.seek(0)
        said = log.read().decode(errors="replace")
        if "judge pack: building" not in said or "judge pack: built" in said:
            return
        if "judge pack: build failed" in said or "took too long" in said:
            return
        time.sleep(0.5)
    raise RuntimeError("the judge pack's build never ended")


def serve_and_hammer(
    command: list[str],
    port: int,
    path: str,
    queries: list[str],
    ready: str | None = None,
    processes: int = 1,
    sent: list | None = None,
) -> dict:
    """Start a server, wait for it (and for `ready` in its output), warm it, then measure."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", WORKER_HEADER_ENV: "1"}
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(command, env=env, stdout=log, stderr=log)
    try:
        try:
            wait_for(port, f"{path}?q=warm")
            # `judgekit serve` renders every page in the background after start-up; measured
            # while it does, searches share the interpreter with that warm-up. Steady state is
            # what a judge meets after the first seconds, so wait for it.
            waited = wait_for_line(log, ready, times=processes) if ready else 0.0
            if ready:
                wait_for_pack(log)
        except RuntimeError:
            log.seek(0)
            raise RuntimeError(log.read().decode(errors="replace")[-2000:]) from None
        hammer(port, path, [f"warm {w}" for w in ("dilemma", "beam", "mission")] * 8)
        before = cpu_seconds(proc.pid)
        found = hammer(port, path, queries, sent)
        # The server's own CPU per request: what the load of other processes does not inflate
        # as much as wall time (the rate a quiet 2-core machine allows is about 2 / this).
        found["cpu"] = (cpu_seconds(proc.pid) - before) / found["n"]
        found["waited"] = waited
        return found
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


def server(lib: Library, cache: str, meaning: bool = True) -> None:
    queries = distinct_queries(lib)
    assert len(set(queries)) == len(queries) >= 1000
    script = "from judgekit.commands import main; raise SystemExit(main())"
    # The cache holds the corpus's vectors (main() loaded them): each server loads them at start.
    os.environ.update({"JUDGEKIT_SEARCH_CACHE_DIR": cache})
    results = []
    # The real server as a judge starts it (one process per core: workers.auto_count()), then
    # the same from one process, then with meaning off, for comparison.
    runs = [(None, meaning), (1, meaning)] + ([(None, False)] if meaning else [])
    for workers, with_meaning in runs:
        os.environ["JUDGEKIT_SEARCH_MEANING"] = "kept" if with_meaning else "off"
        port = free_port()
        judgekit = [sys.executable, "-c", script, "serve", "--port", str(port)]
        judgekit += ["--workers", str(workers)] if workers else []
        processes = workers or auto_count()
        found = serve_and_hammer(
            judgekit, port, "/api/search", queries, "pages ready in memory", processes
        )
        name = "judgekit serve" + (f" --workers {workers}" if workers else "")
        name += f" ({processes} process{'es' if processes > 1 else ''}"
        name += ", meaning off), GET /api/search" if not with_meaning else "), GET /api/search"
        print(f"{name}: every page warm {found['waited']:.1f} s after its first answer")
        results.append((name, found))
    port = free_port()
    hello = serve_and_hammer([sys.executable, "-c", HELLO, str(port)], port, "/api/search", queries)
    for name, r in [*results, ("hello-world Flask", hello)]:
        embedded, others = r["meaning"][True], r["meaning"][False]
        print(
            f"{name}: {r['n']} distinct queries, {CLIENTS} clients: {r['rate']:.0f}/s, "
            f"p50 {ms(r['p50'])}, p95 {ms(r['p95'])}, errors {r['errors']}; "
            f"server CPU {ms(r['cpu'])} a request, the client's {ms(r['client_cpu'])}; "
            f"p95 by meaning {ms(embedded[1])} (n={embedded[0]}), else {ms(others[1])}; "
            f"answers by process {r['split']}, clients by process {r['connections']}"
        )
    for name, r in results:
        print(f"{name} / hello-world throughput: {r['rate'] / hello['rate']:.2f} ({load()})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--relevance", action="store_true", help="the relevance table only")
    parser.add_argument(
        "--questions", type=Path, help="with --relevance: another questions file (the held-out set)"
    )
    parser.add_argument("--misses", action="store_true", help="with --relevance: list the misses")
    parser.add_argument(
        "--strict",
        action="store_true",
        help="with --relevance: only `expect` answers (not its rule's later restatements, `also`)",
    )
    parser.add_argument(
        "--in-force",
        action="store_true",
        help="with --relevance: also the version in force's passage a reader found (`in_force`)",
    )
    parser.add_argument("--quick", action="store_true", help="one round, no server")
    parser.add_argument("--server", action="store_true", help="the real server only")
    parser.add_argument("--no-meaning", action="store_true", help="search by words alone")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {load()}")
    lib = Library(load_corpus())
    cache = str(default_cache_dir() or tempfile.mkdtemp(prefix="judgekit-bench-"))
    service = SearchService.for_library(lib, cache)
    service.index  # noqa: B018
    if not args.no_meaning:
        start = time.perf_counter()
        print(f"search by meaning: {service.load_meaning()} ({time.perf_counter() - start:.1f} s)")
    if not args.relevance:
        # As `judgekit serve` prepares itself before judges search: every term's scores and
        # item's words read, then what is prepared left out of the collector's walks.
        service.warm()
        gc.freeze()
    if args.relevance:
        relevance(service, args.questions, args.misses, args.strict, args.in_force)
        return
    if args.server:
        server(lib, cache, not args.no_meaning)
        return
    relevance(service)
    params = question_params()
    rounds = 1 if args.quick else 5
    report("in process, each question asked once", first_asked(service, lib, params))
    report(
        "in process, SearchService.search (the API's dict)", latency(service.search, params, rounds)
    )
    threaded(service, lib)
    index = service.index
    report(
        "in process, index only",
        latency(lambda p: index.search(p["q"], limit=20), params, rounds),
    )
    docs = entry_docs(lib)
    steps = timing_source(lib)
    docs += steps.docs() if steps else []
    big_docs = tenfold(docs)
    start = time.perf_counter()
    big = build_ram(big_docs)
    big.use_vocabulary(load_vocabulary(lib.corpus.root))
    big.warm()
    gc.freeze()
    print(f"10x corpus: {len(big_docs)} items, built in {time.perf_counter() - start:.1f} s")
    report(
        "10x corpus, index only",
        latency(lambda p: big.search(p["q"], limit=20), params, max(1, rounds - 2)),
    )
    if not args.quick:
        server(lib, cache, not args.no_meaning)


if __name__ == "__main__":
    main()
