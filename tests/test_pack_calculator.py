"""The pack's calculator in Chromium gives the server's answers: one set of cases runs against
/api/timing/<sequence>/calculate and window.judgekit.calculate, and the stepper page shows it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judgekit import create_app
from tests.conftest import wait_until
from tests.golden.calculator import PACK_PROJECTION, project
from tests.test_pack_browser import guarded_context, static_server

pytestmark = pytest.mark.browser

PACK_CORPUS = Path(__file__).parent / "data" / "pack"
PHONE = {"width": 390, "height": 844}

# (version, parameters): version 2 checks at reveal (Version 4's way), version 1 limits the
# chosen total and forbids second copies (the 2003 way). Bad parameters too.
CASES = [
    ("2", {"personnel": "5", "overcome": "1"}),
    ("2", {"personnel": "3", "overcome": "5"}),
    (
        "2",
        {
            "personnel": "6",
            "mission": "planet",
            "dilemmas": "planet:2, space:1, dual:3:dup, planet:2",
        },
    ),
    (
        "2",
        {
            "personnel": "4",
            "mission": "space",
            "dilemmas": "space:3, dual:2, space:0",
            "requirements": "met",
        },
    ),
    (
        "2",
        {
            "personnel": "5",
            "mission": "planet",
            "dilemmas": "planet:1, planet:1, planet:1",
            "no_personnel_after": "1",
        },
    ),
    (
        "1",
        {
            "personnel": "6",
            "mission": "planet",
            "dilemmas": "planet:2, planet:2:dup, space:1, planet:9",
        },
    ),
    (
        "1",
        {
            "personnel": "2",
            "mission": "planet",
            "dilemmas": "planet:1, dual:1, planet:1",
            "requirements": "unmet",
        },
    ),
    ("2", {}),
    ("2", {"personnel": "eight"}),
    ("2", {"personnel": "x" * 5000}),
    ("2", {"personnel": "5", "dilemmas": "planet:1"}),
    ("2", {"personnel": "5", "mission": "planet", "dilemmas": "moon:1"}),
    ("2", {"personnel": "5", "mission": "planet", "dilemmas": "planet:1, dual:2:twice"}),
    (
        "2",
        {"personnel": "5", "mission": "planet", "dilemmas": "planet:1", "no_personnel_after": "2"},
    ),
    ("1", {"personnel": "5", "requirements": "maybe"}),
    # Readings the text leaves open: modifiers to the number drawn, a check failed over the cost
    # limit, a wrong-type dilemma's cost, a dilemma its own text places elsewhere.
    (
        "2",
        {"personnel": "4", "modifiers": "+2", "mission": "space", "dilemmas": "planet:5, space:3"},
    ),
    (
        "2",
        {"personnel": "3", "modifiers": "-1", "mission": "planet", "dilemmas": "planet:1:placed"},
    ),
    ("1", {"personnel": "3", "mission": "planet", "dilemmas": "space:2, planet:2, dual:0:dup"}),
    ("2", {"personnel": "5", "mission": "planet", "dilemmas": "planet:1:dup:dup"}),
    ("2", {"personnel": "5", "modifiers": "100"}),
]


def _server(version: str, params: dict) -> dict:
    client = create_app({"TESTING": True, "CORPUS_DIR": str(PACK_CORPUS)}).test_client()
    response = client.get(
        "/api/timing/attempt/calculate", query_string={"version": version, **params}
    )
    return project(response.status_code, response.get_json())


# The pack's answer, projected as the server's is (the Node test's projection too).
PACK_CALC = f"""([version, params]) => window.judgekit.calculate("attempt", version, params).then(
  {PACK_PROJECTION},
  e => ({{error: e.message}}))"""


@pytest.fixture(scope="module")
def served_pack(packs):
    out = packs(PACK_CORPUS).out
    with static_server(out) as base:
        yield out, base


def test_same_answers_as_the_server(browser, served_pack):
    with guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{served_pack[1]}/timing/index.html")
        for version, params in CASES:
            assert page.evaluate(PACK_CALC, [version, params]) == _server(version, params), params
        assert off == []


def _calculate_on_the_page(page, url_start: str) -> str:
    """Fill the stepper's calculator on step 1 and check the answer shows in place, the inputs
    and the step kept, and that the address holds it (a reload answers the same, and says it
    with the same address); returns that address."""
    page.fill("input[name=personnel]", "6")
    page.fill("input[name=overcome]", "2")
    page.select_option("select[name=mission]", "planet")
    page.fill("input[name=dilemmas]", "planet:3, space:1, planet:2")
    page.click(".tm-calc-form button[type=submit]")
    wait_until(page, "!!document.querySelector('.tm-calc-result')")
    answered = page.url
    assert answered.startswith(url_start + "?") and answered.endswith("#calc"), answered
    for _ in range(2):
        assert page.url == answered
        assert "personnel=6" in page.url
        assert page.inner_text("[data-calc=drawn]") == "4"
        assert page.inner_text("[data-calc=limit]") == "4"
        assert page.eval_on_selector_all(
            "[data-outcome]", "els => els.map(e => e.textContent)"
        ) == ["faced", "overcome", "overcome"]
        assert page.input_value("input[name=dilemmas]") == "planet:3, space:1, planet:2"
        assert page.input_value("input[name=personnel]") == "6"
        assert page.inner_text("#tm-step-heading .tm-num") == "Step 1"
        page.reload()
        wait_until(page, "!!document.querySelector('.tm-calc-result')")
    # A second answer replaces the first, and a bad input answers with the error.
    page.fill("input[name=personnel]", "0")
    page.eval_on_selector("input[name=personnel]", "el => el.removeAttribute('min')")
    page.click(".tm-calc-form button[type=submit]")
    wait_until(page, "!!document.querySelector('.tm-calc-error')")
    assert page.inner_text(".tm-calc-error") == "personnel must be from 1 to 999, not 0"
    assert page.locator(".tm-calc-result").count() == 0
    assert "personnel=0" in page.url
    return answered


def _same_answer(page) -> None:
    """The answer of _calculate_on_the_page, on a page opened at its address."""
    wait_until(page, "!!document.querySelector('.tm-calc-result')")
    assert page.inner_text("[data-calc=drawn]") == "4"
    assert page.eval_on_selector_all("[data-outcome]", "els => els.map(e => e.textContent)") == [
        "faced",
        "overcome",
        "overcome",
    ]
    assert page.input_value("input[name=dilemmas]") == "planet:3, space:1, planet:2"


@pytest.mark.parametrize("offline", [False, True], ids=["online", "offline"])
def test_the_stepper_page_calculates_when_the_pack_is_served(browser, served_pack, offline):
    # The pack published on a static host, as a phone opens it: online, and after its service
    # worker has stored it, with the network cut.
    folder, base = served_pack
    pack_id = json.loads((folder / "pack.json").read_text(encoding="utf-8"))["id"]
    with guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{base}/timing/attempt/index.html?version=2&step=1")
        step = f"{base}/timing/attempt/~step=1,version=2/index.html"
        assert page.url == step
        if offline:
            wait_until(
                page,
                "id => !!(judgekit.pack.storedId === id && navigator.serviceWorker.controller)",
                pack_id,
                timeout=30,
            )
            ctx.set_offline(True)
            page.reload()
        # Over http(s) the address names the step's folder, without "index.html".
        answered = _calculate_on_the_page(page, step.removesuffix("index.html"))
        # The page's links still lead where they did (they are relative to that folder).
        home = page.eval_on_selector(".site-header a.brand", "a => a.href")
        assert home == f"{base}/index.html"
        assert off == []
    if not offline:
        # Shared: another phone opens the address and sees the same answer.
        with guarded_context(browser, PHONE) as (ctx, off):
            page = ctx.new_page()
            page.goto(answered)
            _same_answer(page)
            assert page.url == answered
            assert off == []


def test_the_stepper_page_calculates_without_a_server(browser, served_pack):
    folder = served_pack[0]
    with guarded_context(browser, PHONE) as (ctx, off):
        page = ctx.new_page()
        page.goto((folder / "timing/attempt/index.html").as_uri() + "?version=2&step=1")
        step = (folder / "timing/attempt").as_uri() + "/~step=1,version=2/index.html"
        assert page.url == step
        _calculate_on_the_page(page, step)
        assert off == []


# Version 1 (the 2003 way): a wrong-type dilemma with a cost is overcome whatever the reading, but
# whether its cost counts is the editors' reading; a second copy revealed anyway is undetermined.
BASIS_PARAMS = {
    "version": "1",
    "personnel": "6",
    "mission": "planet",
    "dilemmas": "space:2, planet:2, planet:2:dup",
}
BASIS_TEXTS = "els => els.map(e => e.textContent.replace(/\\s+/g, ' ').trim())"
# Each basis as its parts: its kind, its label, each point or reading, each citation (and ed. mark).
BASIS_PARTS = f"""els => els.map(e => [
  e.className,
  ...[".tm-basis-label", "li", "a", "abbr"].map(s => ({BASIS_TEXTS})(Array.from(e.querySelectorAll(s)))),
  Array.from(e.querySelectorAll("abbr")).map(a => a.title),
])"""


def _server_basis_texts(page) -> list[str]:
    """Each basis of the server's own calculator page, as text (its links lead elsewhere)."""
    client = create_app({"TESTING": True, "CORPUS_DIR": str(PACK_CORPUS)}).test_client()
    html = client.get("/timing/attempt", query_string=BASIS_PARAMS).get_data(as_text=True)
    page.set_content(html)
    return page.eval_on_selector_all(".tm-calc-result .tm-basis, .tm-calc-cited li", BASIS_PARTS)


