"""The stepper in real headless Chromium: a full mission attempt by keys and branch buttons; offline."""

from __future__ import annotations

import re

import pytest

from .conftest import guard_routes, guarded_context

pytestmark = pytest.mark.browser


SHOWN = """() => [
    document.querySelector("#tm-step-heading .tm-num").textContent,
    document.querySelector(".tm-sequence [aria-current=step] .tm-num").textContent,
]"""


def at(page, number: str) -> None:
    """The page shows this step, and the sequence beside it marks it as current."""
    # 1.1's and Call to Arms' mission attempts are derived: their numbers are the editors' (ed.).
    derived = re.search(r"version=(1\.1|call-to-arms)", page.url) is not None
    assert page.evaluate(SHOWN) == [f"Step {number}" + (" ed." if derived else ""), number]
    assert re.search(rf"[?&]step={re.escape(number)}(&|$)", page.url)


def right(page, *numbers: str) -> None:
    for number in numbers:
        page.keyboard.press("ArrowRight")
        page.wait_for_url(re.compile(rf"step={re.escape(number)}(&|$)"))
        at(page, number)


def choose(page, label: str, number: str) -> None:
    page.get_by_role("link", name=re.compile(rf"^{re.escape(label)}")).click()
    page.wait_for_url(re.compile(rf"step={re.escape(number)}(&|$)"))
    if number != "end":
        at(page, number)


def test_step_through_a_full_version_4_mission_attempt(live_server, page, blocked):
    page.goto(f"{live_server}/timing/mission-attempt?version=4")
    assert page.locator("#tm-step-heading").inner_text() == "Step 1"
    assert "Active player (the player whose turn it is)" in page.locator(".tm-text").inner_text()
    right(page, "1.a", "1.b", "2", "2.a", "2.b", "2.c", "2.d", "2.e", "3", "3.a")
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(re.compile(r"step=3(&|$)"))
    at(page, "3")
    right(page, "3.a")
    # The first dilemma: personnel are attempting; it passes the checks and is faced.
    choose(page, "Personnel are still attempting", "3.b")
    right(page, "3.c", "3.d", "3.e", "3.f")
    rule = page.locator(".tm-cites").inner_text()
    assert "If your opponent reveals more than one copy of the same dilemma" in rule
    choose(page, "Passes all three checks", "3.g")
    right(page, "3.h", "3.i", "4", "4.a", "4.b")
    choose(page, "Dilemmas remain in the stack", "3")
    # The second dilemma is a second copy: overcome without being faced, and the stack is empty.
    right(page, "3.a")
    choose(page, "Personnel are still attempting", "3.b")
    right(page, "3.c", "3.d", "3.e", "3.f")
    choose(page, "A second copy, or the wrong type", "4.b")
    choose(page, "The stack is empty", "5")
    right(page, "5.a", "5.b", "5.c")
    choose(page, "The requirements are shown", "5.d")
    choose(page, "The points are scored", "end")
    assert page.locator("#tm-step-heading").inner_text() == "End of the sequence"
    assert len(blocked) == 0


def test_the_calculator_beside_the_stepper(live_server, page, blocked):
    page.goto(f"{live_server}/timing/mission-attempt?version=4&step=3.f")
    form = page.locator(".tm-calc-form")
    form.get_by_label("Personnel attempting").fill("8")
    form.get_by_label("Overcome dilemmas beneath the mission").fill("3")
    form.locator("select[name=mission]").select_option("planet")
    form.get_by_label("Revealed dilemmas, in order").fill("planet:2, space:1, dual:3, planet:1")
    form.get_by_role("button", name="Calculate").click()
    page.wait_for_url(re.compile(r"personnel=8"))
    at(page, "3.f")  # the stepper stays where it was
    assert page.locator("[data-calc=drawn]").inner_text() == "5"
    assert page.locator("[data-calc=limit]").inner_text() == "5"
    assert page.locator("[data-outcome]").all_inner_texts() == [
        "faced",
        "overcome",
        "faced",
        "overcome",
    ]
    # Stepping on keeps the calculation.
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(r"step=3\.g&.*personnel=8"))
    assert page.locator("[data-calc=end]").inner_text() == "Pending."
    # Typing in the form does not step.
    form.get_by_label("Personnel attempting").press("ArrowRight")
    assert "step=3.g" in page.url
    assert len(blocked) == 0


