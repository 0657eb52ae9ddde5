"""Serving from memory: each answer is rendered once, kept with a strong ETag, compressed once.

The corpus never changes while the app runs, so a page depends only on its path and on the query
parameters and cookies its view reads (pagekey.py). Answers and their compressed bodies are kept
in one LRU bounded in bytes, counting everything it holds (keys, bodies, headers, the per-item
overhead), so that no sequence of requests makes a process hold more than the bound. The pages
rendered at start-up (the sitemap) are kept for good within half of it, so a flood of other
requests cannot push them out.
"""

from __future__ import annotations

import hashlib
import sys
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from flask import Flask, Response, g, request
from flask.testing import EnvironBuilder
from flask_compress import Compress
from werkzeug.http import http_date
from werkzeug.test import run_wsgi_app

from judgekit.web.pagekey import NotingRequest, Reads, key_for, reads_of_request
from judgekit.web.protect import header_names
from judgekit.web.turns import without_turns

# What a client may keep: pages and JSON are revalidated each time (a 304 costs nothing).
PAGE_CACHE_CONTROL = "no-cache"
CACHEABLE_TYPES = ("text/html", "application/json")
COMPRESSED_TYPES = [
    "text/html",
    "application/json",
    "text/css",
    "text/javascript",
    "application/javascript",
    "image/svg+xml",
]
DEFAULT_PAGE_CACHE_BYTES = 64 * 1024 * 1024
# Bytes each kept item costs beyond its key and value: the LRU's links, the (size, value) pair,
# the Kept object (tests/test_memory_bound.py measures it with tracemalloc).
ENTRY_OVERHEAD = 400
PINNED_SHARE = 0.5  # of the bound, at most, for the pages rendered at start-up
MOST_WAYS = 4  # ways of reading one path remembered (the parameters and cookies a page read)
KEY_ENVIRON = "judgekit.page_key"  # the key this answer is kept under, for the compressed bodies
WARM_ENVIRON = "judgekit.warm"  # set on the requests that render the sitemap at start-up
# What else a warming request's environ holds: what Flask's test client gives its requests.
WARM_BASE = {"REMOTE_ADDR": "127.0.0.1", "HTTP_USER_AGENT": "judgekit-warm"}


class ByteLRU:
    """A thread-safe least-recently-used map bounded by the bytes it holds: keys, values and the
    overhead of each item. Pinned items count against the bound but are never dropped."""

    def __init__(self, max_bytes: int, pinned_share: float = PINNED_SHARE) -> None:
        self.max_bytes = max_bytes
        self.max_pinned = int(max_bytes * pinned_share)
        self.size = 0
        self.pinned_size = 0
        self._items: OrderedDict[str, tuple[int, object]] = OrderedDict()
        self._pinned: dict[str, tuple[int, object]] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items) + len(self._pinned)

    def get(self, key: str):
        """The value under key (now the most recent), or None."""
        with self._lock:
            found = self._pinned.get(key)
            if found is not None:
                return found[1]
            found = self._items.get(key)
            if found is None:
                return None
            self._items.move_to_end(key)
            return found[1]

    def is_pinned(self, key: str) -> bool:
        """Whether key is kept for good."""
        return key in self._pinned

    def set(self, key: str, value, size: int | None = None, pinned: bool = False) -> None:
        """Keep value (of size bytes) under key; drop the least recently used beyond the bound.

        pinned: keep it for good, while the pinned items fit their share of the bound.
        """
        size = (len(value) if size is None else size) + sys.getsizeof(key) + ENTRY_OVERHEAD
        if size > self.max_bytes:
            return
        with self._lock:
            self._discard(key)
            if (pinned or key in self._pinned) and self.pinned_size + size <= self.max_pinned:
                self._pinned[key] = (size, value)
                self.pinned_size += size
            else:
                self._items[key] = (size, value)
            self.size += size
            while self.size > self.max_bytes and self._items:
                _, (dropped, _) = self._items.popitem(last=False)
                self.size -= dropped

    def _discard(self, key: str) -> None:
        old = self._items.pop(key, None)
        if old is None:
            old = self._pinned.pop(key, None)
            if old is not None:
                self.pinned_size -= old[0]
        if old is not None:
            self.size -= old[0]


class CompressedBodies:
    """flask-compress's cache: the compressed bodies of the answers kept, in the pages' LRU."""

    def __init__(self, pages: ByteLRU) -> None:
        self.pages = pages

    def get(self, key: str) -> bytes | None:
        """The compressed body under ``algorithm;page key``; None for an answer not kept."""
        return self.pages.get(key) if key.partition(";")[2] else None

    def set(self, key: str, value: bytes) -> None:
        """Keep a compressed body beside its page (for good where the page is)."""
        page = key.partition(";")[2]
        if page:
            self.pages.set(key, value, sys.getsizeof(value), self.pages.is_pinned(page))


@dataclass(frozen=True)
class Kept:
    """A rendered answer as it is replayed."""

    status: int
    body: bytes
    mimetype: str
    headers: tuple[tuple[str, str], ...]
    etag: str

    def size(self) -> int:
        """The bytes it holds."""
        strings = [self.mimetype, self.etag, *(part for pair in self.headers for part in pair)]
        return sys.getsizeof(self.body) + sum(sys.getsizeof(s) + 28 for s in strings)


def not_kept() -> None:
    """Answer this request without keeping its answer: it shows more than its address says
    (the progress of a job, as the pack zip's link does until the zip is ready)."""
    g.judgekit_not_kept = True


