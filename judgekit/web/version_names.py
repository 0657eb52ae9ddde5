"""A version written in an address as judges write it ("v4", "V4", "version-4", "cta",
"call-to-arms"), redirected (308) to the version's own id, with the rest of the path and the
query kept: ``/rules/2e-rulebook/v4/…``, ``/diff/2e-rulebook/v1.1..v4``, ``?version=v4``.

The names are the ones search reads in a question (search/query.py: version_names, from the
corpus's ids, short titles and release dates), matched whole: a value naming no held version, or
naming several ("2003"), is left to the page's own 404 or 400, never guessed at.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

from flask import Flask, Response, redirect, request, url_for

from judgekit.corpus.model import Document
from judgekit.render.library import Library
from judgekit.search.query import VersionName, names_of_versions
from judgekit.web.context import current_library

# Longer than any version's name as judges write it ("Version 1.1 from 08/19/2003"): not one.
MOST_CHARS = 64
PAIR = ".."
VERSION_ARGS = ("version", "old", "new")  # the parts of a route that are a version's id


def names_of(lib: Library) -> tuple[VersionName, ...]:
    """How judges name each held version. Made when asked (a value that is no version's id, at
    most MOST_CHARS long: rare), not kept: caches belong to the layers below (shapes, render)."""
    versions = [v for doc in lib.corpus.held() for v in doc.versions]
    return names_of_versions(versions)


def canonical(lib: Library, value: str, document: str | None) -> str | None:
    """The id of the one held version (of ``document``, or of any held document) that ``value``
    names as judges write it; None when it is an id already, or names none or several."""
    text = value.strip()
    docs = [d for d in lib.corpus.held() if document in (None, d.id)]
    if not text or len(text) > MOST_CHARS or any(d.version(text) for d in docs):
        return None
    spaced = re.sub(r"[-_+\s]+", " ", text)  # "version-4", "call_to_arms" as typed in a question
    held = {d.id for d in docs}
    found = {
        name.version
        for name in names_of(lib)
        if name.document in held
        and (name.pattern.fullmatch(text) or name.pattern.fullmatch(spaced))
    }
    return next(iter(found)) if len(found) == 1 else None


def _pair(lib: Library, doc: Document, pair: str) -> str | None:
    """``<a>..<b>`` with each side its version's id, if a side was a name; else None."""
    sides = pair.split(PAIR)
    if len(sides) != 2:
        return None
    ids = [canonical(lib, side, doc.id) or side for side in sides]
    return PAIR.join(ids) if ids != sides and all(doc.version(i) for i in ids) else None


def redirect_version_names() -> Response | None:
    """308 from an address naming a version as judges write it to the same address with the
    version's id (in the path, in a comparison's pair, or in ``version=``)."""
    if request.method not in ("GET", "HEAD") or request.endpoint is None:
        return None
    lib = current_library()
    values = dict(request.view_args or {})
    doc = lib.corpus.document(values.get("document", ""))
    held = doc is not None and not doc.external
    changed = False
    for name in VERSION_ARGS:
        if held and isinstance(values.get(name), str):
            found = canonical(lib, values[name], doc.id)
            if found:
                values[name], changed = found, True
    if held and isinstance(values.get("pair"), str):
        found = _pair(lib, doc, values["pair"])
        if found:
            values["pair"], changed = found, True
    # Only "version" (and "document", when it names one) is read: a page is kept in memory under
    # the parameters it read (pagekey.py), so every other one is read only to redirect.
    asked, found = request.args.get("version"), None
    if asked:
        within = request.args.get("document") or (doc.id if held else None)
        found = canonical(
            lib, asked, within if within in {d.id for d in lib.corpus.held()} else None
        )
        changed = changed or found is not None
    if not changed:
        return None
    args = list(request.args.items(multi=True))
    if found:
        args = [(k, found if k == "version" else v) for k, v in args]
    query = urlencode(args)
    return redirect(url_for(request.endpoint, **values) + (f"?{query}" if query else ""), 308)


def init_app(app: Flask) -> None:
    """Check after the request limits and the slashes (protect, slashes), before any page."""
    app.before_request(redirect_version_names)
