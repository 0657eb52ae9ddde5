"""The diff API and pages on the tiny corpus in tests/data/diff: shapes, redirects, bad input."""

from __future__ import annotations

import html

import pytest

from judgekit import create_app

from .conftest import DATA

CHANGE_KEYS = {
    "status",
    "id",
    "title",
    "kind",
    "from_id",
    "from_title",
    "from_kind",
    "from_text",
    "from_breadcrumb",
    "from_url",
    "from_api_url",
    "to_id",
    "to_title",
    "to_kind",
    "to_text",
    "to_breadcrumb",
    "to_url",
    "to_api_url",
    "moved",
    "renamed",
    "text_changed",
    "typography_only",
    "relation",
    "title_diff",
    "html",
    "history_url",
    "anchor",
    "part",
    "alignment",
    "alignment_entries",
}


@pytest.fixture(scope="module")
def dclient():
    """A test client on the diff fixture corpus."""
    return create_app({"TESTING": True, "CORPUS_DIR": str(DATA / "diff")}).test_client()


def test_api_diff_shape(dclient):
    data = dclient.get("/api/diff/demo-book/1.0/1.1").get_json()
    assert (data["document"], data["from"], data["to"], data["direction"]) == (
        "demo-book",
        "1.0",
        "1.1",
        "forward",
    )
    assert data["unchanged"] == 4 and data["summary"]["total"] == len(data["changes"]) == 11
    for change in data["changes"]:
        assert set(change) == CHANGE_KEYS
        assert change["status"] in ("added", "removed", "changed", "renamed", "moved")
    wording = next(c for c in data["changes"] if c["id"] == "wording")
    assert wording["from_text"] == "You may draw a card."
    assert wording["to_text"] == "You must draw a card."
    assert wording["alignment"] == [
        {
            "status": "edited",
            "edited": True,
            "pairing_editorial": True,  # "may" and "must" paired by their words: the editors'
            "within": False,
            "typography_only": False,
            "from": "You may draw a card.",
            "to": "You must draw a card.",
            "from_entry": "wording",
            "to_entry": "wording",
            "from_item": False,
            "to_item": False,
            "diff": {
                "inline": "You <del>may</del> <ins>must</ins> draw a card.",
                "from": "You <del>may</del> draw a card.",
                "to": "You <ins>must</ins> draw a card.",
            },
            "elsewhere": None,
        }
    ]
    assert wording["alignment_entries"] == {
        "from": {"wording": "Wording"},
        "to": {"wording": "Wording"},
    }
    assert (wording["anchor"], wording["part"]) == ("wording", False)
    assert wording["from_url"] == "/rules/demo-book/1.0/wording"
    assert wording["history_url"] == "/history/demo-book/wording"
    merged = next(c for c in data["changes"] if c["from_id"] == "gl-moving-a-ship")
    assert (merged["status"], merged["to_id"], merged["relation"]) == (
        "moved",
        "moving-a-ship",
        "merged into",
    )
    assert [c["title"] for c in merged["from_breadcrumb"]] == ["Glossary"]
    assert [c["title"] for c in merged["to_breadcrumb"]] == ["Orders"]
    added = next(c for c in data["changes"] if c["status"] == "added")
    assert [r["status"] for r in added["alignment"]] == ["added"]
    assert added["html"] == ('<div class="block block-rule"><p>This rule is new in 1.1.</p></div>')


def test_api_typography_shown(dclient):
    data = dclient.get("/api/diff/demo-book/1.0/1.1?typography=show").get_json()
    typo = next(c for c in data["changes"] if c["id"] == "typo")
    assert typo["typography_only"] and not typo["text_changed"]
    assert (
        '<del class="typo" title="typography only">Typography</del>' in typo["title_diff"]["inline"]
    )
    assert data["summary"]["total"] == 11 and len(data["changes"]) == 12


def test_api_same_version(dclient):
    data = dclient.get("/api/diff/demo-book/2/2").get_json()
    assert (data["changes"], data["unchanged"], data["direction"]) == ([], 11, "same")


def test_api_history(dclient):
    data = dclient.get("/api/history/demo-book/gl-moving-a-ship").get_json()
    assert data["title"] == "Order – Move a Ship"
    steps = [(v["version"], v["status"], v["id"], v["relation"]) for v in data["versions"]]
    assert steps == [
        ("1.0", "added", "gl-moving-a-ship", None),
        ("1.1", "moved", "moving-a-ship", "merged into"),
        ("2", "unchanged", "moving-a-ship", None),
    ]
    moved = data["versions"][1]
    assert [r["diff"]["inline"] for r in moved["alignment"]] == [
        "A ship moves using <ins>its</ins> Range."
    ]
    assert moved["change_anchor"] == "moving-a-ship"
    assert moved["compare_url"] == "/diff/demo-book/1.0..1.1"
    assert data["versions"][0]["html"] == (
        '<div class="block block-rule"><p>A ship moves using Range.</p></div>'
    )