@pytest.mark.parametrize("width", [360, 1280])
def test_the_pack_shows_each_parts_basis_as_the_server_does(browser, served_pack, width):
    folder, base = served_pack
    with guarded_context(browser, {"width": width, "height": 800}) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{base}/timing/attempt/index.html?version=1&step=1")
        for name in ("personnel", "dilemmas"):
            page.fill(f"input[name={name}]", BASIS_PARAMS[name])
        page.select_option("select[name=mission]", "planet")
        page.click(".tm-calc-form button[type=submit]")
        wait_until(page, "!!document.querySelector('.tm-calc-result')")
        # The editors' reading is marked theirs, visibly and within the screen.
        marks = page.locator(".tm-basis-interpretation .tm-basis-label .tm-ed-mark")
        assert marks.count() == 2  # the wrong-type dilemma, and the total after it
        mark = marks.first
        assert mark.text_content() == "ed."
        assert mark.is_visible()
        box = mark.bounding_box()
        assert 0 <= box["x"] and box["x"] + box["width"] <= width, box
        read_as = page.inner_text(".tm-basis-interpretation li")
        assert read_as.startswith("Read as: a chosen dilemma overcome without being faced"), read_as
        # The undetermined point gives each reading's outcome.
        outcomes = page.eval_on_selector_all(".tm-basis-undetermined li", BASIS_TEXTS)
        assert any(
            t.startswith("not-allowed (total 2 or 6) if a second copy revealed anyway is overcome")
            for t in outcomes
        ), outcomes
        assert any(
            t.startswith("faced (total 4 or 6) if a second copy revealed anyway is faced")
            for t in outcomes
        ), outcomes
        assert page.locator(".tm-basis-undetermined").first.is_visible()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert page.inner_text("[data-calc=beneath]") == "3"
        # Every part says what the server's page says, in the same order, citations included.
        # The sections cited, once each under the answer (with each "ed." mark), too.
        pack_texts = page.eval_on_selector_all(
            ".tm-calc-result .tm-basis, .tm-calc-cited li", BASIS_PARTS
        )
        assert len(pack_texts) == 1 + 3 + 1 + len(page.query_selector_all(".tm-calc-cited li"))
        assert page.locator(".tm-calc-cited li").count() >= 1
        cited = page.locator(".tm-calc-cited li a").first.get_attribute("href")
        assert cited.startswith(f"{base}/") and cited.endswith("/index.html")
        assert (folder / cited[len(base) + 1 :]).is_file(), cited
        assert pack_texts == _server_basis_texts(page)
        assert off == []


