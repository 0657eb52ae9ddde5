"""Compare versions over the real corpus: every pair, both ways, and what the rulebooks say."""

from __future__ import annotations

import html
import itertools
import re

import pytest

from judgekit.compare.align import alignment
from judgekit.compare.diff import compare, history
from judgekit.compare.sentences import units
from judgekit.compare.worddiff import tokenize
from judgekit.corpus.typography import normalize_typography

BOOK = "2e-rulebook"
VERSIONS = ["1.1", "call-to-arms", "4"]
PAIRS = list(itertools.product(VERSIONS, repeat=2))
RULINGS = ("1e-current-rulings", "2000-02-28")


def versions(lib, old, new):
    return lib.corpus.version(BOOK, old), lib.corpus.version(BOOK, new)


def find(data, from_id, to_id):
    found = [c for c in data["changes"] if (c["from_id"], c["to_id"]) == (from_id, to_id)]
    assert len(found) == 1, (from_id, to_id)
    return found[0]


@pytest.mark.parametrize("old, new", PAIRS)
def test_every_pair_both_ways(client, old, new):
    response = client.get(f"/api/diff/{BOOK}/{old}/{new}")
    assert response.status_code == 200
    data = response.get_json()
    assert (data["document"], data["from"], data["to"]) == (BOOK, old, new)
    summary = data["summary"]
    for status in ("changed", "added", "removed", "renamed", "moved"):
        assert summary[status] == sum(c["status"] == status for c in data["changes"])
    assert summary["total"] == len(data["changes"])
    assert all(not c["typography_only"] for c in data["changes"])
    if old == new:
        assert data["changes"] == [] and data["direction"] == "same"
    else:
        assert summary["total"] > 0
    page = client.get(f"/diff/{BOOK}/{old}..{new}")
    assert page.status_code == 200
    assert page.get_data(as_text=True).count('<article class="df-change') == summary["total"]


@pytest.mark.parametrize("old, new", [p for p in PAIRS if p[0] < p[1]])
def test_backward_mirrors_forward(lib, old, new):
    forward = compare(lib, *versions(lib, old, new))
    backward = compare(lib, *versions(lib, new, old))
    there, back = forward.summary(), backward.summary()
    assert (there["added"], there["removed"]) == (back["removed"], back["added"])
    for key in ("changed", "renamed", "moved", "text_changed", "typography_only", "unchanged"):
        assert there[key] == back[key], key


def _strip(fragment: str) -> str:
    """Text of a diff side: our only tags are ins and del; the rest is escaped text."""
    return " ".join(html.unescape(re.sub(r"</?(?:ins|del)[^>]*>", "", fragment)).split())


@pytest.mark.parametrize("old, new", [("1.1", "4"), ("call-to-arms", "4"), ("4", "1.1")])
@pytest.mark.parametrize("typography", ["hide", "show"])
def test_each_side_of_an_alignment_is_its_text(client, old, new, typography):
    """Nothing is lost or invented: the aligned sentences are the entries' sentences, each once."""
    data = client.get(f"/api/diff/{BOOK}/{old}/{new}?typography={typography}").get_json()
    whole = [c for c in data["changes"] if c["from_id"] and c["to_id"] and not c["part"]]
    assert whole
    for change in whole:
        rows = change["alignment"]
        # Every sentence of the newer entry, in its order, exactly once.
        to_side = [r for r in rows if r["to_entry"] == change["to_id"]]
        assert (
            " ".join(r["to"] for r in to_side).split()
            == change["to_text"].replace("\n- ", " ").split()
        ), change["to_id"]
        for row in rows:
            if row["diff"]:
                assert _strip(row["diff"]["from"]) == " ".join(row["from"].split())
                assert _strip(row["diff"]["to"]) == " ".join(row["to"].split())
            if row["edited"]:
                assert "<ins>" in row["diff"]["inline"] or "<del>" in row["diff"]["inline"]
        if change["text_changed"]:
            assert any(r["status"] != "same" for r in rows), change["id"]
        else:
            assert all(not r["edited"] for r in rows if r["from_entry"] == change["from_id"])
        assert _strip(change["title_diff"]["to"]) == change["to_title"]


