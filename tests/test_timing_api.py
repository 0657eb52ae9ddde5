"""The timing API and stepper pages on the real corpus: shapes, fidelity, errors, no JavaScript."""

from __future__ import annotations

import re
from html import unescape

import pytest

from judgekit.timing.check import timing_problems
from judgekit.timing.load import load_sequences

SEQUENCES = {
    "mission-attempt": ["1.1", "call-to-arms", "4"],
    "play-card": ["4"],
    "turn": ["1.1", "call-to-arms", "4"],
    "response-actions": ["1.1", "call-to-arms", "4"],
    "play-interrupt": ["1.1", "call-to-arms", "4"],
    "combat": ["1.1", "call-to-arms", "4"],
    "engagement": ["1.1", "call-to-arms", "4"],
    "move-ship": ["1.1", "call-to-arms", "4"],
    "win": ["1.1", "call-to-arms", "4"],
    "setup": ["1.1", "call-to-arms", "4"],
    "modifications": ["4"],
    "game-end-in-attempt": ["1.1", "call-to-arms", "4"],
    "counters": ["1.1", "call-to-arms", "4"],
    "end-of-turn": ["1.1", "call-to-arms", "4"],
    "stopped": ["1.1", "call-to-arms", "4"],
    "beaming": ["1.1", "call-to-arms", "4"],
    "dilemma-actions": ["4"],
}


def flat(steps):
    for step in steps:
        yield step
        yield from flat(step["children"])


def test_the_real_timing_files_are_clean(corpus):
    assert timing_problems(corpus) == []


def test_step_text_is_verbatim_in_the_cited_entry(corpus):
    # Stricter than `check` (which ignores typography): the words, quotes and emphasis as stored.
    for seq in load_sequences(corpus):
        for step in seq.flat:
            entry = corpus.entry(seq.document, seq.version, step.cites[0].target)
            stored = re.sub(r"\s+", " ", f"{entry.title}\n{entry.markdown}")
            assert re.sub(r"\s+", " ", step.text) in stored, (seq.id, seq.version, step.number)


def test_official_sequences_are_numbered_as_printed(corpus):
    timing = load_sequences(corpus)
    attempt = timing.get("mission-attempt", "4")
    assert [s.number for s in attempt.steps] == ["1", "2", "3", "4", "5"]
    assert [len(s.children) for s in attempt.steps] == [2, 5, 9, 2, 4]  # 1.a–b … 3.a–i … 5.a–d
    assert [s.number for s in timing.get("play-card", "4").flat] == [str(n) for n in range(1, 11)]
    assert {s.official for s in timing if s.id != "turn"} == {True, False}
    for derived in ("turn", "response-actions", "play-interrupt", "combat", "win", "setup"):
        assert not any(s.official for s in timing.versions(derived))


def test_index(client):
    data = client.get("/api/timing").get_json()
    assert {s["id"]: s["versions"] for s in data["sequences"]} == SEQUENCES
    attempt = next(s for s in data["sequences"] if s["id"] == "mission-attempt")
    assert attempt["default_version"] == "4"
    assert attempt["official"] == {"1.1": False, "call-to-arms": False, "4": True}


@pytest.mark.parametrize(
    ("sequence", "version"), [(s, v) for s, vs in SEQUENCES.items() for v in vs]
)
def test_sequence_shape(client, sequence, version):
    data = client.get(f"/api/timing/{sequence}?version={version}").get_json()
    assert (data["id"], data["version"]) == (sequence, version)
    official = ("mission-attempt", "play-card")
    assert data["official"] is (version == "4" and sequence in official)
    for step in flat(data["steps"]):
        assert {"id", "number", "text", "actor", "kind", "children", "cites"} <= set(step)
        assert step["actor"] in ("active", "opponent", "each", "either", "game")
        assert step["kind"] in ("action", "check", "response")
        assert step["cites"] and all(c["resolved"] for c in step["cites"])
        for cite in step["cites"][1:]:
            assert cite["text"], (step["number"], cite["target"])  # every para is found
        assert step["url"] == f"/timing/{sequence}?version={version}&step={step['number']}"


def test_default_version_is_the_one_in_force(client):
    assert client.get("/api/timing/mission-attempt").get_json()["version"] == "4"
    assert client.get("/api/timing/turn?version=").get_json()["version"] == "4"


def test_version_4_step_3f(client):
    data = client.get("/api/timing/mission-attempt?version=4").get_json()
    step = next(s for s in flat(data["steps"]) if s["number"] == "3.f")
    assert step["text"] == (
        "Check dilemma for duplication, type, and cost. If it fails any of these, it is overcome. "
        "Otherwise, the dilemma’s cost is deducted from the total allowed."
    )
    assert (step["actor"], step["kind"]) == ("game", "check")
    assert [(b["if"], b["goto"]) for b in step["branches"]] == [
        ("Passes all three checks", "3.g"),
        ("A second copy, or the wrong type", "4.b"),
        ("Over the cost limit", "5"),
    ]
    assert (step["prev"]["number"], step["next"]["number"]) == ("3.e", "3.g")
    rule = step["cites"][1]
    assert rule["id"] == "facing-dilemmas" and rule["text"].startswith(
        "If your opponent reveals more than one copy of the same dilemma"
    )
    # The same step in the derived versions, where the type and cost are checked at 3.b.
    assert [(o["version"], o["number"]) for o in step["other_versions"]] == [
        ("1.1", "3.b"),
        ("call-to-arms", "3.b"),
    ]


