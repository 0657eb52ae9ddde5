// The pack's search (judgekit/static/js/pack-search.js, unmodified) against the golden answers
// (tests/golden/search.jsonl, the server's): every question, the same answer exactly; and its
// stemmer (judgekit/static/vendor/porter2, which search-more.js carries) against the server's.
//
// Run with Node's own test runner: `node --test tests/node/`. The search data is a real pack's
// (lib.mjs: packDir), built once.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";

import { golden, packDir, packPage, project, python, REPO, STATIC_DIR } from "./lib.mjs";

const DIR = packDir();
const QUESTIONS = golden();

function report(wrong) {
  return `${wrong.length} of ${QUESTIONS.length} answers differ; the first:\n` +
    wrong.slice(0, 5).map((w) => `${JSON.stringify([w.q, w.params])}\n  server ${JSON.stringify(w.want)}\n  pack   ${JSON.stringify(w.got)}`).join("\n");
}

test("the pack's copy of pack-search.js is the repository's", () => {
  const copies = fs.readdirSync(path.join(DIR, "static", "js")).filter((f) => /^pack-search\.\w+\.js$/.test(f));
  assert.equal(copies.length, 1);
  assert.equal(fs.readFileSync(path.join(DIR, "static", "js", copies[0]), "utf-8"),
    fs.readFileSync(path.join(STATIC_DIR, "js", "pack-search.js"), "utf-8"));
});

// Until a judge stores the pack's meaning part, the pack answers by words: as the server with
// meaning=0 (the golden line's by_words where meaning took part). How meaning stands differs by
// nature (the server's "ready", the pack's "not stored"): it is compared apart.
function byWords(item) {
  const want = { ...(item.by_words ?? item.answer), by_meaning: false };
  delete want.meaning;
  return want;
}

function withoutState(answer) {
  assert.equal(answer.meaning, "not stored");
  const out = { ...answer };
  delete out.meaning;
  return out;
}

test("the pack answers every golden question as the server does", async () => {
  const page = packPage(DIR);
  const wrong = [];
  for (const item of QUESTIONS) {
    const got = withoutState(project(await page.judgekit.search(item.q, item.params)));
    try {
      assert.deepStrictEqual(got, byWords(item));
    } catch {
      wrong.push({ q: item.q, params: item.params, want: byWords(item), got });
    }
  }
  assert.equal(wrong.length, 0, report(wrong));
});

// Given the server's nearness by meaning, the pack ranks as the server did (ranking.py: fuse).
// The server's nearness of every question it asked meaning about, computed once for the file.
let serverNear = null;
// A question's nearness as pack-meaning.js gives it: with each item's nearest chunk's sentences.
function nearOf(found) {
  const near = Float64Array.from(found.near);
  near.focus = Int32Array.from(found.focus);
  return near;
}
function serverNearness() {
  if (serverNear) return serverNear;
  const made = spawnSync(python(), ["-m", "tests.golden.nearness"], { cwd: REPO, encoding: "utf-8", maxBuffer: 1 << 30 });
  assert.equal(made.status, 0, made.stderr);
  serverNear = JSON.parse(made.stdout);
  return serverNear;
}

test("with the server's nearness, the pack answers every question the server answered by meaning", async () => {
  const nearness = serverNearness();
  const page = packPage(DIR);
  const wrong = [];
  let asked = 0;
  for (const item of QUESTIONS.filter((q) => q.answer.by_meaning)) {
    const question = await page.judgekit.meaningQuestion(item.q, item.params);
    assert.ok(question in nearness, `the pack asks ${JSON.stringify(question)} of ${JSON.stringify(item.q)}`);
    asked += 1;
    const got = project(await page.judgekit.searchWithNearness(item.q, item.params, nearOf(nearness[question])));
    try {
      assert.deepStrictEqual(got, item.answer);
    } catch {
      wrong.push({ q: item.q, params: item.params, want: item.answer, got });
    }
  }
  assert.ok(asked >= 300, `only ${asked} questions answered by meaning`);
  assert.equal(wrong.length, 0, report(wrong));
  // And no question the server answered by words alone is one the pack would ask meaning about.
  for (const item of QUESTIONS.filter((q) => !q.answer.by_meaning && q.answer.meaning === "ready" && q.answer.results.length)) {
    assert.equal(await page.judgekit.meaningQuestion(item.q, item.params), null, item.q);
  }
});

