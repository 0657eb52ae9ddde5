"""The page cache (judgekit/web/memory.py, pagekey.py): bounded in everything it holds, keyed by
what a page reads, long keys never kept, the start-up pages kept whatever floods it."""

from __future__ import annotations

import gc
import tracemalloc

import pytest
from flask import template_rendered

from judgekit import create_app
from judgekit.web.context import library_of
from judgekit.web.memory import MemoryCache, warm
from judgekit.web.pagekey import ALL, MAX_KEY_CHARS, NotedDict
from judgekit.web.sitemap import all_paths

from .conftest import MINI


def _app(**config):
    return create_app({"TESTING": True, "CORPUS_DIR": str(MINI), **config})


def _cache(app) -> MemoryCache:
    for hook in app.before_request_funcs[None]:
        if isinstance(getattr(hook, "__self__", None), MemoryCache):
            return hook.__self__
    raise AssertionError("no memory cache")


class Renders:
    """Counts the templates rendered (a page answered from memory renders none)."""

    def __init__(self, app) -> None:
        self.app, self.count = app, 0

    def _count(self, sender, template, context, **extra) -> None:
        self.count += 1

    def __enter__(self) -> Renders:
        template_rendered.connect(self._count, self.app)
        return self

    def __exit__(self, *exc) -> None:
        template_rendered.disconnect(self._count, self.app)


def test_what_the_cache_holds_stays_within_its_bound_as_measured():
    """Keys, bodies, compressed bodies and headers all count: measured by tracemalloc, what
    stays after 200 distinct pages (long keys: a judge's cookie of 1,500 characters) is within
    the bound."""
    bound = 300_000
    app = _app(PAGE_CACHE_BYTES=bound)
    client = app.test_client()
    client.get("/rules/demo-rulebook/1/")  # what the first request sets up, before measuring
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for n in range(200):
            client.set_cookie("judgekit_edition", f"{n:04d}" + "x" * 1500)
            answer = client.get("/rules/demo-rulebook/1/", headers={"Accept-Encoding": "br"})
            assert answer.status_code == 200
        client.delete_cookie("judgekit_edition")
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    pages = _cache(app).pages
    assert pages.size <= bound
    assert len(pages) > 10  # it did keep pages
    assert grown <= bound * 1.1, f"{grown:,} bytes held against a bound of {bound:,}"


@pytest.mark.parametrize(
    ("first", "second", "kept_apart"),
    [
        ("/rules/demo-rulebook/1/", "/rules/demo-rulebook/1/?utm_source=x", False),
        ("/search?q=beam", "/search?q=beam&junk=1&utm=2", False),
        ("/search?q=beam", "/search?q=beam&edition=1E", True),
        ("/search?q=beam", "/search?q=beaming", True),
    ],
)
def test_pages_are_kept_under_the_parameters_they_read(first, second, kept_apart):
    app = _app()
    client = app.test_client()
    fresh = client.get(first)
    with Renders(app) as renders:
        again = client.get(second)
    assert (renders.count > 0) == kept_apart
    assert (again.data != fresh.data) == kept_apart or not kept_apart


def test_cookies_no_page_reads_are_not_in_the_key_the_remembered_game_is():
    app = _app()
    client = app.test_client()
    client.get("/rules/demo-rulebook/1/")
    client.set_cookie("tracker", "y" * 4000)
    with Renders(app) as renders:
        client.get("/rules/demo-rulebook/1/")
    assert renders.count == 0
    client.set_cookie("judgekit_edition", "1E")
    with Renders(app) as renders:
        client.get("/search?q=beam")
        client.get("/search?q=beam")
    assert renders.count == 1  # the remembered game changes a search: rendered once for it


def test_a_request_whose_key_would_be_long_is_answered_and_not_kept():
    app = _app()
    client = app.test_client()
    client.set_cookie("judgekit_edition", "2E" + " " * MAX_KEY_CHARS)  # read by every page
    kept = len(_cache(app).pages)
    with Renders(app) as renders:
        answers = [client.get("/rules/demo-rulebook/1/") for _ in range(2)]
    assert [a.status_code for a in answers] == [200, 200]
    assert renders.count == 2
    assert len(_cache(app).pages) == kept


def test_the_start_up_pages_stay_whatever_floods_the_cache():
    app = _app(PAGE_CACHE_BYTES=2_000_000)
    paths = all_paths(library_of(app), app.extensions["judgekit"]["timing"])
    warm(app, paths)
    client = app.test_client()
    for n in range(400):  # distinct searches, each kept: far more than the bound holds
        client.get(f"/search?q=beam+{n}")
    assert _cache(app).pages.size <= 2_000_000
    # The home page is the one page rendered again while the pack's zip is being prepared
    # (its download line shows the progress: tests/test_pack_zip_serve.py), so it is left out.
    with Renders(app) as renders:
        statuses = {client.get(path).status_code for path in paths if path != "/"}
    assert statuses == {200} and renders.count == 0


def test_a_page_from_memory_is_the_page_rendered():
    """For every page of the sitemap: asked with a parameter and a cookie no page reads, the
    answer from memory is the one a server without memory renders."""
    kept, plain = _app(), _app(PAGE_CACHE_BYTES=0)
    paths = all_paths(library_of(kept), kept.extensions["judgekit"]["timing"])
    warm(kept, paths)
    client, fresh = kept.test_client(), plain.test_client()
    for c in (client, fresh):
        c.set_cookie("tracker", "1")
    for path in paths:
        asked = path + ("&" if "?" in path else "?") + "utm_source=x"
        assert client.get(asked).data == fresh.get(asked).data, path


def test_reading_every_parameter_puts_them_all_in_the_key():
    noted = NotedDict.noting(NotedDict([("a", "1"), ("b", "2")]))
    noted.get("a")
    assert "c" not in noted
    assert noted.read == {"a", "c"}
    for enumerate_all in (
        list,
        dict,
        lambda d: d.to_dict(),
        lambda d: {**d},
        len,
        lambda d: d.items(),
    ):
        noted = NotedDict.noting(NotedDict([("a", "1")]))
        enumerate_all(noted)
        assert ALL in noted.read, enumerate_all


def test_the_bound_is_set_from_the_environment(monkeypatch):
    monkeypatch.setenv("JUDGEKIT_PAGE_CACHE_BYTES", "12345678")
    assert _cache(create_app({"CORPUS_DIR": str(MINI)})).pages.max_bytes == 12345678


def test_a_page_reading_its_whole_address_is_kept_under_all_of_it():
    from flask import request
    from markupsafe import escape

    app = _app()

    @app.get("/echo")
    def echo():
        return f"<p>{escape(request.full_path)}</p>"

    client = app.test_client()
    assert client.get("/echo?a=1").data == b"<p>/echo?a=1</p>"
    assert client.get("/echo?a=2").data == b"<p>/echo?a=2</p>"  # not the page kept for a=1


def test_a_page_links_back_to_itself_with_the_parameters_it_read():
    client = _app().test_client()
    html = client.get("/search?q=beam&utm_source=x&edition=1E").get_data(as_text=True)
    assert '<input type="hidden" name="next" value="/search?q=beam&amp;edition=1E">' in html
