"""YAML reading with line numbers and clear ``file:line`` errors, on libyaml's event parser.

The tree is built from parser events without recursion, so hostile files fail fast with a
message instead of a traceback: aliases are refused (a few nested ones expand to billions
of nodes), nesting is bounded before Python's stack is, and only YAML's plain types are read.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

import yaml

try:
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - libyaml is missing only on odd builds
    _Loader = yaml.SafeLoader

_SCALARS = yaml.constructor.SafeConstructor()
_RESOLVER = yaml.resolver.Resolver()
_CORE = "tag:yaml.org,2002:"
SCALAR_TAGS = {_CORE + name for name in ("str", "int", "float", "bool", "null", "timestamp")}
MAX_DEPTH = 40  # mappings and lists inside each other; the corpus needs about a dozen
MAX_YAML_BYTES = 4 * 1024 * 1024  # per file; the largest corpus file is about 100 KB
# Characters no rulebook text holds that change what a judge sees or break a page or a file:
# controls other than tab and newline, bidirectional marks and overrides (they reorder the
# text around them), line and paragraph separators, lone surrogates and noncharacters.
_FORBIDDEN = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
    r"\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]"
)
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class YamlError(Exception):
    """A problem in a YAML file, located as ``file:line``."""

    def __init__(self, path: str | Path, line: int, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.message = message
        super().__init__(f"{self.path}:{line}: {message}")


class _TooDeep(YamlError):
    """Nesting past MAX_DEPTH: judgekit's own words, whatever the parser would have said."""


class LMap(dict):
    """A mapping that remembers the line of itself and of each key."""

    line: int = 0
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        """The line of ``key`` if present, else the mapping's own line."""
        return self.key_lines.get(key, self.line)


class LList(list):
    """A sequence that remembers its line."""

    line: int = 0


def short_repr(value: Any) -> str:
    """A value as a message shows it: its repr, cut to 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _line(event: yaml.Event) -> int:
    return event.start_mark.line + 1


def _forbidden(value: str) -> str | None:
    """What is wrong with a text holding a forbidden character, or None."""
    found = _FORBIDDEN.search(value)
    if found is None:
        return None
    char = found.group(0)
    what = "bidirectional control" if char in _BIDI else "control character"
    return f"{what} U+{ord(char):04X} in text: remove it (it is not the rulebook's words)"


def _scalar(event: yaml.ScalarEvent, path: str) -> Any:
    """A scalar as YAML's core schema reads it; dates stay as printed."""
    problem = _forbidden(event.value)
    if problem:
        raise YamlError(path, _line(event), problem)
    tag = event.tag
    if tag is None or tag == "!":
        tag = _RESOLVER.resolve(yaml.ScalarNode, event.value, event.implicit)
    if tag not in SCALAR_TAGS:
        shown = (event.tag or tag).replace(_CORE, "!!")
        raise YamlError(path, _line(event), f"unsupported YAML tag {shown!r} (write plain text)")
    if tag == _CORE + "timestamp":
        # Dates stay as printed: "2003-08" and "2003-08-19" must not become date objects.
        return event.value
    node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
    try:
        # The tag's constructor itself: construct_object would remember every node forever.
        return _SCALARS.yaml_constructors[tag](_SCALARS, node)
    except (yaml.YAMLError, ValueError, KeyError) as exc:
        kind = tag.replace(_CORE, "")
        raise YamlError(
            path, _line(event), f"invalid {kind} value {short_repr(event.value)}"
        ) from exc


