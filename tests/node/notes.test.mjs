// The pack's search page says what it did as the server's /search does, in the same words
// (judgekit/shapes/search_notes.py): a question cut at the limit, a game whose rulebook is not
// held, what a name of several versions was read as, a chip of another kind. On a copy of the
// fixture corpus tests/data/search whose two versions are both of 2003 ("the 2003 rules" names
// both). Run with `node --test tests/node/`.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";

import { packPage, python, REPO } from "./lib.mjs";

const TOP = fs.mkdtempSync(path.join(os.tmpdir(), "judgekit-node-notes-"));
process.on("exit", () => fs.rmSync(TOP, { recursive: true, force: true }));
const CORPUS = path.join(TOP, "corpus");
fs.cpSync(path.join(REPO, "tests", "data", "search"), CORPUS, { recursive: true });
const V2 = path.join(CORPUS, "rules", "book", "2.yaml");
fs.writeFileSync(V2, fs.readFileSync(V2, "utf-8")
  .replace('released: "2015-04"', 'released: "2003-12"').replace("released_printed: April 2015", "released_printed: December 2003"));

const CASES = [
  { q: "dilemma", edition: "1E" },
  { q: "1e dilemma" },
  { q: "dilemma", document: "rul" },
  { q: "dilemma", version: "2000-01-01" },
  { q: "commandeer" },
  { q: "dilemma", edition: "2E" },
  { q: "dilemma" },
  { q: "dilemma in the 2003 rules" },
  { q: "beam in the 2003 rules" },
  { q: "dilemma in the 2003 rules", version: "1" },
  { q: "dilemma " + "x".repeat(600) },
  { q: "dilemma " + "é".repeat(492) },
  // Cut as typed, before the spaces go: the first 500 characters hold 300 of the words.
  { q: " ".repeat(200) + "dilemma " + "x".repeat(400) },
  { q: "dilemma in v1" },   // one version named: nothing to say of it
  // A version or document not held: the server's message, naming what is held as judges see it.
  { q: "dilemma", version: "nonsense" },
  { q: "dilemma", document: "book", version: "2000-01-01" },
  { q: "dilemma", document: " nope " },
  { q: "dilemma", version: "it's \\ " + "x".repeat(50) },
  // Every character quoted as the server's repr quotes it: a no-break space, a control, a line
  // separator, a format character beyond the first plane.
  { q: "dilemma", version: "a\u00a0b\u0001c\u2028d\u{e0001}e\u007f" },
  // A bad kind, edition, all_versions or limit: the server's message.
  { q: "dilemma", kind: "zzz" },
  { q: "dilemma", edition: " 3e" },
  { q: "dilemma", all_versions: "maybe" },
  { q: "dilemma", limit: "0" },
  { q: "dilemma", limit: "1000" },
  { q: "dilemma", limit: "x\u00a0" },
  // A version as judges write it is the version (the server redirects to its id).
  { q: "dilemma", version: "V2" },
  { q: "dilemma", document: "book", version: "version-1" },
  // Versions named that none held answers to: said, and the rest searched.
  { q: "v5 dilemma" },
  { q: "dilemma in the 2020 rules or version 7" },
  // A game named in the question: a word only the other game has is said to be so (elsewhere.py),
  // and the other game's link searches the question without the game's name.
  { q: "2e commandeer dilemma" },
  { q: "2e commandeer" },
  { q: "commandeer dilemma", edition: "2E" },
  // Cut after its last whole word: 62 words searched, the 63rd ("dilem" at the limit) left out.
  { q: "dilemma ".repeat(64) + "beam" },
];

function pack() {
  const out = path.join(TOP, "pack");
  const bin = process.env.JUDGEKIT_BIN || path.join(REPO, ".venv", "bin", "judgekit");
  const made = spawnSync(bin, ["--root", CORPUS, "build", "--no-meaning", "--out", out], { encoding: "utf-8" });
  assert.equal(made.status, 0, `judgekit build failed: ${made.stderr}`);
  return out;
}

// The server's /search/results for each case, by words as the pack answers.
function serverPages() {
  const code = "import json, sys\n" +
    "from judgekit import create_app\n" +
    "app = create_app({'TESTING': True, 'CORPUS_DIR': sys.argv[1], 'SEARCH_CACHE_DIR': '', 'SEARCH_MEANING': 'off'})\n" +
    "c = app.test_client()\n" +
    "print(json.dumps([c.get('/search/results', query_string=p, follow_redirects=True).get_data(as_text=True) for p in json.loads(sys.argv[2])]))";
  const made = spawnSync(python(), ["-c", code, CORPUS, JSON.stringify(CASES)], { encoding: "utf-8", cwd: REPO });
  assert.equal(made.status, 0, made.stderr);
  return JSON.parse(made.stdout);
}

