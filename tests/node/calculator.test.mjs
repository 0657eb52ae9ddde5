// The pack's calculator (judgekit/static/js/pack-calculator.js, unmodified) against the table of
// calculator cases (tests/golden/calculator_cases.json), which tests/test_timing_review30.py holds
// the server to: every case, the same answer. Run with `node --test tests/node/`.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import vm from "node:vm";

import { python, REPO, STATIC_DIR } from "./lib.mjs";

const CASES = JSON.parse(fs.readFileSync(path.join(REPO, "tests", "golden", "calculator_cases.json"), "utf-8"));

function fromPython(code) {
  const made = spawnSync(python(), ["-c", code], { encoding: "utf-8", cwd: REPO, maxBuffer: 64 << 20 });
  assert.equal(made.status, 0, made.stderr);
  return JSON.parse(made.stdout);
}

// Each version's calculator rules, as `judgekit build` writes them into timing-calculators.js.
function calculators() {
  return fromPython("import json; from judgekit import create_app; from judgekit.pack.offline import calculators; " +
    "print(json.dumps(calculators(create_app({'TESTING': True}))))");
}

// A stepper page of the pack, as much of it as pack-calculator.js reads.
function calculatorPage() {
  const document = {
    currentScript: { src: "file:///pack/static/js/pack-calculator.js" },
    head: { appendChild() { throw new Error("timing-calculators.js is already loaded"); } },
    addEventListener() {},
    querySelector() { return null; },
  };
  const context = vm.createContext({ document, URL, URLSearchParams, console, location: { href: "file:///pack/index.html" } });
  context.window = context.self = context;
  context.JUDGEKIT_CALCULATORS = calculators();
  const file = path.join(STATIC_DIR, "js", "pack-calculator.js");
  vm.runInContext(fs.readFileSync(file, "utf-8"), context, { filename: file });
  return context;
}

// What a case pins of an answer: the projection tests/golden/calculator.py takes from the server's.
const project = vm.runInThisContext(fs.readFileSync(path.join(REPO, "tests", "golden", "calculator_projection.js"), "utf-8"));

test("the pack's calculator gives every case's expected answer", async () => {
  const page = calculatorPage();
  for (const item of CASES) {
    const got = await page.judgekit.calculate("mission-attempt", item.version, item.params)
      .then(project, (e) => ({ error: e.message }));
    assert.deepStrictEqual(got, item.expected, JSON.stringify([item.version, item.params]));
  }
});

// What each part rests on (Rule with its citations, Interpretation with the editors' reading,
// Undetermined with each reading's outcome) and the dilemmas beneath the mission afterwards: the
// server's own answer to every case, not a copy of it.
test("the pack's calculator gives the server's basis for every case", async () => {
  const page = calculatorPage();
  const server = fromPython("import json; from tests.golden.calculator import server_bases; print(json.dumps(server_bases()))");
  assert.equal(server.length, CASES.length);
  let parts = 0;
  for (const [i, item] of CASES.entries()) {
    const got = await page.judgekit.calculate("mission-attempt", item.version, item.params)
      .then((c) => JSON.parse(JSON.stringify(c.basis)), () => null);
    assert.deepStrictEqual(got, server[i], JSON.stringify([item.version, item.params]));
    if (got) parts += 2 + got.dilemmas.length;
  }
  assert.ok(parts > CASES.length, "the cases have parts to compare");
});
