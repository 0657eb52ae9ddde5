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


def _calculate_on_the_page(page, url_start: str) -> None:
    """Fill the stepper's calculator on step 1 and check the answer shows in place, the inputs
    and the step kept, and that the address holds it (a reload answers the same)."""
    page.fill("input[name=personnel]", "6")
    page.fill("input[name=overcome]", "2")
    page.select_option("select[name=mission]", "planet")
    page.fill("input[name=dilemmas]", "planet:3, space:1, planet:2")
    page.click(".tm-calc-form button[type=submit]")
    wait_until(page, "!!document.querySelector('.tm-calc-result')")
    for _ in range(2):
        assert page.url.startswith(url_start + "?"), page.url
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
        _calculate_on_the_page(page, step)
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
