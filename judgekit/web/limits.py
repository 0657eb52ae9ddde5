"""How much one request may ask, checked before any view: every request's cost has a bound.

A view's work grows with what it is given (a path part is looked up and echoed, a query value
parsed, a name scored against every page's), so each input has a ceiling no real address comes
near, and past it the answer is short and costs next to nothing: the whole address (414), the
number of query parameters (400), each part of the path (404: no page has such a name).
Parameters with limits of their own (the search's ``q``, the calculator's numbers) say so where
they are read.
"""

from __future__ import annotations

from flask import abort, request

# The longest address a page links to is a search of MAX_QUERY_CHARS percent-encoded characters
# with its filters, or a calculator with MAX_DILEMMAS dilemmas: well under this.
MAX_URL_CHARS = 8192
# The most query parameters a page sends is the calculator's form, about a dozen.
MAX_PARAMS = 64
# Two ids and ".." (a comparison), where ids are names of files (at most 255 characters).
MAX_PATH_PART = 512


def check_request() -> None:
    """Refuse an address too long, with too many parameters, or with an over-long path part."""
    environ = request.environ
    path, query = environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", "")
    length = len(path) + (len(query) + 1 if query else 0)  # path?query
    if length > MAX_URL_CHARS:
        abort(
            414,
            description=f"the address is {length:,} characters long (at most {MAX_URL_CHARS:,})",
        )
    params = sum(1 for part in query.split("&") if part)
    if params > MAX_PARAMS:
        abort(400, description=f"{params:,} query parameters (at most {MAX_PARAMS})")
    # The address's own parts too: a part no route takes (a number too long for <int:…>) is
    # refused with this message as well, not the generic "not found".
    for value in [*path.split("/"), *(request.view_args or {}).values()]:
        if isinstance(value, str) and len(value) > MAX_PATH_PART:
            abort(
                404,
                description=f"no page has a name of {len(value):,} characters "
                f"(at most {MAX_PATH_PART})",
            )
