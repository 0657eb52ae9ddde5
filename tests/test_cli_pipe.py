"""`judgekit search ... | head`: a reader that goes away ends the command quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .conftest import MINI


def test_a_closed_pipe_ends_the_command_quietly():
    reader, writer = os.pipe()
    os.close(reader)  # as `head` does once it has its lines: every write now meets EPIPE
    try:
        run = subprocess.run(
            [Path(sys.executable).with_name("judgekit"), "--root", str(MINI), "search", "beam"],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(writer)
    assert run.stderr == ""
    assert run.returncode == 1
