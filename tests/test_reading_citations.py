"""Citations a player can check in the printed book: pages, the short form, the date given once."""

from __future__ import annotations

import html as htmllib
import json
import re

import pytest

from judgekit import create_app, urls
from judgekit.checks.loader import load_corpus
from judgekit.render.library import Library

from .conftest import DATA

CITES = DATA / "citations"


@pytest.fixture(scope="module")
def clib() -> Library:
    return Library(load_corpus(CITES))


BASE = "http://192.168.1.20:8000"


@pytest.fixture(scope="module")
def cc():
    # The address judges open: from BASE_URL where the server sets it, else the request's host.
    app = create_app({"TESTING": True, "CORPUS_DIR": str(CITES), "BASE_URL": BASE})
    return app.test_client()


def cite(lib: Library, document: str, version: str, entry_id: str) -> tuple[str, str]:
    entry = lib.corpus.entry(document, version, entry_id)
    return lib.citation_title(entry), lib.citation_short(entry)


@pytest.mark.parametrize(
    ("entry_id", "full", "short"),
    [
        # the entry's own printed page
        ("introduction", "2E Book v4 (April 2015), Introduction, p. 2", "2E v4 p. 2, Introduction"),
        (
            "moving",
            "2E Book v4 (April 2015), 2. Execute Orders – Order – Move a Ship, p. 9",
            "2E v4 p. 9, Order – Move a Ship",
        ),
        # a page only the printed contents give
        (
            "execute-orders",
            "2E Book v4 (April 2015), 2. Execute Orders, p. 8",
            "2E v4 p. 8, 2. Execute Orders",
        ),
        # no page of its own: the section's, saying so (never as the entry's own, issue #29)
        (
            "beaming",
            "2E Book v4 (April 2015), 2. Execute Orders – Order – Beam Personnel, "
            "in 2. Execute Orders, p. 8",
            "2E v4, Order – Beam Personnel, in 2. Execute Orders, p. 8",
        ),
        # two levels down: the nearest section with a page
        (
            "beaming-limits",
            "2E Book v4 (April 2015), Order – Beam Personnel – Limits, in 2. Execute Orders, p. 8",
            "2E v4, Limits, in 2. Execute Orders, p. 8",
        ),
        (
            "gl-range",
            "2E Book v4 (April 2015), Glossary – Range, in Glossary, p. 15",
            "2E v4, Range, in Glossary, p. 15",
        ),
        # before any paged section: no page, and none invented
        ("front", "2E Book v4 (April 2015), Front Matter", "2E v4, Front Matter"),
    ],
)
def test_citation_pages(clib, entry_id, full, short):
    assert cite(clib, "book", "4", entry_id) == (full, short)


def test_a_version_without_pages_cites_none(clib):
    assert cite(clib, "book", "1", "beaming") == (
        "2E Book v1 (08/19/2003), 2. Execute Orders – Beaming",
        "2E v1, Beaming",
    )


def test_a_version_named_by_its_date_gives_the_date_once(clib):
    assert cite(clib, "notes", "2000-02-28", "cumulative") == (
        "1E Current Rulings 2/28/00, Rulings – cumulative",
        "1E Current Rulings 2/28/00, cumulative",
    )


def test_entry_json_carries_citation_short_form_and_page(cc):
    beaming = cc.get("/api/entries/book/4/beaming").get_json()
    assert beaming["citation"] == (
        "2E Book v4 (April 2015), 2. Execute Orders – Order – Beam Personnel, "
        "in 2. Execute Orders, p. 8"
    )
    assert beaming["citation_short"] == "2E v4, Order – Beam Personnel, in 2. Execute Orders, p. 8"
    assert beaming["page"] is None
    assert beaming["printed_page"] == {
        "page": 8,
        "first": 8,
        "last": 8,
        "text": "p. 8",
        "own": False,
        "basis": "contents",
        "page_editorial": None,
        "evidence": [],
        "section": {
            "id": "execute-orders",
            "title": "2. Execute Orders",
            "url": "/rules/book/4/execute-orders",
        },
    }
    moving = cc.get("/api/entries/book/4/moving").get_json()
    assert moving["page"] == 9
    assert moving["printed_page"]["own"] is True
    assert moving["printed_page"]["section"]["id"] == "moving"
    front = cc.get("/api/entries/book/4/front").get_json()
    assert front["page"] is None and front["printed_page"] is None


def test_entry_page_offers_both_forms(cc):
    html = cc.get("/rules/book/4/beaming", base_url=BASE).get_data(as_text=True)
    full = (
        "2E Book v4 (April 2015), 2. Execute Orders – Order – Beam Personnel, "
        "in 2. Execute Orders, p. 8"
    )
    assert f'<span class="citation-title">{full}</span>' in html
    assert (
        f'data-citation="{full}\nhttp://192.168.1.20:8000/rules/book/4/beaming" '
        'data-citation-short="2E v4, Order – Beam Personnel, in 2. Execute Orders, p. 8"'
    ) in html
    assert (
        'Short form: <span class="citation-short-text">'
        "2E v4, Order – Beam Personnel, in 2. Execute Orders, p. 8</span>" in html
    )
    assert 'data-copy="data-citation" hidden>Copy citation</button>' in html
    assert 'data-copy="data-citation-short" hidden>Copy short form</button>' in html