def test_the_stepper_works_without_javascript(browser, live_server, blocked):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/timing/mission-attempt?version=1.1&step=3.b")
        at(page, "3.b")
        # Each click loads a page: wait for it, or the check can read the page being left.
        choose(page, "Over the cost limit", "4")
        page.locator(".tm-prevnext a[rel=next]").click()
        page.wait_for_url(re.compile(r"step=4\.a(&|$)"))
        at(page, "4.a")
        page.goto(f"{live_server}/timing/mission-attempt?version=1.1&step=3.b")
        page.locator(".tm-other a", has_text="v4 step 3.f").click()
        page.wait_for_url(re.compile(r"version=4&step=3\.f(&|$)|step=3\.f&version=4"))
        at(page, "3.f")
        assert "version=4" in page.url
    finally:
        context.close()
    assert len(blocked) == 0


PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


def phone_context(browser, blocked, **options):
    """A 360×740 touch phone whose requests off 127.0.0.1 are blocked and counted."""
    context = browser.new_context(**{**PHONE, **options})
    guard_routes(context, blocked)
    return context


IN_VIEW = """sel => {
    const box = document.querySelector(sel).getBoundingClientRect();
    return box.top >= 0 && box.top < window.innerHeight && box.height > 0;
}"""


@pytest.mark.parametrize("javascript", [True, False])
def test_phone_calculator_answer_is_where_the_judge_looks(
    browser, live_server, blocked, javascript
):
    context = phone_context(browser, blocked, java_script_enabled=javascript)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/timing/mission-attempt?version=4&step=2.b")
        assert not page.evaluate(IN_VIEW, ".tm-calc-form button")  # far below the step
        page.locator(".tm-calc-form").get_by_label("Personnel attempting").fill("6")
        page.get_by_role("button", name="Calculate").tap()
        page.wait_for_url(re.compile(r"personnel=6.*#calc$"))
        page.locator(".tm-calc-result").wait_for()
        assert page.locator("[data-calc=drawn]").inner_text() == "6"
        assert page.evaluate(IN_VIEW, ".tm-calc-result")
        if javascript:  # the answer itself has the focus: a screen reader reads it
            assert page.evaluate("document.activeElement.classList.contains('tm-calc-result')")
        assert page.locator("#tm-step-heading").inner_text() == "Step 2.b"
        # The version switch keeps the step's counterpart and the calculator's inputs.
        page.locator(".tm-versions a", has_text="v1.1").click()
        page.wait_for_url(re.compile(r"version=1\.1&step=2&personnel=6"))
        assert page.locator("[data-calc=drawn]").inner_text() == "6"
    finally:
        context.close()
    assert len(blocked) == 0


# For each address: its page's body (as the server sends it) in place of this page's, at the
# top, and where its Next link ends and how tall it is. The page's head, styles and scripts stay.
NEXT_OF_EACH = """async (urls) => {
  const out = [];
  for (const url of urls) {
    const answer = await fetch(url, {headers: {Accept: 'text/html'}});
    const doc = new DOMParser().parseFromString(await answer.text(), 'text/html');
    document.body.replaceWith(document.importNode(doc.body, true));
    window.scrollTo(0, 0);
    const box = document.querySelector('.tm-prevnext a[rel=next]').getBoundingClientRect();
    out.push([url, box.bottom, box.height]);
  }
  return out;
}"""


def test_phone_next_is_on_the_first_screen_of_every_step(browser, live_server, blocked, client):
    context = phone_context(browser, blocked)
    try:
        page = context.new_page()
        index = client.get("/api/timing").get_json()["sequences"]
        pages = 0
        for sequence in index:
            for version in sequence["versions"]:
                data = client.get(f"/api/timing/{sequence['id']}?version={version}").get_json()
                urls = [live_server + step["url"] for step in flat(data["steps"])]
                # The sequence's first step as the judge opens it; every step's page then put in
                # its place, as the server sends it (a navigation for each was 69 s in all).
                page.goto(urls[0])
                for url, bottom, height in page.evaluate(NEXT_OF_EACH, urls):
                    assert bottom <= 740, url
                    assert height >= 44, url
                    pages += 1
        assert pages > 100  # every step of every sequence and version
        # Thumb-sized controls; no keyboard hints on a touch phone.
        assert page.locator(".tm-prevnext a[rel=prev]").bounding_box()["height"] >= 44
        assert not page.locator(".tm-keys").is_visible()
        page.goto(f"{live_server}/timing/mission-attempt?version=4&step=2.b")
        assert page.get_by_role("button", name="Calculate").bounding_box()["height"] >= 44
        assert page.locator(".tm-versions").inner_text() == (
            "Version: v1.1 (derived) · Call to Arms (derived) · v4"
        )
    finally:
        context.close()
    assert len(blocked) == 0