def _alignment(data, from_id, to_id):
    return [(r["status"], r["from"], r["to"]) for r in find(data, from_id, to_id)["alignment"]]


def test_moving_a_ship_sentence_by_sentence(client):
    """Call to Arms glossary "moving a ship" into 4 "Order – Move a Ship": each sentence's fate."""
    data = client.get(f"/api/diff/{BOOK}/call-to-arms/4").get_json()
    part = _alignment(data, "gl-moving-a-ship", "moving-a-ship")
    assert part == [
        (
            "removed",
            "moving a ship – These additional rules can affect the Range required for you to move "
            "a ship.",
            None,
        ),
        (
            "moved",
            "When you add the span numbers of two missions with different quadrant icons, add 2 "
            "to that total.",
            "If the two missions have different quadrant icons, add two.",
        ),
        (
            "removed",
            "Some missions have a keyword indicating they are part of a specific Region.",
            None,
        ),
        (
            "moved",
            "When you add the span numbers of two missions that are in the same region, subtract "
            "2 from that total.",
            "If the two missions have the same “Region: X” keyword, subtract two.",
        ),
    ]
    whole = find(data, "moving-a-ship", "moving-a-ship")
    sources = {r["from_entry"] for r in whole["alignment"] if r["from_entry"]}
    assert sources == {"moving-a-ship", "staffing-ships", "using-range", "gl-moving-a-ship"}
    assert whole["alignment_entries"]["from"]["staffing-ships"] == "Staffing ships"
    stopped = [
        r
        for r in whole["alignment"]
        if r["from"] == "A stopped personnel cannot help staff a ship."
    ]
    assert [(r["status"], r["from_entry"]) for r in stopped] == [("removed", "staffing-ships")]
    quadrant = next(r for r in whole["alignment"] if r["to"] and "quadrant icons" in r["to"])
    assert (quadrant["from_entry"], quadrant["edited"]) == ("gl-moving-a-ship", True)
    assert "<del>" in quadrant["diff"]["inline"] and "<ins>" in quadrant["diff"]["inline"]
    assert (whole["anchor"], find(data, "gl-moving-a-ship", "moving-a-ship")["anchor"]) == (
        "moving-a-ship",
        "gl-moving-a-ship--moving-a-ship",
    )


def test_staffing_ships_is_typography_only_from_1_1_to_call_to_arms(client, lib):
    """1.1 printed its staffing icons side by side; they read as separate words, as in Call to Arms."""
    old, new = versions(lib, "1.1", "call-to-arms")
    assert "Command Staff Staff Staff" in lib.plain(old.get("staffing-ships"))
    change = next(
        c for c in compare(lib, old, new).changes if c.new and c.new.id == "staffing-ships"
    )
    assert (change.typography_only, change.text_changed) == (True, False)
    hidden = client.get(f"/api/diff/{BOOK}/1.1/call-to-arms").get_json()
    assert not [c for c in hidden["changes"] if c["id"] == "staffing-ships"]
    shown = client.get(f"/api/diff/{BOOK}/1.1/call-to-arms?typography=show").get_json()
    rows = find(shown, "staffing-ships", "staffing-ships")["alignment"]
    assert {r["status"] for r in rows} == {"same"}
    assert any(r["typography_only"] for r in rows)  # straight against curly apostrophes