def test_response_steps_name_their_triggers(client):
    data = client.get("/api/timing/mission-attempt?version=4").get_json()
    step = next(s for s in flat(data["steps"]) if s["number"] == "3.h")
    assert (step["actor"], step["kind"]) == ("each", "response")
    assert step["triggers"] == [
        "(When/While) . . . (face/facing) . . . dilemma",
        "(When/While) . . . is attempting a mission",
    ]


@pytest.mark.parametrize(
    ("url", "message"),
    [
        (
            "/api/timing/nope",
            "unknown timing sequence 'nope' (known: mission-attempt, turn, response-actions, play-interrupt, combat, engagement, move-ship, win, setup, game-end-in-attempt, counters, end-of-turn, stopped, beaming, play-card, modifications, dilemma-actions)",
        ),
        (
            "/api/timing/play-card?version=1.1",
            "sequence 'play-card' has no version '1.1' (known: 4)",
        ),
        (
            "/api/timing/mission-attempt?version=5",
            "sequence 'mission-attempt' has no version '5' (known: 1.1, call-to-arms, 4)",
        ),
        (
            "/api/timing/mission-attempt/calculate?version=9&personnel=3",
            "sequence 'mission-attempt' has no version '9' (known: 1.1, call-to-arms, 4)",
        ),
        ("/api/timing/play-card/calculate?personnel=3", "sequence 'play-card' 4 has no calculator"),
    ],
)
def test_api_404s(client, url, message):
    response = client.get(url)
    assert response.status_code == 404
    data = response.get_json()
    nearest = data.pop("nearest", None)
    assert data == {"error": "Not Found", "status": 404, "message": message}
    if url == "/api/timing/nope":
        # Nothing near "nope": every sequence is listed (tests/test_timing_nearest.py has more).
        assert [n["url"] for n in nearest] == [
            f"/timing/{s}?version=4" for s in message.split("(known: ")[1].rstrip(")").split(", ")
        ]
    elif "has no version" in message:
        # The sequence in each version it has, newest first: never another game's pages.
        sequence = url.split("/")[3].split("?")[0]
        known = message.split("(known: ")[1].rstrip(")").split(", ")
        assert [n["url"] for n in nearest] == [
            f"/timing/{sequence}?version={v}" for v in reversed(known)
        ]
    else:
        assert nearest is None


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("", "personnel is required"),
        ("personnel=x", "personnel must be a whole number, not 'x'"),
        ("personnel=8&overcome=1000", "overcome must be from 0 to 999, not 1000"),
        ("personnel=8&dilemmas=planet:1", "mission is required with dilemmas (planet or space)"),
        (
            "personnel=8&mission=planet&dilemmas=planet:one",
            "dilemma 1 has cost 'one'; costs are whole numbers from 0 to 99",
        ),
    ],
)
def test_calculator_400s(client, query, message):
    response = client.get(f"/api/timing/mission-attempt/calculate?{query}")
    assert response.status_code == 400
    assert response.get_json() == {"error": "Bad Request", "status": 400, "message": message}


@pytest.mark.parametrize("version", SEQUENCES["mission-attempt"])
def test_calculator_rulebook_example(client, version):
    url = f"/api/timing/mission-attempt/calculate?personnel=8&overcome=3&version={version}"
    data = client.get(url).get_json()
    assert (data["dilemmas_drawn"], data["cost_limit"], data["version"]) == (5, 5, version)
    assert data["end"]["result"] == "pending"
    assert set(data["rules"]) == {
        "draw",
        "cost_limit",
        "duplicate",
        "type",
        "cost",
        "no_personnel",
        "met",
        "unmet",
    }


def test_calculator_is_version_aware(client):
    query = "personnel=8&overcome=3&mission=planet&dilemmas=planet:2,space:1,dual:2:dup,planet:3"
    v4 = client.get(f"/api/timing/mission-attempt/calculate?version=4&{query}").get_json()
    old = client.get(f"/api/timing/mission-attempt/calculate?version=1.1&{query}").get_json()
    assert [d["outcome"] for d in v4["dilemmas"]] == ["faced", "overcome", "overcome", "faced"]
    assert [d["outcome"] for d in old["dilemmas"]] == [
        "faced",
        "overcome",
        "not-allowed",
        "undetermined",  # the copy's fate is unwritten, so whether the limit is broken is too
    ]
    assert [d["basis"] for d in old["dilemmas"]] == [
        "rule",
        "interpretation",
        "undetermined",
        "undetermined",
    ]
    assert [s["number"] for s in v4["dilemmas"][2]["steps"]] == ["3.f"]
    assert [s["number"] for s in old["dilemmas"][2]["steps"]] == ["2.c"]
    assert (v4["cost_spent"], v4["cost_remaining"], v4["cost_spent_readings"]) == (5, 0, [5])
    # In 1.1 the readings spend 4 or 5 in all: no single total is stated as fact.
    assert (old["cost_spent"], old["cost_remaining"], old["cost_spent_readings"]) == (
        None,
        None,
        [4, 5],
    )
    assert old["cost_spent_determined"] is False and v4["cost_spent_determined"] is True


