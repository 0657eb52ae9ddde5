"""The pack's search page in one response: its stylesheet, its scripts and the first index file
inside the page itself.

On a phone's first visit over a slow network, every file a page waits for costs a round trip
after the page's own (562 ms on Slow 4G). The search page waited for three: the theme script (in
the head, so the page below it was not read until it came), the stylesheet (no paint and no
inline script before it) and the deferred scripts (nothing answers before them). Written into
the page they come in its one response, so the page is read, painted and made to search as its
bytes arrive (BENCHMARKS.md, the judge pack on a slow phone network). Other pages keep naming the
shared files, which the service worker stores; this page's copies are the same text.

The page's scripts come after its content, in the order they ran as deferred files, so they are
compiled and run while the index is still on its way; a script that wants the index before it is
whole waits for it (pack-search.js: load). The index comes last, as JSON data blocks, each parsed
by a small script right after it, so the phone parses the first parts while the later ones are
still on the way; JSON text needs no compiling (a JavaScript string literal of the same data did,
70 ms on a slow phone).
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path
from typing import Any

SEARCH_PAGE = "search/index.html"
INLINE_ID = "judgekit-search-data"
DATA_EVENT = "judgekit-search-data"  # sent when the page's index is whole
# Parts of 50-130 KB of JSON (4-33 KB gzipped on the real corpus: items compress far better).
PART_ITEMS = 200
PART_CHARS = 120_000

# What the page names (templates/base.html and templates/pack/_head.html, links made relative).
_THEME = re.compile(r'<script src="(?P<src>[^"]*/theme\.[0-9a-f]+\.js)"></script>')
_STYLE = re.compile(r'<link rel="stylesheet" href="(?P<src>[^"]+\.css)">')
_DEFERRED = re.compile(
    r'\n?<script src="(?P<src>[^"]+\.js)" defer(?: fetchpriority="high")?></script>'
)
# The texts that would end (or change how a browser reads) an inline element early.
_UNSAFE = {
    "script": re.compile(r"</script|<!--|<script", re.I),
    "style": re.compile(r"</style", re.I),
}

# After each part: parse it and keep it; after the last, put the parts together as the one
# object search-index.js defines (the items in order, the other keys as they are).
PART_SCRIPT = (
    "(self.JUDGEKIT_SEARCH_PARTS=self.JUDGEKIT_SEARCH_PARTS||[])"
    ".push(JSON.parse(document.currentScript.previousElementSibling.textContent));"
)
JOIN_SCRIPT = (
    "(function(){var d={items:[]};self.JUDGEKIT_SEARCH_PARTS.forEach(function(p){"
    "Object.keys(p).forEach(function(k){if(k==='items')d.items=d.items.concat(p.items);"
    "else d[k]=p[k];});});delete self.JUDGEKIT_SEARCH_PARTS;self.JUDGEKIT_SEARCH=d;"
    f"document.dispatchEvent(new Event('{DATA_EVENT}'));}})();"
)
# In the head: the index is on its way inside the page (pack-search.js waits for DATA_EVENT).
MARK = f'<meta name="{INLINE_ID}" content="inline">\n'


class InlineError(ValueError):
    """A file the search page would carry cannot be written inside it."""


def data_parts(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The index in parts, in the order the page reads them: the items in runs of PART_ITEMS,
    then the other keys, packed into parts of about PART_CHARS of JSON."""
    items = data["items"]
    parts: list[dict[str, Any]] = [
        {"items": items[at : at + PART_ITEMS]} for at in range(0, len(items), PART_ITEMS)
    ]
    rest: dict[str, Any] = {}
    size = 0
    for key, value in data.items():
        if key == "items":
            continue
        length = len(_json(value))
        if rest and size + length > PART_CHARS:
            parts.append(rest)
            rest, size = {}, 0
        rest[key] = value
        size += length
    if rest or not parts:
        parts.append(rest)
    return parts


def _json(data: Any) -> str:
    # "<" as a JSON escape: no text of the data can end the block or start a comment in it.
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c")


def data_blocks(data: dict[str, Any]) -> str:
    """The index as JSON blocks, each followed by the script that parses it, then the join."""
    out = []
    for n, part in enumerate(data_parts(data)):
        name = f' id="{INLINE_ID}"' if n == 0 else ""
        out.append(f'<script type="application/json"{name}>{_json(part)}</script>')
        out.append(f"<script>{PART_SCRIPT}</script>")
    out.append(f"<script>{JOIN_SCRIPT}</script>")
    return "\n".join(out) + "\n"


def _text(out: Path, page: str, src: str, kind: str) -> str:
    """The text of a file the page names (a link relative to the page), safe to inline."""
    name = posixpath.normpath(posixpath.join(posixpath.dirname(page), src))
    if name.startswith("../") or not name.startswith("static/"):
        raise InlineError(f"{page}: {src} is not one of the pack's static files")
    text = (out / name).read_text(encoding="utf-8").rstrip()
    if _UNSAFE[kind].search(text):
        raise InlineError(f"{name}: its text would end its inline copy in {page}")
    return text


def self_contained(html: str, out: Path, data: dict[str, Any], page: str = SEARCH_PAGE) -> str:
    """The page (``page`` in the pack at ``out``) with its theme script, stylesheet and deferred
    scripts written inside it, and the index ``data`` after those scripts, at the body's end."""
    found = {"theme": _THEME.findall(html), "style": _STYLE.findall(html)}
    if len(found["theme"]) != 1 or len(found["style"]) != 1:
        raise InlineError(f"{page}: expected one theme script and one stylesheet, found {found}")
    html = _THEME.sub(
        lambda m: f"<script>{_text(out, page, m['src'], 'script')}</script>", html, count=1
    )
    html = _STYLE.sub(
        lambda m: f"<style>\n{_text(out, page, m['src'], 'style')}\n</style>", html, count=1
    )
    scripts = _DEFERRED.findall(html)
    if not scripts:
        raise InlineError(f"{page}: no deferred script to carry")
    html = _DEFERRED.sub("", html)
    # data-src: the file this is a copy of (pack.js and pack-search.js find the pack's root by it).
    code = "".join(
        f'<script data-src="{src}">\n{_text(out, page, src, "script")}\n</script>\n'
        for src in scripts
    )
    head = html.index("</head>")
    html = html[:head] + MARK + html[head:]
    at = html.rindex("</body>")
    return html[:at] + code + data_blocks(data) + html[at:]
