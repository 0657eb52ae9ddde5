// What the pack's answers show, on the fixture corpus tests/data/search/snippets (as
// tests/test_search_snippets.py holds the server to): a long section's snippet is the sentence
// that answers, and ordinary words no rule uses are not "not in the rules"; and every answer
// there is the server's. Run with `node --test tests/node/`.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";

import { packPage, project, python, REPO } from "./lib.mjs";

const FIXTURE = path.join(REPO, "tests", "data", "search", "snippets");
const QUESTIONS = [
  "he put two of the same obstacle in his stack",
  "my guys are stopped, what about the stack",
  "stopped stack",
  "teleporter obstacle",
  "put",
  "hw do i face an obstacle",
];

// The fixture's pack, built with the virtual environment's judgekit into a temporary folder.
function fixturePack() {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "judgekit-node-snippets-")), "pack");
  const bin = process.env.JUDGEKIT_BIN || path.join(REPO, ".venv", "bin", "judgekit");
  const made = spawnSync(bin, ["--root", FIXTURE, "build", "--out", out], { encoding: "utf-8" });
  assert.equal(made.status, 0, `judgekit build failed: ${made.stderr}`);
  process.on("exit", () => fs.rmSync(path.dirname(out), { recursive: true, force: true }));
  return out;
}

// The server's answers to QUESTIONS on the fixture corpus.
function serverAnswers() {
  const code = "import json, sys\n" +
    "from judgekit.checks.loader import load_corpus\n" +
    "from judgekit.render.library import Library\n" +
    "from judgekit.search.service import SearchService\n" +
    "svc = SearchService.for_library(Library(load_corpus(sys.argv[1])), None)\n" +
    "print(json.dumps([svc.search({'q': q}) for q in json.loads(sys.argv[2])]))";
  const made = spawnSync(python(), ["-c", code, FIXTURE, JSON.stringify(QUESTIONS)], { encoding: "utf-8", cwd: REPO });
  assert.equal(made.status, 0, made.stderr);
  return JSON.parse(made.stdout);
}

const page = packPage(fixturePack());
const ask = async (q) => project(await page.judgekit.search(q, {}));
const plain = (marked) => marked.replace(/<\/?mark>/g, "");

test("a long section's snippet is the sentence that answers, not its first match", async () => {
  const answer = await ask("he put two of the same obstacle in his stack");
  assert.equal(answer.results[0].id, "book/1/facing-obstacles");
  const shown = plain(answer.results[0].snippet);
  assert.ok(shown.startsWith("…If your opponent reveals more than one copy of the same obstacle"), shown);
});

test("a snippet reads the judge's words as the vocabulary's rulebook words", async () => {
  const guys = plain((await ask("my guys are stopped, what about the stack")).results[0].snippet);
  assert.ok(guys.startsWith("…If the crew is stopped"), guys);
  const words = plain((await ask("stopped stack")).results[0].snippet);
  assert.ok(words.startsWith("…A stopped card stays stopped"), words);
});

test("ordinary words no rule uses are not announced; other words are", async () => {
  assert.deepEqual((await ask("he put two of the same obstacle in his stack")).not_in_rules, []);
  assert.deepEqual((await ask("teleporter obstacle")).not_in_rules, ["teleporter"]);
  assert.deepEqual((await ask("hw do i face an obstacle")).not_in_rules, []);   // "how" on a phone
  const guys = await ask("my guys are stopped, what about the stack");
  assert.deepEqual([guys.not_in_rules, guys.read_as], [["guys"], [{ words: "guys", means: ["crew"] }]]);
});

test("the pack answers the fixture's questions as the server does", async () => {
  const server = serverAnswers();
  // The server here searches by words (meaning off), as the pack does until meaning is stored.
  const words = (answer) => ({ ...answer, meaning: "by words" });
  for (const [i, q] of QUESTIONS.entries()) {
    assert.deepStrictEqual(words(await ask(q)), words(project(server[i])), q);
  }
});
