"""What a page depends on, learned from what rendering it read.

A page is a function of its path and of the query parameters and cookies its view reads (the
corpus never changes while the app runs). The request records every parameter and cookie name
read while it is answered; the answer is kept under the path, those names and the request's values
for them. A later request with the same path and the same values for those names would be answered
the same way (it takes the same steps, reading the same values), so it is answered from memory;
parameters and cookies no page reads (``?utm=…``, another site's cookies on a shared address) are
never part of a key. Reading them all (iterating, ``to_dict``) puts them all in the key.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlencode

from flask import Request, request
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.utils import cached_property

ALL = "\x00all"  # stands for "every name" in a set of names read
# A key longer than this (characters) is not kept: a page is answered, never cached, for it.
MAX_KEY_CHARS = 2048
_NAMED = ("__getitem__", "get", "getlist", "__contains__")
_WHOLE = (
    "__iter__",
    "__len__",
    "__eq__",
    "__repr__",
    "__reduce_ex__",
    "__copy__",
    "__deepcopy__",
    "keys",
    "values",
    "items",
    "lists",
    "listvalues",
    "to_dict",
    "copy",
    "deepcopy",
)


class NotedDict(ImmutableMultiDict):
    """Query parameters or cookies that note each name read (every name, when enumerated)."""

    def __init__(self, data: Any = None) -> None:
        self.read: set[str] = set()
        super().__init__(data)

    @classmethod
    def noting(cls, data: ImmutableMultiDict) -> NotedDict:
        """A copy of data that notes its reads."""
        return cls(data)


def _named(method: str):
    base = getattr(ImmutableMultiDict, method)

    def noted(self, key, *args, **kwargs):
        self.read.add(key if isinstance(key, str) else ALL)
        return base(self, key, *args, **kwargs)

    noted.__name__ = method
    return noted


def _whole(method: str):
    base = getattr(ImmutableMultiDict, method)

    def noted(self, *args, **kwargs):
        self.read.add(ALL)
        return base(self, *args, **kwargs)

    noted.__name__ = method
    return noted


for _method in _NAMED:
    setattr(NotedDict, _method, _named(_method))
for _method in _WHOLE:
    setattr(NotedDict, _method, _whole(_method))


class NotingRequest(Request):
    """Flask's request, whose query parameters and cookies note what the answer read; reading
    the whole query string reads every parameter."""

    @property
    def query_string(self) -> bytes:  # type: ignore[override]
        """The raw query, noted as reading every parameter."""
        self.args.read.add(ALL)
        return self._query_string

    @query_string.setter
    def query_string(self, value: bytes) -> None:
        self._query_string = value

    @cached_property
    def args(self) -> NotedDict:  # type: ignore[override]
        """The query parameters, noting reads."""
        return NotedDict.noting(
            # As werkzeug parses it, from the raw query (reading query_string would note all).
            ImmutableMultiDict(
                parse_qsl(
                    self._query_string.decode(),
                    keep_blank_values=True,
                    errors="werkzeug.url_quote",
                )
            )
        )

    @cached_property
    def cookies(self) -> NotedDict:  # type: ignore[override]
        """The cookies, noting reads."""
        return NotedDict.noting(Request.cookies.fget(self))


Reads = tuple[tuple[str, ...], tuple[str, ...]]  # (parameter names, cookie names), sorted


def reads_of_request() -> Reads:
    """The parameter and cookie names read so far in answering this request."""
    return (_names(request.args), _names(request.cookies))


def _names(noted: Any) -> tuple[str, ...]:
    read = getattr(noted, "read", None)
    if read is None:  # not a noting request (a plain Flask app): assume it read everything
        return (ALL,)
    return (ALL,) if ALL in read else tuple(sorted(read))


def key_for(reads: Reads) -> str | None:
    """This request's key under a way of reading it; None when the key would be too long."""
    names, cookie_names = reads
    # repr of nested tuples of strings: unambiguous whatever the names and values hold.
    key = repr((request.path, _values(request.args, names), _values(request.cookies, cookie_names)))
    return key if len(key) <= MAX_KEY_CHARS else None


def _values(data: Any, names: tuple[str, ...]) -> tuple:
    """Each name with its values (None when absent), read below the noting: the key is not the
    page reading them."""
    if names == (ALL,):
        names = (ALL, *sorted(dict.keys(data)))
    # A MultiDict keeps each name's values as a list.
    return tuple((name, _tuple(dict.get(data, name))) for name in names)


def _tuple(values: list[str] | None) -> tuple[str, ...] | None:
    return None if values is None else tuple(values)


def page_address() -> str:
    """This page's path with the query parameters its answer read (so far), in their order: what
    a page links back to itself with, without making parameters no page reads part of it."""
    args = request.args
    read = getattr(args, "read", {ALL})
    pairs = [
        (name, value)
        for name, values in dict.items(args)  # a MultiDict keeps each name's values as a list
        if ALL in read or name in read
        for value in values
    ]
    return request.path + (f"?{urlencode(pairs)}" if pairs else "")