def test_api_marked_and_pairs(dclient):
    data = dclient.get("/api/diff/demo-rulings/r1/new").get_json()
    assert data["count"] == 2 and [e["id"] for e in data["entries"]] == [
        "ferengi-ingenuity",
        "zz-top",
    ]
    # Markdown's raw HTML is sanitized away.
    assert data["entries"][0]["html"] == '<div class="block block-rule"><p>It works  now.</p></div>'
    pairs = dclient.get("/api/diff/demo-book").get_json()
    assert [(p["from"], p["to"], p["consecutive"]) for p in pairs["pairs"]] == [
        ("1.0", "1.1", True),
        ("1.0", "2", False),
        ("1.1", "2", True),
    ]
    rulings = dclient.get("/api/diff/demo-rulings").get_json()
    assert rulings["pairs"] == [] and rulings["marked"][0]["url"] == "/diff/demo-rulings/r1/new"


def test_compare_page(dclient):
    page = dclient.get("/diff/demo-book/1.0..1.1").get_data(as_text=True)
    counts = {
        key: f'<li class="df-count df-count-{key}"><a href="/diff/demo-book/1.0..1.1?show={key}" '
        f'data-df-filter="{key}"><span class="df-n">{n}</span> {key}</a></li>'
        for key, n in {"changed": 3, "added": 2, "removed": 1, "renamed": 2, "moved": 3}.items()
    }
    for snippet in counts.values():
        assert snippet in page
    assert page.count('<article class="df-change') == 11
    assert "You <del>may</del> <ins>must</ins> draw a card." in page
    assert (
        'href="/rules/demo-book/1.0/wording"' in page
        and 'href="/rules/demo-book/1.1/wording"' in page
    )
    assert "“moving a ship” (v1.0) merged into “Order – Move a Ship” (v1.1)." in page
    assert "1 differ only in typography (not counted, not shown)" in page
    side = dclient.get("/diff/demo-book/1.0..1.1?view=side").get_data(as_text=True)
    data = dclient.get("/api/diff/demo-book/1.0/1.1").get_json()
    both = [c for c in data["changes"] if c["from_id"] and c["to_id"]]
    shown = [c for c in both if c["text_changed"] or c["part"]]
    # One row a sentence, each with the two sides in columns.
    assert side.count('<div class="df-side df-row-side">') == sum(
        len(c["alignment"]) for c in shown
    )
    assert "You <ins>must</ins> draw a card." in side
    shown = dclient.get("/diff/demo-book/1.0..1.1?typography=show").get_data(as_text=True)
    assert shown.count('<article class="df-change') == 12 and 'class="typo"' in shown


def test_compare_same_version_page(dclient):
    page = dclient.get("/diff/demo-book/1.1..1.1").get_data(as_text=True)
    assert "<strong>No changes:</strong> both sides are v1.1." in page
    assert 'class="df-change' not in page


def test_history_and_marked_pages(dclient):
    page = dclient.get("/history/demo-book/wording").get_data(as_text=True)
    assert "History of “Wording”" in page
    assert "You <del>may</del> <ins>must</ins> draw a card." in page
    # In 2 the new sentence is 1.1's glossary "draw", merged in and edited; the old one went.
    assert "<del>Draw</del> <ins>You must draw two cards</ins> from the top of your deck." in page
    assert (
        '<span class="df-row-status">Removed</span> <span class="df-row-source">from “Wording”'
        in page
    )
    assert "“draw” <span" in page and "merged into “Wording”" in page
    marked = dclient.get("/diff/demo-rulings/r1/new").get_data(as_text=True)
    assert "The 2 rulings marked <strong>*</strong> in r1" in marked


@pytest.mark.parametrize(
    "query, location",
    [
        ("document=demo-book&from=1.0&to=1.1", "/diff/demo-book/1.0..1.1"),
        ("document=demo-book&from=2&to=1.0", "/diff/demo-book/2..1.0"),
        ("document=demo-book&from=1.0&to=2&view=side", "/diff/demo-book/1.0..2?view=side"),
        ("document=demo-book", "/diff/demo-book"),
        ("document=demo-book&from=&to=", "/diff/demo-book"),
    ],
)
def test_form_redirects(dclient, query, location):
    response = dclient.get(f"/diff?{query}")
    assert response.status_code == 302 and response.headers["Location"] == location


def test_form_page_works_without_js(dclient):
    page = dclient.get("/diff").get_data(as_text=True)
    assert '<form class="df-pick" method="get" action="/diff" data-df-pick>' in page
    assert '<option value="1.1" selected>' in page and '<option value="2" selected>' in page
    assert 'href="/diff/demo-rulings/r1/new"' in page and 'href="/diff/demo-book/1.0..1.1"' in page


def message(response) -> str:
    if response.is_json:
        return response.get_json()["message"]
    text = response.get_data(as_text=True)
    start = text.index('<p class="error-message">') + len('<p class="error-message">')
    return html.unescape(text[start : text.index("</p>", start)])


KNOWN = "(known: 1.0, 1.1, 2)"