def test_ruling_page_gives_the_date_once(cc):
    html = cc.get("/rulings/notes/2000-02-28/cumulative").get_data(as_text=True)
    assert (
        '<span class="citation-title">1E Current Rulings 2/28/00, Rulings – cumulative</span>'
        in html
    )
    # The citation names the date once (the status badge beside the version's name gives it
    # again as "newest held here (2/28/00)": that is the status's date, not the citation's).
    citation = html[html.index('<span class="citation-title">') :]
    citation = citation[: citation.index("</span>")]
    assert "(2/28/00)" not in htmllib.unescape(citation)
    assert htmllib.unescape(html).count("(2/28/00)") == htmllib.unescape(html).count(
        "held here (2/28/00)"
    )


def test_real_corpus_beaming_cites_the_pages_the_contents_leave_it(lib):
    """Version 4 prints no page for the beaming order: it follows 2. Execute Orders (p. 10) and
    comes before 3. Discard Excess Cards (p. 13), so pp. 10–13 (rules/2e-rulebook/4.pages.yaml)."""
    entry = lib.corpus.entry("2e-rulebook", "4", "beaming")
    assert lib.citation_title(entry) == (
        "2E Rulebook v4 (April 2015), 2. Execute Orders – Order – Beam Personnel, pp. 10–13"
    )
    assert lib.citation_short(entry) == "2E v4 pp. 10–13, Order – Beam Personnel"
    ruling = lib.corpus.entry("1e-current-rulings", "2000-02-28", "cumulative")
    assert lib.citation_title(ruling) == "1E Current Rulings 2/28/00, Rulings – cumulative"


WARNING = (
    "Only this computer can open this link: it names {host}, this computer’s own address, so "
    "other judges cannot follow it. To share links, restart with judgekit serve --host 0.0.0.0 "
    "(links then name this computer’s network address), or name the address judges open with "
    "--base-url (judgekit serve --base-url http://address:port)."
)


def citation_box(base_url: str) -> str:
    """The citation box of an entry page, served with ``base_url`` as BASE_URL, as plain words."""
    app = create_app({"TESTING": True, "CORPUS_DIR": str(CITES), "BASE_URL": base_url})
    page = app.test_client().get("/rules/book/4/beaming").get_data(as_text=True)
    box = page[page.index('<div class="citation"') :]
    box = box[: box.index('<p class="citation-short">')]
    box = re.sub(r"<br>|</p>", " ", box)
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", "", box)).split())


@pytest.mark.parametrize(
    ("base_url", "host"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1"),
        ("http://127.1.2.3:5000", "127.1.2.3"),
        ("http://localhost:8000", "localhost"),
        ("http://[::1]:8000", "::1"),
        ("http://0.0.0.0:8000", "0.0.0.0"),
    ],
)
def test_loopback_link_warns_beside_it(base_url, host):
    words = citation_box(base_url)
    assert words.startswith(
        "2E Book v4 (April 2015), 2. Execute Orders – Order – Beam Personnel, in 2. Execute "
        f"Orders, p. 8 {base_url}/rules/book/4/beaming "
    )
    assert words.endswith(WARNING.format(host=host))


@pytest.mark.parametrize(
    "base_url", ["http://192.168.1.20:8000", "https://judges.example.org", "http://10.0.0.5"]
)
def test_network_link_has_no_warning(base_url):
    words = citation_box(base_url)
    assert words.endswith(f"p. 8 {base_url}/rules/book/4/beaming")
    assert "Only this computer" not in words


@pytest.mark.parametrize(
    ("base_url", "host"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1"),
        ("http://LOCALHOST.:8000", "localhost."),
        ("http://judge.localhost", "judge.localhost"),
        ("http://[::ffff:127.0.0.1]:8000", "::ffff:127.0.0.1"),
        ("http://[::]:8000", "::"),
        ("http://192.168.1.20:8000", None),
        ("https://127.example.org", None),
        ("http://[::1", None),  # unparsable: no claim either way
        ("", None),  # the static pack: relative links
    ],
)
def test_only_this_computer(base_url, host):
    assert urls.only_this_computer(base_url) == host


def test_entry_json_carries_no_absolute_link(cc):
    # The JSON twin gives the citation and a relative url: there is no host in it to warn about.
    data = cc.get("/api/entries/book/4/beaming").get_json()
    assert data["url"] == "/rules/book/4/beaming"
    assert "127.0.0.1" not in json.dumps(data) and "192.168.1.20" not in json.dumps(data)
