"""The reading pages on the tiny reading corpus: what each page shows, errors, escaping."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from judgekit import create_app

from .conftest import DATA

READING = DATA / "reading"
V1 = "/rules/demo-book/1"
RULINGS = "/rulings/demo-rulings/2000-02-28"


@pytest.fixture(scope="module")
def reading_app():
    return create_app({"TESTING": True, "CORPUS_DIR": str(READING)})


@pytest.fixture()
def rc(reading_app):
    return reading_app.test_client()


def page(rc, url: str, status: int = 200, **kwargs) -> str:
    response = rc.get(url, **kwargs)
    assert response.status_code == status, (url, response.status_code)
    assert response.mimetype == "text/html"
    return response.get_data(as_text=True)


def squash(html: str) -> str:
    """The page's HTML with whitespace runs made single spaces, to assert on phrases."""
    return re.sub(r"\s+", " ", html)


# -- home ---------------------------------------------------------------------------------------
def test_home_lists_documents_versions_dates_publishers(rc):
    html = squash(page(rc, "/"))
    assert '<a href="/rules/demo-book/2/">Demo Book, Version 2</a>' in html
    assert (
        '<time datetime="2015-04">April 2015</time></td> <td>The Continuing Committee</td>' in html
    )
    assert '<time datetime="2003-08-19">08/19/2003</time></td> <td>Decipher</td>' in html
    # newest first; the newest held is marked, with its date, the older one is not
    assert html.index("Demo Book, Version 2") < html.index("Demo Book, Version 1")
    row_v2 = html[html.index("Demo Book, Version 2") : html.index("Demo Book, Version 1")]
    assert "Newest held here (April 2015)</span>" in row_v2
    assert "Newest held" not in html[html.index("Demo Book, Version 1") :].split("</tr>")[0]
    assert '<a href="/rulings/demo-rulings/2000-02-28/">Demo Current Rulings 2/28/00</a>' in html
    # the ways in, and the documents we only cite
    for url in ("/search", "/diff", "/timing"):
        assert f'<a href="{url}">' in html
    assert "Referenced, not held" in html and "Old Glossary 1.6 (October 1999)" in html


# -- a whole version ----------------------------------------------------------------------------
def test_version_page_reads_top_to_bottom_with_anchors(rc, reading_app):
    html = page(rc, V1 + "/")
    lib = reading_app.extensions["judgekit"]["library"]
    ids = list(lib.corpus.version("demo-book", "1").entries)
    found = re.findall(r'<section id="([^"]+)" class="entry-section', html)
    assert found == ids
    for entry_id in ids:  # an anchor and a permalink for every entry
        assert f'<a class="anchor" href="#{entry_id}">' in html
        assert f'href="{V1}/{entry_id}" title="Permalink page of' in html
    assert '<nav class="toc" id="jk-toc"' in html
    assert '<a href="#missions-section">MISSIONS</a> <span class="page-ref">2</span>' in html
    assert "Glossary terms (6)" in html


def test_version_page_nesting_becomes_heading_levels(rc):
    html = page(rc, V1 + "/")
    assert re.search(r'id="missions-section"[^>]*>\s*<h2 ', html)
    assert re.search(r'id="staffing"[^>]*>\s*<h3 ', html)


def test_superseded_version_says_which_is_the_newest_held(rc):
    html = squash(page(rc, V1 + "/"))
    assert (
        'v1 is not the newest version held here. The newest held is <a href="/rules/demo-book/2/">'
        "v2 (April 2015)</a>."
    ) in html
    assert "is not the newest version held here" not in page(rc, "/rules/demo-book/2/")


def test_version_page_links_glossary_terms_in_page(rc):
    html = page(rc, V1 + "/")
    assert (
        '<a class="gloss ed-link" href="#gl-attempting-missions" data-gloss="gl-attempting-missions"'
        in html
    )
    assert 'id="jk-popover"' in html and "data-popover-toggle" in html


