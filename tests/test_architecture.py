"""The package's shape: no import cycles between modules or between packages, the corpus at the
bottom, no function too tangled to read."""

from __future__ import annotations

import ast
from pathlib import Path

from radon.complexity import cc_visit

PACKAGE = Path(__file__).resolve().parents[1] / "judgekit"
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
    assert {"judgekit.web.context", "judgekit.checks.loader", "judgekit.urls"} <= set(MODULES)
    assert "judgekit.corpus.model" in imports_of("judgekit.checks.loader")


def cycles_of(graph: dict[str, set[str]]) -> list[list[str]]:
    """The cycles a depth-first walk of the graph meets (none if and only if it has none)."""
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
    return cycles


def package_of(name: str) -> str:
    """The judgekit package a module belongs to (``judgekit.search``), or the top-level module."""
    parts = name.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 or MODULES[name].name == "__init__.py" else name


def package_graph() -> dict[str, set[str]]:
    """Which judgekit package imports which (a module's imports inside its own package left out)."""
    graph: dict[str, set[str]] = {package_of(name): set() for name in MODULES}
    for name in MODULES:
        graph[package_of(name)] |= {package_of(m) for m in imports_of(name)} - {package_of(name)}
    return graph


def test_no_import_cycles():
    assert cycles_of({name: imports_of(name) for name in MODULES}) == []


def test_the_packages_are_read():
    graph = package_graph()
    assert {"judgekit.corpus", "judgekit.search", "judgekit.urls", "judgekit"} <= set(graph)
    assert "judgekit.corpus" in graph["judgekit.search"]
    assert cycles_of({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]


def test_no_cycles_between_packages():
    # Module cycles are not enough: search.service -> shapes.reading -> ... -> search is one.
    assert cycles_of(package_graph()) == []


def test_the_corpus_imports_nothing_above_it():
    # The bottom layer: its own modules only, and top-level modules that import no judgekit code
    # (judgekit.resources: where the built-in corpus lies).
    leaves = {
        name
        for name, path in MODULES.items()
        if name.count(".") == 1 and path.name != "__init__.py" and not imports_of(name)
    }
    assert "judgekit.resources" in leaves
    above = {
        f"{name} -> {imported}"
        for name in MODULES
        if package_of(name) == "judgekit.corpus"
        for imported in imports_of(name)
        if package_of(imported) != "judgekit.corpus" and imported not in leaves
    }
    assert above == set()


def test_no_function_is_too_complex():
    tangled = {
        f"{name}.{block.fullname}": block.complexity
        for name, path in MODULES.items()
        for block in cc_visit(path.read_text())
        if block.complexity > MAX_COMPLEXITY
    }
    assert tangled == {}