class _Builder:
    """Turns a stream of parser events into LMap/LList/scalars, one event at a time."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.stack: list[LMap | LList] = []
        self.keys: list[str | None] = []  # per open mapping: the key awaiting its value
        self.root: Any = None
        self.documents = 0

    def feed(self, event: yaml.Event) -> None:
        """Take one event."""
        if isinstance(event, yaml.AliasEvent):
            raise YamlError(
                self.path, _line(event), "YAML aliases (*name) are not allowed: write the value out"
            )
        if isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                raise YamlError(self.path, _line(event), "invalid YAML: more than one document")
        elif isinstance(event, yaml.ScalarEvent):
            self._put(event, _scalar(event, self.path))
        elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            self._open(event)
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            self.keys.pop()
            self.stack.pop()

    def _open(self, event: yaml.CollectionStartEvent) -> None:
        is_map = isinstance(event, yaml.MappingStartEvent)
        if event.tag not in (None, "!", _CORE + ("map" if is_map else "seq")):
            shown = event.tag.replace(_CORE, "!!")
            raise YamlError(
                self.path, _line(event), f"unsupported YAML tag {shown!r} (write plain YAML)"
            )
        if len(self.stack) >= MAX_DEPTH:
            raise _TooDeep(self.path, _line(event), f"nested more than {MAX_DEPTH} levels deep")
        container: LMap | LList
        if is_map:
            container = LMap()
            container.key_lines = {}
        else:
            container = LList()
        container.line = _line(event)
        self._put(event, container)
        self.stack.append(container)
        self.keys.append(None)

    def _put(self, event: yaml.NodeEvent, value: Any) -> None:
        """Place a value: the root, a list item, a mapping's key, or the value of that key."""
        if not self.stack:
            self.root = value
            return
        top = self.stack[-1]
        if isinstance(top, LList):
            top.append(value)
            return
        key = self.keys[-1]
        if key is not None:
            top[key] = value
            self.keys[-1] = None
            return
        if not isinstance(event, yaml.ScalarEvent):
            raise YamlError(self.path, _line(event), "mapping keys must be plain")
        key = event.value
        if key in top:
            raise YamlError(
                self.path,
                _line(event),
                f"duplicate key {key!r} (first at line {top.key_lines[key]})",
            )
        top.key_lines[key] = _line(event)
        self.keys[-1] = key


def _parse_error(path: Path, exc: yaml.YAMLError) -> YamlError:
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        problem = exc.problem or exc.context or "invalid YAML"
        return YamlError(path, line, f"invalid YAML: {problem}")
    return YamlError(path, 1, f"invalid YAML: {exc}")


def _read_bytes(path: Path) -> bytes:
    """A regular file's bytes, at most MAX_YAML_BYTES; never blocks on a FIFO or reads a device."""
    # O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise YamlError(path, 1, "a folder named like a YAML file: not a file")
        if not stat.S_ISREG(info.st_mode):
            raise YamlError(path, 1, "not a regular file (a FIFO, device or socket): remove it")
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(MAX_YAML_BYTES + 1)
    if len(data) > MAX_YAML_BYTES:
        raise YamlError(path, 1, f"larger than a corpus file may be ({MAX_YAML_BYTES:,} bytes)")
    return data


def load_yaml(path: str | Path) -> Any:
    """Parse one YAML file into LMap/LList/scalars; raise YamlError with file:line."""
    path = Path(path)
    try:
        text = _read_bytes(path).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise YamlError(path, 1, f"not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise YamlError(path, 1, f"cannot read the file ({exc.strerror or exc})") from None
    builder = _Builder(str(path))
    try:
        for event in yaml.parse(text, Loader=_Loader):
            builder.feed(event)
    except yaml.YAMLError as exc:
        _refuse_nesting_before(path, text, exc)
        raise _parse_error(path, exc) from None
    return builder.root


def _refuse_nesting_before(path: Path, text: str, exc: yaml.YAMLError) -> None:
    """Raise the nesting error if the file nests too deep before where libyaml stopped.

    libyaml scans flow collections ahead of the events it emits and has a nesting limit of its
    own (1,000 in PyYAML 6.0.4's build), so "[[[[..." fails in libyaml's words before the builder
    sees level 41. PyYAML's pure-Python parser has no such limit: re-reading the text up to the
    end of libyaml's line with it, the builder meets the deep level first. Only on an error, so
    valid files pay nothing; the Python scanner looks at most 1,024 characters ahead, so this
    costs about a second at worst.
    """
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    end = len(text) if mark is None else text.find("\n", mark.index)
    builder = _Builder(str(path))
    try:
        for event in yaml.parse(text[: None if end < 0 else end], Loader=yaml.SafeLoader):
            builder.feed(event)
    except _TooDeep as deep:
        raise deep from None
    except (YamlError, yaml.YAMLError):
        return  # libyaml's own error stands