# -- an entry -----------------------------------------------------------------------------------
def test_entry_page_breadcrumb_and_text(rc):
    html = squash(page(rc, V1 + "/staffing"))
    assert (
        '<li><a href="/#doc-demo-book">Demo Book</a></li> '
        '<li><a href="/rules/demo-book/1/">v1 (08/19/2003)</a></li> '
        '<li><a href="/rules/demo-book/1/missions-section">Missions</a></li> '
        '<li aria-current="page">Staffing</li>'
    ) in html
    assert "<h1>Staffing</h1>" in html
    assert '<span class="icon icon-square icon-staffing" data-icon="staff" role="img"' in html


def test_examples_and_advanced_text_are_set_apart(rc):
    html = page(rc, V1 + "/introduction")
    assert '<div class="block block-example"><span class="block-label">Example</span>' in html
    # No source marks the grey boxes: the label and a note say the grouping is the editor's.
    assert (
        '<div class="block block-advanced"><span class="block-label" title="The source text does'
        " not mark the rulebook’s grey “advanced” boxes: this grouping is the editor’s reading"
        ' (About this text, on the version page, says how it was made).">'
        "Advanced (editor’s grouping)</span>"
    ) in html
    assert (
        "“Advanced (editor’s grouping)”: the source text of v1 does not mark the rulebook’s grey"
        " boxes, so which paragraphs are advanced text is the editor’s reading.</small>"
    ) in squash(html)


def test_the_advanced_note_is_only_on_entries_with_advanced_text(rc):
    assert "advanced-note" not in page(rc, V1 + "/staffing")


def test_glossary_terms_link_once_with_definitions(rc):
    html = page(rc, V1 + "/introduction")
    assert html.count('data-gloss="gl-attempting-missions"') == 1
    assert '<a class="gloss ed-link" href="/rules/demo-book/1/gl-attempting-missions"' in html
    # a definition per linked term, for the pop-up, and none for terms not on the page
    assert re.findall(r'<template id="def-([^"]+)"', html) == [
        "gl-attempting-missions",
        "gl-missions",
        "gl-playing-a-card",
        "gl-range",
        "gl-aligned",
    ]
    assert (
        '<template id="def-gl-range" data-title="Range" data-url="/rules/demo-book/1/gl-range">'
        '<div class="block block-rule"><p>Range is how far a ship moves.</p></div></template>'
    ) in html
    assert "data-popover-toggle" in html


def test_cross_references_are_links_and_external_ones_are_labelled(rc):
    html = page(rc, V1 + "/missions-section")
    assert (
        '<a class="ref" href="/rules/demo-book/1/gl-attempting-missions" '
        'title="Demo Book v1 (08/19/2003), Glossary – attempting missions, in Glossary, p. 3">'
        "attempting missions</a>"
    ) in html
    assert '<span class="not-held"> [Old Glossary 1.6 – not in judgekit]</span>' in html
    assert "[Old Glossary 1.6 – not in judgekit]</span>" in html.split('id="jk-refs"')[1]


def test_referenced_by_lists_backlinks(rc):
    html = squash(page(rc, V1 + "/gl-attempting-missions"))
    backlinks = html.split('id="jk-backlinks"')[1].split("</section>")[0]
    assert (
        '<li><a href="/rules/demo-book/1/missions-section">Missions</a> '
        '<span class="ref-where">Demo Book v1</span></li>'
    ) in backlinks
    none = squash(page(rc, V1 + "/introduction")).split('id="jk-backlinks"')[1]
    assert none.startswith('>Referenced by</h2> <p class="muted">No entry refers to this one.</p>')


def test_other_versions_same_changed_absent_related(rc):
    intro = squash(page(rc, V1 + "/introduction"))
    assert (
        '<td><span class="status status-same">same</span></td> '
        '<td><a href="/rules/demo-book/2/introduction" data-version-link="2">Introduction</a></td>'
    ) in intro
    missions = squash(page(rc, V1 + "/missions-section"))
    assert '<span class="status status-changed">changed</span>' in missions
    staffing = squash(page(rc, V1 + "/staffing"))
    assert (
        '<td><span class="status status-absent">absent</span></td> '
        '<td><span class="muted">not in this version</span></td>'
    ) in staffing
    assert '<span class="switch is-absent" title="Not in v2">v2</span>' in staffing
    range_ = squash(page(rc, V1 + "/gl-range"))
    assert '<span class="status status-related">merged into</span>' in range_
    assert 'href="/rules/demo-book/2/order-move" data-version-switch="2">v2</a>' in range_
    assert "has this rule <strong>merged into</strong> “Order – Move a Ship”" in range_
    for html in (intro, missions, staffing, range_):
        assert '<a href="/history/demo-book/' in html