def test_keyboard_hints_show_with_a_mouse(live_server, page):
    page.goto(f"{live_server}/timing/turn?version=4&step=2")
    assert page.locator(".tm-keys").is_visible()
    assert page.locator("#tm-step-heading").inner_text() == "2. Execute Orders"


def flat(steps):
    for step in steps:
        yield step
        yield from flat(step["children"])


TOPS = """() => Object.fromEntries(['#tm-find-q', '.tm-sequence', '.tm-calc', '.tm-step'].map(
    sel => [sel, Math.round(document.querySelector(sel).getBoundingClientRect().top + scrollY)]
).concat([['step-end', Math.round(document.querySelector('.tm-step').getBoundingClientRect().bottom
    + scrollY)]]))"""


def test_phone_finder_and_step_list_come_before_the_calculator(browser, live_server, blocked):
    context = phone_context(browser, blocked)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/timing/mission-attempt?version=4&step=2.b")
        tops = page.evaluate(TOPS)
        assert tops[".tm-step"] < tops["#tm-find-q"] < tops[".tm-sequence"] < tops[".tm-calc"], tops
        # The finder follows the step (whose cites make it long), not the calculator's 1,900 px.
        assert tops["#tm-find-q"] - tops["step-end"] < 120, tops
        # A phone-only jump goes straight to the calculator.
        page.get_by_role("link", name="Mission-attempt calculator ↓").tap()
        page.wait_for_url(re.compile(r"#calc$"))
        assert page.evaluate(IN_VIEW, ".tm-calc h2")
        assert not page.locator(".tm-keys").is_visible()
    finally:
        context.close()
    assert len(blocked) == 0


def test_laptop_calculator_stays_below_the_step_beside_the_sequence(live_server, page):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server}/timing/mission-attempt?version=4&step=2.b")
    step, calc = page.locator(".tm-step").bounding_box(), page.locator(".tm-calc").bounding_box()
    seq = page.locator(".tm-sequence").bounding_box()
    assert calc["x"] == step["x"] and calc["y"] > step["y"] + step["height"]
    assert seq["x"] + seq["width"] < step["x"]  # the sequence in its column on the left
    assert not page.get_by_role("link", name="Mission-attempt calculator ↓").is_visible()


@pytest.mark.parametrize("javascript", [True, False])
def test_a_missing_mission_is_said_in_words_where_the_judge_looks(
    browser, live_server, blocked, javascript
):
    """Dilemmas revealed, no Mission chosen: the calculator says what is missing, above the form,
    in view and focused (the browser's required check held the form back silently on a phone)."""
    context = phone_context(browser, blocked, java_script_enabled=javascript)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/timing/mission-attempt?version=4&step=2.b")
        form = page.locator(".tm-calc-form")
        assert form.locator("select[name=mission]").evaluate("el => el.required") is False
        form.get_by_label("Personnel attempting").fill("6")
        form.get_by_label("Revealed dilemmas, in order").fill("planet:1")
        page.get_by_role("button", name="Calculate").tap()
        page.wait_for_url(re.compile(r"dilemmas=planet%3A1.*#calc$"))
        said = page.locator(".tm-calc-error")
        said.wait_for()
        assert said.inner_text() == "mission is required with dilemmas (planet or space)"
        assert page.evaluate(IN_VIEW, ".tm-calc-error")
        assert (
            said.evaluate(
                "el => el.compareDocumentPosition(document.querySelector("
                "'.tm-calc-form')) & Node.DOCUMENT_POSITION_FOLLOWING"
            )
            != 0
        )  # above the form
        if javascript:
            assert page.evaluate("document.activeElement.classList.contains('tm-calc-error')")
            page.get_by_role("button", name="Calculate").tap()  # the same again: focused again
    finally:
        context.close()
    assert len(blocked) == 0


