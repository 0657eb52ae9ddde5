"""Serving from memory: each answer is rendered once, kept with a strong ETag, compressed once.

The corpus never changes while the app runs, so a page depends only on its path, its query and
the judge's cookies (the chosen game). Answers are kept in a byte-bounded LRU; flask-compress
keeps its compressed bodies in another one under the same keys.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from flask import Flask, Response, g, request
from flask_compress import Compress
from werkzeug.http import http_date

from judgekit.web.protect import header_names

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


class ByteLRU:
    """A thread-safe least-recently-used map bounded by the total size of its values."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._items: OrderedDict[str, tuple[int, object]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: str):
        """The value under key (now the most recent), or None."""
        with self._lock:
            found = self._items.get(key)
            if found is None:
                return None
            self._items.move_to_end(key)
            return found[1]

    def set(self, key: str, value, size: int | None = None) -> None:
        """Keep value under key; drop the least recently used values beyond the bound."""
        size = len(value) if size is None else size
        if size > self.max_bytes:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.size -= old[0]
            self._items[key] = (size, value)
            self.size += size
            while self.size > self.max_bytes:
                _, (dropped, _) = self._items.popitem(last=False)
                self.size -= dropped


@dataclass(frozen=True)
class Kept:
    """A rendered answer as it is replayed."""

    status: int
    body: bytes
    mimetype: str
    headers: tuple[tuple[str, str], ...]
    etag: str


def request_key() -> str:
    """What a page depends on: method family, path with query, and the judge's cookies."""
    cookies = request.headers.get("Cookie", "")
    return f"{request.full_path}\x00{cookies}"


def not_kept() -> None:
    """Answer this request without keeping its answer: it shows more than its address says
    (the progress of a job, as the pack zip's link does until the zip is ready)."""
    g.judgekit_not_kept = True


def _cacheable_request() -> bool:
    return request.method in ("GET", "HEAD") and request.endpoint not in (None, "static")


class MemoryCache:
    """Keeps every 200 page and JSON answer; replays it with its ETag and honours If-None-Match."""

    def __init__(self, app: Flask, corpus_digest: str) -> None:
        self.pages = ByteLRU(app.config["PAGE_CACHE_BYTES"])
        self.tag = corpus_digest[:12]
        app.before_request(self.replay)
        app.after_request(self.keep)

    def replay(self) -> Response | None:
        """Answer from memory when this page has been rendered before."""
        if not _cacheable_request():
            return None
        kept = self.pages.get(request_key())
        if kept is None:
            return None
        response = Response(kept.body, kept.status, list(kept.headers), mimetype=kept.mimetype)
        response.set_etag(kept.etag)
        response.headers["X-Judgekit-Cache"] = "hit"
        return response

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
            kept = tuple((k, v) for k, v in headers.items() if k.lower() not in _NOT_KEPT)
            self.pages.set(request_key(), Kept(200, body, response.mimetype, kept, etag), len(body))
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
    app.config.setdefault("PAGE_CACHE_BYTES", 256 * 1024 * 1024)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED_TYPES)
    compressed = ByteLRU(app.config["PAGE_CACHE_BYTES"] // 2)
    app.config.setdefault("COMPRESS_CACHE_BACKEND", lambda: compressed)
    app.config.setdefault("COMPRESS_CACHE_KEY", lambda _request: request_key())
    # flask-compress first: after_request functions run last-registered first, so keep() sees
    # the uncompressed body, and flask-compress then keeps each compressed body under the same key.
    Compress(app)
    return MemoryCache(app, corpus_digest)


def warm(app: Flask, paths: list[str]) -> int:
    """Render each path once into memory (in the background after start-up); returns the count."""
    client = app.test_client()
    for path in paths:
        client.get(path)
    return len(paths)
