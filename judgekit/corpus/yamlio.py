"""YAML reading with line numbers and duplicate-key errors, on libyaml's CSafeLoader."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

try:
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - libyaml is missing only on odd builds
    _Loader = yaml.SafeLoader

_SCALARS = yaml.constructor.SafeConstructor()


class YamlError(Exception):
    """A problem in a YAML file, located as ``file:line``."""

    def __init__(self, path: str | Path, line: int, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.message = message
        super().__init__(f"{self.path}:{line}: {message}")


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


def _convert(node: yaml.Node, path: str) -> Any:
    line = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out = LMap()
        out.line = line
        out.key_lines = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise YamlError(path, key_node.start_mark.line + 1, "mapping keys must be plain")
            key = key_node.value
            key_line = key_node.start_mark.line + 1
            if key in out:
                raise YamlError(
                    path,
                    key_line,
                    f"duplicate key {key!r} (first at line {out.key_lines[key]})",
                )
            out[key] = _convert(value_node, path)
            out.key_lines[key] = key_line
        return out
    if isinstance(node, yaml.SequenceNode):
        seq = LList(_convert(item, path) for item in node.value)
        seq.line = line
        return seq
    if node.tag == "tag:yaml.org,2002:timestamp":
        # Dates stay as printed: "2003-08" and "2003-08-19" must not become date objects.
        return node.value
    return _SCALARS.construct_object(node)


def load_yaml(path: str | Path) -> Any:
    """Parse one YAML file into LMap/LList/scalars; raise YamlError with file:line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise YamlError(path, 1, f"not UTF-8 text ({exc.reason})") from None
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        problem = exc.problem or exc.context or "invalid YAML"
        raise YamlError(path, line, f"invalid YAML: {problem}") from None
    except yaml.YAMLError as exc:
        raise YamlError(path, 1, f"invalid YAML: {exc}") from None
    if node is None:
        return None
    return _convert(node, str(path))