def test_history_follows_merges(client):
    data = client.get(f"/api/history/{BOOK}/moving-a-ship").get_json()
    assert [t["id"] for t in data["merged_in"]] == [
        "staffing-ships",
        "using-range",
        "gl-moving-a-ship",
    ]
    by_version = {v["version"]: v for v in data["versions"]}
    first = {t["line_id"]: t for t in by_version["1.1"]["merged"]}
    assert first["staffing-ships"]["status"] == "added"
    assert "A stopped personnel cannot help staff a ship." in first["staffing-ships"]["text"]
    joined = {t["line_id"]: t for t in by_version["4"]["merged"]}
    assert set(joined) == {"staffing-ships", "using-range", "gl-moving-a-ship"}
    assert all(t["joined"] and t["relation"] == "merged into" for t in joined.values())
    stopped = [
        r
        for r in joined["staffing-ships"]["alignment"]
        if r["from"] == "A stopped personnel cannot help staff a ship."
    ]
    assert [r["status"] for r in stopped] == ["removed"]
    main = by_version["4"]
    assert main["change_anchor"] == "moving-a-ship"
    assert {r["from_entry"] for r in main["alignment"] if r["from_entry"]} >= {"staffing-ships"}
    page = client.get(f"/history/{BOOK}/moving-a-ship").get_data(as_text=True)
    assert "A stopped personnel cannot help staff a ship." in page
    assert 'href="/diff/2e-rulebook/call-to-arms..4#moving-a-ship"' in page


@pytest.mark.parametrize(
    "url, expected",
    [
        (
            f"/rules/{BOOK}/call-to-arms/gl-moving-a-ship",
            f'<a href="/diff/{BOOK}/call-to-arms..4#gl-moving-a-ship--moving-a-ship">',
        ),
        (f"/rules/{BOOK}/1.1/beaming", f'<a href="/diff/{BOOK}/1.1..4#beaming">'),
    ],
)
def test_entry_pages_say_changed_since(client, url, expected):
    page = client.get(url).get_data(as_text=True)
    assert 'data-changed-since="changed"' in page and expected in page


def test_entry_page_unchanged_since(client, lib):
    old, new = versions(lib, "call-to-arms", "4")
    same = next(
        e
        for e in old.walk()
        if new.get(e.id)
        and lib.comparable(e) == lib.comparable(new.get(e.id))
        and e.title == new.get(e.id).title
        and e.parent == new.get(e.id).parent
    )
    page = client.get(lib.entry_url(same)).get_data(as_text=True)
    assert 'data-changed-since="unchanged"' in page
    assert ", has this rule with <strong>the same wording</strong>." in page
    assert "data-changed-since" not in client.get(f"/rules/{BOOK}/4/beaming").get_data(as_text=True)


def test_typography_keys_match_entry_pages(lib):
    """For every entry's text, the diff's keys are exactly what entry pages compare."""
    for version in lib.corpus.versions():
        for entry in version.walk():
            text = lib.plain(entry)
            assert " ".join(t.key for t in tokenize(text) if t.key) == normalize_typography(text)


def test_unchanged_agrees_with_entry_pages(lib):
    """Entry pages say 'same' exactly where a diff sees no change in wording."""
    checked = 0
    for old, new in PAIRS:
        if old == new:
            continue
        result = compare(lib, *versions(lib, old, new))
        changed = {c.old.id for c in result.changes if c.old and c.new and c.text_changed}
        paired = {c.old.id for c in result.changes if c.old and c.new and c.old.id == c.new.id}
        for entry in lib.corpus.version(BOOK, old).walk():
            other = {o.version: o for o in lib.other_versions(entry)}[new]
            if other.status in ("same", "changed") and other.id == entry.id:
                assert (other.status == "changed") == (entry.id in changed), (old, new, entry.id)
                checked += 1
            elif other.status == "absent":
                assert entry.id not in paired
    assert checked > 100