// The page answers by words first, then by meaning from the same words' stage (pack-search.js:
// wordsKept): the answer by meaning is the server's as if searched afresh, and asking again,
// by meaning or by words, changes nothing (the words' stage is never changed by its use).
test("by meaning after by words, from the words kept, each answer is the one searched afresh", async () => {
  const nearness = serverNearness();
  const page = packPage(DIR);
  const wrong = [];
  let asked = 0;
  for (const item of QUESTIONS.filter((q) => q.answer.by_meaning)) {
    const near = nearOf(nearness[await page.judgekit.meaningQuestion(item.q, item.params)]);
    const words = withoutState(project(await page.judgekit.search(item.q, item.params)));
    const first = project(await page.judgekit.searchWithNearness(item.q, item.params, near));
    const again = project(await page.judgekit.searchWithNearness(item.q, item.params, near));
    const wordsAgain = withoutState(project(await page.judgekit.search(item.q, item.params)));
    asked += 1;
    const got = { words, first, again, wordsAgain };
    const want = { words: byWords(item), first: item.answer, again: item.answer, wordsAgain: byWords(item) };
    try {
      assert.deepStrictEqual(got, want);
    } catch {
      wrong.push({ q: item.q, params: item.params, want, got });
    }
  }
  assert.ok(asked >= 300, `only ${asked} questions answered by meaning`);
  assert.equal(wrong.length, 0, report(wrong));
});

// An answer with results waits for search-more.js (the texts, for its snippets); one without
// (a word no rule holds, a stop word, a filter that keeps nothing) is given from the first file.
test("before search-more.js, every answer given is the server's", async () => {
  const page = packPage(DIR, false);
  const wrong = [];
  let answered = 0;
  for (const item of QUESTIONS) {
    let got;
    try {
      got = project(await page.judgekit.search(item.q, item.params));
    } catch (e) {
      assert.match(String(e), /search-more\.js did not load/);
      continue;
    }
    answered += 1;
    got = withoutState(got);
    try {
      assert.deepStrictEqual(got, byWords(item));
    } catch {
      wrong.push({ q: item.q, params: item.params, want: byWords(item), got });
    }
  }
  assert.equal(wrong.length, 0, report(wrong));
  assert.ok(answered >= 100, `only ${answered} answered without search-more.js`);
});

const VENDOR = path.join(STATIC_DIR, "vendor", "porter2");

test("the vendored stemmer is the recorded npm release", () => {
  const record = fs.readFileSync(path.join(VENDOR, "VENDOR"), "utf-8");
  const sha = crypto.createHash("sha256").update(fs.readFileSync(path.join(VENDOR, "index.js"))).digest("hex");
  assert.match(record, new RegExp(`^index\\.js sha256 ${sha}$`, "m"));
  assert.ok(fs.existsSync(path.join(VENDOR, "LICENSE")));
  const code = fs.readFileSync(path.join(VENDOR, "index.js"), "utf-8").trimEnd();
  assert.ok(fs.readFileSync(path.join(DIR, "search-more.js"), "utf-8").includes(code));
});

test("the pack stems every word as the server does", async () => {
  const made = spawnSync(python(), ["-m", "tests.golden.stems"], { cwd: REPO, encoding: "utf-8", maxBuffer: 1 << 28 });
  assert.equal(made.status, 0, made.stderr);
  const server = JSON.parse(made.stdout);
  const page = packPage(DIR);
  await page.judgekit.search("stemmed", {});   // search-more.js, with the stemmer, is in
  const stem = page.JUDGEKIT_SEARCH_MORE.porter2.stem;
  const words = Object.keys(server);
  const wrong = words.filter((w) => stem(w) !== server[w]);
  assert.ok(words.length > 60000, `${words.length} words`);
  assert.deepEqual(wrong.slice(0, 10).map((w) => [w, server[w], stem(w)]), []);
});
