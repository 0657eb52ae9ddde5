"""A worker's CPU a search request under `judgekit serve`, without the embedding (the embedder
process's), and where it goes.

Run: .venv/bin/python tests/benchmarks/profile_requests.py [--rounds N] [--profile [--top N]]
     [--layer app|service]

Builds the app as `judgekit serve` does (meaning kept, every page warm, gc frozen), embeds
bench_search.py's 1,200 distinct queries once (a first round, not timed), and hands each question its vector as
the embedder process would (the worker's Gather.ask_first), so what is timed is the worker's own
work: the app (Flask, the API view, the search, the JSON) through its test client (`--layer app`,
the default), or SearchService.search alone (`--layer service`). Printed: the process CPU time a
request (the median of the rounds, and each round's), split by answers by meaning and by words
(with --threads N, N threads share the questions, as a worker's do: the process's CPU in all);
--profile: cProfile's top functions by own time over one round.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judgekit import create_app  # noqa: E402
from judgekit.search import snippets  # noqa: E402
from judgekit.search.cache import default_cache_dir  # noqa: E402
from judgekit.web.context import library_of  # noqa: E402
from judgekit.web.memory import warm  # noqa: E402
from judgekit.web.sitemap import all_paths  # noqa: E402
from tests.benchmarks.bench_search import distinct_queries, load  # noqa: E402


def prepared_app():
    """The app as a worker of `judgekit serve` holds it once warm."""
    cache = str(default_cache_dir())
    os.environ["JUDGEKIT_SEARCH_CACHE_DIR"] = cache
    app = create_app({"SEARCH_MEANING": "kept"})
    search = app.extensions["judgekit"]["search"]
    print(f"search by meaning: {search.load_meaning()} ({load()})")
    search.warm()
    warm(app, all_paths(library_of(app), app.extensions["judgekit"]["timing"]))
    gc.freeze()
    return app, search


def forget(app) -> None:
    """Drop the answers the app keeps in memory (not the pages pinned at start-up): each
    question is then answered afresh, as when asked the first time."""
    from judgekit.web.memory import MemoryCache

    for hook in app.before_request_funcs[None]:
        cache = getattr(hook, "__self__", None)
        if isinstance(cache, MemoryCache):
            with cache.pages._lock:
                cache.pages._items.clear()
                cache.pages.size = cache.pages.pinned_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--sort", default="tottime", help="with --profile: tottime, cumtime…")
    parser.add_argument("--layer", choices=("app", "service"), default="app")
    parser.add_argument(
        "--threads", type=int, default=1, help="threads sharing the questions (as a worker's)"
    )
    args = parser.parse_args()
    app, search = prepared_app()
    queries = distinct_queries(library_of(app))
    model = search.index.meaning
    encoder = model.encoder
    vectors: dict[tuple[int, ...], object] = {}

    def embedded(pieces) -> object:  # the embedder process's answer, computed in the warm round
        key = tuple(pieces)
        if key not in vectors:
            vectors[key] = encoder.embed_ids(list(key))
        return vectors[key].copy()

    model.gather.ask_first = embedded
    local = threading.local()

    def ask(q: str) -> bool:
        if args.layer == "service":
            return search.search({"q": q})["by_meaning"]
        if not hasattr(local, "client"):
            local.client = app.test_client()
        response = local.client.get(f"/api/search?{urlencode({'q': q})}")
        assert response.status_code == 200, response.status_code
        return response.json["by_meaning"]

    def one_round() -> tuple[float, dict[bool, list[float]]]:
        from judgekit.meaning import model as meaning_model

        # Each question asked once, as in the benchmark: nothing kept of an earlier round's.
        meaning_model._asked.cache_clear()
        snippets._snippet.cache_clear()
        forget(app)
        spent: dict[bool, list[float]] = {True: [], False: []}
        total = time.process_time()
        if args.threads > 1:  # the process's CPU in all (a request's own is not told apart)
            with ThreadPoolExecutor(args.threads) as pool:
                list(pool.map(ask, queries))
            return (time.process_time() - total) / len(queries), spent
        for q in queries:
            cpu = time.process_time()
            kind = ask(q)
            spent[kind].append(time.process_time() - cpu)
        return (time.process_time() - total) / len(queries), spent

    one_round()  # warm: every first-time cost paid
    figures = []
    for _ in range(args.rounds):
        per, spent = one_round()
        figures.append(per)
        mean = {k: statistics.mean(v) * 1000 if v else 0.0 for k, v in spent.items()}
        print(
            f"round: {per * 1000:.3f} ms of CPU a request (by meaning {mean[True]:.3f} ms, "
            f"n={len(spent[True])}; by words {mean[False]:.3f} ms) ({load()})"
        )
    print(f"{args.layer}: median {statistics.median(figures) * 1000:.3f} ms of CPU a request")
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        one_round()
        profile.disable()
        pstats.Stats(profile).sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
