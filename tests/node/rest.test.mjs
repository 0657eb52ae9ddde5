// The pack's search page draws an answer's first screenful first and adds the rest of its
// results once that is drawn (search.js asks pack-search.js with later = {count, add}): the
// two parts together are the whole answer, markup for markup; the rest comes a few results at
// a time and stops once the question is replaced; an answer of a screenful or less comes whole.
// And the judges' sayings are found on the question's words, compiling no pattern of theirs,
// and every item's text is stemmed when the page is idle. On the fixture corpus
// tests/data/search. Run with `node --test tests/node/`.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import vm from "node:vm";

import { packPage, REPO } from "./lib.mjs";

const FIXTURE = path.join(REPO, "tests", "data", "search");

function fixturePack() {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "judgekit-node-rest-")), "pack");
  const bin = process.env.JUDGEKIT_BIN || path.join(REPO, ".venv", "bin", "judgekit");
  const made = spawnSync(bin, ["--root", FIXTURE, "build", "--no-meaning", "--out", out], { encoding: "utf-8" });
  assert.equal(made.status, 0, `judgekit build failed: ${made.stderr}`);
  process.on("exit", () => fs.rmSync(path.dirname(out), { recursive: true, force: true }));
  return out;
}

const DIR = fixturePack();
const page = packPage(DIR);
// Its texts in (search-more.js): an answer with all its snippets at once.
await page.judgekit.search("dilemma", {});
const results = (html) => (html.match(/<li class="result /g) || []).length;

// The rest's list items as they are given, a few at a time: all of them once the last comes.
function collector() {
  let done;
  const pieces = [], all = new Promise((resolve) => { done = resolve; });
  return { pieces, all, add(html, last) { pieces.push(html); if (last) done(pieces.join("")); } };
}
// The answer in two parts: the first (what the page draws first) and the rest's list items,
// or null when none came within a while.
async function inTwo(params, count, piece) {
  const rest = collector();
  const first = await page.judgekit.searchResultsHTML(new URLSearchParams(params), null, { count, piece, add: rest.add });
  const later = await Promise.race([rest.all, new Promise((resolve) => setTimeout(() => resolve(null), 500))]);
  return { first, later, pieces: rest.pieces };
}

test("an answer drawn in two parts is the whole answer", async () => {
  // "dilemma": 6 results; with limit=5, "showing the first 5" and "Show up to 100 results".
  for (const params of [{ q: "dilemma" }, { q: "dilemma", limit: "5" }, { q: "personnel" }]) {
    const whole = await page.judgekit.searchResultsHTML(new URLSearchParams(params));
    const { first, later } = await inTwo(params, 4);
    assert.equal(results(first), 4, JSON.stringify(params));
    assert.ok(later && results(later) === results(whole) - 4, JSON.stringify(params));
    // The rest goes at the end of the results' list (its own `</ol>`: the last one).
    const end = first.lastIndexOf("</ol>");
    assert.equal(first.slice(0, end) + later + first.slice(end), whole, JSON.stringify(params));
  }
  // The summary counts every result shown, not the first part's.
  const { first } = await inTwo({ q: "dilemma", limit: "5" }, 4);
  assert.match(first, /6 results for <q>dilemma<\/q>, showing the first 5/);
  assert.match(first, /Show up to 100 results/);
});

test("the rest comes a few results at a time, and stops once the question is replaced", async () => {
  // "dilemma" with a first screenful of 1: its other 5 results in pieces of 4 (and 1), or of
  // the screenful's size when no piece is named.
  const whole = await page.judgekit.searchResultsHTML(new URLSearchParams({ q: "dilemma" }));
  const { first, later, pieces } = await inTwo({ q: "dilemma" }, 1, 4);
  assert.deepEqual(pieces.map(results), [4, 1]);
  assert.deepEqual((await inTwo({ q: "dilemma" }, 2)).pieces.map(results), [2, 2]);
  const end = first.lastIndexOf("</ol>");
  assert.equal(first.slice(0, end) + later + first.slice(end), whole);
  // Replaced after its first piece: no more pieces are made.
  let current = true;
  const rest = collector();
  await page.judgekit.searchResultsHTML(new URLSearchParams({ q: "dilemma" }), null,
    { count: 1, piece: 4, current: () => current, add(html, last) { rest.add(html, last); current = false; } });
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.deepEqual(rest.pieces.map(results), [4]);
  // Replaced before it was made: no answer, no rest.
  const never = collector();
  const none = await page.judgekit.searchResultsHTML(new URLSearchParams({ q: "personnel" }), null,
    { count: 1, current: () => false, add: never.add });
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(none, null);
  assert.deepEqual(never.pieces, []);
});

test("an answer made again when its texts come (better) is in two parts too", async () => {
  // A new page: its first answer comes before search-more.js (no snippets, busy), then again.
  const fresh = packPage(DIR);
  let better;
  const again = new Promise((resolve) => { better = resolve; });
  const rest = collector();
  const first = await fresh.judgekit.searchResultsHTML(new URLSearchParams({ q: "dilemma" }), better, { count: 4, add: rest.add });
  assert.match(first, /aria-busy="true"/);
  const [second, later] = await Promise.all([again, rest.all]);
  assert.equal(results(second), 4);
  const whole = await fresh.judgekit.searchResultsHTML(new URLSearchParams({ q: "dilemma" }));
  assert.doesNotMatch(whole, /aria-busy/);
  const end = second.lastIndexOf("</ol>");
  assert.equal(second.slice(0, end) + later + second.slice(end), whole);
});

test("an answer cut short before its texts came is drawn whole without them if they cannot come", async () => {
  // A phone dropping off the pack's host: search-more.js never loads. The first screenful was
  // drawn without snippets (its rest waiting for them); then the whole list, not 4 results under
  // "6 results for dilemma".
  const offline = packPage(DIR, false);
  let better;
  const again = new Promise((resolve) => { better = resolve; });
  const first = await offline.judgekit.searchResultsHTML(new URLSearchParams({ q: "dilemma" }), better, { count: 4, add() {} });
  assert.equal(results(first), 4);
  assert.match(first, /aria-busy="true"/);
  const second = await Promise.race([again, new Promise((resolve) => setTimeout(() => resolve(null), 2000))]);
  assert.ok(second, "nothing followed the first screenful");
  const whole = await page.judgekit.searchResultsHTML(new URLSearchParams({ q: "dilemma" }));
  const titles = (html) => html.match(/class="result-title"[^>]*>[^<]*/g);
  assert.equal(results(second), results(whole));
  assert.deepEqual(titles(second), titles(whole));
  assert.match(whole, /class="result-snippet"/);
  assert.doesNotMatch(second, /class="result-snippet"/);
});

test("an answer of a screenful or less comes whole, with nothing to add", async () => {
  for (const params of [{ q: "mission" }, { q: "dilemma", limit: "4" }, { q: "zzzzqqq" }]) {
    const whole = await page.judgekit.searchResultsHTML(new URLSearchParams(params));
    const { first, later } = await inTwo(params, 4);
    assert.equal(first, whole, JSON.stringify(params));
    assert.equal(later, null, JSON.stringify(params));
  }
});

test("the sayings are found on the question's words, without compiling their patterns", async () => {
  // The fixture's vocabulary has no saying with a stop word in it: two of the real one's, one
  // that overlaps itself, and one of another shape (a word of other letters: its pattern).
  const fresh = packPage(DIR);
  vm.runInContext(fs.readFileSync(path.join(DIR, "search-index.js"), "utf-8"), fresh);
  fresh.JUDGEKIT_SEARCH.judge.raw.push(["(?<!\\w)at\\W+least(?!\\w)", 0, "least"], ["(?<!\\w)pay\\W+for(?!\\w)", 0, "pay"],
    ["(?<!\\w)at\\W+at(?!\\w)", 0, "at"], ["(?<!\\w)café\\W+au(?!\\w)", 0, "café"]);
  await fresh.judgekit.searchIndexLoaded();
  const said = async (q) => JSON.parse(JSON.stringify(await fresh.judgekit.sayingsIn(q)));
  assert.deepEqual(await said("Do I pay for it, at  LEAST?"), [[17, 26, 0], [5, 12, 0]]);
  assert.deepEqual(await said("at at at"), [[0, 5, 0]]);   // left to right, none overlapping
  assert.deepEqual(await said("a Café au lait, café-au"), [[2, 9, 0], [16, 23, 0]]);
  const raw = fresh.JUDGEKIT_SEARCH.raw;
  assert.deepEqual(Array.from(raw, (r) => r.re === null), [true, true, true, false]);
  assert.equal(String(raw[3].re), "/(?<![\\p{L}\\p{N}_])café[^\\p{L}\\p{N}_]+au(?![\\p{L}\\p{N}_])/giu");
});

test("every item's text is stemmed when the page is idle, once the texts are in", async () => {
  // A question reranks its best items on their texts' stems and checks phrases in them: made
  // ahead, not on the way of the page's first questions.
  const fresh = packPage(DIR);
  await fresh.judgekit.search("dilemma", {});
  const D = fresh.JUDGEKIT_SEARCH;
  const deadline = Date.now() + 10000;
  while (D.flat.size < D.items.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(D.flat.size, D.items.length);
  // As the phrases read them: the name's words and the text's, none spanning the two.
  const dilemma = D.items.findIndex((it) => /dilemma/i.test(it.name));
  assert.ok(D.flat.get(dilemma).startsWith(" dilemma "), D.flat.get(dilemma).slice(0, 40));
});
