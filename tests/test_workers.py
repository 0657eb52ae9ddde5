"""A worker's life (judgekit/web/workers.py), without forking: whatever happens, it ends in
os._exit and never returns into the parent's code (which would fork and serve again)."""

from __future__ import annotations

import io

import pytest

from judgekit.web import workers


class NoThread:
    """The thread that follows the parent, not started here (the test process is no worker)."""

    def __init__(self, **_kwargs) -> None:
        pass

    def start(self) -> None:
        """Nothing to follow."""


class Exited(Exception):
    """Stands in for os._exit in these tests."""


class BrokenStdout(io.StringIO):
    """stdout piped to a reader that went away (`judgekit serve --workers 2 | head -1`)."""

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.fixture
def exits(monkeypatch):
    codes: list[int] = []

    def fake_exit(code: int) -> None:
        codes.append(code)
        raise Exited

    monkeypatch.setattr(workers.os, "_exit", fake_exit)
    monkeypatch.setattr(workers.threading, "Thread", NoThread)
    return codes


def _serve_ok() -> None:
    pass


def _serve_fails() -> None:
    raise RuntimeError("waitress stopped")


@pytest.mark.parametrize(("serve", "code"), [(_serve_ok, 0), (_serve_fails, 1)])
def test_a_worker_ends_with_its_code(exits, serve, code):
    with pytest.raises(Exited):
        workers._run_worker(1, serve)
    assert exits == [code]


@pytest.mark.parametrize(("serve", "code"), [(_serve_ok, 0), (_serve_fails, 1)])
def test_a_worker_ends_even_when_its_output_is_gone(exits, monkeypatch, serve, code):
    monkeypatch.setattr(workers.sys, "stdout", BrokenStdout())
    with pytest.raises(Exited):  # not BrokenPipeError, back into the parent's loop
        workers._run_worker(1, serve)
    assert exits == [code]
