"""No page says a version is "in force": no source says which version is current. What the pages
say instead is true: the newest version held here, with its date, and how that was decided (the
editors), and for the 1E rulings that later rulings exist outside judgekit (issue #29)."""

from __future__ import annotations

import re
from collections import defaultdict

from judgekit.web.context import KEY
from judgekit.web.sitemap import all_paths

IN_FORCE = re.compile(r"in[\s-]+force", re.IGNORECASE)
# What a page of the real corpus asks the search for: both games, chips of the newest held.
SEARCHES = ("/search?q=beam", "/search?q=dilemma&edition=1E", "/search?q=attempt&all_versions=1")


def _one_of_each_kind(paths: list[str]) -> list[str]:
    """The first three paths of each kind (its first segments and depth), and every version's."""
    kinds: dict[tuple, list[str]] = defaultdict(list)
    for path in paths:
        parts = path.strip("/").split("/")
        kinds[(*parts[:2], len(parts))].append(path)
    return [p for group in kinds.values() for p in group[:3]]


def test_no_server_page_or_answer_says_in_force(app):
    state = app.extensions[KEY]
    client = app.test_client()
    paths = [*_one_of_each_kind(all_paths(state["library"], state["timing"])), *SEARCHES]
    assert len(paths) > 40  # every kind: reading, JSON, cards, timing, comparisons, search
    said = {}
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        text = response.get_data(as_text=True)
        if IN_FORCE.search(text):
            said[path] = text[max(0, IN_FORCE.search(text).start() - 80) :][:160]
    assert said == {}


def test_the_newest_held_is_said_with_its_date_and_basis(client):
    home = client.get("/").get_data(as_text=True)
    assert ">Newest held here (April 2015)</span>" in home
    assert ">Newest held here (2/28/00); later versions exist, not held here</span>" in home
    # Each document's note, under its versions: how its status was decided, and by whom.
    notes = re.findall(r'<p class="status-note muted"><small>Status: ([^<]*)</small>', home)
    assert len(notes) == 2
    assert all("Status decided by the editors from the versions judgekit holds" in n for n in notes)
    assert "Later Current Rulings documents were published after 2/28/00" in home
    rulings = client.get("/api/documents/1e-current-rulings/2000-02-28").get_json()
    assert rulings["in_force"] is rulings["newest_held"] is True  # the old field kept
    assert rulings["status"] == "newest held here (2/28/00); later versions exist, not held here"
    assert "Status decided by the editors" in rulings["status_note"]
    chips = client.get("/search?q=beam").get_data(as_text=True)
    assert "2E v4 · newest held here (April 2015)</span>" in chips
    card = client.get("/cards/2e/uss-galaxy").get_data(as_text=True)
    assert "newest held here (April 2015)</span>" in card


def test_no_pack_page_or_script_says_in_force(real_pack_build):
    out = real_pack_build.out
    files = [p for p in out.rglob("*") if p.suffix in (".html", ".js")]
    assert len(files) > 1000
    said = [str(p.relative_to(out)) for p in files if IN_FORCE.search(p.read_text("utf-8"))]
    assert said == []