OLDER = "v1 is not the newest version held here. The newest held, "
SEE = ': <a href="/diff/demo-book/1..2#{}">see what changed, sentence by sentence</a> </p>'


@pytest.mark.parametrize(
    "entry, said",
    [
        (
            "introduction",
            '<a href="/rules/demo-book/2/introduction">v2 (April 2015)</a>, has this rule with'
            " <strong>the same wording</strong>. </p>",
        ),
        (
            "missions-section",
            '<a href="/rules/demo-book/2/missions-section">v2 (April 2015)</a>,'
            " <strong>changed</strong> this rule" + SEE.format("missions-section"),
        ),
        (
            "staffing",
            '<a href="/rules/demo-book/2/">v2 (April 2015)</a>, <strong>no longer has</strong>'
            " this rule" + SEE.format("staffing"),
        ),
        (
            "gl-range",
            '<a href="/rules/demo-book/2/order-move">v2 (April 2015)</a>, has this rule'
            " <strong>merged into</strong> “Order – Move a Ship”" + SEE.format("order-move"),
        ),
    ],
)
def test_an_older_versions_entry_says_once_what_became_of_it(rc, entry, said):
    """One notice: the version is not the newest held, what that version did to the rule, and
    the link to the change, which ends the notice (no full stop to wrap onto a line alone)."""
    html = squash(page(rc, f"{V1}/{entry}"))
    before = html.split("<article")[0]
    assert before.count('class="notice') == 1
    assert OLDER + said in before


def test_provenance_shows_sources_and_corrections_in_words(rc):
    html = squash(page(rc, V1 + "/introduction"))
    block = html.split('<details class="panel provenance">')[1].split("</details>")[0]
    assert block.startswith(
        ' <summary><h2 id="jk-provenance">Source and corrections</h2> '
        '<span class="muted">(1 correction)</span></summary>'
    )
    assert "<li>Lines 1–4 of source book1.txt: the first fixture text</li>" in block
    assert "About that text: A fixture for the reading pages." in block
    # the corrected words show their icon drawn, never the raw {icon:command} token
    assert (
        "<li>Source book1.txt, line 2, reads <del>with Command</del>; corrected to <ins>with "
        '<span class="icon icon-star icon-staffing" data-icon="command" role="img" '
        'aria-label="Command" title="Command">Command</span></ins>. '
        '<span class="why">Why: icon written as a word</span></li>'
    ) in block
    assert "{icon:" not in block
    staffing = squash(page(rc, V1 + "/staffing"))
    assert "(as in the source)</span></summary>" in staffing
    assert "No corrections: the words are exactly as in that text." in staffing
    assert "<li>Lines 7–8 of source book1.txt: the first fixture text</li>" in staffing


def test_one_line_source_says_line(rc):
    html = squash(page(rc, V1 + "/gl-aligned"))
    assert "<li>Line 18 of source book1.txt: the first fixture text</li>" in html


def test_citation_uses_the_configured_address_not_the_host_header():
    app = create_app(
        {"TESTING": True, "CORPUS_DIR": str(READING), "BASE_URL": "http://192.168.1.20:8000"}
    )
    html = page(app.test_client(), V1 + "/gl-attempting-missions", base_url="http://evil.example")
    assert (
        'data-citation="Demo Book v1 (08/19/2003), Glossary – attempting missions, '
        "in Glossary, p. 3\n"
        'http://192.168.1.20:8000/rules/demo-book/1/gl-attempting-missions"'
    ) in html
    assert (
        '<a class="permalink-url" href="http://192.168.1.20:8000/rules/demo-book/1/'
        'gl-attempting-missions">'
    ) in html


