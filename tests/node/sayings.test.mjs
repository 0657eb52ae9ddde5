// The judges' sayings holding a stop word ("look at", "at least": vocabulary.py, _raw_said) are
// found in a question on its word runs (pack-search.js: sayingsIn), not by a pattern of each:
// the same places as each pattern, in the browser's own engine, on the pack's real sayings and
// questions made to trip them: capitals, the two characters that fold to an ASCII letter (the
// long s, the Kelvin sign) and those that do not (dotted capital I, dotless i), a character
// that is a word character only with case ignored (U+0345), underscores, digits, letters past
// the first plane, apostrophes, a saying repeated and overlapping. Run with `node --test tests/node/`.
import assert from "node:assert/strict";
import { test } from "node:test";

import { packDir, packPage } from "./lib.mjs";

// The page's pattern of a saying, as pack-search.js made them before (rawPattern).
function pattern(source) {
  return new RegExp(source.replace(/\(\?<!\\w\)/, "(?<![\\p{L}\\p{N}_])").replace(/\(\?!\\w\)/, "(?![\\p{L}\\p{N}_])")
    .replace(/\\W/g, "[^\\p{L}\\p{N}_]"), "giu");
}
function byPatterns(raw, query) {
  const lowered = query.toLowerCase(), out = [];
  for (const [source, term, needle] of raw) {
    if (lowered.indexOf(needle) === -1) continue;
    const re = pattern(source);
    let m;
    while ((m = re.exec(query)) !== null) out.push([m.index, m.index + m[0].length, term]);
  }
  return out;
}

const page = packPage(packDir());

test("sayings are found where their patterns find them", async () => {
  await page.judgekit.searchIndexLoaded();
  const raw = page.JUDGEKIT_SEARCH.judge.raw;
  assert.ok(raw.length >= 10, "the pack has sayings with stop words");
  const questions = [];
  for (const [source] of raw) {
    const words = source.replace("(?<!\\w)", "").replace("(?!\\w)", "").split("\\W+");
    const said = words.join(" ");
    questions.push(
      `can I ${said} now`, said.toUpperCase(), `${said}, ${said} ${said}`, words.join(" - "), words.join("'"),
      said.replace(/s/g, "\u017f"), said.replace(/k/g, "\u212a"), said.replace(/i/g, "\u0130"), said.replace(/i/g, "\u0131"),
      `x${said}`, `${said}_`, `_${said}`, `${said}1`, `2${said}`, `\u0345${said}`, `${said}\u0345`, `\u{10400}${said}`,
      `${said}\u{10428}`, `${said}\u00e9 ${said}`, words.join("\u00a0"), words.join("\u0345"), words.join("_"),
    );
  }
  questions.push("at at at", "look at at least at most", "", "what is that", "AT LEAST", "in which order at least");
  let found = 0;
  for (const q of questions) {
    const expected = byPatterns(raw, q);
    found += expected.length;
    const got = JSON.parse(JSON.stringify(await page.judgekit.sayingsIn(q)));   // the page's realm
    assert.deepStrictEqual(got, expected, JSON.stringify(q));
  }
  assert.ok(found > raw.length * 5, `the questions hold sayings (${found} found)`);
});
