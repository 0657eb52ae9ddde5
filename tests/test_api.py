"""The corpus JSON API on the tiny fixture corpus: shapes, references, versions, errors."""

from __future__ import annotations

import pytest


def test_documents(mini_client):
    data = mini_client.get("/api/documents").get_json()
    assert [d["id"] for d in data["documents"]] == ["demo-rulebook", "demo-rulings"]
    rulebook = data["documents"][0]
    assert rulebook["edition"] == "2E" and rulebook["title"] == "Demo Rulebook"
    assert [
        (v["id"], v["released"], v["publisher"], v["in_force"]) for v in rulebook["versions"]
    ] == [
        ("1", "2003-08-19", "Decipher", False),
        ("2", "2015-04", "The Continuing Committee", True),
    ]


def test_version_lists_entries_in_reading_order(mini_client):
    data = mini_client.get("/api/documents/demo-rulebook/1").get_json()
    assert data["title"] == "Demo Rulebook, Version 1"
    assert [(e["id"], e["kind"], e["parent"]) for e in data["entries"]] == [
        ("introduction", "section", None),
        ("beaming", "section", None),
        ("glossary", "section", None),
        ("gl-moving-a-ship", "glossary", "glossary"),
    ]
    assert data["entries"][1]["url"] == "/rules/demo-rulebook/1/beaming"
    assert data["entries"][1]["api_url"] == "/api/entries/demo-rulebook/1/beaming"
    assert data["glossary_terms"] == [
        {"term": "moving a ship", "aliases": ["move a ship"], "id": "gl-moving-a-ship"}
    ]


def test_entry_text_html_refs_and_backlinks(mini_client):
    data = mini_client.get("/api/entries/demo-rulebook/1/beaming").get_json()
    assert data["text"] == (
        "You may beam personnel between a ship and a mission.\n\nFor example, beam Picard to a planet."
    )
    assert '<div class="block block-example">' in data["html"]
    assert [(b["document"], b["version"], b["id"]) for b in data["backlinks"]] == [
        ("demo-rulebook", "1", "gl-moving-a-ship"),
        ("demo-rulebook", "2", "moving-a-ship"),
    ]
    glossary = mini_client.get("/api/entries/demo-rulebook/1/gl-moving-a-ship").get_json()
    assert glossary["refs"] == [
        {
            "document": "demo-rulebook",
            "version": "1",
            "id": "beaming",
            "title": "Beaming",
            "kind": "section",
            "url": "/rules/demo-rulebook/1/beaming",
            "api_url": "/api/entries/demo-rulebook/1/beaming",
            "external": False,
        }
    ]
    assert glossary["parent"] == "glossary"
    assert glossary["citation"] == "Demo Rulebook v1 (08/19/2003), Glossary – moving a ship"


def test_icons_are_labels_in_text_and_badges_in_html(mini_client):
    data = mini_client.get("/api/entries/demo-rulebook/1/introduction").get_json()
    assert data["text"] == "Welcome to the game. Personnel with Command lead."
    assert 'role="img" aria-label="Command"' in data["html"]
    assert data["provenance"]["corrections"][0]["original"] == "Personnel with command lead."


def test_other_versions_same_changed_absent_related(mini_client):
    intro = mini_client.get("/api/entries/demo-rulebook/1/introduction").get_json()
    # Version 2 differs only in spacing: typography is not a change.
    assert [(o["version"], o["status"]) for o in intro["other_versions"]] == [("2", "same")]
    beaming = mini_client.get("/api/entries/demo-rulebook/2/beaming").get_json()
    assert [(o["version"], o["id"], o["status"]) for o in beaming["other_versions"]] == [
        ("1", "beaming", "changed")
    ]
    moving = mini_client.get("/api/entries/demo-rulebook/2/moving-a-ship").get_json()
    assert [
        (o["version"], o["id"], o["status"], o["relation"]) for o in moving["other_versions"]
    ] == [("1", "gl-moving-a-ship", "related", "merged from")]
    old = mini_client.get("/api/entries/demo-rulebook/1/gl-moving-a-ship").get_json()
    assert [(o["version"], o["id"], o["status"]) for o in old["other_versions"]] == [
        ("2", "moving-a-ship", "related")
    ]


def test_external_reference_is_kept_not_broken(mini_client):
    data = mini_client.get("/api/entries/demo-rulings/r1/ferengi-ingenuity").get_json()
    assert data["refs"][0]["external"] is True
    assert data["refs"][0]["document"] == "demo-glossary" and data["refs"][0]["id"] == "cumulative"
    assert 'class="ref-external"' in data["html"] and "not held" in data["html"]
    assert data["new"] is True and data["kind"] == "ruling"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("/api/documents/nope/1", "unknown document 'nope'"),
        ("/api/documents/demo-rulebook/9", "unknown version '9' of 'demo-rulebook' (known: 1, 2)"),
        ("/api/documents/demo-glossary/1.6", "unknown document 'demo-glossary'"),
        ("/api/entries/demo-rulebook/1/nope", "unknown entry 'nope' in 'demo-rulebook' '1'"),
        (
            "/api/entries/demo-rulebook/1/%00%ff",
            "unknown entry '\\x00\ufffd' in 'demo-rulebook' '1'",
        ),
        (
            "/api/nothing-here",
            "The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.",
        ),
    ],
)
def test_unknown_things_are_json_404(mini_client, url, message):
    response = mini_client.get(url)
    assert response.status_code == 404
    assert response.get_json() == {"error": "Not Found", "status": 404, "message": message}


@pytest.mark.parametrize(
    ("term", "found"),
    [
        ("moving a ship", "gl-moving-a-ship"),  # exact
        ("Moving A Ship", "gl-moving-a-ship"),  # then case-insensitive
        ("move a ship", "gl-moving-a-ship"),  # an alias
    ],
)
def test_term_lookup(mini_client, term, found):
    data = mini_client.get(f"/api/terms/demo-rulebook/1/{term}").get_json()
    assert data["id"] == found and data["kind"] == "glossary"
    page = mini_client.get(f"/rules/demo-rulebook/1/term/{term}")
    assert (
        page.status_code == 302
        and page.headers["Location"] == "/rules/demo-rulebook/1/gl-moving-a-ship"
    )


def test_term_lookup_prefers_the_exact_case(tmp_path):
    import shutil

    from judgekit.checks.loader import load_corpus
    from judgekit.render.library import Library

    from .conftest import MINI

    root = tmp_path / "corpus"
    shutil.copytree(MINI, root)
    book = root / "rules/demo-rulebook/1.yaml"
    book.write_text(
        book.read_text()
        + """      - id: gl-moving-a-ship-caps
        kind: glossary
        title: Moving a Ship
        source: [{file: demo1.txt, lines: "9-9"}]
        body:
          - rule: The capitalised term.
"""
    )
    lib = Library(load_corpus(root))
    version = lib.corpus.version("demo-rulebook", "1")
    assert lib.lookup_term(version, "Moving a Ship").id == "gl-moving-a-ship-caps"
    assert lib.lookup_term(version, "moving a ship").id == "gl-moving-a-ship"
    assert (
        lib.lookup_term(version, "MOVING A SHIP").id == "gl-moving-a-ship"
    )  # first in reading order
    assert lib.lookup_term(version, "beaming") is None  # a section title is not a glossary term


def test_unknown_term_is_404(mini_client):
    response = mini_client.get("/api/terms/demo-rulebook/1/warp speed")
    assert response.status_code == 404
    assert response.get_json()["message"] == "no glossary term 'warp speed' in 'demo-rulebook' '1'"