def test_pager_walks_reading_order(rc):
    html = page(rc, V1 + "/missions-section")
    assert '<a class="pager-prev" rel="prev" href="/rules/demo-book/1/introduction">' in html
    assert '<a class="pager-next" rel="next" href="/rules/demo-book/1/staffing">' in html
    assert '<a class="pager-up" href="/rules/demo-book/1/#missions-section">' in html


# -- rulings ------------------------------------------------------------------------------------
def test_rulings_are_served_by_the_rulings_blueprint(reading_app, rc):
    adapter = reading_app.url_map.bind("localhost")
    assert adapter.match(RULINGS + "/")[0] == "rulings.version"
    assert adapter.match(RULINGS + "/android")[0] == "rulings.entry"
    assert adapter.match(V1 + "/introduction")[0] == "rules.entry"
    assert "area-rulings" in page(rc, RULINGS + "/android")


def test_rulings_list_summary_first_new_marker_and_letters(rc):
    html = page(rc, RULINGS + "/")
    sections = re.findall(r'<section id="([^"]+)" class="([^"]+)"', html)
    assert [s[0] for s in sections] == [
        "introduction",
        "significant-changes",
        "rulings",
        "access-denied",
        "android",
        "borg",
        "the-emissary",
    ]
    new = [sid for sid, cls in sections if "is-new" in cls]
    assert new == ["android", "the-emissary"]
    assert html.count("* New/changed</span>") == 2
    assert "Show only the 2 rulings marked * (new or changed)" in html
    assert re.findall(r'<a href="#([^"]+)">([A-Z#])</a>', html) == [
        ("access-denied", "A"),
        ("borg", "B"),
        ("the-emissary", "T"),
    ]
    assert '<span class="not-held"> [Old Glossary 1.6 – not in judgekit]</span>' in html


def test_ruling_entry_page(rc):
    html = squash(page(rc, RULINGS + "/access-denied"))
    assert '<a class="ref" href="/rulings/demo-rulings/2000-02-28/android"' in html
    assert (
        '<li><a href="/rulings/demo-rulings/2000-02-28/">2/28/00</a></li> '
        '<li><a href="/rulings/demo-rulings/2000-02-28/rulings">Rulings</a></li>'
    ) in html


@pytest.mark.parametrize(
    ("url", "location"),
    [
        (RULINGS.replace("/rulings/", "/rules/") + "/android", RULINGS + "/android"),
        (RULINGS.replace("/rulings/", "/rules/") + "/", RULINGS + "/"),
        ("/rulings/demo-book/1/introduction", V1 + "/introduction"),
        ("/rules/demo-book/", "/rules/demo-book/2/"),
        ("/rulings/demo-rulings/", RULINGS + "/"),
        ("/rules/demo-book/1", V1 + "/"),
    ],
)
def test_redirects_to_the_canonical_page(rc, url, location):
    response = rc.get(url)
    assert response.status_code in (301, 302, 308)
    assert urlsplit(response.headers["Location"]).path == location


@pytest.mark.parametrize(
    ("url", "location"),
    [
        (V1 + "/introduction/", V1 + "/introduction"),
        (V1 + "/gl-attempting-missions/?x=1", V1 + "/gl-attempting-missions"),
        (RULINGS + "/android/", RULINGS + "/android"),
        # the wrong area and a trailing slash: one redirect, straight to the entry
        (RULINGS.replace("/rulings/", "/rules/") + "/android/", RULINGS + "/android"),
        ("/rulings/demo-book/1/introduction/", V1 + "/introduction"),
    ],
)
def test_an_entry_with_a_trailing_slash_redirects_to_the_entry(rc, url, location):
    response = rc.get(url)
    assert response.status_code == 308
    assert response.headers["Location"] == location
    assert page(rc, location).count("<h1>") == 1