GAPS = """() => [...document.querySelectorAll('.timing-links a')].map(a => {
    const range = document.createRange();
    range.selectNodeContents(a);
    return Math.round(a.getBoundingClientRect().right - range.getBoundingClientRect().right);
})"""


def test_step_links_on_a_rule_page_read_without_gaps(browser, live_server, blocked):
    context = phone_context(browser, blocked)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/rules/2e-rulebook/4/discard-excess-cards")
        item = page.locator(".timing-links li", has_text="Turn Sequence")
        assert item.inner_text() == (
            "Step through Turn Sequence (derived): step 3, step 4, step 4.a"
        )
        # No blank box between a step number and its comma (a short link's 24 px minimum width).
        assert set(page.evaluate(GAPS)) == {0}
    finally:
        context.close()
    assert len(blocked) == 0


SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.mark.parametrize("width", [320, 360])
def test_phone_disputes_and_first_edition_rulings(browser, live_server, blocked, width):
    context = phone_context(browser, blocked, viewport={"width": width, "height": 740})
    try:
        page = context.new_page()
        page.goto(f"{live_server}/timing")
        assert page.evaluate(SIDEWAYS) == 0
        # A dispute's answer in a version opens the step that settles it.
        dispute = page.locator("#dispute-prevent-between-actions")
        assert "No sequence" in dispute.locator("dd").nth(0).inner_text()
        dispute.get_by_role(
            "link", name="A dilemma's actions and “prevent” responses, step 2"
        ).tap()
        page.wait_for_url(re.compile(r"/timing/dilemma-actions\?version=4&step=2$"))
        assert page.evaluate(SIDEWAYS) == 0
        page.go_back()
        page.get_by_role("link", name="the Current Rulings' timing rulings, by situation").tap()
        page.wait_for_url(re.compile(r"/timing/first-edition$"))
        assert page.evaluate(SIDEWAYS) == 0
        page.get_by_role("navigation", name="Situations").get_by_role("link", name="Battle").tap()
        page.wait_for_url(re.compile(r"#situation-4$"))
        assert page.evaluate(IN_VIEW, "#note-tactic-placement")
    finally:
        context.close()
    assert len(blocked) == 0


# How far each citation link's box runs past its last word, and its height, on every line it takes.
CITE_BOXES = """() => [...document.querySelectorAll('.tm-cite-head a, .tm-origin a')].map(a => {
    const range = document.createRange();
    range.selectNodeContents(a);
    const words = [...range.getClientRects()];
    const box = a.getBoundingClientRect();
    return {
        gap: Math.round(box.right - Math.max(...words.map(r => r.right))),
        lines: new Set(words.map(r => Math.round(r.top))).size,
        height: Math.min(...[...a.getClientRects()].map(r => r.height)),
    };
})"""


def test_wrapped_citation_titles_leave_no_gap_at_360_px(browser, live_server, blocked):
    context = phone_context(browser, blocked, viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        page.goto(f"{live_server}/timing/mission-attempt?version=4&step=3.f")
        boxes = page.evaluate(CITE_BOXES)
        # The step's citations wrap at this width (else this test would prove nothing)...
        assert any(b["lines"] > 1 for b in boxes), boxes
        # ...and each box ends at its last word, every line still a 24 px target.
        assert {b["gap"] for b in boxes} == {0}, boxes
        assert min(b["height"] for b in boxes) >= 24, boxes
    finally:
        context.close()
    assert len(blocked) == 0


@pytest.mark.parametrize("javascript", [True, False])
def test_phone_the_repeat_step_offers_back_to_facing_dilemmas_or_on(
    browser, live_server, blocked, javascript
):
    with guarded_context(browser, blocked, **PHONE, java_script_enabled=javascript) as context:
        page = context.new_page()
        page.goto(f"{live_server}/timing/mission-attempt?version=4&step=4.b")
        back = page.get_by_role("link", name=re.compile(r"^↺ Back to 3 Facing Dilemmas"))
        nxt = page.locator(".tm-prevnext a[rel=next]")
        # Both on the first screen and thumb-sized, in the steps' bar (the way back under Next).
        for box in (back.bounding_box(), nxt.bounding_box()):
            assert box["y"] + box["height"] <= 740 and box["height"] >= 44
        # Each says when to take it: Next is the way only for an empty stack.
        assert " ".join(nxt.inner_text().split()) == "Next 5 → The stack is empty ed."
        assert " ".join(back.inner_text().split()).endswith("ed. Dilemmas remain in the stack")
        back.tap()
        page.wait_for_url(re.compile(r"step=3(&|$)"))
        at(page, "3")
        page.goto(f"{live_server}/timing/mission-attempt?version=4&step=4.b")
        page.locator(".tm-prevnext a[rel=next]").tap()
        page.wait_for_url(re.compile(r"step=5(&|$)"))
        at(page, "5")
    assert len(blocked) == 0


def test_laptop_the_way_back_sits_beside_next(live_server, page):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server}/timing/mission-attempt?version=1.1&step=3.e")
    back = page.locator(".tm-prevnext .tm-back").bounding_box()
    nxt = page.locator(".tm-prevnext a[rel=next]").bounding_box()
    prev = page.locator(".tm-prevnext a[rel=prev]").bounding_box()
    assert back["y"] == nxt["y"] == prev["y"]  # one row
    assert 0 < nxt["x"] - (back["x"] + back["width"]) <= 24  # the choice: back, or on
    page.keyboard.press("ArrowRight")  # the keys still step on
    page.wait_for_url(re.compile(r"step=4(&|$)"))