def test_a_total_spent_that_depends_on_the_reading_is_not_stated_as_fact(client):
    """The tryout: 1.1, 5 personnel, planet:2,planet:1:dup,planet:3 gave cost_spent 3 while its
    own readings gave 3 or 5 (the second copy overcome, or faced)."""
    query = "version=1.1&personnel=5&mission=planet&dilemmas=planet:2,planet:1:dup,planet:3"
    data = client.get(f"/api/timing/mission-attempt/calculate?{query}").get_json()
    last = data["dilemmas"][-1]
    totals = sorted({n for r in last["readings"] for n in r["spent"]})
    assert totals == [3, 5]
    assert data["cost_spent"] is None and data["cost_remaining"] is None
    assert data["cost_spent_readings"] == totals
    met = client.get(f"/api/timing/mission-attempt/calculate?version=4&{query}&requirements=met")
    assert met.get_json()["end"]["steps"][0]["number"] == "5.d"


def test_glossary_entries_link_to_their_sequences(client):
    entry = client.get("/api/entries/2e-rulebook/4/gl-attempting-missions").get_json()
    assert entry["timing"] == [
        {
            "sequence": "mission-attempt",
            "title": "Attempting missions",
            "version": "4",
            "official": True,
            "url": "/timing/mission-attempt?version=4",
            "steps": [],
        }
    ]
    card = client.get("/api/entries/2e-rulebook/4/gl-playing-a-card").get_json()
    assert [t["url"] for t in card["timing"]] == ["/timing/play-card?version=4"]
    facing = client.get("/api/entries/2e-rulebook/1.1/facing-dilemmas").get_json()
    assert [s["number"] for s in facing["timing"][0]["steps"]][:3] == ["1.a", "2", "2.a"]


# -- pages -------------------------------------------------------------------------------------


def test_index_page(client):
    html = client.get("/timing").get_data(as_text=True)
    assert 'href="/timing/mission-attempt?version=4"' in html
    assert 'href="/timing/play-card?version=4"' in html
    assert "Call to Arms</a> (derived)" in html  # the version's name, never its raw id
    assert ">call-to-arms<" not in html


def test_step_page_renders_server_side(client):
    response = client.get("/timing/mission-attempt?version=4&step=3.f")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert (
        '<a class="tm-button" rel="prev" href="/timing/mission-attempt?version=4&amp;step=3.e">'
        in html
    )
    assert (
        '<a class="tm-button" rel="next" href="/timing/mission-attempt?version=4&amp;step=3.g">'
        in html
    )
    assert 'href="/timing/mission-attempt?version=4&amp;step=5">Over the cost limit' in html
    assert 'aria-current="step"><span class="tm-num">3.f</span>' in html
    assert "If your opponent reveals more than one copy of the same dilemma" in unescape(html)
    assert html.count('class="tm-num"') >= 27 + 1  # the whole sequence beside the step
    assert re.search(r"/static/js/timing\.[0-9a-f]{10}\.js", html)


def test_page_is_built_from_the_api_dict(client):
    api = client.get("/api/timing/play-card?version=4").get_json()
    html = client.get("/timing/play-card?version=4&step=7").get_data(as_text=True)
    step = api["steps"][6]
    assert step["html"] in html
    assert step["cites"][1]["html"] in html


def test_derived_sequences_say_so(client):
    html = client.get("/timing/mission-attempt?version=1.1").get_data(as_text=True)
    # Shown, not collapsed: the note explains the editors' reading.
    assert "<p><strong>Derived sequence</strong>: put in order by the editors" in html
    assert "<details" not in html
    assert "Version 1.1 prints no numbered sequence for a mission attempt;" in html
    assert '<span class="badge tm-derived">Derived</span>' in html


def test_end_of_sequence_page(client):
    html = client.get("/timing/play-card?version=4&step=10").get_data(as_text=True)
    assert 'rel="next" href="/timing/play-card?version=4&amp;step=end">End' in html
    end = client.get("/timing/play-card?version=4&step=end").get_data(as_text=True)
    assert "End of the sequence" in end and "step=1" in end


def test_step_links_keep_the_calculator(client):
    html = client.get("/timing/mission-attempt?version=4&step=2.b&personnel=8&overcome=3").get_data(
        as_text=True
    )
    assert (
        'rel="next" href="/timing/mission-attempt?version=4&amp;step=2.c&amp;personnel=8&amp;overcome=3"'
        in html
    )
    assert '<span data-calc="drawn">5</span>' in html and '<span data-calc="limit">5</span>' in html


@pytest.mark.parametrize(
    ("url", "status", "message"),
    [
        ("/timing/nope", 404, "unknown timing sequence &#39;nope&#39;"),
        ("/timing/turn?version=2", 404, "sequence &#39;turn&#39; has no version &#39;2&#39;"),
        ("/timing/turn?step=9.z", 404, "unknown step &#39;9.z&#39; in &#39;turn&#39; 4"),
        (
            "/timing/turn?step=%3Cscript%3Ealert(1)%3C/script%3E",
            404,
            "unknown step &#39;&lt;script&gt;alert(1)&lt;/script&gt;&#39;",
        ),
        (
            "/timing/mission-attempt?personnel=%3Cb%3E",
            400,
            "personnel must be a whole number, not &#39;&lt;b&gt;&#39;",
        ),
    ],
)
def test_page_errors(client, url, status, message):
    response = client.get(url)
    assert response.status_code == status
    assert message in response.get_data(as_text=True)
    assert "<script>alert" not in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("entry", "url"),
    [
        ("4/gl-attempting-missions", "/timing/mission-attempt?version=4"),
        ("4/gl-playing-a-card", "/timing/play-card?version=4"),
        ("1.1/facing-dilemmas", "/timing/mission-attempt?version=1.1&amp;step=2.a"),
    ],
)
def test_entry_pages_link_to_the_stepper(client, entry, url):
    html = client.get(f"/rules/2e-rulebook/{entry}").get_data(as_text=True)
    assert f'href="{url}"' in html


