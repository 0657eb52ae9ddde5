"""How the real corpus's editorial marks show on pages and in the API (issue #12)."""

from __future__ import annotations

import re

CTA = "/rules/2e-rulebook/call-to-arms/"
V4 = "/rules/2e-rulebook/4/"
MARK = "(not in the printed contents)"


def html_of(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return re.sub(r"\s+", " ", response.get_data(as_text=True))


def test_call_to_arms_contents_shows_the_editors_lines_as_such(client):
    html = html_of(client, CTA)
    toc = html.split('<nav class="toc"', 1)[1].split("</nav>", 1)[0]
    marked = re.findall(r'<li class="toc-reconstructed"><a href="#([a-z0-9-]+)">', toc)
    assert marked == [
        "general-rules",
        "beaming",
        "moving-a-ship",
        "attempting-a-mission",
        "facing-dilemmas",
        "other-order-actions",
        "discard-excess-cards",
        "winning-the-game",
        "building-a-deck",
        "other-important-rules",
        "uniqueness",
        "present",
    ]
    assert toc.count(MARK) == 12
    assert (
        '<a href="#general-rules">General Rules</a> <small class="muted toc-editorial" title="'
        "Neither extraction of the Call to Arms contents prints this line (000 lines 9-74; 003 has"
        ' no contents); it is 1.1&#39;s (002 line 69), put back in 1.1&#39;s place.">'
        f"{MARK}</small>"
    ) in toc
    assert (
        '<li><a href="#staffing-ships">Staffing ships</a> <span class="page-ref">15</span></li>'
        in toc
    )
    assert "Lines marked “not in the printed contents” are the editor’s" in toc


def test_printed_contents_carry_no_marks(client):
    for url in (V4, "/rules/2e-rulebook/1.1/"):
        html = html_of(client, url)
        assert MARK not in html and "toc-note" not in html, url


def test_the_api_contents_says_which_lines_are_reconstructed(client):
    toc = client.get("/api/documents/2e-rulebook/call-to-arms").get_json()["toc"]
    assert toc[0] == {
        "title": "INTRODUCTION",
        "page": 1,
        "entry": "introduction",
        "reconstructed": False,
        "note": None,
        "toc_editorial": None,
    }
    general = next(t for t in toc if t["entry"] == "general-rules")
    assert general["reconstructed"] is True
    assert general["note"].endswith("it is 1.1's (002 line 69), put back in 1.1's place.")
    assert sum(t["reconstructed"] for t in toc) == 12


def test_v4_advanced_text_is_labelled_the_editors_grouping(client):
    html = html_of(client, V4 + "paying-costs")
    assert html.count("Advanced (editor’s grouping)</span>") >= 1
    assert '<span class="block-label">Advanced</span>' not in html
    assert (
        "“Advanced (editor’s grouping)”: the source text of v4 does not mark the rulebook’s grey"
        " boxes, so which paragraphs are advanced text is the editor’s reading."
        ' <a href="/rules/2e-rulebook/4/#version-note">How they were chosen</a>.'
    ) in html
    # the link lands on the version's note, which says how the grouping was made
    version = html_of(client, V4)
    assert '<p id="version-note">Grey boxes. The Introduction says' in version
    assert version.count("Advanced (editor’s grouping)</span>") == 19
    assert "advanced-note" not in html_of(client, "/rules/2e-rulebook/call-to-arms/paying-costs")


def test_decipher_and_credits_point_at_each_other(client):
    decipher = html_of(client, V4 + "decipher")
    assert (
        '<span class="status status-related">moved from</span></td> <td>'
        '<a href="/rules/2e-rulebook/call-to-arms/credits" data-version-link="call-to-arms">'
        "Credits</a>"
    ) in decipher
    credits = client.get("/api/entries/2e-rulebook/call-to-arms/credits").get_json()
    assert [(r["version"], r["id"], r["relation"]) for r in credits["related"]] == [
        ("4", "decipher", "moved into")
    ]


def test_a_ruling_title_shows_its_printed_dash(client):
    html = html_of(
        client, "/rulings/1e-current-rulings/2000-02-28/tournament-scoring-forfeited-games"
    )
    assert "<h1>tournament scoring – forfeited games</h1>" in html
