"""Where a search's time goes inside `judgekit serve`: each request's stages, per process.

Installed in the server's process before `judgekit serve` forks (bench_stages.py starts the server
with it), it wraps the functions below with timers, without changing what they do, and writes a
line of JSON for each request to DIR/<pid>.jsonl: when waitress queued it and when a thread took
it (perf_counter, which is the system's monotonic clock, comparable across processes), the
thread's CPU time over it, and the wall time of each stage. A benchmark aid only: it adds a few
microseconds a request.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

_local = threading.local()
_files: dict[int, object] = {}
_lock = threading.Lock()
_folder: Path | None = None


def _add(stage: str, seconds: float) -> None:
    record = getattr(_local, "record", None)
    if record is not None:
        record[stage] = record.get(stage, 0.0) + seconds


def _timed(stage: str, function: Callable) -> Callable:
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            _add(stage, time.perf_counter() - start)

    wrapper.__wrapped__ = function
    return wrapper


def _write(record: dict) -> None:
    pid = os.getpid()
    with _lock:
        out = _files.get(pid)
        if out is None:
            assert _folder is not None
            out = _files[pid] = open(_folder / f"{pid}.jsonl", "a", buffering=1)  # noqa: SIM115
        out.write(json.dumps(record) + "\n")


def _patch(owner: object, name: str, stage: str) -> None:
    setattr(owner, name, _timed(stage, getattr(owner, name)))


def install(folder: str) -> None:
    """Wrap waitress's queue, the search's stages and the embedding with timers (see module)."""
    global _folder
    _folder = Path(folder)
    from waitress.channel import HTTPChannel
    from waitress.server import BaseWSGIServer

    from judgekit.meaning import batch, encoder, passages
    from judgekit.search import index, ranking, service
    from judgekit.web.api import search as api_search

    queue = BaseWSGIServer.add_task

    def add_task(self, channel):
        channel._probe_queued = time.perf_counter()
        return queue(self, channel)

    BaseWSGIServer.add_task = add_task
    serve = HTTPChannel.service

    def service_channel(self):
        queued = getattr(self, "_probe_queued", None)
        start, cpu = time.perf_counter(), time.thread_time()
        request = self.requests[0] if self.requests else None
        _local.record = {}
        try:
            return serve(self)
        finally:
            record, _local.record = _local.record, None
            if request is not None and request.path == "/api/search":
                record.update(
                    pid=os.getpid(),
                    query=request.query,
                    queued=queued,
                    start=start,
                    end=time.perf_counter(),
                    cpu=time.thread_time() - cpu,
                    waiting_tasks=len(self.server.task_dispatcher.queue),
                )
                _write(record)

    HTTPChannel.service = service_channel
    _patch(service.SearchService, "search", "search")
    _patch(service.SearchService, "shape", "shape")
    _patch(service, "snippet", "snippets")
    _patch(index.SearchIndex, "plan", "plan")
    _patch(index.SearchIndex, "_nearness", "meaning")
    _patch(ranking, "rank", "rank")
    _patch(index, "collapse", "collapse")
    _patch(passages.Passages, "nearness", "passages")
    _patch(api_search, "jsonify", "json")
    embed_many = encoder.Encoder.embed_many

    def embed_many_probe(self, texts):
        start, cpu = time.perf_counter(), time.thread_time()
        try:
            return embed_many(self, texts)
        finally:
            _add("embed_pass", time.perf_counter() - start)
            _add("embed_pass_cpu", time.thread_time() - cpu)
            _add("embed_pass_texts", len(texts))

    encoder.Encoder.embed_many = embed_many_probe
    _patch(batch.Gather, "embed", "embed")
    from judgekit.meaning import embedder

    answer = embedder._answer

    def answer_probe(encoder, batch, selector):
        start, cpu = time.perf_counter(), time.thread_time()
        try:
            return answer(encoder, batch, selector)
        finally:
            _write(
                {
                    "pid": os.getpid(),
                    "pass": len(batch),
                    "start": start,
                    "wall": time.perf_counter() - start,
                    "cpu": time.thread_time() - cpu,
                }
            )

    embedder._answer = answer_probe
    from judgekit.commands import serve as serve_command

    if os.environ.get("PROBE_NO_EMBEDDER"):  # as before the embedder process: for comparison
        serve_command._embedder = lambda app: None
    if os.environ.get("PROBE_NO_NICE"):  # the embedder, the workers at its priority
        serve_command.WORKER_NICE = 0