# -- counterparts, numbering, windows, editorial marks, search ---------------------------------


def step_of(client, sequence, version, number):
    data = client.get(f"/api/timing/{sequence}?version={version}").get_json()
    return next(s for s in flat(data["steps"]) if s["number"] == number)


@pytest.mark.parametrize(
    ("version", "number", "other", "expected"),
    [
        ("4", "5", "1.1", ["4"]),  # "time to complete the mission" is 1.1's checking, not 4.a
        ("1.1", "4.a", "4", ["5.d"]),  # completing and scoring
        ("4", "5.d", "call-to-arms", ["4.a"]),
        ("4", "3.i", "1.1", ["3.c"]),
        ("4", "5.c", "1.1", ["4", "5"]),
        ("4", "4.b", "1.1", ["3.e"]),
        ("4", "2.b", "1.1", ["2"]),
        ("1.1", "2", "4", ["2", "2.b"]),
        ("4", "1.b", "1.1", []),  # no counterpart: said, not guessed
        ("call-to-arms", "3.b", "1.1", ["3.b"]),
        ("4", "2", "call-to-arms", ["2"]),  # turn: Execute Orders
    ],
)
def test_counterparts_across_versions(client, version, number, other, expected):
    sequence = "turn" if (version, number) == ("4", "2") and other == "call-to-arms" else None
    step = step_of(client, sequence or "mission-attempt", version, number)
    found = next(c for c in step["counterparts"] if c["version"] == other)
    assert found["recorded"] is True
    assert [s["number"] for s in found["steps"]] == expected


def test_no_counterpart_is_said_on_the_page(client):
    html = client.get("/timing/mission-attempt?version=4&step=1.b").get_data(as_text=True)
    assert "No counterpart in v1.1." in html and "No counterpart in Call to Arms." in html
    # The switch still opens the other version, at its start, keeping the calculator's inputs.
    html = client.get("/timing/mission-attempt?version=4&step=1.b&personnel=6").get_data(
        as_text=True
    )
    assert (
        '<a href="/timing/mission-attempt?version=1.1&amp;personnel=6" title="No counterpart of '
        'step 1.b in v1.1: opens its first step">v1.1</a> <span class="muted">(derived; no '
        "counterpart of step 1.b)</span>"
    ) in html
    html = client.get("/timing/mission-attempt?version=4&step=5&personnel=6").get_data(as_text=True)
    assert (
        '<a href="/timing/mission-attempt?version=1.1&amp;step=4&amp;personnel=6">v1.1</a>' in html
    )


def test_turn_segments_show_their_printed_numbers(client):
    step = step_of(client, "turn", "4", "2")
    assert (step["number"], step["printed"], step["label"], step["title"]) == (
        "2",
        "2",
        "2",
        "Execute Orders",
    )
    html = client.get("/timing/turn?version=4&step=2").get_data(as_text=True)
    assert (
        '<h2 id="tm-step-heading"><span class="tm-num">2.</span> <span class="tm-title">Execute Orders</span></h2>'
        in html
    )
    assert step["cites"][0]["citation"].endswith("2. Execute Orders, p. 10")
    assert [
        s["label"] for s in flat(client.get("/api/timing/turn?version=1.1").get_json()["steps"])
    ] == ["0", "1", "2", "3", "4", "4.a"]


def test_every_sequence_shows_each_step_number_once(client):
    timing = client.get("/api/timing").get_json()
    for seq in timing["sequences"]:
        for version in seq["versions"]:
            data = client.get(f"/api/timing/{seq['id']}?version={version}").get_json()
            labels = [s["label"] for s in flat(data["steps"])]
            assert len(labels) == len(set(labels)), (seq["id"], version, labels)
            for step in flat(data["steps"]):
                # The printed number where there is one; else the editors', marked editorial.
                assert step["label"] == (step["printed"] or step["number"])
                assert step["label_editorial"] is (not data["official"] and not step["printed"])


def test_a_turn_step_has_one_number_in_search_rule_page_and_stepper(client):
    results = client.get("/api/search?q=discard+excess+cards&version=4").get_json()["results"]
    hit = next(r for r in results if r["url"].startswith("/timing/turn"))
    assert hit["title"] == "Turn Sequence, step 3: Discard Excess Cards"
    assert hit["url"] == "/timing/turn?version=4&step=3"
    html = client.get(hit["url"]).get_data(as_text=True)
    assert (
        '<span class="tm-num">3.</span> <span class="tm-title">Discard Excess Cards</span>' in html
    )
    page = client.get("/rules/2e-rulebook/4/discard-excess-cards").get_data(as_text=True)
    assert (
        'Step through Turn Sequence</a> <span class="muted">(derived)</span>: '
        '<a href="/timing/turn?version=4&amp;step=3">step 3</a>, '
        '<a href="/timing/turn?version=4&amp;step=4">step 4</a>, '
        '<a href="/timing/turn?version=4&amp;step=4.a">step 4.a</a>'
    ) in page
    html = client.get("/timing/turn?version=4&step=0").get_data(as_text=True)
    assert (
        '<span class="tm-num">Step 0 <abbr class="tm-ed-mark" title="The editors&#39; number: '
        'the rulebook does not number this step">ed.</abbr></span>'
    ) in html