const text = (html) => html.replace(/<[^>]+>/g, "").replace(/&#34;|&quot;/g, '"').replace(/&#39;|&#x27;/g, "'")
  .replace(/&amp;/g, "&").replace(/\s+/g, " ").trim();
// What the page says: the cut, the summary (with what versions were read as), the held note,
// and each result's chips.
function said(html) {
  const one = (cls) => { const m = html.match(new RegExp(`<p class="${cls}"[^>]*>([\\s\\S]*?)</p>`)); return m ? text(m[1]) : null; };
  const chips = [...html.matchAll(/<ul class="chips"[^>]*>([\s\S]*?)<\/ul>/g)]
    .map((m) => [...m[1].matchAll(/<(?:a|span) class="chip[^"]*"[^>]*>([^<]*)</g)].map((c) => text(c[1])));
  // A link by its words and the search it asks for (the pack's go to its own search page).
  const links = [...html.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)]
    .filter((m) => m[2].startsWith("Search without") || /^search .* instead$/.test(m[2]))
    .map((m) => [text(m[2]), new URLSearchParams(text(m[1]).split("?")[1]).toString()]);
  return { cut: one("search-cut"), summary: one("search-summary"), held: one("search-held"), unheld: one("search-unheld"), chips,
    elsewhere: one("search-elsewhere"), notInEdition: one("not-in-edition"),
    error: one("notice search-error"), links };
}

const page = packPage(pack());
const server = serverPages();
const packSays = async (params) => said(await page.judgekit.searchResultsHTML(new URLSearchParams(params)));

test("the pack's page says what the server's says, in the same words", async () => {
  for (const [i, params] of CASES.entries()) {
    assert.deepStrictEqual(await packSays(params), said(server[i]), JSON.stringify(params).slice(0, 80));
  }
});

test("what each case says (the cases say something)", async () => {
  const held = "For 1E, judgekit holds only the Search Fixture Rulings of 1/1/00, no 1E rulebook: a ruling found may share your words without answering your question.";
  assert.equal((await packSays(CASES[0])).held, held);
  assert.equal((await packSays(CASES[4])).held, held);
  assert.equal((await packSays(CASES[5])).held, null);
  assert.equal((await packSays(CASES[6])).held, null);
  const read = (await packSays(CASES[7])).summary;
  assert.ok(read.endsWith("“2003” read as v1 and v2, each result showing its v2 passage first."), read);
  assert.ok(!(await packSays(CASES[9])).summary.includes("read as"));
  assert.equal((await packSays(CASES[10])).cut,
    "Your question is longer than a search reads (500 characters): it was searched up to “dilemma”, and the rest, from “" +
    "x".repeat(40) + "…”, was left out. A short question finds the rule best: a card's name, or a few words of the rule.");
  assert.ok((await packSays(CASES[12])).cut.includes("searched up to “dilemma”"));
  assert.ok((await packSays(CASES[CASES.length - 1])).cut.includes("it was searched up to “…dilemma dilemma dilemma dilemma dilemma”, and the rest, from “dilemma dilemma beam”, was left out"));
  const byQ = (q, edition) => CASES.find((c) => c.q === q && c.edition === edition);
  const named = await packSays(byQ("2e commandeer dilemma"));
  assert.equal(named.notInEdition, "commandeer: not in the 2E rules; First Edition has it (search First Edition instead).");
  assert.deepEqual(named.links, [["search First Edition instead", "q=commandeer+dilemma&edition=1E"]]);
  assert.equal((await packSays(byQ("2e commandeer"))).elsewhere, "First Edition has 1 result: search First Edition instead.");
  assert.deepEqual((await packSays(byQ("2e commandeer"))).links, [["search First Edition instead", "q=commandeer&edition=1E"]]);
  assert.equal((await packSays(byQ("commandeer dilemma", "2E"))).notInEdition, named.notInEdition);
  assert.equal((await packSays(CASES[11])).cut, null);   // 500 characters, each two bytes: whole
  assert.deepEqual((await packSays(CASES[14])).links, [["Search without the filters", "q=dilemma"]]);
  assert.equal((await packSays(CASES[14])).error, "unknown version 'nonsense'; the versions held: Book v2 (December 2003) as version=2, Book v1 (August 2003) as version=1, Rulings 1/1/00 as version=2000-01-01");
  const errorOf = async (params) => (await packSays(params)).error;
  assert.ok((await errorOf(CASES[18])).startsWith("unknown version 'a\\xa0b\\x01c\\u2028d\\U000e0001e\\x7f';"));
  assert.equal(await errorOf(CASES[19]), "unknown kind 'zzz' (known: section, glossary, ruling)");
  assert.equal(await errorOf(CASES[20]), "unknown edition ' 3e' (known: 2E, 1E)");
  assert.equal(await errorOf(CASES[21]), "all_versions must be 1 or 0, not 'maybe'");
  assert.equal(await errorOf(CASES[22]), "limit must be a whole number from 1 to 100, not '0'");
  assert.equal(await errorOf(CASES[24]), "limit must be a whole number from 1 to 100, not 'x\\xa0'");
  assert.equal(await errorOf(CASES[25]), null);
  assert.ok((await packSays(CASES[25])).summary.includes("with these filters"));
  assert.equal(await errorOf(CASES[26]), null);
  assert.equal((await packSays(CASES[27])).unheld, "“v5”: no such version is held here; the versions held: Book v2 (December 2003), Book v1 (August 2003) and Rulings 1/1/00. The rest of your question was searched.");
  assert.ok((await packSays(CASES[28])).unheld.startsWith("“2020” and “version 7”: no such version"));
});

test("a long question asks meaning about the words the page searched: cut as typed, then cleaned", async () => {
  // Spaces and an ellipsis clean to fewer or more characters: cut after cleaning, the question
  // meaning was asked about (the first answer's) was not the one the page searched.
  for (const q of [" ".repeat(200) + "dilemma beam ".repeat(60), "dilemma… ".repeat(80)]) {
    // Its first 500 characters end inside a word: up to the space after the last word whole.
    const first = Array.from(q).slice(0, 500).join("");
    const cut = first.slice(0, first.search(/ +[^ ]*$/) + 1);
    assert.ok(cut.length < first.length && cut.endsWith(" "));
    assert.equal(await page.judgekit.meaningQuestion(q, {}), await page.judgekit.meaningQuestion(cut, {}));
  }
});