def test_moving_a_ship_went_into_the_main_text(client):
    data = client.get(f"/api/diff/{BOOK}/call-to-arms/4").get_json()
    merged = find(data, "gl-moving-a-ship", "moving-a-ship")
    assert (merged["status"], merged["relation"], merged["moved"]) == ("moved", "merged into", True)
    assert (merged["from_title"], merged["to_title"]) == ("moving a ship", "Order – Move a Ship")
    assert merged["from_breadcrumb"][-1]["title"] == "Glossary"
    section = find(data, "moving-a-ship", "moving-a-ship")
    assert section["renamed"] and section["text_changed"]
    assert find(data, "gl-missions", "mission")["relation"] == "replaced by"
    # 1.1 to 4 spans the Call to Arms merges: 1.1's "Staffing ships" went into "Order – Move a Ship".
    spanning = client.get(f"/api/diff/{BOOK}/1.1/4").get_json()
    assert find(spanning, "staffing-ships", "moving-a-ship")["relation"] == "merged into"
    # 1.1 to Call to Arms does not: the glossary entry is new there.
    earlier = client.get(f"/api/diff/{BOOK}/1.1/call-to-arms").get_json()
    assert find(earlier, None, "gl-moving-a-ship")["status"] == "added"
    # The glossary entry is not reported as removed.
    assert not [
        c for c in data["changes"] if c["status"] == "removed" and c["id"] == "gl-moving-a-ship"
    ]


def test_beaming_was_renamed(client):
    data = client.get(f"/api/diff/{BOOK}/1.1/4").get_json()
    beaming = find(data, "beaming", "beaming")
    assert beaming["renamed"] and (beaming["from_title"], beaming["to_title"]) == (
        "Beaming",
        "Order – Beam Personnel",
    )
    assert beaming["status"] in ("renamed", "moved")
    assert beaming["to_url"] == f"/rules/{BOOK}/4/beaming"


def test_history_of_every_entry(lib):
    ids = {e.id for v in lib.corpus.document(BOOK).versions for e in v.walk()}
    for entry_id in ids:
        steps = history(lib, BOOK, entry_id)
        assert [s.version.id for s in steps] == VERSIONS
        first = next(s for s in steps if s.entry is not None)
        assert first.status in ("added", "moved"), entry_id


def test_history_pages(client):
    data = client.get(f"/api/history/{BOOK}/gl-moving-a-ship").get_json()
    assert [(v["version"], v["status"], v["id"]) for v in data["versions"]] == [
        ("1.1", "absent", None),
        ("call-to-arms", "added", "gl-moving-a-ship"),
        ("4", "moved", "moving-a-ship"),
    ]
    beaming = client.get(f"/api/history/{BOOK}/beaming").get_json()
    assert [v["status"] for v in beaming["versions"]][0] == "added"
    assert all(v["id"] == "beaming" for v in beaming["versions"])
    assert client.get(f"/history/{BOOK}/beaming").status_code == 200


@pytest.mark.parametrize("version", VERSIONS)
def test_entry_pages_link_to_history(client, version):
    page = client.get(f"/rules/{BOOK}/{version}/beaming").get_data(as_text=True)
    assert f'href="/history/{BOOK}/beaming"' in page


def test_current_rulings_marked(client, corpus):
    document, version = RULINGS
    marked = [e.id for e in corpus.version(document, version).walk() if e.new]
    data = client.get(f"/api/diff/{document}/{version}/new").get_json()
    assert [e["id"] for e in data["entries"]] == marked and data["count"] == len(marked) > 0
    assert "android" in marked
    page = client.get(f"/diff/{document}/{version}/new").get_data(as_text=True)
    assert page.count('<article class="df-change df-marked"') == len(marked)
    index = client.get("/diff").get_data(as_text=True)
    assert f'href="/diff/{document}/{version}/new"' in index
    assert client.get(f"/diff/{document}/{version}..{version}").status_code == 200


def test_every_history_follows_its_lineage(client, lib):
    """Every entry's history builds; an entry merged in shows where each of its sentences went."""
    ids = {e.id for v in lib.corpus.document(BOOK).versions for e in v.walk()}
    joined = 0
    for entry_id in sorted(ids):
        data = client.get(f"/api/history/{BOOK}/{entry_id}").get_json()
        assert [v["version"] for v in data["versions"]] == VERSIONS
        for version in data["versions"]:
            for part in version["merged"]:
                if part["joined"] and part["text_changed"]:
                    joined += 1
                    assert part["alignment"], (entry_id, part["line_id"])
                    assert {r["from_entry"] for r in part["alignment"]} == {part["from_id"]}
    assert joined > 5