def test_the_draw_is_not_titled_facing_dilemmas(client):
    for version in ("1.1", "call-to-arms"):
        assert step_of(client, "mission-attempt", version, "2")["title"] is None


@pytest.mark.parametrize("version", ["1.1", "call-to-arms"])
def test_rule_text_no_longer_left_out(client, version):
    assert step_of(client, "mission-attempt", version, "4.a")["text"].endswith(
        "Any dilemmas that have been overcome there remain beneath that mission. You cannot "
        "attempt it again for the rest of the game."
    )
    assert step_of(client, "mission-attempt", version, "3.d")["text"].startswith(
        "Sometimes a dilemma will tell you to place it in specific location"
    )
    assert (
        "that player shuffles the entire pile and places it face down"
        in step_of(client, "mission-attempt", version, "2.e")["text"]
    )


def test_version_4_cites_the_rules_no_step_cited(client):
    paras = {
        n: [c["para"] for c in step_of(client, "mission-attempt", "4", n)["cites"]]
        for n in ("1.a", "3.a", "3.h", "3.i", "5.d")
    }
    assert "A personnel who leaves a mission being attempted" in paras["3.a"]
    assert "If you use game text to attempt a mission" in paras["1.a"]
    assert "If you use game text to attempt a mission" in paras["5.d"]
    assert "A dilemma's instructions are broken down into actions" in paras["3.h"]
    assert "describe one effect, followed by an alternate effect" in paras["3.i"]


@pytest.mark.parametrize(
    ("number", "windows"),
    [
        ("3.g", [("3.g", None)]),
        ("3.h", [("3.h", "4.a")]),
        ("4.a", [("3.h", "4.a")]),  # "may be used at any time until the end of step 4.a"
        ("4.b", []),
        ("5.c", [("5.a", "end"), ("5.b", "end")]),  # "until the end of the mission attempt"
        ("5.d", [("5.a", "end"), ("5.b", "end")]),
    ],
)
def test_open_response_windows(client, number, windows):
    step = step_of(client, "mission-attempt", "4", number)
    assert [(w["number"], w["until"]) for w in step["windows"]] == windows
    assert all(w["how"] == "/timing/response-actions?version=4" for w in step["windows"])


@pytest.mark.parametrize(
    ("sequence", "version", "generic"),
    [
        ("play-interrupt", "4", False),
        ("turn", "4", False),
        ("combat", "4", False),
        ("turn", "1.1", True),
        ("play-interrupt", "call-to-arms", True),
        ("mission-attempt", "call-to-arms", True),
    ],
)
def test_only_versions_without_windows_say_they_print_none(client, sequence, version, generic):
    data = client.get(f"/api/timing/{sequence}?version={version}").get_json()
    said = [
        any(w["generic"] and "prints no response windows" in w["text"] for w in s["windows"])
        for s in flat(data["steps"])
    ]
    assert set(said) == {generic}
    html = client.get(f"/timing/{sequence}?version={version}&step=1").get_data(as_text=True)
    assert ("This version prints no response windows" in html) is generic


def test_versions_without_printed_windows_say_when_text_answers_its_trigger(client):
    step = step_of(client, "mission-attempt", "1.1", "3.a")
    assert step["windows"] == [
        {
            "generic": True,
            "text": "This version prints no response windows: “when” text may be used each time "
            "its trigger occurs, and “while” text while its condition is true.",
            "how": "/timing/response-actions?version=1.1",
            "here": False,
        }
    ]


def test_editorial_parts_are_marked(client):
    step = step_of(client, "play-card", "4", "5")
    assert step["triggers"] == []  # "Mandatory 'prevent' response actions" is no trigger wording
    assert "triggers" in step["editorial"] and "branches.if" in step["editorial"]
    html = client.get("/timing/mission-attempt?version=4&step=3.f").get_data(as_text=True)
    assert 'class="tm-legend"' in html
    assert 'Which way? <abbr class="tm-ed-mark"' in html
    assert '<span class="tm-ed"><abbr class="tm-ed-mark"' in html  # the badges
    html = client.get("/timing/mission-attempt?version=4&step=2.c").get_data(as_text=True)
    assert 'Triggers processed here <abbr class="tm-ed-mark"' in html


@pytest.mark.parametrize(
    ("version", "query", "first"),
    [
        ("4", "about to be stopped by a dilemma", ("mission-attempt", "3.i")),
        ("4", "when … drawn dilemmas", ("mission-attempt", "2.c")),
        ("4", "When . . . (choose/chosen) dilemmas", ("mission-attempt", "2.e")),
        ("1.1", "about to be killed by a dilemma", ("mission-attempt", "3.c")),
        ("4", "Order", ("play-interrupt", "1")),
    ],
)
def test_card_wording_finds_its_step(client, version, query, first):
    html = client.get(f"/timing/mission-attempt?version={version}&q={query}").get_data(as_text=True)
    sequence, number = first
    assert f'<a href="/timing/{sequence}?version={version}&amp;step={number}">' in html


