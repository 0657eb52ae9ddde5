"""Every line of the mission-attempt calculator cites the sections that hold its rule, in every
version: the rule's words, as each rulebook prints them (checked against the seed texts), are in
the text of a section the line cites. 1.1's and Call to Arms' start line once cited only "Facing
dilemmas", which lacks the subtraction of overcome dilemmas (it is in "When your attempt fails").
The page and the pack list each section once and each line refers to it by number."""

from __future__ import annotations

import re

import pytest

from judgekit.corpus.typography import normalize_typography
from judgekit.web.context import KEY

from .conftest import SEEDS, guarded_context

# The seed texts of each version (Call to Arms: two extractions, either holds the words).
SEED_FILES = {
    "1.1": ["002_52a0eb27c46f2732.txt"],
    "call-to-arms": ["000_2dfc9177df82ec32.txt", "003_cdfbab3c1277486b.txt"],
    "4": ["001_e0857e3ae769ceaa.txt"],
}
V2003 = {
    # 8 − 3: the overcome dilemmas beneath the mission are subtracted...
    "subtract": "the number of those dilemmas is subtracted from the number your opponent may use "
    "to select new ones",
    # ...from the number the opponent draws...
    "draw": "draws that number of cards from his or her dilemma pile",
    # ...and from the total cost the opponent may choose (the 8/3/5 example says both).
    "limit": "cannot exceed a total cost of 5 in choosing dilemmas",
    "type": "If your opponent selects a space dilemma for a planet mission",
    "cost": "If your opponent selects a dilemma that would make the total cost of dilemmas higher "
    "than he or she was allowed, you do not face that dilemma and it is overcome",
    "duplicate": "Your opponent cannot choose more than one copy of the same dilemma",
    "no_personnel": "killed or stopped by dilemmas, you do not face any remaining dilemmas",
    "met": "you have successfully completed the mission",
    "unmet": "your mission attempt has failed, and all your remaining personnel in that mission "
    "attempt are stopped",
}
RULES = {
    "1.1": V2003,
    "call-to-arms": V2003,
    "4": {
        "subtract": "the number of those dilemmas is subtracted from that total first",
        "draw": "Opponent draws dilemmas from his or her dilemma pile equal to the number announced",
        "limit": "That number is also the total cost in dilemmas your opponent can spend on dilemmas",
        "type": "Check dilemma for duplication, type, and cost",
        "cost": "Check dilemma for duplication, type, and cost",
        "duplicate": "If your opponent reveals more than one copy",
        "no_personnel": "If there are no personnel still involved in the mission attempt, all "
        "remaining dilemmas in the dilemma stack are overcome",
        "met": "you have successfully completed the mission",
        "unmet": "all of the personnel involved are stopped",
    },
}
# Each line of an answer, the calculator's input that gives it, and the rules it rests on.
LINES = {
    "start": ("personnel=8&overcome=3", ("subtract", "draw", "limit")),
    "type": ("personnel=5&mission=planet&dilemmas=space:0", ("type",)),
    "cost": ("personnel=2&mission=planet&dilemmas=planet:5", ("cost",)),
    "duplicate": ("personnel=5&mission=planet&dilemmas=planet:0,planet:0:dup", ("duplicate",)),
    "no_personnel": (
        "personnel=5&mission=planet&dilemmas=planet:0,planet:0&no_personnel_after=1",
        ("no_personnel",),
    ),
    "met": ("personnel=5&requirements=met", ("met",)),
    "unmet": ("personnel=5&requirements=unmet", ("unmet",)),
}


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", normalize_typography(text)).strip()


@pytest.mark.parametrize("version", sorted(RULES))
def test_each_rule_s_words_are_in_its_version_s_seed_text(version):
    """The table below is the rulebooks' words, not the corpus's: each is in the version's seed."""
    seeds = [_plain((SEEDS / name).read_text("utf-8")) for name in SEED_FILES[version]]
    for rule, words in RULES[version].items():
        assert any(_plain(words) in seed for seed in seeds), (version, rule)


def _part(data: dict, line: str) -> dict:
    if line == "start":
        return data["start"]
    if line in ("met", "unmet"):
        return data["end"]
    return next(d for d in data["dilemmas"] if line in d["reasons"])