def test_sentence_keys_match_entry_pages(lib):
    """Each sentence's key is what entry pages compare (typography aside), for every entry."""
    for version in lib.corpus.versions():
        for entry in version.walk():
            for unit in units(entry.id, lib.plain(entry)):
                assert unit.key == normalize_typography(unit.text), (entry.id, unit.text)


COST_LIMIT = "The total cost of the dilemmas he or she chooses cannot be higher than the number"
RESTATED = "That number is also the total cost in dilemmas your opponent can spend on dilemmas."
SUBTRACTION = "If you attempt a mission where there are overcome dilemmas underneath it"
SUBTRACTION_BEFORE = (
    "If you attempt a mission where you have already overcome dilemmas in an earlier"
)


def test_facing_dilemmas_pairs_the_cost_limit_with_its_restatement(client):
    """Call to Arms to 4: the cost limit became "That number is also the total cost ...", and the
    overcome-subtraction sentence came from "When your attempt fails"; page and JSON agree."""
    data = client.get(f"/api/diff/{BOOK}/call-to-arms/4").get_json()
    rows = find(data, "facing-dilemmas", "facing-dilemmas")["alignment"]

    def paired(start: str) -> tuple[str, str, str]:
        (row,) = [r for r in rows if r["from"] and r["to"] and r["from"].startswith(start)]
        return row["status"], row["from_entry"], row["to"]

    assert paired(COST_LIMIT) == ("moved", "facing-dilemmas", RESTATED)
    status, source, now = paired(SUBTRACTION_BEFORE)
    assert (status, source) == ("moved", "when-your-attempt-fails") and now.startswith(SUBTRACTION)
    page = client.get(f"/diff/{BOOK}/call-to-arms..4").get_data(as_text=True)
    for view in ("inline", "side"):
        if view == "side":
            page = client.get(f"/diff/{BOOK}/call-to-arms..4?view=side").get_data(as_text=True)
        article = page[page.index('id="facing-dilemmas"') :]
        article = article[: article.index("</article>")]
        shown = [
            (re.sub(r"<[^>]+>|\s+", " ", tag).split(), re.sub(r"<[^>]+>", "", body))
            for tag, body in re.findall(
                r'<p class="df-row-tag">(.*?)</p>(.*?)</li>', article, re.DOTALL
            )
        ]
        # Each row with both sentences reads as its JSON: the tag names the same status, and a
        # pairing of different wording carries the editors' mark.
        both = [r for r in rows if r["from"] and r["to"]]
        tagged = [(tag, body) for tag, body in shown if tag[0] in ("Edited", "Moved", "Same")]
        assert len(tagged) == len(both)
        for row, (tag, _) in zip(both, tagged, strict=True):
            assert tag[0] == row["status"].capitalize()
            assert ("ed." in tag) == row["pairing_editorial"] == row["edited"]
        cost = next(n for n, r in enumerate(both) if r["from"].startswith(COST_LIMIT))
        assert tagged[cost][0][:4] == ["Moved", "within", "the", "entry"]
        assert "edited" in " ".join(tagged[cost][0]) and "ed." in tagged[cost][0]
        assert "total cost" in html.unescape(tagged[cost][1])


def _sentence_pairs(lib, old, new) -> set[tuple[str, int, str, int]]:
    """(older entry, index, newer entry, index) of every sentence pair of a comparison."""
    comparison = compare(lib, *versions(lib, old, new))
    return {
        (row.old.entry, row.old.index, row.new.entry, row.new.index)
        for group in alignment(lib, comparison).values()
        for row in group.rows
        if row.old is not None and row.new is not None
    }


@pytest.mark.parametrize("old, new", [p for p in PAIRS if p[0] < p[1]])
def test_backward_pairs_the_same_sentences(lib, old, new):
    """Which sentence became which does not depend on the direction a judge compares in."""
    forward = _sentence_pairs(lib, old, new)
    backward = {(c, d, a, b) for a, b, c, d in _sentence_pairs(lib, new, old)}
    assert forward == backward
