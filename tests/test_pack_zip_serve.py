"""/pack.zip from the real `judgekit serve --workers 2` on the mini corpus: one build for every
process, never a file that is not the pack, and nothing left behind however the server stops."""

from __future__ import annotations

import contextlib
import html
import io
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from .conftest import MINI, _free_port

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/task").exists() or not hasattr(os, "fork"),
    reason="needs Linux's /proc and fork (several worker processes)",
)
CHILD = "judgekit.pack.zipchild"


class Server:
    """`judgekit serve` in a session of its own, its output collected as it comes."""

    def __init__(
        self, port: int, cache: Path, *args: str, prefix: tuple[str, ...] = (), retry: int = 1
    ) -> None:
        exe = Path(sys.executable).with_name("judgekit")
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "JUDGEKIT_PACK_CACHE_DIR": str(cache)}
        env["JUDGEKIT_PACK_RETRY_SECONDS"] = str(retry)
        self.base = f"http://127.0.0.1:{port}"
        self.proc = subprocess.Popen(
            [*prefix, str(exe), "--root", str(MINI), "serve", "--port", str(port), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.wait_for(lambda: self.answers(), "the server did not answer")

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.decode(errors="replace"))

    def answers(self) -> bool:
        try:
            with urllib.request.urlopen(self.base + "/api/pack", timeout=2):
                return True
        except OSError:
            assert self.proc.poll() is None, "".join(self.lines)
            return False

    def wait_for(self, done, message: str, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while not done():
            assert time.monotonic() < deadline, f"{message}: {''.join(self.lines)}"
            time.sleep(0.05)

    def said(self, text: str) -> int:
        return sum(text in line for line in self.lines)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)


def get(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def builds(cache: Path) -> list[int]:
    """The pids of build processes writing into this cache folder."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if CHILD.encode() in argv and any(str(cache).encode() in arg for arg in argv):
            found.append(int(entry.name))
    return found


def ended(pid: int) -> bool:
    """Whether a process has ended (gone, or a zombie its new parent has not reaped yet)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    return "\nState:\tZ" in status


def temporary(cache: Path) -> list[str]:
    return sorted(p.name for p in cache.glob(".tmp-*")) if cache.exists() else []


@pytest.fixture()
def cache(tmp_path) -> Path:
    return tmp_path / "pack"


def test_twenty_requests_on_a_cold_server_of_two_processes_build_one_zip(cache):
    server = Server(_free_port(), cache, "--workers", "2")
    try:
        # 20 at once, while the zip is built: each answer is a 503 or the pack, nothing else.
        with ThreadPoolExecutor(20) as pool:
            answers = list(pool.map(get, [server.base + "/pack.zip"] * 20))
        deadline = time.monotonic() + 120
        while not any(code == 200 for code, _, _ in answers):
            assert time.monotonic() < deadline, "the pack was not built in 120 s"
            time.sleep(0.2)
            answers.append(get(server.base + "/pack.zip"))
        # Then from both processes (new connections: either may accept each), the same file.
        with ThreadPoolExecutor(20) as pool:
            answers += list(pool.map(get, [server.base + "/pack.zip"] * 20))
        zips = set()
        for code, headers, body in answers:
            if code == 503:
                assert int(headers["Retry-After"]) > 0
                assert headers["Content-Type"].startswith("text/html")
                assert "Content-Disposition" not in headers
                assert b"The judge pack is being prepared" in body
            else:
                assert code == 200 and headers["Content-Type"] == "application/zip"
                with zipfile.ZipFile(io.BytesIO(body)) as archive:
                    names = archive.namelist()
                assert {n.split("/")[0] for n in names} == {"judgekit-pack"}
                assert "judgekit-pack/index.html" in names
                zips.add(body)
        assert answers[0][0] == 503 and len(zips) == 1
        server.wait_for(lambda: temporary(cache) == [] and not builds(cache), "left behind")
        server.wait_for(lambda: server.said("judge pack: built"), "the build said nothing")
        assert server.said("judge pack: building") == 1 and server.said("judge pack: built") == 1
        assert [p.suffix for p in cache.iterdir() if not p.name.startswith(".")] == [".zip"]
    finally:
        server.stop()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_stopping_the_server_during_a_build_leaves_no_process_and_no_temporary_file(cache, signum):
    server = Server(_free_port(), cache, "--workers", "2")
    try:
        server.wait_for(lambda: builds(cache) and temporary(cache), "no build started")
        children = builds(cache)
        os.kill(server.proc.pid, signum)  # the server's main process only
        server.wait_for(lambda: not builds(cache), "the build outlived the server", 20)
        server.wait_for(lambda: temporary(cache) == [], "temporary files left behind", 20)
        server.wait_for(lambda: all(map(ended, children)), "the build did not end", 20)
        assert not list(cache.glob("*.zip"))  # stopped with the server, not left to finish
        server.proc.wait(timeout=20)
    finally:
        server.stop()


def test_what_a_killed_build_left_is_removed_at_the_next_start(cache):
    server = Server(_free_port(), cache, "--workers", "2")
    server.wait_for(lambda: builds(cache) and list(cache.glob(".tmp-*/*")), "no build started")
    # SIGKILL to every process of the server and to the build, which runs in a session of its
    # own: frozen first, so that it cannot clean up on the SIGTERM its parent's death sends it.
    building = builds(cache)
    for pid in building:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGSTOP)
    server.stop()
    for pid in building:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    server.wait_for(lambda: not builds(cache), "the build was not killed")
    left = temporary(cache)
    assert left  # what a killed build leaves
    again = Server(_free_port(), cache, "--workers", "2")
    try:
        again.wait_for(lambda: again.said("judge pack: built"), "no zip built", 120)
        again.wait_for(lambda: temporary(cache) == [], "the leftovers were not removed")
        assert get(again.base + "/pack.zip")[0] == 200
    finally:
        again.stop()


def _can_mount_tmpfs(folder: Path) -> bool:
    if not shutil.which("unshare"):
        return False
    folder.mkdir(parents=True, exist_ok=True)
    probe = ["unshare", "--mount", "--propagation", "private", "--"]
    probe += ["mount", "-t", "tmpfs", "-o", "size=64k", "none", str(folder)]
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


def test_a_disk_out_of_inodes_is_a_clear_503(cache):
    if not _can_mount_tmpfs(cache):
        pytest.skip("cannot mount a small tmpfs here (needs root and unshare)")
    # The cache folder on a file system of its own with 30 inodes: the build runs out of them.
    mount = 'mount -t tmpfs -o size=8m,nr_inodes=30 none "$0" && exec "$@"'
    prefix = ("unshare", "--mount", "--propagation", "private", "--", "sh", "-c", mount, str(cache))
    server = Server(_free_port(), cache, "--workers", "1", prefix=prefix, retry=60)
    try:
        server.wait_for(lambda: server.said("build failed (disk-full)"), "no failure", 120)
        code, headers, body = get(server.base + "/pack.zip")
        assert code == 503 and int(headers["Retry-After"]) > 0
        text = html.unescape(body.decode())
        assert "could not be built: the server's disk is full (no space or no free file" in text
        assert "Traceback" not in text and str(cache) not in text
    finally:
        server.stop()