@pytest.mark.parametrize("width", [360, 1280])
def test_the_pack_draws_the_answer_above_the_form_in_view_and_focused(browser, served_pack, width):
    """As the server's page: the answer (or what is missing, in words) above the form, brought
    into view and focused, so a phone shows what Calculate did."""
    folder, base = served_pack
    with guarded_context(browser, {"width": width, "height": 740}) as (ctx, off):
        page = ctx.new_page()
        page.goto(f"{base}/timing/attempt/index.html?version=2&step=1")
        form = page.locator(".tm-calc-form")
        form.locator("input[name=personnel]").fill("5")
        form.locator("input[name=dilemmas]").fill("planet:1")
        page.click(".tm-calc-form button[type=submit]")  # no Mission chosen
        wait_until(page, "!!document.querySelector('.tm-calc-error')")
        said = page.locator(".tm-calc-error")
        assert said.inner_text() == "mission is required with dilemmas (planet or space)"
        page.select_option("select[name=mission]", "planet")
        page.click(".tm-calc-form button[type=submit]")
        wait_until(page, "!!document.querySelector('.tm-calc-result')")
        assert page.locator(".tm-calc-error").count() == 0
        order = page.evaluate(
            "[...document.querySelector('.tm-calc').children].map(e => e.className)"
            ".filter(c => /tm-calc-(result|form)/.test(c))"
        )
        assert order == ["tm-calc-result", "tm-calc-form"]
        box = page.locator(".tm-calc-result").bounding_box()
        assert 0 <= box["y"] < 740, box
        assert page.evaluate("document.activeElement.classList.contains('tm-calc-result')")
        assert off == []