@pytest.mark.parametrize(
    ("url", "message"),
    [
        (V1 + "/nope/", "unknown entry &#39;nope&#39; in &#39;demo-book&#39; &#39;1&#39;"),
        (
            "/rulings/demo-rulings/1999/android/",
            "unknown version &#39;1999&#39; of &#39;demo-rulings&#39;",
        ),
    ],
)
def test_an_unknown_entry_with_a_trailing_slash_is_404(rc, url, message):
    html = page(rc, url, status=404)
    assert f'<p class="error-message">{message}' in html


# -- errors and escaping ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("/rules/nope/1/x", "unknown document &#39;nope&#39;"),
        ("/rules/old-glossary/1.6/cumulative", "unknown document &#39;old-glossary&#39;"),
        ("/rules/demo-book/7/", "unknown version &#39;7&#39; of &#39;demo-book&#39; (known: 1, 2)"),
        (V1 + "/nope", "unknown entry &#39;nope&#39; in &#39;demo-book&#39; &#39;1&#39;"),
        ("/rules/nope/", "unknown document &#39;nope&#39;"),
        ("/nowhere", "The requested URL was not found on the server."),
    ],
)
def test_not_found_pages_say_what_is_unknown(rc, url, message):
    html = page(rc, url, status=404)
    assert f'<p class="error-message">{message}' in html
    assert "<h1>Not found</h1>" in html


def test_not_found_offers_the_closest_pages(rc):
    html = squash(page(rc, V1 + "/gl-atempting-missions", status=404))
    assert (
        '<h2>Closest matches</h2> <ul class="suggestions">'
        '<li><a href="/rules/demo-book/1/gl-attempting-missions">attempting missions</a> '
        '<span class="muted">Demo Book v1</span></li>'
    ) in html


@pytest.mark.parametrize(
    "url",
    [
        "/rules/../../etc/passwd",
        "/rules/..%2f..%2fetc%2fpasswd/1/x",
        "/rules/demo-book/1/..%2F..%2F..%2Fetc%2Fpasswd",
        "/static/../../etc/passwd",
        "/static/..%2f..%2fjudgekit%2f__init__.py",
        "/rules/demo-book/1/%00",
        "/rules/demo-book/%ff%fe/x",
        "/rules/%E2%80%AE/1/x",
        "/rules/demo-book/1/" + "x" * 3000,
        "/rules/demo-book/1/introduction/extra",
        "/rulings/demo-rulings/2000-02-28/android/..",
        "/%3Cscript%3Ealert(1)%3C/script%3E",
    ],
)
def test_odd_paths_are_404_not_500(rc, url):
    response = rc.get(url)
    assert response.status_code == 404, url
    assert "<script>alert" not in response.get_data(as_text=True)


def test_nothing_from_the_url_is_reflected_unescaped(rc):
    html = page(rc, V1 + "/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E", status=404)
    assert "<img" not in html.split("<main")[1]
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_markdown_from_the_yaml_is_sanitized(rc):
    html = page(rc, V1 + "/missions-section")
    body = html.split('<div class="entry-body">')[1].split("</div>\n  </div>")[0]
    assert "<script" not in body and "onerror" not in body and "javascript:" not in body
    assert "<img" not in body


def test_api_errors_stay_json(rc):
    response = rc.get("/api/entries/demo-book/1/nope")
    assert response.status_code == 404
    assert response.get_json() == {
        "error": "Not Found",
        "status": 404,
        "message": "unknown entry 'nope' in 'demo-book' '1'",
    }


# -- every page of the tiny corpus --------------------------------------------------------------
def test_every_page_is_local_and_has_unique_ids(rc, reading_app):
    lib = reading_app.extensions["judgekit"]["library"]
    urls = ["/"] + [lib.version_url(v) for v in lib.corpus.versions()]
    urls += [lib.entry_url(e) for v in lib.corpus.versions() for e in v.walk()]
    for url in urls:
        html = page(rc, url)
        ids = re.findall(r'\sid="([^"]+)"', html)
        assert len(ids) == len(set(ids)), (url, [i for i in ids if ids.count(i) > 1])
        for attr in re.findall(r'<(?:script|link|img|iframe)\b[^>]*\s(?:src|href)="([^"]*)"', html):
            assert attr.startswith("/") and not attr.startswith("//"), (url, attr)
