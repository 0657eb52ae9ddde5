"""A wheel built from the project serves every kind of page from a fresh environment elsewhere."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.request
import venv
from pathlib import Path

import pytest

from .conftest import spawn_serve

REPO = Path(__file__).resolve().parents[1]
# What a clean checkout holds that the build reads.
SHIPPED = ("pyproject.toml", "README.md", "judgekit", "rules", "rulings", "templates")
PAGES = (
    "/",
    "/rules/2e-rulebook/4/",
    "/rules/2e-rulebook/4/beaming",
    "/search?q=beam",
    "/diff/2e-rulebook/1.1..4",
    "/timing/mission-attempt",
    "/rulings/1e-current-rulings/2000-02-28/",
    "/api/entries/2e-rulebook/4/beaming",
)


def _pip(*args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", *args],
        check=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh virtual environment with the wheel installed; its dependencies are the tests' own."""
    work = tmp_path_factory.mktemp("install")
    source = work / "source"
    source.mkdir()
    for name in SHIPPED:
        if (REPO / name).is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
            shutil.copytree(REPO / name, source / name, ignore=ignore)
        else:
            shutil.copy2(REPO / name, source / name)
    _pip("wheel", "--no-deps", "--no-build-isolation", "-w", str(work / "dist"), str(source))
    wheel = next((work / "dist").glob("judgekit-*.whl"))
    env_dir = work / "env"
    venv.create(env_dir, with_pip=False)
    python = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    _pip("--python", str(python), "install", "--no-deps", "--no-index", str(wheel))
    # The dependencies already installed for the tests, found after the wheel's own files.
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(purelib, "test-dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    return env_dir


def _script(env_dir: Path) -> str:
    return str(env_dir / ("Scripts/judgekit.exe" if os.name == "nt" else "bin/judgekit"))


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_the_wheel_carries_the_corpus_and_templates(installed, tmp_path):
    result = subprocess.run(
        [_script(installed), "check"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("ok: 4 versions")
    where = subprocess.run(
        [
            str(Path(_script(installed)).parent / "python"),
            "-c",
            "import judgekit; print(judgekit.__file__)",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(installed) in where, where


def test_the_installed_program_serves_every_kind_of_page(installed, tmp_path):
    env = {**os.environ, "JUDGEKIT_SEARCH_CACHE_DIR": ""}
    server, port, _ = spawn_serve([_script(installed), "serve"], timeout=120, cwd=tmp_path, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, server.stdout.read().decode()
            try:
                if _get(base + "/")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the installed server did not answer in 60 s"
            time.sleep(0.2)
        statuses = {page: _get(base + page)[0] for page in PAGES}
        status, home = _get(base + "/")
        stylesheet = next(
            part.split('"')[0]
            for part in home.decode().split('href="')[1:]
            if part.split('"')[0].endswith(".css")
        )
        statuses[stylesheet] = _get(base + stylesheet)[0]
        assert statuses == dict.fromkeys(statuses, 200)
    finally:
        server.terminate()
        server.wait(timeout=10)