@pytest.mark.parametrize(
    "url, status, expected",
    [
        ("/diff/nope/1.0..1.1", 404, "unknown document 'nope'"),
        ("/diff/nope", 404, "unknown document 'nope'"),
        ("/diff/demo-book/1.0..9", 404, f"unknown version '9' of 'demo-book' {KNOWN}"),
        ("/diff/demo-book/9..1.0", 404, f"unknown version '9' of 'demo-book' {KNOWN}"),
        (
            "/diff/demo-book/1.0",
            404,
            "a comparison names two versions, from..to: v1.0 is the first held here, so nothing"
            " came before it; its comparisons with each later version are linked",
        ),
        (
            "/diff/demo-book/nope",
            404,
            "expected two versions as <from>..<to>, e.g. /diff/demo-book/1.0..2; got 'nope'",
        ),
        (
            "/diff/demo-book/%3Cscript%3E..2",
            404,
            f"unknown version '<script>' of 'demo-book' {KNOWN}",
        ),
        ("/diff/demo-book/1.0..1.1?view=wide", 400, "view must be 'inline' or 'side', not 'wide'"),
        (
            "/diff/demo-book/1.0..1.1?typography=yes",
            400,
            "typography must be 'hide' or 'show', not 'yes'",
        ),
        (
            "/diff/demo-book/1.0..1.1?show=%3Cscript%3E",
            400,
            "show must be 'all' or 'changed' or 'added' or 'removed' or 'renamed' or 'moved', "
            "not '<script>'",
        ),
        ("/diff?from=1.0&to=2", 400, "choose a document to compare"),
        ("/diff?document=demo-book&from=1.0", 400, "choose two versions to compare: from and to"),
        ("/diff?document=nope&from=1&to=2", 404, "unknown document 'nope'"),
        (
            "/diff?document=demo-book&from=1.0&to=7",
            404,
            f"unknown version '7' of 'demo-book' {KNOWN}",
        ),
        ("/history/demo-book/nope", 404, "unknown entry 'nope' in 'demo-book' (in no version)"),
        ("/history/nope/wording", 404, "unknown document 'nope'"),
        (
            "/diff/demo-book/1.0/new",
            404,
            "'demo-book' is a rulebook: only rulings documents mark entries new or changed (*)",
        ),
        ("/diff/demo-rulings/r2/new", 404, "unknown version 'r2' of 'demo-rulings' (known: r1)"),
        ("/api/diff/nope", 404, "unknown document 'nope'"),
        ("/api/diff/demo-book/1.0/9", 404, f"unknown version '9' of 'demo-book' {KNOWN}"),
        (
            "/api/diff/demo-book/1.0/2?typography=1",
            400,
            "typography must be 'hide' or 'show', not '1'",
        ),
        ("/api/history/demo-book/nope", 404, "unknown entry 'nope' in 'demo-book' (in no version)"),
        (
            "/api/diff/demo-book/2/new",
            404,
            "'demo-book' is a rulebook: only rulings documents mark entries new or changed (*)",
        ),
    ],
)
def test_bad_input(dclient, url, status, expected):
    response = dclient.get(url)
    assert response.status_code == status
    assert response.is_json == url.startswith("/api/")
    assert message(response) == expected
    assert "<script>" not in response.get_data(as_text=True)


def test_compare_page_filters_without_javascript(dclient):
    page = dclient.get("/diff/demo-book/1.0..1.1?view=side&show=removed").get_data(as_text=True)
    # Every change is on the page; the class hides the other kinds (diff.css), the notice says so.
    assert page.count('<article class="df-change') == 11
    assert 'class="df-changes df-view-side df-show-removed"' in page
    assert '<p class="df-filtered notice" data-df-filtered>' in page
    assert 'href="/diff/demo-book/1.0..1.1?view=side&amp;show=added" data-df-filter="added"' in page
    assert 'href="/diff/demo-book/1.0..1.1?view=side" data-df-filter="all" aria-current' not in page
    # Jumps to other kinds go back to the unfiltered page.
    assert 'href="/diff/demo-book/1.0..1.1?view=side#added-one" data-df-jump' in page
    assert 'href="#removed-one" data-df-jump' in page
    plain = dclient.get("/diff/demo-book/1.0..1.1").get_data(as_text=True)
    assert '<p class="df-filtered notice" data-df-filtered hidden>' in plain
    assert 'id="moving-a-ship"' in plain and 'id="gl-moving-a-ship--moving-a-ship"' not in plain


def test_a_comparison_going_back_in_time_says_so_and_offers_the_other_way(dclient):
    # Issue #27: "/diff/<doc>/2..1.0" compares backwards. The page's design shows the direction
    # (its title's arrow), so it says so in words and offers the chronological order; the JSON
    # alike (direction, reverse_url).
    page = html.unescape(dclient.get("/diff/demo-book/2..1.0").get_data(as_text=True))
    assert "This goes back in time: “added” means the older version has it" in page
    assert '<a href="/diff/demo-book/1.0..2">Swap sides</a>' in page
    data = dclient.get("/api/diff/demo-book/2/1.0").get_json()
    assert (data["direction"], data["reverse_url"]) == ("backward", "/diff/demo-book/1.0..2")
    forward = html.unescape(dclient.get("/diff/demo-book/1.0..2").get_data(as_text=True))
    assert "goes back in time" not in forward