@pytest.mark.parametrize(
    ("query", "first", "matched"),
    [
        # Stop words ("when", "you", "a", "is", "are", "this") are left out; forms are stemmed.
        ("when you reveal a dilemma", ("mission-attempt", "3.b"), "about to (be) reveal(ed)"),
        ("when a dilemma is revealed", ("mission-attempt", "3.b"), "about to (be) reveal(ed)"),
        # "drawn", as written, is 2.c's trigger, after the draw (issue 30), not 2.a's "about to draw".
        ("when dilemmas are drawn", ("mission-attempt", "2.c"), "drawn dilemmas"),
        ("when this mission is attempted", ("mission-attempt", "1.b"), "begins a mission attempt"),
        ("interrupt during dilemma", ("play-interrupt", "1"), None),  # 2 of its 3 words
        ("Order", ("turn", "2"), None),  # the title "Execute Orders" before "in any order"
    ],
)
def test_card_wording_ranks_steps_by_the_words_they_hold(client, query, first, matched):
    html = client.get(f"/timing/mission-attempt?version=4&q={query}").get_data(as_text=True)
    results = html.split('<section class="tm-results"', 1)[1].split("</section>", 1)[0]
    top = results.split("<li>")[1]
    sequence, number = first
    assert top.startswith(f'<a href="/timing/{sequence}?version=4&amp;step={number}">')
    assert (matched is None) is ("– matched" not in top)
    if matched:
        assert matched in top


def test_card_wording_says_how_many_words_a_step_holds(client):
    html = client.get("/timing/mission-attempt?version=4&q=interrupt+during+dilemma").get_data(
        as_text=True
    )
    assert (
        '<a href="/timing/play-interrupt?version=4&amp;step=1">Playing interrupts and “when”, “while” '
        'and “Order” text, step 1</a> <span class="muted">(2 of 3 words)</span>'
    ) in html


def test_card_wording_of_common_words_only(client):
    html = client.get("/timing/mission-attempt?version=4&q=when+you+are").get_data(as_text=True)
    assert (
        "has those words. Common words such as <q>when</q>, <q>you</q> and <q>a</q> are left out."
        in html
    )


def test_card_wording_without_a_step(client):
    html = client.get("/timing/turn?version=4&q=zzzz").get_data(as_text=True)
    assert "No step of the v4 sequences has those words." in html


def test_calculator_answers_carry_their_basis(client):
    query = "version=4&personnel=8&overcome=3&mission=planet&dilemmas=planet:2,space:1"
    data = client.get(f"/api/timing/mission-attempt/calculate?{query}").get_json()
    assert data["start"]["basis"] == "rule"
    assert data["start"]["citations"][0]["step"] == "2.b"
    assert [d["basis"] for d in data["dilemmas"]] == ["rule", "rule"]
    assert data["dilemmas"][1]["citations"][0]["citation"].startswith("2E Rulebook v4")
    assert data["end"]["basis"] == "rule"
    assert data["beneath_after"] == 5
    modified = client.get(f"/api/timing/mission-attempt/calculate?{query}&modifiers=-1").get_json()
    assert (modified["dilemmas_drawn"], modified["cost_limit_readings"]) == (4, [4, 5])
    assert modified["start"]["basis"] == "undetermined"
    assert modified["start"]["points"][0]["point"] == "limit_modified"
    old = client.get(
        "/api/timing/mission-attempt/calculate?version=1.1&personnel=2&mission=planet"
        "&dilemmas=planet:0,planet:1:dup,planet:2"
    ).get_json()
    assert [(d["outcome"], d["basis"]) for d in old["dilemmas"]] == [
        ("faced", "rule"),
        ("not-allowed", "undetermined"),
        ("undetermined", "undetermined"),
    ]
    assert old["dilemmas"][1]["points"][0]["why"] == (
        "This version forbids choosing more than one copy of the same dilemma but does not say "
        "what happens when one is revealed anyway."
    )
    html = client.get(
        "/timing/mission-attempt?version=1.1&personnel=2&mission=planet"
        "&dilemmas=planet:0,planet:1:dup,planet:2"
    ).get_data(as_text=True)
    assert html.count('<span class="tm-basis-label">Undetermined by the text</span>') == 2


def test_moving_a_ship_range_differs_by_version(client):
    v4 = step_of(client, "move-ship", "4", "3")["text"]
    assert "If the two missions have different quadrant icons, add two." in v4
    assert "subtract two" in v4
    old = step_of(client, "move-ship", "1.1", "3")["text"]
    assert old.endswith(
        "If this total is not higher than the Range available on your ship, you may move to the new mission."
    )
    assert "quadrant" not in old
    cta = step_of(client, "move-ship", "call-to-arms", "3.a")
    assert cta["text"].startswith(
        "When you add the span numbers of two missions with different quadrant icons"
    )
    assert [c["version"] for c in cta["counterparts"] if c["steps"]] == ["4"]
    assert [
        s["number"] for s in step_of(client, "move-ship", "4", "3")["counterparts"][1]["steps"]
    ] == ["3", "3.a"]


