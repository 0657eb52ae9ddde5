"""Handing the reference out at an event: a QR code of the address, and the pack as one zip.

The zip is built once per server, in the background (a build renders every page: a minute or
two on a laptop) in a process of its own, from the corpus the server reads and with citations to the address it serves.
"""

from __future__ import annotations

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

    @property
    def zip_path(self) -> Path:
        """Where the zip is written."""
        return self.folder / "judgekit-pack.zip"

    def start(self, root: str, base_url: str) -> None:
        """Build in a background thread, once; later calls do nothing."""
        with self._lock:
            if self.state != "idle":
                return
            self.state = "building"
        threading.Thread(
            target=self._run, args=(root, base_url), daemon=True, name="judgekit-pack"
        ).start()

    def _run(self, root: str, base_url: str) -> None:
        # A process of its own: the build does not take the serving threads' interpreter lock.
        site = self.folder / "site"
        command = [sys.executable, "-m", "judgekit.cli", "--root", root, "build"]
        command += ["--out", str(site), "--zip"]
        if base_url:
            command += ["--base-url", base_url]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        shutil.rmtree(site, ignore_errors=True)
        if done.returncode == 0:
            (self.folder / "site.zip").replace(self.zip_path)
            self.state = "ready"
        else:
            self.error = done.stderr.strip() or f"exit status {done.returncode}"
            self.state = "failed"


def zip_build(app: Flask) -> ZipBuild:
    """The app's pack zip (one per app)."""
    return app.extensions.setdefault("judgekit.pack_zip", ZipBuild())


def start_zip_build(app: Flask) -> None:
    """Start building the app's pack zip now (`judgekit serve` calls this at start-up)."""
    zip_build(app).start(app.config["CORPUS_DIR"], app.config["BASE_URL"])