@pytest.mark.parametrize("line", sorted(LINES))
@pytest.mark.parametrize("version", sorted(RULES))
def test_every_line_cites_the_sections_holding_its_rule(app, client, version, line):
    lib = app.extensions[KEY]["library"]
    query, rules = LINES[line]
    data = client.get(f"/api/timing/mission-attempt/calculate?version={version}&{query}").get_json()
    part = _part(data, line)
    cited = [c["url"] for c in part["citations"]]
    texts = []
    for url in cited:
        document, at, entry = url.removeprefix("/rules/").split("/")
        texts.append(_plain(lib.plain(lib.corpus.entry(document, at, entry))))
    for rule in rules:
        words = _plain(RULES[version][rule])
        assert any(words in text for text in texts), (version, line, rule, cited)
    # Each section the line cites is in the answer's list once, under the number the line gives.
    listed = {c["n"]: c["url"] for c in data["cited"]}
    assert len(listed) == len({c["url"] for c in data["cited"]})
    assert [listed[c["n"]] for c in part["citations"]] == cited


def test_the_page_cites_each_section_once_and_every_line_refers_to_it(client):
    """A judge's complaint: "Glossary – attempting missions, pp. 15–20 ed." on every dilemma line,
    a wall of identical citations on a phone. Now once, under the answer, each line by number."""
    html = client.get(
        "/timing/mission-attempt?version=4&personnel=8&overcome=3&mission=planet"
        "&dilemmas=planet:1,space:1,planet:1,planet:1,planet:9"
    ).get_data(as_text=True)
    result = html.split('class="tm-calc-result"')[1].split('<form method="get"')[0]
    glossary = "Glossary – attempting missions, pp. 15–20"
    assert result.count(glossary) == 1
    listed = re.findall(r'<li id="calc-cite-(\d+)">.*?<a href="([^"]+)">([^<]+)</a>', result)
    assert [n for n, _, _ in listed] == ["1", "2", "3"]
    assert glossary in listed[0][2]
    assert re.search(r'<a href="[^"]+">[^<]*' + glossary + r'</a> <abbr class="tm-ed-mark"', result)
    # Every line (the start, five dilemmas, the end) refers to the glossary's number.
    bases = re.findall(r'<div class="tm-basis tm-basis-\w+">.*?</div>', result, re.S)
    assert len(bases) == 7
    assert all('href="#calc-cite-1"' in b for b in bases)
    # 1.1: the start line refers to both sections, "When your attempt fails" among them.
    old = client.get("/timing/mission-attempt?version=1.1&personnel=8&overcome=3#calc").get_data(
        as_text=True
    )
    start = re.search(r'<div class="tm-basis tm-basis-rule">.*?</div>', old, re.S).group(0)
    assert re.findall(r'href="#calc-cite-(\d+)"', start) == ["1", "2"]
    assert re.search(
        r'<li id="calc-cite-2"><span class="tm-cite-n">\[2\]</span> <a href="'
        r'/rules/2e-rulebook/1.1/when-your-attempt-fails">[^<]*When your attempt fails</a>',
        old,
    )


@pytest.mark.browser
@pytest.mark.parametrize("width", [360, 1280])
def test_a_judge_follows_a_line_s_number_to_its_section(browser, live_server, blocked, width):
    """On a phone and a laptop: the numbers are tappable, lead to the section under the answer,
    and the list fits the screen."""
    with guarded_context(browser, blocked, viewport={"width": width, "height": 800}) as ctx:
        page = ctx.new_page()
        page.goto(
            f"{live_server}/timing/mission-attempt?version=1.1&personnel=8&overcome=3"
            "&mission=planet&dilemmas=planet:1,space:1#calc"
        )
        ref = page.locator(".tm-calc-start + .tm-basis .tm-cite-ref").nth(1)
        assert ref.inner_text() == "[2]"
        box = ref.bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24, box
        ref.click()
        page.wait_for_url(re.compile(r"#calc-cite-2$"))
        item = page.locator("#calc-cite-2")
        assert "When your attempt fails" in item.inner_text()
        listed = item.bounding_box()
        assert 0 <= listed["y"] < 800 and listed["x"] + listed["width"] <= width, listed
        assert page.locator(".tm-calc-cited li").count() == 3
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert len(blocked) == 0, blocked.urls
