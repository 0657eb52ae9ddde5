"""The real server on 127.0.0.1: held connections, huge bodies, headers, memory, ETags."""

from __future__ import annotations

import gzip
import json
import re
import socket
import time
import urllib.error
import urllib.request

import pytest
from flask import template_rendered

from judgekit import create_app
from judgekit.web import server as web_server
from judgekit.web.context import library_of
from judgekit.web.memory import warm
from judgekit.web.protect import SECURITY_HEADERS
from judgekit.web.sitemap import all_paths

from .conftest import MINI, serving


@pytest.fixture(scope="module")
def mini_server():
    app = create_app({"TESTING": True, "CORPUS_DIR": str(MINI)})
    with serving(app) as base:
        yield app, base


def fetch(url: str, **headers: str):
    """Status, headers and raw body of a GET (errors included)."""
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read()


def _port(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


def test_a_huge_body_is_refused_unread(mini_server):
    _, base = mini_server
    # From an address of its own: the held-connections test's address may still be at its cap.
    address = ("127.0.0.3", 0)
    with socket.create_connection(
        ("127.0.0.1", _port(base)), timeout=5, source_address=address
    ) as sock:
        sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5242880\r\n\r\n")
        answer = sock.recv(200)  # answered with 5 MB still unsent
    assert answer.startswith(b"HTTP/1.1 413 Request Entity Too Large")


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/", 200),
        ("/api/documents", 200),
        ("/static/css/judgekit.css", 200),
        ("/rules/nope/1/", 404),
        ("/api/entries/demo-rulebook/1/nope", 404),
    ],
)
def test_security_headers_on_every_answer(mini_server, path, status):
    _, base = mini_server
    code, headers, _ = fetch(base + path)
    assert code == status
    assert {name: headers[name] for name in SECURITY_HEADERS} == SECURITY_HEADERS


def test_json_errors_escape_markup(mini_server):
    _, base = mini_server
    code, _, body = fetch(base + "/api/entries/demo-rulebook/1/%3Cscript%3E")
    assert code == 404
    raw = body.decode()
    assert "<" not in raw and ">" not in raw and "'" not in raw
    assert "unknown entry \\u0027\\u003cscript\\u003e\\u0027" in raw


def test_pages_have_strong_etags_revalidate_and_compress(mini_server):
    _, base = mini_server
    code, headers, body = fetch(base + "/rules/demo-rulebook/1/", **{"Accept-Encoding": "gzip"})
    assert code == 200 and headers["Content-Encoding"] == "gzip"
    assert b"<html" in gzip.decompress(body)
    etag = headers["ETag"]
    assert re.fullmatch(r'"[0-9a-f]{12}-[0-9a-f]{20}:gzip"', etag)
    assert headers["Cache-Control"] == "no-cache"
    code, _, body = fetch(
        base + "/rules/demo-rulebook/1/", **{"Accept-Encoding": "gzip", "If-None-Match": etag}
    )
    assert (code, body) == (304, b"")
    plain_code, plain, _ = fetch(base + "/rules/demo-rulebook/1/")
    assert plain_code == 200 and "Content-Encoding" not in plain
    assert plain["ETag"] == etag.replace(":gzip", "")
    # An answer depends on the chosen game's cookie and on the encoding; it says when it was made.
    assert set(headers["Vary"].replace(" ", "").split(",")) == {"Cookie", "Accept-Encoding"}
    assert set(plain["Vary"].replace(" ", "").split(",")) == {"Cookie", "Accept-Encoding"}
    assert re.fullmatch(r"\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT", plain["Date"])


def test_static_files_have_hashed_names_kept_a_year(mini_server):
    _, base = mini_server
    _, _, home = fetch(base + "/")
    css = re.search(r'href="(/static/css/judgekit\.[0-9a-f]{10}\.css)"', home.decode())[1]
    code, headers, _ = fetch(base + css)
    assert code == 200
    assert set(headers["Cache-Control"].replace(" ", "").split(",")) == {
        "public",
        "max-age=31536000",
        "immutable",
    }
    assert fetch(base + "/static/css/judgekit.0000000000.css")[0] == 404


def test_once_warm_no_page_is_rendered_again():
    app = create_app({"TESTING": True, "CORPUS_DIR": str(MINI)})
    paths = all_paths(library_of(app), app.extensions["judgekit"]["timing"])
    assert {"/", "/diff/demo-rulebook/1..2", "/api/diff/demo-rulebook/2/1"} <= set(paths)
    assert warm(app, paths) == len(paths)
    rendered: list[str] = []

    def count(sender, template, context, **extra):
        rendered.append(template.name)

    client = app.test_client()
    with template_rendered.connected_to(count, app):
        statuses = {path: client.get(path).status_code for path in paths}
    assert statuses == dict.fromkeys(paths, 200)
    # Only the home page, whose "Other judges" box shows the pack zip's progress until the zip
    # is ready: it is kept once the link is there (test_pack_serve.py). Whether the zip of an
    # earlier test is ready by now depends on that test's timing.
    assert set(rendered) <= {"rules/home.html"} and len(rendered) <= 1


def test_queue_warnings_are_logged_once_a_minute():
    quiet = web_server.OncePerInterval(60)
    records = [
        __import__("logging").LogRecord(
            "waitress.queue", 30, "", 0, "Task queue depth is %d", (n,), None
        )
        for n in range(500)
    ]
    start = time.monotonic()
    passed = [r for r in records if quiet.filter(r)]
    assert len(passed) == 1 and time.monotonic() - start < 60


