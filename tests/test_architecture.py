"""The package's shape: no import cycles, modules under 400 lines, no function too tangled to read."""

from __future__ import annotations

import ast
from pathlib import Path

from radon.complexity import cc_visit

PACKAGE = Path(__file__).resolve().parents[1] / "judgekit"
MAX_LINES = 400
MAX_COMPLEXITY = 25


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str) -> set[str]:
    """The judgekit modules a module imports anywhere (lazy imports inside functions too)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in MODULES else base)
    return {m for m in found if m in MODULES and m != name}


def test_the_module_names_are_read():
    assert {"judgekit.web.context", "judgekit.corpus.loader", "judgekit.urls"} <= set(MODULES)
    assert "judgekit.corpus.model" in imports_of("judgekit.corpus.loader")


def test_no_import_cycles():
    graph = {name: imports_of(name) for name in MODULES}
    cycles = []
    state: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert cycles == []


def test_no_module_is_too_long():
    long = {
        name: n
        for name, path in MODULES.items()
        if (n := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}


def test_no_function_is_too_complex():
    tangled = {
        f"{name}.{block.fullname}": block.complexity
        for name, path in MODULES.items()
        for block in cc_visit(path.read_text())
        if block.complexity > MAX_COMPLEXITY
    }
    assert tangled == {}
