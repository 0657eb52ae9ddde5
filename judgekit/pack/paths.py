"""Where each server address lives in the pack, and links rewritten to relative ones.

A static host (or a folder opened with ``file://``) has no query strings and no directory
index, so every page is a file: ``/rules/x/1/`` is ``rules/x/1/index.html``, ``/api/documents``
is ``api/documents/index.json``, and a page the server renders from a query
(``/timing/s?version=2&step=3``) is a variant beside its plain page
(``timing/s/~step=3,version=2/index.html``). Links are written relative to the page that holds
them and name the file itself, so they work under any path prefix and from ``file://``.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Collection
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

API_PREFIX = "/api/"
STATIC_PREFIX = "/static/"
# Files at the pack's root under their own names (no index.html).
ROOT_FILES = (
    "/sw.js",
    "/manifest.webmanifest",
    "/pack.json",
    "/pack.zip",
    "/search-index.js",
    "/timing-calculators.js",
)
VARIANT_MARK = "~"
_SAFE = re.compile(r"[^A-Za-z0-9._-]")
# href="/…", src="/…", action="/…", data-url="/…" (not "//host", which is another host).
_PATH = re.compile(r"^/(?!/)\S*$")
_ATTR = re.compile(
    r'(?P<lead>\s(?:href|src|action|data-url)=)(?P<q>["\'])(?P<url>/(?!/)[^"\']*)(?P=q)'
)


def _escape_value(value: str) -> str:
    """A query value as file-name characters: anything but [A-Za-z0-9._-] as ``~XX``."""
    return _SAFE.sub(lambda m: "".join(f"~{b:02X}" for b in m.group().encode()), value)


def variant_name(query: str) -> str:
    """The folder of a query's variant: ``~name=value,...`` sorted by name; "" for no query."""
    pairs = sorted(parse_qsl(query, keep_blank_values=False))
    if not pairs:
        return ""
    return VARIANT_MARK + ",".join(f"{_escape_value(k)}={_escape_value(v)}" for k, v in pairs)


def pack_file(address: str, json_answer: bool | None = None) -> str:
    """The pack file (relative to the pack's root) that holds a server address's answer."""
    parts = urlsplit(address)
    path = unquote(parts.path)
    if path.startswith(STATIC_PREFIX) or path in ROOT_FILES:
        return path.lstrip("/")
    if json_answer is None:
        json_answer = path.startswith(API_PREFIX)
    folder = path.strip("/")
    variant = variant_name(parts.query)
    if variant:
        folder = f"{folder}/{variant}" if folder else variant
    name = "index.json" if json_answer else "index.html"
    return f"{folder}/{name}" if folder else name


def canonical(address: str) -> str:
    """An address as the build keys it: path and sorted query (the order of links varies)."""
    parts = urlsplit(address)
    pairs = sorted(parse_qsl(parts.query))
    query = "&".join(f"{k}={v}" for k, v in pairs)
    return parts.path + (f"?{query}" if query else "")


def relative_link(url: str, page_file: str, built: Collection[str]) -> str:
    """A server-absolute link as seen from a pack file: the variant if built, else the plain page.

    A query that was not built stays on the link (the page's script reads it, as ``/search?q=``).
    """
    parts = urlsplit(url)
    keyed = canonical(url)
    if parts.query and keyed in built:
        target, query = pack_file(url), ""
    else:
        target, query = pack_file(parts.path), parts.query
    rel = posixpath.relpath(target, posixpath.dirname(page_file) or ".")
    return rel + (f"?{query}" if query else "") + (f"#{parts.fragment}" if parts.fragment else "")


def relink_html(html: str, page_file: str, built: Collection[str]) -> str:
    """Every internal absolute link in a page (href, src, action, data-url) made relative."""

    def swap(match: re.Match) -> str:
        url = match["url"].replace("&amp;", "&")
        rel = relative_link(url, page_file, built).replace("&", "&amp;")
        return f"{match['lead']}{match['q']}{rel}{match['q']}"

    return _ATTR.sub(swap, html)


def relink_json(data: Any, page_file: str, built: Collection[str]) -> Any:
    """Every string value that is a server-absolute path made relative to the JSON's own file."""
    if isinstance(data, dict):
        return {k: relink_json(v, page_file, built) for k, v in data.items()}
    if isinstance(data, list):
        return [relink_json(v, page_file, built) for v in data]
    if isinstance(data, str):
        if _PATH.match(data):
            return relative_link(data, page_file, built)
        if 'href="/' in data or 'src="/' in data or "data-url=" in data:
            return relink_html(data, page_file, built)  # HTML fragments inside JSON
    return data


def relink(body: str, page_file: str, built: Collection[str], json_answer: bool = False) -> str:
    """The one post-processing step: a page's or a JSON answer's internal links made relative."""
    if json_answer:
        return relink_json_text(body, page_file, built)
    return relink_html(body, page_file, built)


def relink_json_text(text: str, page_file: str, built: Collection[str]) -> str:
    """A JSON answer's text with its internal paths made relative."""
    data = relink_json(json.loads(text), page_file, built)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