@pytest.mark.parametrize("javascript", [True, False])
def test_keyboard_hints_show_only_where_the_keys_work(browser, live_server, blocked, javascript):
    # A laptop with a mouse: the hint's place; the keys are timing.js's, so without it no hint.
    with guarded_context(
        browser, blocked, viewport={"width": 1280, "height": 900}, java_script_enabled=javascript
    ) as context:
        page = context.new_page()
        page.goto(f"{live_server}/timing/mission-attempt?version=4&step=2.b")
        assert page.locator(".tm-keys").is_visible() is javascript
        # The calculator's answer, swapped in place with JavaScript, keeps the hint.
        page.locator(".tm-calc-form").get_by_label("Personnel attempting").fill("6")
        page.get_by_role("button", name="Calculate").click()
        page.wait_for_url(re.compile(r"personnel=6"))
        page.locator(".tm-calc-result").wait_for()
        assert page.locator(".tm-keys").is_visible() is javascript
    assert len(blocked) == 0


# The answer of the calculator as a judge reads it: the numbers, each dilemma's outcome, the end.
ANSWER = """() => [
    document.querySelector("[data-calc=drawn]").textContent,
    document.querySelector("[data-calc=limit]").textContent,
    Array.from(document.querySelectorAll("[data-outcome]"), e => e.textContent).join(" "),
    document.querySelector("[data-calc=end]").textContent,
]"""


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("width", [360, 1280], ids=["phone", "laptop"])
def test_a_calculation_is_in_the_address_reload_and_share(
    browser, live_server, blocked, width, javascript
):
    """The judge's tryout: an answer in place must survive a reload and a shared link."""
    device = PHONE if width < 800 else {"viewport": {"width": width, "height": 900}}
    context = browser.new_context(**device, java_script_enabled=javascript)
    guard_routes(context, blocked)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/timing/mission-attempt?version=4")
        form = page.locator(".tm-calc-form")
        form.get_by_label("Personnel attempting").fill("6")
        form.locator("select[name=mission]").select_option("planet")
        form.get_by_label("Revealed dilemmas, in order").fill("planet:2, dual:1, planet:4")
        form.get_by_role("button", name="Calculate").click()
        page.wait_for_url(re.compile(r"personnel=6.*#calc$"))
        page.locator(".tm-calc-result").wait_for()
        answer = page.evaluate(ANSWER)
        assert answer == ["6", "6", "faced faced overcome", "Pending."]
        address = page.url
        assert "version=4" in address and "dilemmas=planet%3A2%2C+dual%3A1%2C+planet%3A4" in address
        page.reload()
        page.locator(".tm-calc-result").wait_for()
        assert page.url == address and page.evaluate(ANSWER) == answer
        shared = context.new_page()  # the link sent to another judge
        shared.goto(address)
        assert shared.evaluate(ANSWER) == answer
        assert shared.locator("input[name=personnel]").input_value() == "6"
    finally:
        context.close()
    assert len(blocked) == 0