def test_win_check_waits_for_pending_card_text_in_version_4(client):
    pending = step_of(client, "win", "4", "1.a")
    assert pending["text"] == (
        "If a player would normally win the game, do not check win conditions until all pending "
        "card text has been resolved."
    )
    assert [c["recorded"] and c["steps"] for c in pending["counterparts"]] == [[], []]
    assert step_of(client, "win", "4", "2")["text"].startswith(
        "The game ends immediately when all three of these conditions are simultaneously met."
    )


def test_engagement_third_damage_card_destroys(client):
    step = step_of(client, "engagement", "4", "5.a")
    assert step["text"].startswith(
        "Each ship can carry only two damage cards. When a third damage card is placed on a ship, that ship is destroyed"
    )
    assert step["cites"][0]["target"] == "damage"
    last = step_of(client, "engagement", "1.1", "7")
    assert "At the end of each of your turns, you may remove one damage card" in last["text"]


def test_order_of_modifications_is_quoted_as_printed(client):
    data = client.get("/api/timing/modifications?version=4").get_json()
    # An order of application, not a timing sequence the rulebook prints: not "official".
    assert data["official"] is False
    assert data["note"].startswith("Not a timing sequence:")
    assert [(s["number"], s["title"]) for s in data["steps"]] == [
        ("1", "Choose"),
        ("2", "Replace"),
        ("3", "Modify"),
        ("4", "Lose"),
        ("5", "Zero"),
    ]
    assert data["intro"].startswith("If multiple effects attempt to replace, modify, or remove")


# -- First Edition: the Current Rulings' timing statements, as notes ----------------------------


def test_first_edition_timing_notes_quote_their_rulings(client, corpus):
    from judgekit.timing.check import note_problems
    from judgekit.timing.model import Note, Timing

    notes = client.get("/api/timing").get_json()["notes"]
    assert [n["id"] for n in notes] == [
        "interrupts-during-attempts",
        "before-the-first-seed-card",
        "between-dilemmas",
        "scouting-between-dilemmas",
        "no-personnel-to-resolve",
        "mission-solving-order",
        "big-picture-requirements",
        "wormhole",
        "tetryon-field",
        "tactic-placement",
        "damage-as-a-group",
        "not-a-valid-response",
        "start-and-end-of-turn",
        "one-copy-each-turn",
        "once-each-turn",
        "stopped-for-a-duration",
        "variable-attributes",
        "conceal-before-selection",
    ]
    assert {n["edition"] for n in notes} == {"1E"}
    solving = notes[5]
    assert solving["text"].startswith(
        "When you meet the requirements for solving a mission, you first score"
    )
    assert (
        solving["ruling"]["url"] == "/rulings/1e-current-rulings/2000-02-28/mission-solving-timing"
    )
    # No First Edition sequence is invented.
    assert all(s["id"] for s in client.get("/api/timing").get_json()["sequences"])
    assert not any(s.document.startswith("1e") for s in load_sequences(corpus))
    bad = Note("x", "X", "1e-current-rulings", "2000-02-28", "cumulative", "All at once.", "f:1")
    assert note_problems(corpus, Timing((), (bad,))) == [
        "f:1: text of note 'x' is not verbatim in 'cumulative'"
    ]
    lost = Note("y", "Y", "1e-current-rulings", "2000-02-28", "nope", "All at once.", "f:2")
    assert note_problems(corpus, Timing((), (lost,))) == [
        "f:2: note 'y' quotes unknown ruling 'nope'"
    ]


def test_rulings_link_to_their_timing_notes(client):
    html = client.get("/rulings/1e-current-rulings/2000-02-28/dilemmas-resolution").get_data(
        as_text=True
    )
    assert (
        'Timing note: <a href="/timing/first-edition#note-no-personnel-to-resolve">A dilemma with '
        'no personnel left to resolve it</a> <abbr class="tm-ed-mark"'
    ) in html
    index = client.get("/timing/first-edition").get_data(as_text=True)
    assert 'id="note-no-personnel-to-resolve"' in index
    assert (
        "If no personnel remain to resolve a dilemma just encountered, replace that dilemma under the mission."
        in index
    )


@pytest.mark.parametrize(
    ("url", "status", "needle"),
    [
        (
            "/timing/turn?q=%3Cscript%3Ealert(1)%3C/script%3E",
            200,
            "&lt;script&gt;alert(1)&lt;/script&gt;",
        ),
        ("/timing/turn?q=%00%01", 200, "No step of the v4 sequences has those words."),
        ("/timing/turn?q=" + "dilemma%20" * 500, 200, "Steps for"),
        (
            "/timing/mission-attempt?personnel=5&modifiers=x",
            400,
            "modifiers must be a whole number, not &#39;x&#39;",
        ),
        (
            "/api/timing/mission-attempt/calculate?personnel=5&modifiers=-100",
            400,
            "modifiers must be from -99 to 99, not -100",
        ),
        (
            "/api/timing/mission-attempt/calculate?personnel=5&mission=space&dilemmas=dual:1:placed:placed",
            400,
            "dilemma 1 &#39;dual:1:placed:placed&#39;",
        ),
    ],
)
def test_odd_search_and_calculator_input(client, url, status, needle):
    response = client.get(url)
    assert response.status_code == status
    body = response.get_data(as_text=True)
    if response.is_json:  # JSON writes ' as \u0027: compare the message itself
        body = response.get_json()["message"]
    assert needle in body or needle.replace("&#39;", "'") in body
    assert "<script>alert" not in response.get_data(as_text=True)


