"""`judgekit --help` says what the command does: every sub-command named, each with its help."""

from __future__ import annotations

import argparse

from judgekit.commands import build_parser


def _commands(parser: argparse.ArgumentParser) -> dict[str, str]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {choice.dest: choice.help for choice in sub._choices_actions}


def test_the_description_names_every_sub_command():
    parser = build_parser()
    commands = _commands(parser)
    assert set(commands) == {
        "check",
        "coverage",
        "serve",
        "build",
        "search",
        "card",
        "event",
        "import",
    }
    assert [name for name in commands if name not in parser.description] == []
    assert all(commands.values())