def _cacheable_request() -> bool:
    return request.method in ("GET", "HEAD") and request.endpoint not in (None, "static")


def _ways_key(path: str) -> str:
    return "ways\x00" + path  # page keys are reprs of tuples: they start with "("


class MemoryCache:
    """Keeps every 200 page and JSON answer; replays it with its ETag and honours If-None-Match."""

    def __init__(self, app: Flask, corpus_digest: str, pages: ByteLRU) -> None:
        self.pages = pages
        self.tag = corpus_digest[:12]
        app.before_request(self.replay)
        app.after_request(self.keep)

    def replay(self) -> Response | None:
        """Answer from memory when this page has been rendered before (read the same way)."""
        if not _cacheable_request():
            return None
        for reads in self.pages.get(_ways_key(request.path)) or ():
            key = key_for(reads)
            kept = self.pages.get(key) if key else None
            if kept is not None:
                request.environ[KEY_ENVIRON] = key
                response = Response(
                    kept.body, kept.status, list(kept.headers), mimetype=kept.mimetype
                )
                response.set_etag(kept.etag)
                response.headers["X-Judgekit-Cache"] = "hit"
                return response
        return None

    def keep(self, response: Response) -> Response:
        """Remember a freshly rendered page; mark every page answer with ETag and Cache-Control."""
        if not _cacheable_request() or response.mimetype not in CACHEABLE_TYPES:
            return response
        headers, names = response.headers, header_names(response)
        if "x-judgekit-cache" in names:
            del headers["X-Judgekit-Cache"]
        else:
            if response.status_code != 200 or response.is_streamed or "set-cookie" in names:
                return response
            if g.get("judgekit_not_kept"):
                headers["Cache-Control"] = "no-store"  # nor kept by the browser
                return response
            body = response.get_data()
            etag = f"{self.tag}-{hashlib.sha256(body).hexdigest()[:20]}"
            self._remember(body, response.mimetype, headers, etag)
            response.set_etag(etag)
        headers["Cache-Control"] = PAGE_CACHE_CONTROL
        if "vary" in names:
            response.vary.add("Cookie")
        else:  # most answers: no Vary to parse and write back
            headers.add("Vary", "Cookie")
        if "date" not in names:
            headers.add("Date", _http_date())
        # Most requests ask nothing conditional: werkzeug's check would cost a tenth of a search.
        if any(header in request.environ for header in _CONDITIONAL):
            return response.make_conditional(request)
        return response

    def _remember(self, body: bytes, mimetype: str, headers, etag: str) -> None:
        """Keep an answer under what its rendering read; a request whose key would be long is
        answered without keeping anything."""
        reads = reads_of_request()
        key = key_for(reads)
        if key is None:
            return
        pinned = bool(request.environ.get(WARM_ENVIRON))
        kept_headers = tuple((k, v) for k, v in headers.items() if k.lower() not in _NOT_KEPT)
        kept = Kept(200, body, mimetype, kept_headers, etag)
        self.pages.set(key, kept, kept.size(), pinned)
        request.environ[KEY_ENVIRON] = key
        ways_key = _ways_key(request.path)
        ways: tuple[Reads, ...] = self.pages.get(ways_key) or ()
        if reads not in ways:
            ways = (reads, *ways)[:MOST_WAYS]
            self.pages.set(ways_key, ways, 2 * len(repr(ways)) + 200, pinned)


_date = (0, "")


def _http_date() -> str:
    """Now as an HTTP date, made once a second (werkzeug's http_date takes as long as a replay)."""
    global _date
    second = int(time.time())
    if _date[0] != second:
        _date = (second, http_date(second))
    return _date[1]


# The request headers that can turn an answer into a 304 or a 412 (werkzeug's make_conditional).
_CONDITIONAL = ("HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE", "HTTP_IF_MATCH", "HTTP_IF_RANGE")

# Set again for each answer (or by other parts of the app after this one).
_NOT_KEPT = {"content-length", "content-type", "etag", "cache-control", "vary"}


def init_app(app: Flask, corpus_digest: str) -> MemoryCache:
    """Serve pages from memory and compress each body once (brotli or gzip, as the client accepts)."""
    app.request_class = NotingRequest
    app.config.setdefault("PAGE_CACHE_BYTES", DEFAULT_PAGE_CACHE_BYTES)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED_TYPES)
    pages = ByteLRU(int(app.config["PAGE_CACHE_BYTES"]))
    compressed = CompressedBodies(pages)
    app.config.setdefault("COMPRESS_CACHE_BACKEND", lambda: compressed)
    app.config.setdefault("COMPRESS_CACHE_KEY", lambda req: req.environ.get(KEY_ENVIRON, ""))
    # flask-compress first: after_request functions run last-registered first, so keep() sees
    # the uncompressed body, and flask-compress then keeps each compressed body under its key.
    Compress(app)
    return MemoryCache(app, corpus_digest, pages)


def warm(app: Flask, paths: list[str]) -> int:
    """Render each path once into memory, kept for good (in the background after start-up);
    returns the count."""
    # Through the app inside the turns (turns.py): a page rendered here takes no judge's turn,
    # and a judge's request never waits behind a long one (a whole comparison) for it.
    wsgi = without_turns(app.wsgi_app)
    for path in paths:
        builder = EnvironBuilder(app, path, environ_base={WARM_ENVIRON: True, **WARM_BASE})
        try:
            environ = builder.get_environ()
        finally:
            builder.close()
        run_wsgi_app(wsgi, environ, buffered=True)  # the body read and closed
    return len(paths)
