"""The README's publishing and install steps, as far as a machine with no network can check
them: a pack built for a GitHub Pages project site (``--base-url https://judge.github.io/judgekit``)
served under the ``/judgekit/`` prefix on 127.0.0.1, installable (Chromium's own check), with what
an iPhone reads, and working offline after one visit."""

from __future__ import annotations

import contextlib
import json
import struct
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from judgekit.pack.build import build, pack_app
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, wait_until
from tests.test_pack_browser import LOOPBACK, PHONE, static_server

pytestmark = pytest.mark.browser

PACK_CORPUS = Path(__file__).parent / "data" / "pack"
BASE_URL = "https://judge.github.io/judgekit"
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def pages_site(tmp_path_factory):
    """The folder a Pages project site serves: the pack as ``/judgekit/``."""
    root = tmp_path_factory.mktemp("pages")
    when = datetime(2026, 11, 23, 7, 0, tzinfo=UTC)
    result = build(pack_app(str(PACK_CORPUS), BASE_URL), root / "judgekit", when=when)
    return root, result


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG
    return struct.unpack(">II", data[16:24])


def test_manifest_and_iphone_needs(pages_site):
    root, _ = pages_site
    site = root / "judgekit"
    manifest = json.loads((site / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "index.html",
        "./",
        "standalone",
    )
    sizes = {}
    for icon in manifest["icons"]:
        if icon["type"] == "image/png":
            sizes[icon["sizes"]] = _png_size((site / icon["src"]).read_bytes())
    assert sizes == {"192x192": (192, 192), "512x512": (512, 512)}
    home = (site / "index.html").read_text(encoding="utf-8")
    for needed in (
        '<meta name="apple-mobile-web-app-capable" content="yes">',
        '<meta name="apple-mobile-web-app-title" content="judgekit">',
        '<link rel="manifest" href="manifest.webmanifest">',
    ):
        assert needed in home
    touch = home.split('<link rel="apple-touch-icon" href="', 1)[1].split('"', 1)[0]
    assert touch.startswith("static/apple-touch-icon.")
    assert _png_size((site / touch).read_bytes()) == (180, 180)


@contextlib.contextmanager
def installing_context(browser, profile: Path) -> Iterator[tuple[object, list[str]]]:
    """A phone-sized context with a profile on disk: Chromium installs nothing from an
    incognito one (a plain new context is one), so the installability check needs this."""
    context = browser.browser_type.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True, viewport=PHONE
    )
    off_host: list[str] = []

    def guard(route):
        if urlsplit(route.request.url).hostname in LOOPBACK:
            route.continue_()
        else:
            off_host.append(route.request.url)
            route.abort()

    context.route("**/*", guard)
    try:
        yield context, off_host
    finally:
        context.close()


def test_pages_project_site_installs_and_works_offline(browser, pages_site, tmp_path):
    root, result = pages_site
    with static_server(root) as host, installing_context(browser, tmp_path / "p") as (ctx, off):
        base = f"{host}/judgekit"
        page = ctx.new_page()
        page.goto(f"{base}/")  # the address the README gives: the site's folder
        wait_until(
            page,
            "id => !!(window.judgekit && judgekit.pack && judgekit.pack.storedId === id"
            " && navigator.serviceWorker.controller)",
            result.version["id"],
            timeout=30,
        )
        cdp = ctx.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == f"{base}/manifest.webmanifest"
        assert manifest["errors"] == []

        # A citation copied from the pack names the published address.
        page.goto(f"{base}/rules/demo-rulebook/2/attempting/index.html")
        assert page.inner_text(".permalink-url") == (f"{BASE_URL}/rules/demo-rulebook/2/attempting")

        ctx.set_offline(True)
        # The permalink's own path, as Pages answers it (the folder, then its index.html).
        page.goto(f"{base}/rules/demo-rulebook/2/attempting/")
        assert "When your personnel begin a mission attempt, count them." in page.inner_text("main")
        page.goto(f"{base}/index.html")
        page.click("a[href='rules/demo-rulebook/2/index.html']")
        assert page.url == f"{base}/rules/demo-rulebook/2/index.html"
        # Search through the page, then the stepper and the calculator.
        page.goto(f"{base}/search/index.html?q=access")
        wait_until(page, "!!document.querySelector('#search-results .result')")
        assert page.inner_text("#search-results .result-title") == "Access Denied"
        page.goto(f"{base}/timing/attempt/index.html?version=2&step=1.a")
        assert page.url == f"{base}/timing/attempt/~step=1.a,version=2/index.html"
        page.goto(f"{base}/timing/attempt/index.html?version=2&step=1&personnel=5&overcome=1")
        wait_until(page, "!!document.querySelector('[data-calc=drawn]')")
        assert page.inner_text("[data-calc=drawn]") == "4"
        assert off == []