def test_the_api_explains_negative_modifiers(client):
    query = "personnel=6&overcome=2&modifiers=-9&version=4"
    data = client.get(f"/api/timing/mission-attempt/calculate?{query}").get_json()
    assert data["notes"] == [
        # Not "nothing may be spent": the limit is 0 or 4 (whether modifiers change it is open).
        "The modifiers (-9) bring the number (4) below zero (-5): no dilemmas are drawn."
    ]


def test_rejected_calculator_input_stays_out_of_the_step_links(client):
    dilemmas = "planet:1," * 900  # over the limit of 100, under the address's of 8,192 characters
    response = client.get(
        f"/timing/mission-attempt?version=4&step=2.b&personnel=6&dilemmas={dilemmas}"
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert '<p class="tm-calc-error"' in html
    # In the form for the judge to fix, and in no link (900 dilemmas made every link 8 kB).
    assert html.count('name="dilemmas" value="planet:1,planet:1,') == 1
    assert re.findall(r'<a [^>]*href="[^"]*(?:personnel|dilemmas)=', html) == []
    assert (
        '<a class="tm-button" rel="next" href="/timing/mission-attempt?version=4&amp;step=2.c">'
        in html
    )
    # Accepted inputs still travel with every link.
    html = client.get("/timing/mission-attempt?version=4&step=2.b&personnel=6").get_data(
        as_text=True
    )
    assert (
        'rel="next" href="/timing/mission-attempt?version=4&amp;step=2.c&amp;personnel=6"' in html
    )


def test_mission_is_marked_required_with_dilemmas(client):
    html = client.get("/timing/mission-attempt?version=4&step=2.b").get_data(as_text=True)
    assert (
        'Mission <span class="tm-required muted">(required with revealed dilemmas)</span>' in html
    )
    assert '<select name="mission">' in html
    html = client.get(
        "/timing/mission-attempt?version=4&step=2.b&personnel=6&dilemmas=planet:1"
    ).get_data(as_text=True)
    assert "mission is required with dilemmas (planet or space)" in html
    # Never "required": the browser's bubble is silent on a phone; the message above says it.
    assert '<select name="mission">' in html


BACKS = {
    ("4", "4.b"): ("3", "Repeat the process beginning at “Facing Dilemmas”", "Facing Dilemmas"),
    ("4", "5.d"): ("5", "return to the beginning of part 5", ""),
    ("1.1", "3.e"): ("3", "then reveals the next dilemma", ""),
    ("call-to-arms", "3.e"): ("3", "then reveals the next dilemma", ""),
}
# When to take the way back and when Next (the editors' branches of the step): at a repeat step
# Next is the way only for an empty stack, and each button says so.
WHEN = {
    ("4", "4.b"): ("Dilemmas remain in the stack", "The stack is empty"),
    ("4", "5.d"): ("The requirements changed during part 5", "The points are scored"),
    ("1.1", "3.e"): ("Dilemmas remain in the stack", "The stack is empty"),
    ("call-to-arms", "3.e"): ("Dilemmas remain in the stack", "The stack is empty"),
}


@pytest.mark.parametrize(("version", "number"), list(BACKS))
def test_a_step_whose_words_send_the_judge_back_offers_the_way_beside_next(client, version, number):
    back, says, name = BACKS[version, number]
    step = step_of(client, "mission-attempt", version, number)
    assert (step["back"]["number"], step["back"]["says"]) == (back, says)
    # The JSON twin says when to take each, as the page does.
    assert (step["back"]["when"], step["back"]["next_when"]) == WHEN[version, number]
    assert says in step["text"] and "back" in step["editorial"]
    html = client.get(step["url"]).get_data(as_text=True)
    nav = html[
        html.index('<nav class="tm-prevnext') : html.index("</nav>", html.index("tm-prevnext"))
    ]
    link = re.search(r'<a class="tm-button tm-back" href="([^"]+)">(.*?)</a>', nav, re.S)
    assert unescape(link[1]) == f"/timing/mission-attempt?version={version}&step={back}"
    shown = re.sub(r"<abbr[^>]*>ed\.</abbr>", "ed.", link[2])
    when_back, when_next = WHEN[version, number]
    assert (
        re.sub(r"<[^>]+>", "", shown)
        == " ".join(w for w in ("↺ Back to", back, name, "ed.") if w) + when_back
    )
    forward = re.search(r'<a class="tm-button" rel="next" href="[^"]+">(.*?)</a>', nav, re.S)[1]
    assert f'<span class="tm-when">{when_next} ' in forward
    assert unescape(re.search(r'title="([^"]+)"', link[2])[1]) == (
        f"The editors' link: the rulebook's words “{says}” send you back to step {back}"
    )
    assert 'rel="next"' in nav  # the way back is a choice beside Next, not instead of it


def test_only_steps_whose_words_send_the_judge_back_offer_the_way(client):
    offered = set()
    for sequence, versions in SEQUENCES.items():
        for version in versions:
            data = client.get(f"/api/timing/{sequence}?version={version}").get_json()
            offered |= {(sequence, version, s["number"]) for s in flat(data["steps"]) if s["back"]}
    assert offered == {("mission-attempt", version, number) for version, number in BACKS}
