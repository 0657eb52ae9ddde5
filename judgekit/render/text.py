"""Rendering entry Markdown: sanitized HTML, plain text, and typography-blind comparison."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser

import markdown as md
import nh3

from judgekit.corpus.model import Icon
from judgekit.corpus.references import REF_RE

ICON_RE = re.compile(r"\{icon:([a-z0-9-]+)\}")

ALLOWED_TAGS = {
    "p",
    "em",
    "strong",
    "b",
    "i",
    "ul",
    "ol",
    "li",
    "a",
    "span",
    "br",
    "code",
    "sup",
    "sub",
    "blockquote",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "h4",
    "h5",
    "h6",
}
ALLOWED_ATTRS = {
    "a": {"href", "class", "title", "data-ref"},
    "span": {"class", "title", "role", "aria-label", "data-icon"},
    "ol": {"start", "type"},
    "td": {"colspan"},
    "th": {"colspan"},
}


@dataclass(frozen=True)
class Link:
    """Where a reference goes: its URL, the target's title, a tooltip, and whether we hold it."""

    url: str | None
    title: str
    external: bool = False
    tooltip: str | None = None


Linker = Callable[[str], Link | None]


def icon_html(icon: Icon | None, name: str) -> str:
    """A badge: a shaped, labelled span readable in print and by screen readers."""
    label = icon.label if icon else name
    shape = icon.shape if icon else "square"
    group = icon.group if icon else "unknown"
    esc = html.escape(label, quote=True)
    return (
        f'<span class="icon icon-{shape} icon-{group}" data-icon="{html.escape(name)}" '
        f'role="img" aria-label="{esc}" title="{esc}">{esc}</span>'
    )


def _md_label(text: str) -> str:
    return text.replace("\\", "\\\\")


def to_html(text: str, icons: dict[str, Icon], linker: Linker) -> str:
    """Markdown with refs and icons to sanitized HTML."""

    def ref_sub(match: re.Match[str]) -> str:
        target, label = match.group(1).strip(), match.group(2)
        link = linker(target)
        words = label if label is not None else (link.title if link else target)
        if link is None:
            return (
                f'<span class="ref-broken" title="unresolved reference">{html.escape(words)}</span>'
            )
        if link.external or not link.url:
            note = html.escape(f"{link.tooltip or link.title} (not held in judgekit)", quote=True)
            return f'<span class="ref-external" title="{note}">{_md_label(words)}</span>'
        title = html.escape(link.tooltip or link.title, quote=True)
        return f'<a class="ref" href="{html.escape(link.url, quote=True)}" title="{title}">{_md_label(words)}</a>'

    source = REF_RE.sub(ref_sub, text)
    source = ICON_RE.sub(lambda m: icon_html(icons.get(m.group(1)), m.group(1)), source)
    rendered = md.markdown(source, extensions=["sane_lists"], output_format="html")
    return nh3.clean(
        rendered,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRS,
        link_rel=None,
        url_schemes={"http", "https"},
    )


class _TextExtractor(HTMLParser):
    BLOCKS = {"p", "li", "br", "tr", "h4", "h5", "h6", "blockquote", "ul", "ol"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.icon_depth = 0  # inside an icon's span
        self.icon_ended = False  # nothing but tags since an icon's span closed

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "span" and any(name == "data-icon" for name, _ in attrs):
            # Icons printed side by side ("{icon:command}{icon:staff}") read as separate words,
            # as their badges do on the page: "Command Staff", never "CommandStaff".
            if self.icon_ended:
                self.parts.append(" ")
            self.icon_depth += 1
        elif self.icon_depth:
            self.icon_depth += 1
        if tag == "li":
            self.parts.append("\n- ")
        elif tag in self.BLOCKS:
            self.parts.append("\n")
        self.icon_ended = False

    def handle_endtag(self, tag: str) -> None:
        if self.icon_depth:
            self.icon_depth -= 1
            self.icon_ended = self.icon_depth == 0
        else:
            self.icon_ended = False
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.icon_depth:
            self.icon_ended = False
        self.parts.append(data)


def html_to_text(fragment: str) -> str:
    """Plain text of an HTML fragment, one paragraph per line."""
    parser = _TextExtractor()
    parser.feed(fragment)
    parser.close()
    text = "".join(parser.parts)
    lines = [re.sub(r"[ \t]+", " ", line).strip() for line in text.split("\n")]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip()


def to_plain(text: str, icons: dict[str, Icon], linker: Linker) -> str:
    """Plain text: icons as their labels, refs as their words, no markup."""
    return html_to_text(to_html(text, icons, linker))


def clipped(value: str, limit: int) -> str:
    """``value`` cut to ``limit`` characters, with an ellipsis when anything was cut."""
    return value[:limit] + "…" if len(value) > limit else value


def quoted(value: str | None, limit: int = 40) -> str:
    """A parameter as an error message quotes it: repr, cut short so a huge one stays small."""
    return repr(clipped(value or "", limit))
