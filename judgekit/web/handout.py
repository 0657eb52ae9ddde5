"""Handing the reference out at an event: a QR code of the address, and the pack as one zip.

The zip is built once per server, in the background (a build renders every page: a minute or
two on a laptop) in a process of its own, from the corpus the server reads and with citations to the address it serves.
"""

from __future__ import annotations

import atexit
import io
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import segno
from flask import Flask


def qr_svg(address: str) -> bytes:
    """A QR code of an address as an SVG image (made here; nothing is fetched)."""
    out = io.BytesIO()
    segno.make(address, error="m").save(
        out,
        kind="svg",
        scale=4,
        border=2,
        dark="#000",
        light="#fff",
        xmldecl=False,
        svgclass="pack-qr",
        title=address,
    )
    return out.getvalue()


def print_qr(address: str, stream: TextIO | None = None) -> None:
    """The address's QR code in the terminal, for a judge to scan from the laptop's screen."""
    segno.make(address, error="m").terminal(out=stream or sys.stdout, compact=True)


@dataclass
class ZipBuild:
    """The pack's zip for one server: not started, building, ready, or failed with a reason."""

    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="judgekit-pack-")))
    state: str = "idle"
    error: str = ""
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _process: subprocess.Popen | None = None

    @property
    def zip_path(self) -> Path:
        """Where the zip is written."""
        return self.folder / "judgekit-pack.zip"

    def start(self, root: str, base_url: str) -> None:
        """Build in a process of its own, once; later calls do nothing."""
        with self._lock:
            if self.state != "idle":
                return
            self.state = "building"
            # The build renders every page: a process of its own does not slow the serving
            # threads down; it is stopped and its folder removed when the server stops.
            command = [sys.executable, "-m", "judgekit.commands", "--root", root, "build"]
            command += ["--out", str(self.folder / "site"), "--zip"]
            if base_url:
                command += ["--base-url", base_url]
            self._process = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
            )
            atexit.register(self.close)
        threading.Thread(target=self._wait, daemon=True, name="judgekit-pack").start()

    def _wait(self) -> None:
        _, stderr = self._process.communicate()
        shutil.rmtree(self.folder / "site", ignore_errors=True)
        if self._process.returncode == 0:
            (self.folder / "site.zip").replace(self.zip_path)
            self.state = "ready"
        else:
            self.error = (stderr or "").strip() or f"exit status {self._process.returncode}"
            self.state = "failed"

    def close(self) -> None:
        """Stop a build still running and remove the folder."""
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            self._process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)


def zip_build(app: Flask) -> ZipBuild:
    """The app's pack zip (one per app)."""
    return app.extensions.setdefault("judgekit.pack_zip", ZipBuild())


def start_zip_build(app: Flask) -> None:
    """Start building the app's pack zip now (`judgekit serve` calls this at start-up)."""
    zip_build(app).start(app.config["CORPUS_DIR"], app.config["BASE_URL"])
