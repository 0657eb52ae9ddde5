"""What a server facing a venue network of strangers' devices needs on every answer.

No page trusts the Host header: absolute links come from the configured ``BASE_URL``, redirects
are relative, and a malformed Host is refused. Every answer carries a strict Content Security
Policy, and every JSON answer writes ``<``, ``>``, ``&`` and ``'`` as escapes.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import orjson
from flask import Flask, Response, redirect, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import BadHost
from werkzeug.routing import RequestRedirect

from judgekit.web import limits

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
# A DNS name (labels of 1-63 letters, digits or hyphens) or IPv4 address, or a bracketed IPv6
# address, with an optional port.
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
HOST_RE = re.compile(
    rf"^(?:{_LABEL}(?:\.{_LABEL})*\.?|\[[0-9A-Fa-f:.]{{2,45}}\])(?::(?P<port>\d{{1,5}}))?$"
)
# str.replace, not str.translate: translate with a table of strings is ~50x slower on a long answer.
_JSON_ESCAPES = (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("'", "\\u0027"))


_ORJSON_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
_COMPACT = (",", ":")
_BYTE_ESCAPES = tuple((char.encode(), escape.encode()) for char, escape in _JSON_ESCAPES)


class SafeJSONProvider(DefaultJSONProvider):
    """JSON that no browser could ever read as HTML: the four HTML characters as \\u escapes.

    Encoded by orjson straight to bytes (a search answer is encoded for every query: the standard
    library took a fifth of a search's time), with Flask's own ``default`` for what orjson does
    not know.
    """

    sort_keys = False
    ensure_ascii = False

    def encode(self, obj: Any, indent: bool = False) -> bytes:
        """The escaped JSON of obj, as UTF-8."""
        option = _ORJSON_OPTIONS | (orjson.OPT_INDENT_2 if indent else 0)
        data = orjson.dumps(obj, default=self.default, option=option)
        for char, escape in _BYTE_ESCAPES:  # they occur only inside JSON strings
            data = data.replace(char, escape)
        return data

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        """Serialize and escape; options orjson has no equivalent for go to the standard library."""
        indent = kwargs.pop("indent", None)
        if kwargs.pop("separators", _COMPACT) == _COMPACT and not kwargs and indent in (None, 2):
            return self.encode(obj, bool(indent)).decode()
        text = super().dumps(obj, indent=indent, **kwargs)
        for char, escape in _JSON_ESCAPES:
            text = text.replace(char, escape)
        return text

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """A JSON answer (indented when debugging, as Flask does), without a round trip via str."""
        obj = self._prepare_response_obj(args, kwargs)
        indent = self.compact is False or (self.compact is None and self._app.debug)
        return self._app.response_class(self.encode(obj, indent) + b"\n", mimetype=self.mimetype)


def check_host() -> None:
    """Refuse a request whose Host header is not a host name or address."""
    host = request.headers.get("Host", "")
    if not host:
        return
    match = HOST_RE.match(host)
    if not match or len(host) > 260 or int(match["port"] or 0) > 65535:
        raise BadHost(description="malformed Host header")


def relative_redirects() -> Response | None:
    """Routing's own redirects (merged slashes, a missing trailing slash) without the Host."""
    exc = request.routing_exception
    if isinstance(exc, RequestRedirect):
        parts = urlsplit(exc.new_url)
        return redirect(parts.path + (f"?{parts.query}" if parts.query else ""), exc.code)
    return None


def header_names(response: Response) -> set[str]:
    """The names of an answer's headers, lower-cased, to test without werkzeug's lookups (it
    raises, and builds, an exception for each header it misses)."""
    return {name.lower() for name in response.headers.keys()}


def add_headers(response: Response) -> Response:
    """The security headers, on every answer."""
    present = header_names(response)
    for name, value in SECURITY_HEADERS.items():
        if name.lower() not in present:
            response.headers.add(name, value)
    return response


def init_app(app: Flask) -> None:
    """Install the checks first, so that no later part of a request sees a bad Host."""
    app.json = SafeJSONProvider(app)
    app.before_request(check_host)
    app.before_request(limits.check_request)  # before routing's redirects echo a long address
    app.before_request(relative_redirects)
    app.after_request(add_headers)