# Last: the server needs a moment to notice the held connections closing.
def test_held_connections_from_one_address_leave_the_server_to_others(mini_server):
    _, base = mini_server
    port = _port(base)
    held = []
    try:
        for _ in range(100):  # a slow client: a request line, then nothing
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(b"GET / HTTP/1.1\r\n")
            held.append(sock)
        # Another address on the loopback network gets its answer at once.
        with socket.create_connection(
            ("127.0.0.1", port), timeout=1, source_address=("127.0.0.2", 0)
        ) as probe:
            probe.sendall(b"GET /api/documents HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answer = probe.recv(64)
        assert answer.startswith(b"HTTP/1.1 200 ")
        # The holder keeps only its share; the rest were closed by the server.
        time.sleep(0.5)  # the refused ones were closed on accept: long before now
        closed = 0
        for sock in held:
            sock.setblocking(False)
            try:
                closed += sock.recv(1) == b""
            except ConnectionResetError:  # closed with our unread request line: a reset
                closed += 1
            except BlockingIOError:  # still open, waiting for the rest of its request
                pass
        assert closed == 100 - web_server.PER_CLIENT_LIMIT
    finally:
        for sock in held:
            sock.close()


@pytest.mark.parametrize(
    ("page", "twin"),
    [
        ("/", "/api/documents"),
        ("/rules/demo-rulebook/1/", "/api/documents/demo-rulebook/1"),
        ("/rules/demo-rulebook/1/beaming", "/api/entries/demo-rulebook/1/beaming"),
        ("/diff/demo-rulebook/1..2", "/api/diff/demo-rulebook/1/2"),
        ("/history/demo-rulebook/beaming", "/api/history/demo-rulebook/beaming"),
        ("/timing", "/api/timing"),
        ("/search?q=beam&edition=2E", "/api/search?q=beam&amp;edition=2E"),
    ],
)
def test_every_page_links_its_json_twin(mini_client, page, twin):
    html = mini_client.get(page).get_data(as_text=True)
    assert f'<link rel="alternate" type="application/json" href="{twin}">' in html
    assert mini_client.get(twin.replace("&amp;", "&")).status_code == 200


@pytest.mark.parametrize("debug", [False, True])
def test_json_answers_escape_html_characters_however_encoded(debug):
    import flask

    from judgekit.web.protect import SafeJSONProvider

    app = flask.Flask("t")
    app.json = SafeJSONProvider(app)
    app.debug = debug
    data = {"q": "<b>'a' & “b”</b>", 1: ("t", None, 2.5), "when": None}
    with app.app_context():
        body = app.json.response(data).get_data()
        text = app.json.dumps(data)
        # An option only the standard library has:
        plain = app.json.dumps({"z": 1, "q": data["q"]}, sort_keys=True)
    for raw in (body.decode(), text):
        assert not any(c in raw for c in "<>&'"), raw
        assert json.loads(raw) == {"q": "<b>'a' & “b”</b>", "1": ["t", None, 2.5], "when": None}
    assert not any(c in plain for c in "<>&'") and plain.startswith('{"q":')
    assert "“b”" in text  # UTF-8, not \u escapes, as before
    assert body.endswith(b"\n") and (b'\n  "q"' in body) == debug  # indented when debugging


def test_conditional_answers_keep_their_headers(mini_server):
    """A revalidation (304) and a failed If-Match (412) are answered from memory as before the
    conditional check was made optional, with the page's ETag, caching and security headers."""
    _, base = mini_server
    page = base + "/rules/demo-rulebook/1/"
    _, first, _ = fetch(page)
    etag = first["ETag"]
    answers = {
        "If-None-Match": fetch(page, **{"If-None-Match": etag}),
        "If-Match": fetch(page, **{"If-Match": '"not-this-page"'}),
        "matching If-Match": fetch(page, **{"If-Match": etag}),
        "If-None-Match elsewhere": fetch(page, **{"If-None-Match": '"not-this-page"'}),
    }
    assert {name: code for name, (code, _, _) in answers.items()} == {
        "If-None-Match": 304,
        "If-Match": 412,
        "matching If-Match": 200,
        "If-None-Match elsewhere": 200,
    }
    for name, (_, headers, _) in answers.items():
        assert headers["ETag"] == etag, name
        assert headers["Cache-Control"] == "no-cache", name
        assert "Cookie" in headers["Vary"] and headers["Date"], name
        assert {h: headers[h] for h in SECURITY_HEADERS} == SECURITY_HEADERS, name
    assert answers["If-None-Match"][2] == b""


def test_a_views_own_security_header_is_kept_fresh_from_memory_and_revalidated():
    """A view that sets its own policy keeps it, rendered, replayed from memory and in a 304;
    the security headers it does not set are added as on every answer."""
    app = create_app({"TESTING": True, "CORPUS_DIR": str(MINI)})
    own = "default-src 'none'; frame-ancestors 'none'"

    @app.get("/own-policy")
    def own_policy():
        return "<p>mine</p>", 200, {"Content-Security-Policy": own, "Content-Type": "text/html"}

    client = app.test_client()
    fresh = client.get("/own-policy")
    replayed = client.get("/own-policy")
    revalidated = client.get("/own-policy", headers={"If-None-Match": fresh.headers["ETag"]})
    assert [r.status_code for r in (fresh, replayed, revalidated)] == [200, 200, 304]
    for answer in (fresh, replayed, revalidated):
        assert answer.headers.getlist("Content-Security-Policy") == [own]
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Referrer-Policy"] == "same-origin"
