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

// Each version's calculator rules, as `judgekit build` writes them into timing-calculators.js.
function calculators() {
  const code = "import json; from judgekit import create_app; from judgekit.pack.offline import calculators; " +
    "print(json.dumps(calculators(create_app({'TESTING': True}))))";
  const made = spawnSync(python(), ["-c", code], { encoding: "utf-8", cwd: REPO });
  assert.equal(made.status, 0, made.stderr);
  return JSON.parse(made.stdout);
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
