"""Handing the reference out at an event: a QR code of the address, and the pack as one zip.

The zip is built once per server, in the background (a build renders every page: a minute or
two on a laptop), from the corpus the server reads and with citations to the address it serves.
"""

from __future__ import annotations

import io
import shutil
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
        from judgekit.pack.build import build, pack_app

        try:
            site = self.folder / "site"
            build(pack_app(root, base_url), site, zip_path=self.zip_path)
            shutil.rmtree(site, ignore_errors=True)
            self.state = "ready"
        except Exception as exc:  # noqa: BLE001 -- any failure is reported on /pack.zip
            self.error = f"{type(exc).__name__}: {exc}"
            self.state = "failed"


def zip_build(app: Flask) -> ZipBuild:
    """The app's pack zip (one per app)."""
    return app.extensions.setdefault("judgekit.pack_zip", ZipBuild())


def start_zip_build(app: Flask) -> None:
    """Start building the app's pack zip now (`judgekit serve` calls this at start-up)."""
    zip_build(app).start(app.config["CORPUS_DIR"], app.config["BASE_URL"])
