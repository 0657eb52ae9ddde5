/* The judge pack's search, in the browser: the server's ranking (judgekit/search/index.py) over
   the index items `judgekit build` wrote to search-index.js with the server's own analysis.
   Its stages are the server's, by the same names: plan the query (plan: query.py,
   SearchIndex.plan), score (scoring.py), rank (ranking.py), collapse versions (collapse.py),
   shape the answer (shape: SearchService.shape); find runs the first four, as _search does.
   window.judgekit.search(q, {edition, document, version, kind, all_versions, limit}) answers
   with the JSON shape of /api/search; the search page and the live results use it too. */
(function () {
  "use strict";
  var script = document.currentScript;
  // An inline copy (the search page: pack/searchpage.py) names its file in data-src.
  var file = script && (script.src || new URL(script.getAttribute("data-src") || "", document.baseURI).href);
  var root = new URL("../../", file || window.location.href).href;
  var api = window.judgekit = window.judgekit || {};
  var loading = null;
  var D = null;        // the data
  var sorted = null;   // the vocabulary, sorted, for completions
  var near = null;     // symmetric deletes, for corrections
  var initial = null;  // the same words by first letter (Speller.initial)
  var avg = null;
  // search-more.js (pack/search.py: split): the items' texts, the words never corrected and the
  // stems of words the rules never use. Whatever needs it before it is here throws MORE, and
  // the answer is made again once it is (settled): the same answers as with one file.
  var MORE = {more: true};
  var moreLoading = null;
  var more = false;
  var partial = false;   // while a page's results may show before their snippets
  var pending = false;   // a result was shown without its snippet
  var porter2 = null;    // the stemmer (static/vendor/porter2), with search-more.js

  var TOKEN = /[\p{L}\p{N}\p{M}_]+(?:['’][\p{L}\p{N}\p{M}_]+)*/gu;
  var HOW_MANY = /\bhow\s+(?:many|much)\b|\bnumber\s+of\b/i;
  var CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\ufeff]/g;

  function load() {
    if (loading) return loading;
    loading = new Promise(function (resolve, reject) {
      if (self.JUDGEKIT_SEARCH) { resolve(); return; }
      function fetchIndex() {
        var tag = document.createElement("script");
        tag.src = root + "search-index.js";
        tag.onload = function () { resolve(); };
        tag.onerror = function () { loading = null; reject(new Error("search-index.js did not load")); };
        document.head.appendChild(tag);
      }
      // The search page carries the index after this script (pack/searchpage.py): wait for it,
      // or for the file if the page ends without it whole (a page cut short).
      if (document.readyState === "loading" && document.querySelector('meta[name="judgekit-search-data"]')) {
        document.addEventListener("judgekit-search-data", function () { resolve(); }, {once: true});
        document.addEventListener("DOMContentLoaded", function () { if (!self.JUDGEKIT_SEARCH) fetchIndex(); }, {once: true});
        return;
      }
      fetchIndex();
    }).then(prepare).then(function () { loadMore().catch(function () {}); whenIdle(warm); });
    return loading;
  }
  // A page's first answer compiles the search's code and its Unicode patterns (0.1-0.2 s on a
  // slow phone): done once, on a question of our own, while the judge is still typing, so that
  // the judge's first answer after the pause comes as fast as the next ones. Nothing is shown.
  function whenIdle(task) {
    if (window.requestIdleCallback) window.requestIdleCallback(task, {timeout: 200});
    else setTimeout(task, 0);
  }
  function warm() {
    try {
      pageHTML(new URLSearchParams({q: "rule"}));
    } catch (e) { /* the texts are not in yet: what ran is compiled all the same */ }
    pending = false;
    // The sayings' word runs (sayingsIn): their one Unicode pattern compiled (bytecode, then
    // machine code on its second run) before the judge's first question holds a saying's word.
    wordRuns("at least");
    wordRuns("at least");
  }
  function loadMore() {
    if (moreLoading) return moreLoading;
    moreLoading = new Promise(function (resolve, reject) {
      if (self.JUDGEKIT_SEARCH_MORE) { resolve(); return; }
      var tag = document.createElement("script");
      tag.src = root + "search-more.js";
      tag.onload = function () { resolve(); };
      tag.onerror = function () { moreLoading = null; reject(new Error("search-more.js did not load")); };
      document.head.appendChild(tag);
    }).then(function () {
      if (more) return;
      var M = self.JUDGEKIT_SEARCH_MORE;
      M.texts.forEach(function (text, i) { D.items[i].text = text; });
      D.judge.english = M.english;
      D.english = null;
      Object.keys(M.stems).forEach(function (word) { D.stems[word] = M.stems[word]; });
      porter2 = M.porter2.stem;
      more = true;
      stemLater();
    });
    return moreLoading;
  }
  // make(), again once search-more.js is here if it needed it.
  function settled(make) {
    try {
      return Promise.resolve(make());
    } catch (e) {
      if (e !== MORE) return Promise.reject(e);
      return loadMore().then(make);
    }
  }
  function textOf(item) {
    if (!more) throw MORE;
    return item.text;
  }

  function prepare() {
    if (D) return;
    D = self.JUDGEKIT_SEARCH;
    D.stopSet = new Set(D.stops);
    D.questionSet = new Set(D.questions);
    D.ordinarySet = new Set(D.ordinary);
    D.numberSet = new Set(D.numbers);
    // Compiled once, like the other patterns (a question's search compiles none of its own).
    D.editionNames = D.settings.edition_names.map(function (e) { return [new RegExp(e[0], "gi"), e[1]]; });
    D.leftByName = new RegExp("^(?:" + D.settings.left_by_name + ")$");
    D.leftovers = D.settings.leftovers.map(function (l) { return [new RegExp(l[0], "g"), l[1]]; });
    D.numberCue = new RegExp(D.settings.number_cue, "i");
    D.sentenceEnd = new RegExp(D.settings.sentence_end, "g");
    sorted = Object.keys(D.vocabulary).sort(function (a, b) { return a < b ? -1 : a > b ? 1 : 0; });
    var J = D.judge;
    D.english = null;   // made on the first question about a word's spelling: known()
    D.saidMap = new Map();
    D.longestSaid = 0;
    J.said.forEach(function (s) { D.saidMap.set(s[0].join(" "), s[1]); D.longestSaid = Math.max(D.longestSaid, s[0].length); });
    // Matched on the question's word runs (sayingsIn); a pattern of another shape is compiled
    // when first needed (a Unicode pattern costs a phone milliseconds to compile).
    D.raw = J.raw.map(function (r) { return {source: r[0], term: r[1], needle: r[2], words: rawWords(r[0]), re: null}; });
    D.versionNames = D.versions.map(function (v) { return [new RegExp(v[0], "gi"), v[1], v[2], v[3]]; });
    D.unheldVersion = new RegExp(D.settings.unheld_version, "gi");
    D.phraseSets = new Map(Object.keys(D.phrases.found).map(function (k) { return [k, new Set(D.phrases.found[k])]; }));
    D.phraseUnsure = new Set(D.phrases.unsure);
    D.items.forEach(expand);
    D.byKey = new Map();
    D.cited = new Map();
    D.flat = new Map();
    D.items.forEach(function (it, i) { D.byKey.set(it.key, i); });
    D.items.forEach(function (it, i) {
      if (it.cites.length) D.cited.set(i, new Set(it.cites.filter(function (k) { return D.byKey.has(k); }).map(function (k) { return D.items[D.byKey.get(k)].topic; })));
    });
    var names = new Map();
    D.items.forEach(function (it) {
      if (it.result.kind !== "card") return;
      // titleKey, once per card: the build wrote it (pack/search.py: _add_name_key) unless the
      // browser might cut the name otherwise.
      var key = it.name_key !== undefined ? it.name_key : stems(it.name).join(" ");
      it.card_words = key === "" ? 0 : key.split(" ").length;
      names.set(key + "\u0000" + it.name, [key, it.name]);
    });
    D.cardNames = Array.from(names.values()).sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0; });
    avg = D.averages;
  }

  // What the build left out of an item because it is the usual (pack/compact.py: compact_item).
  var ADDRESSES = {
    section: ["rules/", "api/entries/"], glossary: ["rules/", "api/entries/"], ruling: ["rulings/", "api/entries/"]
  };
  function address(entry, kind, r) {
    var at = ADDRESSES[kind], path;
    if (entry.url !== 0) return;
    if (kind === "card") {   // "2e.a-bad-end": cards/2e/a-bad-end/...
      var dot = entry.id.indexOf(".");
      at = ["cards/", "api/cards/"];
      path = entry.id.slice(0, dot) + "/" + entry.id.slice(dot + 1) + "/index.";
    } else {
      if (!at) return;
      path = r.document + "/" + r.version + "/" + entry.id + "/index.";
    }
    entry.url = at[0] + path + "html";
    entry.api_url = at[1] + path + "json";
  }
  function expand(it) {
    var r = it.result;
    // The fields every result of its version shares, a row of a table, in their place; the
    // breadcrumb's sections from theirs, each a copy (address below fills it in) (compact.py).
    if (typeof r.shared === "number") {
      var row = D.shared.rows[r.shared], whole = {};
      Object.keys(r).forEach(function (k) {
        if (k === "shared") D.shared.fields.forEach(function (f, i) { whole[f] = row[i]; });
        else whole[k] = r[k];
      });
      it.result = r = whole;
    }
    if (r.breadcrumb) {
      r.breadcrumb = r.breadcrumb.map(function (c) { return typeof c === "number" ? Object.assign({}, D.crumbs[c]) : c; });
    }
    if (it.edition === undefined) it.edition = r.edition;
    if (it.current === undefined) it.current = r.in_force;
    // A citation's usual beginning, by number, and the title (pack/compact.py: compact_citations).
    if (typeof r.citation === "number") r.citation = D.citations[r.citation] + r.title;
    if (it.key === undefined) it.key = r.document + "/" + r.version + "/" + r.id;
    if (it.topic === undefined) it.topic = r.document + "/" + r.kind + "/" + r.id;
    if (it.name === undefined) it.name = r.title;
    address(r, r.kind, r);
    (r.breadcrumb || []).forEach(function (c) { address(c, r.kind, r); });
  }
  // A term's postings, [[item, frequency], ...], from the gaps (and frequencies) the build wrote.
  function postings(packed) {
    var gaps = Array.isArray(packed[0]) ? packed[0] : packed, counts = gaps === packed ? null : packed[1];
    var out = [], at = 0;
    for (var k = 0; k < gaps.length; k++) { at += gaps[k]; out.push([at, counts ? counts[k] : 1]); }
    return out;
  }

  /* -- analysis (analysis.py: stem_token, game_stem) ----------------------------------------- */
  // The build's stems table holds every word of the rules and of the judge's vocabulary; any
  // other word (a misspelling, a word half typed) is stemmed here as the server stems it: the
  // same Porter2 (search-more.js brings it), the same game words kept apart.
  // Each word's stem is kept (a snippet stems every word of each result's text, mostly the same
  // few thousand words): bounded, as the judge may type any number of new words.
  var STEMS_KEPT = 20000, stemmed = new Map();
  function stemOf(token) {
    var s = stemmed.get(token);
    if (s !== undefined) return s;
    s = stemAfresh(token);
    if (stemmed.size >= STEMS_KEPT) stemmed.clear();
    stemmed.set(token, s);
    return s;
  }
  function stemAfresh(token) {
    var low = token.toLowerCase().replace(/’/g, "'");
    if (D.stopSet.has(low)) return null;
    if (Object.prototype.hasOwnProperty.call(D.stems, low)) return D.stems[low];
    if (!more) throw MORE;
    return gameStem(low);
  }
  function gameStem(word) {
    var S = D.settings;
    for (var i = 0; i < S.protected_prefixes.length; i++) {
      if (word.indexOf(S.protected_prefixes[i]) === 0) return S.protected_prefixes[i];
    }
    var stem = porter2(word);
    return has(S.stem_fixes, stem) ? S.stem_fixes[stem] : stem;
  }
  function stems(text) {
    var out = [];
    (text.match(TOKEN) || []).forEach(function (t) { var s = stemOf(t); if (s) out.push(s); });
    return out;
  }
  function titleKey(text) { return stems(text).join(" "); }
  function isNumber(stem) { return /^\d+$/.test(stem) || D.numberSet.has(stem); }

  // A question cut as the server's page cuts it (search_notes.py: cut_question): its first
  // characters (code points), back to the space after the last word whole, before it is
  // cleaned, in every path (page, typing, API), so each asks meaning the same words the server
  // does. [searched, the rest].
  var SPACE = /[ \t\n\r\f\v]+/, LAST_SPACE = /[ \t\n\r\f\v]+[^ \t\n\r\f\v]*$/;
  function wordsIn(text) { return text.split(SPACE).filter(Boolean); }
  function cutParts(q) {
    var chars = Array.from(q || ""), most = D.settings.max_query_chars;
    if (chars.length <= most) return [q || "", ""];
    var head = chars.slice(0, most).join(""), at = head.search(LAST_SPACE);
    if (!SPACE.test(chars[most]) && at >= 0 && wordsIn(head.slice(0, at)).length) head = head.slice(0, at + 1);
    return [head, q.slice(head.length)];
  }
  function cutQuestion(q) { return cutParts(q)[0]; }
  function cleanQuery(raw) {
    var text = String(raw).normalize("NFKC").replace(CONTROL, " ").replace(/[“”„‟«»]/g, '"');
    var trailing = /\s$/.test(text) && text.trim() !== "";
    return text.split(/\s+/).filter(Boolean).join(" ") + (trailing ? " " : "");
  }

  // Compiled once: a Unicode pattern costs a phone milliseconds to compile.
  var QUOTED = /"([^"]*)"/g;   // analysis.py: QUOTED
  var QUOTED_IN = /"[^"]*"/;   // a question holding one (no lastIndex to reset)
  var QUOTED_OR_TOKEN = new RegExp(QUOTED.source + "|" + TOKEN.source, "gu");
  var A_TOKEN = new RegExp(TOKEN.source, "u");
  var TOKENS = new RegExp(TOKEN.source, "gu");   // for exec() loops: lastIndex reset before each
  function parseQuery(query) {
    var typing = query.length > 0 && !/\s$/.test(query) && !/"$/.test(query);
    var re = QUOTED_OR_TOKEN;
    re.lastIndex = 0;
    var found = [], m;
    while ((m = re.exec(query)) !== null) found.push(m);
    var parts = [];
    found.forEach(function (m, i) {
      if (m[1] !== undefined) {
        var inner = m[1].trim().toLowerCase();
        var start = m.index + 1;
        if (A_TOKEN.test(inner)) parts.push({text: inner, phrase: true, last: false, start: start, end: start + m[1].length});
        return;
      }
      var end = m.index + m[0].length;
      var last = typing && i === found.length - 1 && end === query.replace(/\s+$/, "").length;
      parts.push({text: m[0].toLowerCase().replace(/’/g, "'"), phrase: false, last: last, start: m.index, end: end});
    });
    var meaningful = parts.filter(function (p) { return p.phrase || !(D.stopSet.has(p.text) || D.questionSet.has(p.text)); });
    if (!meaningful.length) meaningful = parts.filter(function (p) { return p.phrase || !D.stopSet.has(p.text); });
    return meaningful.slice(0, D.settings.max_groups);
  }

  /* -- spelling: the server's Speller ------------------------------------------------------- */
  function deletes(word) {
    var out = [];
    for (var i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
    return out;
  }
  function editDistance(a, b, limit) {
    if (Math.abs(a.length - b.length) >= limit) return limit;
    var prev2 = [], prev = [], i, j;
    for (j = 0; j <= b.length; j++) prev.push(j);
    for (i = 1; i <= a.length; i++) {
      var cur = [i];
      for (j = 1; j <= b.length; j++) {
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j], prev2[j - 2] + 1);
      }
      if (Math.min.apply(null, cur) >= limit) return limit;
      prev2 = prev; prev = cur;
    }
    return Math.min(prev[prev.length - 1], limit);
  }
  function complete(prefix, limit) {
    var lo = 0, hi = sorted.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (sorted[mid] < prefix) lo = mid + 1; else hi = mid; }
    var found = [];
    for (var i = lo; i < sorted.length && sorted[i].indexOf(prefix) === 0; i++) {
      if (sorted[i] !== prefix) found.push(sorted[i]);
      if (found.length > 400) break;
    }
    found.sort(function (a, b) { return (D.vocabulary[b] - D.vocabulary[a]) || (a < b ? -1 : a > b ? 1 : 0); });
    return found.slice(0, limit);
  }
  // The speller's symmetric deletes, made on its first correction (most queries need none):
  // on a phone they cost more than the rest of the index's preparation.
  function nearMap() {
    if (near) return near;
    near = new Map();
    initial = new Map();
    var learned = new Set();
    D.longestWord = 0;
    Object.keys(D.vocabulary).concat(D.judge.learned).forEach(function (word) {
      D.longestWord = Math.max(D.longestWord, word.length);
      if (word.length < 3 || /^\d+$/.test(word) || D.stopSet.has(word)) return;
      if (!learned.has(word)) {   // analysis.py: Speller.initial
        learned.add(word);
        if (!initial.has(word[0])) initial.set(word[0], []);
        initial.get(word[0]).push(word);
      }
      deletes(word).concat([word]).forEach(function (key) {
        if (!near.has(key)) near.set(key, []);
        near.get(key).push(word);
      });
    });
    return near;
  }
  // The judges' sayings holding a stop word ("look at", "at least") are patterns of the server's
  // (vocabulary.py: _raw_said): their words, whole, with anything but word characters between
  // (\W+), case ignored. Each of those is matched here on the question's runs of word
  // characters, found by one pattern with the same class and flags as theirs, the same matches
  // as each pattern of its own (48 of them, each compiled on its first two runs: 10-15 ms each
  // on a slow phone, on the way of the first questions holding its word). A saying of another
  // shape (a word of other characters) keeps its pattern.
  var RAW_WORDS = /^\(\?<!\\w\)([a-z0-9]+(?:\\W\+[a-z0-9]+)*)\(\?!\\w\)$/;
  function rawWords(source) {
    var m = RAW_WORDS.exec(source);
    return m ? m[1].split("\\W+") : null;
  }
  var WORD_RUN = /[\p{L}\p{N}_]+/giu;   // rawPattern's word characters: its class and flags
  function wordRuns(query) {
    var out = [], m;
    WORD_RUN.lastIndex = 0;
    while ((m = WORD_RUN.exec(query)) !== null) out.push([m.index, m.index + m[0].length, m[0]]);
    return out;
  }
  // A run of the question as the pattern's letters (ASCII, lower case) match it, case ignored
  // (/iu: a letter, its capital, and the two other characters that fold to an ASCII letter,
  // the long s and the Kelvin sign, whose lower case is "k").
  function sameWord(run, word) {
    if (run.length !== word.length) return false;
    for (var i = 0; i < word.length; i++) {
      var c = run[i], w = word[i];
      if (c !== w && c.toLowerCase() !== w && !(c === "\u017f" && w === "s")) return false;
    }
    return true;
  }
  // Where a saying stands in the question: [start, end] of each match, left to right, none
  // overlapping (as a global pattern's exec finds them). runs: wordRuns(query), made once.
  function sayingAt(r, query, runs) {
    var out = [], m;
    if (!r.words) {
      var re = rawPattern(r);
      re.lastIndex = 0;
      while ((m = re.exec(query)) !== null) {
        out.push([m.index, m.index + m[0].length]);
        if (!m[0].length) re.lastIndex++;
      }
      return out;
    }
    var n = r.words.length;
    for (var k = 0; k + n <= runs.length;) {
      var j = 0;
      while (j < n && sameWord(runs[k + j][2], r.words[j])) j++;
      if (j === n) { out.push([runs[k][0], runs[k + n - 1][1]]); k += n; } else k++;
    }
    return out;
  }
  // Each saying with a stop word in the question, where it stands: [start, end, term]
  // (vocabulary.py: find_raw; a question without its needle cannot match).
  function sayingsIn(query, edition) {
    var J = D.judge, lowered = query.toLowerCase(), runs = null, out = [];
    D.raw.forEach(function (r) {
      if (lowered.indexOf(r.needle) === -1 || (edition && J.terms[r.term].edition !== edition)) return;
      sayingAt(r, query, runs || (runs = wordRuns(query))).forEach(function (at) { out.push([at[0], at[1], r.term]); });
    });
    return out;
  }
  function rawPattern(r) {
    if (!r.re) {
      r.re = new RegExp(r.source.replace(/\(\?<!\\w\)/, "(?<![\\p{L}\\p{N}_])").replace(/\(\?!\\w\)/, "(?![\\p{L}\\p{N}_])").replace(/\\W/g, "[^\\p{L}\\p{N}_]"), "giu");
    }
    return r.re;
  }
  // analysis.py: Speller.correct (deep: where the deletes find none, every known word of the
  // same first letter is tried: two letters wrong in one word escape the deletes).
  function correct(word, limit, deep) {
    if (word.length < 3 || /^\d+$/.test(word) || Object.prototype.hasOwnProperty.call(D.vocabulary, word)) return [];
    var deleted = nearMap();
    if (word.length > D.longestWord + 2) return [];
    var maxdist = word.length >= 6 ? 2 : 1;
    var keys = new Set(deletes(word).concat([word]));
    if (maxdist === 2) deletes(word).forEach(function (d) { deletes(d).forEach(function (d2) { keys.add(d2); }); });
    var candidates = new Set();
    keys.forEach(function (k) { (deleted.get(k) || []).forEach(function (w) { candidates.add(w); }); });
    var scored = [];
    candidates.forEach(function (c) {
      var dist = editDistance(word, c, maxdist + 1);
      if (dist <= maxdist) scored.push([dist, -(D.vocabulary[c] || 0), c]);
    });
    if (deep && !scored.length && maxdist === 2) {
      (initial.get(word[0]) || []).forEach(function (c) {
        if (Math.abs(c.length - word.length) > maxdist) return;
        var dist = editDistance(word, c, maxdist + 1);
        if (dist <= maxdist) scored.push([dist, -(D.vocabulary[c] || 0), c]);
      });
    }
    scored.sort(function (a, b) { return (a[0] - b[0]) || (a[1] - b[1]) || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0); });
    return scored.slice(0, limit || 3).map(function (s) { return s[2]; });
  }

  /* -- stage 1, plan the query (query.py: word_groups, concepts, wordings, suggest) ------------- */
  function has(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key); }
  function known(word) {
    if (has(D.vocabulary, word)) return true;
    // One search of the list's text: a set of its 14,000 words cost a phone 0.15 s to make.
    if (!D.english) D.english = "\n" + D.judge.english + "\n";
    if (D.english.indexOf("\n" + word + "\n") !== -1) return true;
    if (!more) throw MORE;   // the first file holds only the judge's words of the list
    return false;
  }
  // query.py: _in_phrase (a word only judges say is no likelier than the rules' word as close).
  function inPhrase(before, word, after) {
    var stem = stems(word)[0];
    if (!stem) return false;
    var keys = [[before, stem], [stem, after]];
    if (Object.prototype.hasOwnProperty.call(D.vocabulary, word)) keys.push([stem]);
    return keys.some(function (key) {
      return key.indexOf("") === -1 && D.saidMap.has(key.join(" "));
    });
  }
  function groupsOf(parts, fuzzy) {
    var S = D.settings, groups = [], deep = S.deep_corrections;
    var own = parts.map(function (p) { return p.phrase ? "" : (stems(p.text)[0] || ""); });
    parts.forEach(function (part, n) {
      if (part.phrase) {
        var seq = stems(part.text);
        if (seq.length) { var t = new Map(); seq.forEach(function (s) { if (!t.has(s)) t.set(s, 1); }); groups.push({part: part, terms: t, seq: seq}); }
        return;
      }
      var mine = stems(part.text), terms = new Map(), correction = null;
      if (mine.length) terms.set(mine[0], 1);
      var width = part.text.length === 1 ? 4 : part.text.length === 2 ? 8 : 12;
      var completions = part.last ? complete(part.text, width) : [];
      // query.py: a whole word of the rules already ("phase") is likely finished: its completions count less.
      var done = part.text.length >= S.done_letters && Object.prototype.hasOwnProperty.call(D.vocabulary, part.text);
      var weight = done ? S.done_prefix_weight : S.prefix_weight;
      completions.forEach(function (w) { stems(w).forEach(function (s) { if (!terms.has(s)) terms.set(s, weight); }); });
      // query.py: an ordinary word ("wat", "thx") is never corrected: it means nothing to the search.
      if (!completions.length && fuzzy && !known(part.text) && !D.ordinarySet.has(part.text)) {
        var before = n ? own[n - 1] : "", after = n + 1 < parts.length ? own[n + 1] : "";
        var tries = deep > 0 && part.text.length >= 6;   // query.py: only a word of six letters or more
        if (tries) deep -= 1;
        var fixes = correct(part.text, 12, tries).map(function (w, k) { return [inPhrase(before, w, after) ? 0 : 1, k, w]; })
          .sort(function (a, b) { return (a[0] - b[0]) || (a[1] - b[1]); }).slice(0, 3).map(function (x) { return x[2]; });
        correction = fixes.length ? fixes[0] : null;
        fixes.forEach(function (w) { stems(w).forEach(function (s) { if (!terms.has(s)) terms.set(s, S.fuzzy_weight); }); });
      }
      if (terms.size) groups.push({part: part, terms: terms, correction: correction, completions: completions.slice(0, 3)});
    });
    return groups;
  }
  function conceptOf(termIds, covers) {
    var J = D.judge, terms = new Map(), phrases = [], seen = new Set();
    termIds.forEach(function (t) {
      J.terms[t].means.forEach(function (key) {
        if (key.length === 1) { if (!terms.has(key[0])) terms.set(key[0], D.settings.expansion_weight); }
        else if (key.length && !seen.has(key.join(" "))) { seen.add(key.join(" ")); phrases.push(key); }
      });
    });
    return {part: null, terms: terms, phrases: phrases, covers: covers, said: termIds};
  }
  function conceptsOf(groups, edition, query) {
    var J = D.judge, out = [];
    var words = [];
    groups.forEach(function (g, i) { if (!g.part.phrase) words.push([i, g]); });
    var seq = words.map(function (w) { return stems(w[1].correction || w[1].part.text)[0] || ""; });
    var i = 0;
    while (i < seq.length) {
      var matched = false;
      for (var size = Math.min(D.longestSaid, seq.length - i); size > 0; size--) {
        var found = (D.saidMap.get(seq.slice(i, i + size).join(" ")) || []).filter(function (t) { return !edition || J.terms[t].edition === edition; });
        if (found.length) {
          var covers = new Set();
          for (var k = i; k < i + size; k++) covers.add(words[k][0]);
          out.push(conceptOf(found, covers));
          i += size; matched = true; break;
        }
      }
      if (!matched) i += 1;
    }
    sayingsIn(query, edition).forEach(function (at) {
      var covers = new Set();
      words.forEach(function (w) { if (at[0] <= w[1].part.start && w[1].part.end <= at[1]) covers.add(w[0]); });
      if (covers.size) out.push(conceptOf([at[2]], covers));
    });
    return out;
  }
  function hasTerm(stem) { return D.settings.fields.some(function (field) { return has(D[field], stem); }); }
  // A question's plan, kept for the last few: meaningQuestion plans each question the answer
  // plans again (the plan is read, never changed, after it is made).
  var plansKept = new Map(), PLANS_KEPT = 16;
  function plan(query, edition, fuzzy) {
    var key = query + "\u0000" + edition + "\u0000" + fuzzy, made = plansKept.get(key);
    if (!made) {
      made = planOf(query, edition, fuzzy);   // may throw MORE: nothing kept
      if (plansKept.size >= PLANS_KEPT) plansKept.delete(plansKept.keys().next().value);
      plansKept.set(key, made);
    }
    return made;
  }
  function planOf(query, edition, fuzzy) {   // index.py: SearchIndex.plan
    var groups = groupsOf(parseQuery(query), fuzzy), live = new Set(), unknown = [];
    groups.forEach(function (g, i) {
      var any = false;
      g.terms.forEach(function (w, s) { if (hasTerm(s)) any = true; });
      if (any) live.add(i);
      else if (!g.part.phrase && !g.correction) unknown.push(i);
    });
    var absent = unknown.map(function (i) { return groups[i].part.text; });
    var concepts = conceptsOf(groups, edition, query).filter(function (c) {
      var any = c.phrases.length > 0;
      c.terms.forEach(function (w, s) { if (hasTerm(s)) any = true; });
      return any;
    });
    var readAs = [];
    concepts.forEach(function (c) {
      var covered = Array.from(c.covers).sort(function (a, b) { return a - b; });
      if (!covered.some(function (i) { return absent.indexOf(groups[i].part.text) !== -1; })) return;
      var means = [];
      c.said.forEach(function (t) { D.judge.terms[t].said.forEach(function (m) { if (means.indexOf(m) === -1) means.push(m); }); });
      readAs.push({words: covered.map(function (i) { return groups[i].part.text; }).join(" "), means: means});
    });
    return {groups: groups, concepts: concepts, all: groups.concat(concepts), live: live, unknown: notInRules(groups, unknown, concepts), readAs: readAs};
  }
  // query.py: not_in_rules: the words no rule uses that the judge is told of (not an ordinary
  // word, unless the vocabulary read it as rulebook words).
  function notInRules(groups, unknown, concepts) {
    var read = new Set();
    concepts.forEach(function (c) { c.covers.forEach(function (i) { read.add(i); }); });
    return unknown.filter(function (i) { return read.has(i) || !D.ordinarySet.has(groups[i].part.text); })
      .map(function (i) { return groups[i].part.text; });
  }

  function suggestion(query, groups) {
    var fixes = groups.filter(function (g) { return g.correction; });
    if (!fixes.length) return null;
    var out = query;
    fixes.slice().sort(function (a, b) { return b.part.start - a.part.start; }).forEach(function (g) {
      out = out.slice(0, g.part.start) + g.correction + out.slice(g.part.end);
    });
    return out.trim();
  }

  function wordings(query, suggested, plan) {
    var out = [query].concat(suggested ? [suggested] : []);
    var typing = plan.groups.filter(function (g) { return g.completions && g.completions.length; });
    if (typing.length) {
      var last = typing[typing.length - 1];
      last.completions.forEach(function (w) { out.push(query.slice(0, last.part.start) + w + query.slice(last.part.end)); });
    }
    plan.concepts.forEach(function (c) {
      var spans = Array.from(c.covers).sort(function (a, b) { return a - b; }).map(function (i) { return plan.groups[i].part; });
      var start = spans[0].start, end = spans[spans.length - 1].end;
      c.said.forEach(function (t) { D.judge.terms[t].said.forEach(function (target) { out.push(query.slice(0, start) + target + query.slice(end)); }); });
    });
    return out;
  }
  function cardCompletions(query) {
    var key = titleKey(query);
    if (key.length < 3) return [];
    return D.cardNames.filter(function (c) { return c[0].indexOf(key) === 0 && key.length * 2 >= c[0].length; })
      .slice(0, 5).map(function (c) { return c[1]; });
  }
  function stripVersions(query) {
    var matches = [], typed = query;
    D.versionNames.forEach(function (v) {   // each read in the question as typed (query.py)
      var m;
      v[0].lastIndex = 0;
      while ((m = v[0].exec(typed)) !== null) matches.push([m.index, m.index + m[0].length, v[1] + "\u0000" + v[2]]);
    });
    // A name inside a longer one is part of it (query.py: strip_versions).
    var found = matches.filter(function (m) {
      return !matches.some(function (o) { return o[0] <= m[0] && m[1] <= o[1] && o[1] - o[0] > m[1] - m[0]; });
    }).map(function (m) { return m[2]; });
    matches.forEach(function (m) { query = query.slice(0, m[0]) + " ".repeat(m[1] - m[0]) + query.slice(m[1]); });
    var unheld = [];   // query.py: unheld_versions: "v5", "the 2020 rules", read after the held
    query = query.replace(D.unheldVersion, function (m) { if (unheld.indexOf(m) === -1) unheld.push(m); return " ".repeat(m.length); });
    return {query: query, mentioned: new Set(found), unheld: unheld};
  }
  // A game named in the question (query.py: strip_edition): where to look, not words to find.
  function stripEdition(query) {
    var named = [], stripped = query;
    D.editionNames.forEach(function (e) {
      stripped = stripped.replace(e[0], function (m, name) {   // a global pattern: from 0
        if (name === undefined) return m;   // a quoted phrase: words to find
        if (named.indexOf(e[1]) === -1) named.push(e[1]);
        return " ".repeat(m.length);
      });
    });
    // Only what the name leaves ("2e?", "(2e)", "2e's"): nothing else (query.py: strip_edition).
    // names and bare: every game named and the query without their names (query.py: edition_names).
    if (named.length !== 1 || !withoutEdition(query, query, stripped)) return {query: query, edition: null, names: named, bare: stripped};
    return {query: stripped, edition: named[0], names: named, bare: stripped};
  }
  function withoutEdition(typed, before, after) {   // query.py: without_edition
    var kept = typed.split("").map(function (c, i) { return before[i] === after[i] ? c : "\u0000"; }).join(""), rule;
    // The first rule that finds something applies, then again from the first (query.py).
    while ((rule = D.leftovers.find(function (l) { l[0].lastIndex = 0; return l[0].test(kept); }))) kept = kept.replace(rule[0], rule[1]);
    return kept.replace(/\u0000/g, " ").split(" ").filter(function (w) { return w && !D.leftByName.test(w); }).join(" ");
  }
  function leanOf(seq) {
    var votes = {"2E": 0, "1E": 0};
    D.judge.lean.forEach(function (l) {
      var key = l[0], n = key.length;
      for (var i = 0; i + n <= seq.length; i++) {
        var ok = true;
        for (var k = 0; k < n && ok; k++) ok = seq[i + k] === key[k];
        if (ok) votes[l[1]] = (votes[l[1]] || 0) + 1;
      }
    });
    var top = Math.max(votes["2E"], votes["1E"]);
    var winners = ["2E", "1E"].filter(function (e) { return votes[e] === top; });
    return top && winners.length === 1 ? winners[0] : null;
  }

  /* -- stage 2, score: BM25F as Whoosh computes it (scoring.py: score) ------------------------- */
  function allowed(i, filters) {
    var it = D.items[i], r = it.result;
    return (!filters.document || r.document === filters.document) && (!filters.version || r.version === filters.version) &&
      (!filters.kind || r.kind === filters.kind) && (!filters.edition || it.edition === filters.edition);
  }
  var termCache = new Map();
  function termScores(field, term) {
    var key = field + "\u0000" + term;
    if (termCache.has(key)) return termCache.get(key);
    var out = new Map(), list = has(D[field], term) ? postings(D[field][term]) : null;
    if (list) {
      var S = D.settings, n = D.items.length;
      var idf = Math.log(n / (list.length + 1)) + 1;
      var fieldBoost = field === "title" ? S.title_boost : field === "talk" ? S.talk_boost : 1;
      var at = S.fields.indexOf(field);
      list.forEach(function (p) {
        var i = p[0], tf = p[1];
        var len = D.lengths[i][at];
        var norm = (1 - S.b) + S.b * len / (avg[field] || 1);
        // Whoosh weighs a posting by its field's boost before BM25's saturation, not after.
        var w = tf * fieldBoost;
        out.set(i, idf * (w * (S.k1 + 1)) / (w + S.k1 * norm));
      });
    }
    termCache.set(key, out);
    return out;
  }
  function entryOf(acc, i) {
    var e = acc.get(i);
    if (!e) { e = [0, 0, 0, 0]; acc.set(i, e); }
    return e;
  }
  function addPhrase(acc, seq, weight, mask, filters) {
    var per = seq.map(function (t) {
      var found = new Map(termScores("text", t));
      termScores("title", t).forEach(function (v, i) { found.set(i, (found.get(i) || 0) + v); });
      return found;
    });
    per[0].forEach(function (v, i) {
      if (!per.every(function (f) { return f.has(i); }) || !allowed(i, filters) || !phraseHolds(i, seq)) return;
      var e = entryOf(acc, i);
      e[0] += weight * per.reduce(function (s, f) { return s + f.get(i); }, 0);
      e[1] |= mask;
    });
  }
  // query.py: lost: the judge's quoted phrases (two words or more) that no item searched holds.
  // Looked for in every item, whatever the filters: a phrase another game holds keeps its quotes.
  function lostPhrases(planned, acc) {
    var found = 0, out = [];
    acc.forEach(function (e) { found |= e[1]; });
    planned.groups.forEach(function (g, i) {
      if (!g.part.phrase || g.terms.size < 2 || ((found >> i) & 1) || out.indexOf(g.part.text) !== -1) return;
      var anywhere = new Map();
      addPhrase(anywhere, Array.from(g.terms.keys()), 1, 1, {});
      if (!anywhere.size) out.push(g.part.text);
    });
    return out;
  }
  // query.py: unquote: the query with the quotes around these phrases made spaces.
  function unquote(query, phrases) {
    return query.replace(QUOTED, function (m, inner) { return phrases.indexOf(inner.trim().toLowerCase()) !== -1 ? " " + inner + " " : m; });
  }
  function score(all, filters) {
    var acc = new Map();
    all.forEach(function (g, gi) {
      var own = g.part !== null;
      var mask = own ? (1 << gi) : Array.from(g.covers).reduce(function (m, c) { return m | (1 << c); }, 0);
      if (own && g.part.phrase && g.terms.size > 1) { addPhrase(acc, Array.from(g.terms.keys()), 1, mask, filters); return; }
      g.terms.forEach(function (weight, term) {
        D.settings.fields.forEach(function (field) {
          var title = own && field === "title", at = field === "talk" ? 3 : 1;   // scoring.py: _add
          termScores(field, term).forEach(function (value, i) {
            if (!allowed(i, filters)) return;
            var e = entryOf(acc, i);
            e[0] += weight * value;
            e[at] |= mask;
            if (title) e[2] |= mask;
          });
        });
      });
      (g.phrases || []).forEach(function (seq) { addPhrase(acc, seq, D.settings.expansion_weight, mask, filters); });
    });
    return acc;
  }
  function phraseHolds(i, seq) {
    if (!more) {
      // The vocabulary's phrases were looked for at build time (pack/search.py: _phrase_table).
      var where = D.phraseSets.get(seq.join(" "));
      if (!where || D.phraseUnsure.has(i)) throw MORE;
      return where.has(i);
    }
    return phraseFlat(i).indexOf(" " + seq.join(" ") + " ") !== -1;
  }
  // An item's name and text as stems, spaced (its name's words and its text's: the stems of
  // `name . text`, no word spanning the two).
  function phraseFlat(i) {
    var flat = D.flat.get(i);
    if (flat === undefined) { flat = " " + stems(D.items[i].name).concat(textStems(i)).join(" ") + " "; D.flat.set(i, flat); }
    return flat;
  }
  var textCache = new Map();
  function textStems(i) {
    if (!textCache.has(i)) textCache.set(i, stems(textOf(D.items[i])));
    return textCache.get(i);
  }
  // Every item's text stemmed (textStems, phraseFlat) when the page is idle, once the texts are
  // in: a question reranks its 30 best items on their texts' stems and checks phrases in them,
  // and in a page's first questions most of those texts are new to it (15-25 ms of a slow
  // phone's on the way of an answer). The whole corpus is about 43,000 words: a few idle moments.
  var stemmedUpTo = 0;
  function stemTexts(deadline) {
    // 8 ms at a time at most, idle or not (Safari has no idle callbacks): a key that comes
    // meanwhile waits no longer than that (an idle period may be 50 ms long).
    var until = Date.now() + 8;
    var left = function () { return Date.now() < until && (!deadline || deadline.timeRemaining() > 1); };
    while (stemmedUpTo < D.items.length && left()) {
      phraseFlat(stemmedUpTo);
      stemmedUpTo++;
    }
    if (stemmedUpTo < D.items.length) stemLater();
  }
  function stemLater() {
    if (window.requestIdleCallback) window.requestIdleCallback(stemTexts);
    else setTimeout(stemTexts, 50);
  }
  function bits(n) { var c = 0; while (n) { c += n & 1; n >>>= 1; } return c; }

  function proximity(seq, stemGroups, count, number) {
    var found = new Map();
    stemGroups.forEach(function (gs, s) {
      seq.forEach(function (t, pos) {
        if (t !== s) return;
        var prev = found.get(pos);
        found.set(pos, prev ? new Set(Array.from(prev).concat(Array.from(gs))) : gs);
      });
    });
    if (number) seq.forEach(function (t, pos) { if (isNumber(t) && !found.has(pos)) found.set(pos, new Set([count - 1])); });
    var spots = Array.from(found.entries()).sort(function (a, b) { return a[0] - b[0]; });
    var present = new Set();
    spots.forEach(function (sp) { sp[1].forEach(function (g) { present.add(g); }); });
    if (present.size < 2) return 1;
    var need = present.size, have = new Map(), best = seq.length + 1, left = 0;
    spots.forEach(function (sp) {
      sp[1].forEach(function (g) { have.set(g, (have.get(g) || 0) + 1); });
      while (have.size === need) {
        best = Math.min(best, sp[0] - spots[left][0] + 1);
        spots[left][1].forEach(function (g) { have.set(g, have.get(g) - 1); if (!have.get(g)) have.delete(g); });
        left++;
      }
    });
    var share = (present.size - 1) / (count - 1);
    return 1 + D.settings.proximity * share * Math.min(1, present.size / best);
  }

  /* -- stage 3, rank (ranking.py: rank, prefer_subsections, quoted_first) ----------------------- */
  function order(a, b) { return (b[0] - a[0]) || (b[1] - a[1]) || (a[2] - b[2]); }
  function nameShare(i, inTitle, want) {
    var n = D.items[i].card_words;
    return n ? Math.min(1, bits(inTitle & want) / n) : 1;
  }
  // The ranking by words alone, before meaning joins it (rank: it is kept, and joined with each
  // question's nearness in turn, not searched again).
  function rankWords(acc, plan, wanted, exact, number, lean, mentioned, limit) {
    var S = D.settings, want = 0;
    wanted.forEach(function (i) { want |= 1 << i; });
    var away = S.lean_away;
    var every = [];
    acc.forEach(function (e, i) {
      var found = e[1] & want, count = bits(found), it = D.items[i];
      // ranking.py: _coord: a word found only in what judges say of the item counts talk_count.
      var held = count + S.talk_count * bits(e[3] & want & ~found);
      var value = e[0] * Math.pow(held / wanted.size, S.coord_power) * (it.current ? 1 : S.superseded);
      if (lean && it.edition !== lean) value *= away;
      if (mentioned.size && mentioned.has(it.result.document + "\u0000" + it.result.version)) value *= S.mentioned;
      var titled = (e[2] & want) === want && nameShare(i, e[2], want) >= S.card_name_share;
      every.push([exact.get(i) || (titled ? 2 : 0), value, i, count]);
    });
    var ranked = every.slice().sort(order).slice(0, Math.max(limit, S.rerank) * 3);
    if (wanted.size > 1 || number) {
      var stemGroups = new Map();
      plan.all.forEach(function (g, gi) {
        var idx = g.part === null ? Array.from(g.covers) : [gi];
        g.terms.forEach(function (w, s) {
          if (!stemGroups.has(s)) stemGroups.set(s, new Set());
          idx.forEach(function (k) { stemGroups.get(s).add(k); });
        });
      });
      var count = plan.groups.length + (number ? 1 : 0);
      ranked.slice(0, S.rerank).forEach(function (item) {
        if (item[3] > 1 || number) {
          var seq = textStems(item[2]);
          var factor = proximity(seq, stemGroups, count, number);
          if (number && !seq.some(isNumber)) factor *= S.no_number;
          item[1] *= factor;
        }
      });
      ranked.sort(order);
    }
    // ranking.py: rank: the items holding words only in what judges say of them (fuse).
    var said = new Set();
    acc.forEach(function (e, i) { if (e[3] & want & ~e[1]) said.add(i); });
    return {ranked: ranked, every: every, away: away, said: said};
  }
  // The final order: meaning joined (fuse), subsections and quotations placed. Each of these
  // changes the items it is given: they work on copies, the words' ranking stays as it was.
  function rank(words, near, filters, lean, mentioned, groups) {
    var ranked = words.ranked.map(function (item) { return item.slice(); }), every = words.every.slice(), away = words.away;
    if (near) ranked = fuse(ranked, every, near, filters, lean, away, words.said, mentioned, meaningShare(groups));
    return {ranked: quotedFirst(preferSubsections(ranked)), every: every};
  }
  // The first item is only a guess (ranking.py: is_guess).
  function isGuess(ranked, wanted, near, planned) {
    if (!ranked.length || ranked[0][0] >= 3 || !wanted.size) return false;
    var asked = new Set(wanted), unknown = new Set(planned.unknown);
    planned.groups.forEach(function (g, i) { if (g.part && unknown.has(g.part.text)) asked.add(i); });
    var top = ranked[0];
    return top[3] / asked.size < D.settings.guess_share && (near ? near[top[2]] : 0) < D.settings.guess_near;
  }
  // Meaning's share of a fused value for a question of so many words (ranking.py: meaning_share).
  function meaningShare(words) {
    var S = D.settings;
    if (words <= S.meaning_short_words) return S.meaning_share;
    if (words >= S.meaning_long_words) return S.meaning_long_share;
    var grown = (S.meaning_long_share - S.meaning_share) * (words - S.meaning_short_words);
    return S.meaning_share + grown / (S.meaning_long_words - S.meaning_short_words);
  }
  // Join the value by words with the nearness by meaning (ranking.py: fuse, by_meaning); tiers stay.
  function fuse(ranked, every, near, filters, lean, away, said, mentioned, share) {
    var S = D.settings, weight = [], nearest = [];
    D.items.forEach(function (it, d) {
      // ranking.py: _named_first: a version the question names is raised by meaning too.
      var named = mentioned.size && mentioned.has(it.result.document + "\u0000" + it.result.version);
      weight.push((it.current ? 1 : S.superseded) * ((lean && it.edition !== lean ? away : 1) * (named ? S.mentioned_near : 1)));
      if (allowed(d, filters)) nearest.push([near[d] * weight[d], d]);
    });
    if (!nearest.length) return ranked;
    nearest.sort(function (a, b) { return (b[0] - a[0]) || (a[1] - b[1]); });
    var low = nearest[0][0] - S.meaning_span;
    function meaning(d) { return share * Math.max(0, (near[d] * weight[d] - low) / S.meaning_span); }
    var held = new Set(every.map(function (item) { return item[2]; })), joined = [];
    nearest.slice(0, S.meaning_depth).forEach(function (n) {
      if (n[0] >= S.meaning_floor && !held.has(n[1])) joined.push([0, 0, n[1], 0]);
    });
    joined.forEach(function (item) { every.push(item); });
    var best = 0;
    ranked.forEach(function (item) { if (!item[0] && item[1] > best) best = item[1]; });
    best = best || 1;
    ranked.forEach(function (item, place) {
      item[1] = (1 - share) * (item[0] ? 1 : item[1] / best) + meaning(item[2]);
      item.push(place);   // its place by words (below)
    });
    joined.forEach(function (item) { item[1] = meaning(item[2]); item.push(-1); });
    var out = ranked.concat(joined).sort(order);
    // Whether its place owes to meaning (ranking.py: owes_to_meaning): found by meaning alone, or
    // raised above its place by words or found by words judges say of it, with a part by meaning.
    out.forEach(function (item, place) {
      var was = item[4];
      item[4] = was < 0 || ((place < was || said.has(item[2])) && meaning(item[2]) > 0);
    });
    return out;
  }
  function preferSubsections(ranked) {
    var top = ranked.slice(0, D.settings.subsection_rerank), place = new Map(), moved = false;
    top.forEach(function (item) { place.set(item[2], item); });
    top.forEach(function (item) {
      var pk = D.items[item[2]].parent;
      var parent = pk && D.byKey.has(pk) ? place.get(D.byKey.get(pk)) : undefined;
      if (!parent || parent[0] >= 3 || order(parent, item) > 0) return;
      if (item[3] >= parent[3] && item[1] >= D.settings.child_share * parent[1]) {
        item[0] = parent[0]; item[1] = parent[1] * 1.001; moved = true;
      }
    });
    if (moved) ranked.sort(order);
    return ranked;
  }
  function quotedFirst(ranked) {
    var steps = ranked.filter(function (item) { return D.cited.has(item[2]); });
    if (!steps.length) return ranked;
    var live = new Set(ranked.filter(function (it) { return D.items[it[2]].current; }).map(function (it) { return D.items[it[2]].topic; }));
    var shownIn = new Map(), byResult = new Map();
    steps.forEach(function (item) {
      var it = D.items[item[2]], results;
      if (live.has(it.topic)) results = [it.topic];
      else { results = it.successors.filter(function (s) { return live.has(s); }); if (!results.length) results = [it.topic]; }
      shownIn.set(item[2], results);
      results.forEach(function (r) {
        if (!byResult.has(r)) byResult.set(r, new Set());
        D.cited.get(item[2]).forEach(function (t) { byResult.get(r).add(t); });
      });
    });
    var quoted = new Map(), wanted = new Set();
    shownIn.forEach(function (rs, i) {
      var set = new Set();
      rs.forEach(function (r) { byResult.get(r).forEach(function (t) { set.add(t); wanted.add(t); }); });
      quoted.set(i, set);
    });
    var shown = new Map();
    ranked.forEach(function (item) { var t = D.items[item[2]].topic; if (wanted.has(t) && !shown.has(t)) shown.set(t, item); });
    var moved = false;
    steps.forEach(function (item) {
      var quoting = [];
      quoted.get(item[2]).forEach(function (t) { var s = shown.get(t); if (s && s[0] >= item[0]) quoting.push(s); });
      if (!quoting.length) return;
      var value = item[1] * D.settings.quoting_share;
      var below = quoting.filter(function (s) { return order(s, item) > 0; });
      if (below.length) {
        var last = below.reduce(function (a, b) { return order(a, b) > 0 ? a : b; });
        item[0] = last[0]; value = Math.min(value, last[1] * D.settings.quote_share);
      }
      item[1] = value; moved = true;
    });
    if (moved) ranked.sort(order);
    return ranked;
  }

  // Unfiltered: rank() reads it only for the items matched, which the filters kept (index.py).
  function exactOf(words) {   // index.py: _exact
    var keys = new Set(), out = new Map();
    words.forEach(function (w) {   // "battle rules": the rules on a title ask for that title
      var key = titleKey(w);
      [key, key.split(" ").filter(function (s) { return D.settings.rules_words.indexOf(s) === -1; }).join(" ")]
        .forEach(function (k) { if (k) keys.add(k); });
    });
    if (!keys.size) return out;
    D.items.forEach(function (it, i) {
      if (!it.keys.some(function (k) { return keys.has(k); })) return;
      out.set(i, D.settings.exact_tiers[it.result.kind] || 3);
    });
    return out;
  }

  /* -- stage 4, collapse versions: one hit per topic (collapse.py: collapse, _fold, count_topics) - */
  function inNamed(it, mentioned) { return mentioned.size > 0 && mentioned.has(it.result.document + "\u0000" + it.result.version); }
  // collapse.py: named_in: each topic's versions named in the question that it matched in.
  function namedIn(ranked, mentioned) {
    var out = new Map();
    if (mentioned.size) ranked.forEach(function (item) {
      var it = D.items[item[2]];
      if (!inNamed(it, mentioned)) return;
      if (!out.has(it.topic)) out.set(it.topic, new Set());
      out.get(it.topic).add(it.result.version);
    });
    return out;
  }
  // collapse.py: may_join: not where a version the question names holds both.
  function mayJoin(named, topic, heir) {
    var A = named.get(topic), B = named.get(heir);
    return !(A && B && Array.from(A).some(function (v) { return B.has(v); }));
  }
  function fold(topics, order, named) {   // not where the question names a version holding both
    var place = new Map();
    order.forEach(function (t, i) { place.set(t, i); });
    var live = new Set(order.filter(function (t) { return topics.get(t).some(function (it) { return D.items[it[2]].current; }); }));
    order.slice().forEach(function (topic) {
      if (live.has(topic) || !topics.has(topic)) return;
      var heirs = [];
      topics.get(topic).forEach(function (it) { D.items[it[2]].successors.forEach(function (s) { if (live.has(s) && mayJoin(named, topic, s)) heirs.push(s); }); });
      if (!heirs.length) return;
      var heir = heirs.reduce(function (a, b) { return place.get(b) < place.get(a) ? b : a; });
      topics.set(heir, topics.get(heir).concat(topics.get(topic)));
      place.set(heir, Math.min(place.get(heir), place.get(topic)));
      topics.delete(topic);
      place.delete(topic);
    });
    return Array.from(topics.keys()).sort(function (a, b) { return place.get(a) - place.get(b); });
  }
  function countTopics(every, allVersions, mentioned) {
    var live = new Map(), field = allVersions ? "key" : "topic";
    every.forEach(function (item) { var it = D.items[item[2]]; live.set(it[field], live.get(it[field]) || it.current); });
    if (allVersions) return live.size;
    var folded = new Set(), named = namedIn(every, mentioned);
    every.forEach(function (item) {
      var it = D.items[item[2]];
      if (!live.get(it.topic) && it.successors.some(function (s) { return live.get(s) && mayJoin(named, it.topic, s); })) folded.add(it.topic);
    });
    return live.size - folded.size;
  }
  function collapse(ranked, every, allVersions, limit, mentioned) {
    var topics = new Map(), keys = [], field = allVersions ? "key" : "topic";
    ranked.forEach(function (item) {
      var key = D.items[item[2]][field];
      if (!topics.has(key)) { topics.set(key, []); keys.push(key); }
      topics.get(key).push(item);
    });
    if (!allVersions) keys = fold(topics, keys, namedIn(every.length ? every : ranked, mentioned));
    var total = keys.length;
    if (every.length > ranked.length) {
      total = countTopics(every, allVersions, mentioned);
      var shown = new Set(keys.slice(0, limit)), seen = new Set(ranked.map(function (it) { return it[2]; }));
      every.forEach(function (item) {
        var key = D.items[item[2]][field];
        if (shown.has(key) && !seen.has(item[2])) topics.get(key).push(item);
      });
    }
    var rankOf = function (it) {
      var m = D.items[it[2]];
      return [inNamed(m, mentioned) ? 1 : 0, m.current ? 1 : 0, m.vorder];
    };
    var hits = keys.slice(0, limit).map(function (key) {
      var items = topics.get(key);
      var best = items.reduce(function (a, b) {
        var A = rankOf(a), B = rankOf(b);
        return (B[0] - A[0] || B[1] - A[1] || B[2] - A[2] || b[0] - a[0] || b[1] - a[1]) > 0 ? b : a;   // then tier, value
      });
      var others = items.filter(function (it) { return it !== best; })
        .sort(function (a, b) { return D.items[a[2]].vorder - D.items[b[2]].vorder; });
      return {item: D.items[best[2]], number: best[2], byMeaning: best.length > 4 && best[4],
              exact: Math.max.apply(null, items.map(function (it) { return it[0]; })) >= 3,
              others: others.map(function (it) { return {item: D.items[it[2]], older: it[3] > best[3]}; })};
    });
    return {total: total, hits: hits};
  }

  /* -- snippets (analysis.py: snippet) --------------------------------------------------------- */
  function escapeHtml(text) {
    return text.replace(/[&<>"']/g, function (c) { return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"}[c]; });
  }
  // snippets.py: the sentence that answers best, in a window: the one holding most of the
  // judge's words (by weight), then the words rarest in the text; between equals, the one whose
  // window holds most, then the rarest; then the first. The same sums in the same order.
  function lowerBound(list, value, key) {
    var lo = 0, hi = list.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (key(list[mid]) < value) lo = mid + 1; else hi = mid; }
    return lo;
  }
  function askedOf(p) {   // snippets.py: asked_of
    var words = p.groups.map(function (g) {
      var word = new Map();
      if (g.seq && g.seq.length > 1) word.set(g.seq.join(" "), [g.seq, 1]);
      else g.terms.forEach(function (w, s) { word.set(s, [[s], w]); });
      return word;
    });
    p.concepts.forEach(function (c) {
      var targets = [];
      c.terms.forEach(function (w, s) { targets.push([[s], w]); });
      c.phrases.forEach(function (seq) { targets.push([seq, D.settings.expansion_weight]); });
      c.covers.forEach(function (i) {
        targets.forEach(function (t) {
          var key = t[0].join(" "), was = words[i].get(key);
          words[i].set(key, [t[0], Math.max(was ? was[1] : 0, t[1])]);
        });
      });
    });
    return words.map(function (w) { return Array.from(w.values()); });
  }
  function placesOf(f, seq) {   // snippets.py: _places
    var first = f.at.get(seq[0]) || [], rest = seq.length - 1;
    if (!rest) return first;
    return first.filter(function (i) {
      if (i + rest >= f.toks.length || f.sentenceOf[i + rest] !== f.sentenceOf[i]) return false;
      for (var k = 1; k <= rest; k++) if (f.toks[i + k][2] !== seq[k]) return false;
      return true;
    });
  }
  function occurrencesOf(f, words) {   // snippets.py: _occurrences
    var found = [];
    words.forEach(function (word, n) {
      word.forEach(function (alt) {
        var places = placesOf(f, alt[0]);
        if (!places.length) return;
        var share = alt[1] / new Set(places.map(function (i) { return f.sentenceOf[i]; })).size;
        places.forEach(function (i) { found.push([i, n, alt[1], share]); });
      });
    });
    return found.sort(function (a, b) { return (a[0] - b[0]) || (a[1] - b[1]) || (a[2] - b[2]) || (a[3] - b[3]); });
  }
  function credit(found, lo, hi, count) {   // snippets.py: _credit
    var weights = [], shares = [], cover = 0, rare = 0, n;
    for (n = 0; n < count; n++) { weights.push(0); shares.push(0); }
    var first = function (o) { return o[0]; };
    for (var k = lowerBound(found, lo, first); k < found.length && found[k][0] < hi; k++) {
      var o = found[k];
      weights[o[1]] = Math.max(weights[o[1]], o[2]);
      shares[o[1]] = Math.max(shares[o[1]], o[3]);
    }
    for (n = 0; n < count; n++) { cover += weights[n]; rare += shares[n]; }
    return [cover, rare];
  }
  function best(f, found, count, width, within) {   // snippets.py: _best: [sentence, how much it holds]
    var bestAt = -1, bestKey = [0, 0, 0, 0];
    var start = function (t) { return t[0]; };
    f.sentences.forEach(function (begin, k) {
      if (within && (k < within[0] || k > within[1])) return;
      var end = k + 1 < f.sentences.length ? f.sentences[k + 1] : f.text.length;
      var lo = lowerBound(f.toks, begin, start);
      var own = credit(found, lo, lowerBound(f.toks, end, start), count);
      if (!own[0]) return;
      var seen = credit(found, lo, lowerBound(f.toks, begin + width - 30, start), count);
      var key = [own[0], own[1], seen[0], seen[1]];
      for (var i = 0; i < 4; i++) {
        if (key[i] !== bestKey[i]) { if (key[i] > bestKey[i]) { bestAt = k; bestKey = key; } return; }
      }
    });
    return [bestAt, bestKey[0]];
  }
  // snippets.py: _sentence: [the sentence to show, the focus kept]: with a focus, the best of its
  // sentences (else its first), unless the words clearly answer elsewhere.
  function sentenceOf(f, words, width, focus) {
    var found = occurrencesOf(f, words), all = best(f, found, words.length, width);
    if (!focus) return [all[0], null];
    var mine = best(f, found, words.length, width, focus), win = D.settings.words_win;
    if (all[1] >= win && all[1] >= win * mine[1]) return [all[0], null];
    return [mine[0] >= 0 ? mine[0] : focus[0], focus];
  }
  function bestWindow(f, hits, width) {   // snippets.py: _best_window
    var best = 0, bestCount = -1, j = 0, counts = new Map();
    hits.forEach(function (h, i) {
      var reach = f.toks[h][0] + width - 30;
      while (j < hits.length && f.toks[hits[j]][0] < reach) { var t = f.toks[hits[j]][2]; counts.set(t, (counts.get(t) || 0) + 1); j++; }
      if (counts.size > bestCount) { best = i; bestCount = counts.size; }
      var s = f.toks[h][2];
      counts.set(s, counts.get(s) - 1);
      if (!counts.get(s)) counts.delete(s);
    });
    return hits[best];
  }
  function windowOf(f, hits, words, width, focus) {   // snippets.py: _window: [where it begins, what it must show]
    var at = function (i) { return f.toks[i][0]; };
    var chosen = sentenceOf(f, words, width, focus), sentence = chosen[0], lowest = 0;
    if (sentence >= 0) {
      lowest = f.sentences[sentence];
      var after = sentence + 1 < f.sentences.length ? f.sentences[sentence + 1] : f.text.length;
      var inside = hits.filter(function (i) { return lowest <= at(i) && at(i) < after; });
      if (inside.length || chosen[1]) hits = inside;
      if (!hits.length || at(hits[hits.length - 1]) < lowest + width - 30) return [lowest, lowest];
    } else if (at(hits[hits.length - 1]) < at(hits[0]) + width - 30) {
      return [Math.max(0, at(hits[0]) - 24), at(hits[0])];
    }
    var first = at(bestWindow(f, hits, width));
    return [Math.max(lowest, first - 24), first];
  }
  function flatOf(text) {   // snippets.py: _flat
    var flat = text.split(/\s+/).filter(Boolean).join(" "), m;
    var f = {text: flat, toks: [], at: new Map(), sentences: [0], sentenceOf: []};
    var ends = D.sentenceEnd;   // snippets.py: SENTENCE_END
    ends.lastIndex = 0;
    while ((m = ends.exec(flat)) !== null) f.sentences.push(m.index + m[0].length);
    var re = TOKENS, k = 0;
    re.lastIndex = 0;
    while ((m = re.exec(flat)) !== null) {
      var s = stemOf(m[0]);
      if (!s) continue;
      while (k + 1 < f.sentences.length && f.sentences[k + 1] <= m.index) k++;
      if (!f.at.has(s)) f.at.set(s, []);
      f.at.get(s).push(f.toks.length);
      f.sentenceOf.push(k);
      f.toks.push([m.index, m.index + m[0].length, s]);
    }
    return f;
  }
  // A text's flat form does not depend on the question: kept for the texts shown last (a later
  // question often shows some of the same passages), least recently used dropped first.
  var FLATS_KEPT = 64, flats = new Map();
  function flatKept(text) {
    var f = flats.get(text);
    if (f) flats.delete(text);
    else f = flatOf(text);
    flats.set(text, f);
    if (flats.size > FLATS_KEPT) flats.delete(flats.keys().next().value);
    return f;
  }
  // focus: the first and last sentence meaning found nearest (snippets.py: snippet), or none.
  function snippet(text, terms, asked, width, focus) {
    width = width || 220;
    var f = flatKept(text), flat = f.text;
    if (!flat) return "";
    if (focus && !(0 <= focus[0] && focus[0] <= focus[1] && focus[1] < f.sentences.length)) focus = null;
    var hits = [];
    f.toks.forEach(function (t, i) { if (terms.has(t[2])) hits.push(i); });
    var start = 0;
    if ((hits.length || focus) && flat.length > width) {
      var w = windowOf(f, hits, asked, width, focus), first = w[1];
      start = Math.min(w[0], flat.length - width);
      if (start && flat[start - 1] !== " ") {
        var space = flat.indexOf(" ", start);
        start = space >= 0 && space < first ? space + 1 : first;
      }
    }
    var end = Math.min(flat.length, start + width);
    if (end < flat.length) {
      var sp = flat.lastIndexOf(" ", end - 1);
      end = sp > start ? sp : end;
    }
    var out = "", pos = start;
    hits.forEach(function (i) {
      var h = f.toks[i];
      if (h[0] < start || h[1] > end) return;
      out += escapeHtml(flat.slice(pos, h[0])) + "<mark>" + escapeHtml(flat.slice(h[0], h[1])) + "</mark>";
      pos = h[1];
    });
    out += escapeHtml(flat.slice(pos, end));
    return (start ? "…" : "") + out + (end < flat.length ? "…" : "");
  }

  /* -- stage 5, shape the answer like /api/search (service.py: SearchService.shape) ------------- */
  // Each address made once (new URL is slow).
  var absoluteKept = new Map();
  function absolute(rel) {
    if (!rel) return rel;
    var href = absoluteKept.get(rel);
    if (href === undefined) {
      if (absoluteKept.size >= 20000) absoluteKept.clear();
      absoluteKept.set(rel, href = new URL(rel, root).href);
    }
    return href;
  }
  // A page's first results may show before the texts are here: their snippets follow.
  // kept: the snippets already made for this question's words (the answer by meaning shows
  // mostly the same items as the answer by words before it).
  function snippetOf(item, terms, asked, kept, focus) {
    if (!more && partial) { pending = true; return null; }
    var key = focus ? item.key + "\u0000" + focus.join(" ") : item.key;
    if (kept && kept.has(key)) return kept.get(key);
    var made = snippet(textOf(item), terms, asked, 220, focus);
    if (kept) kept.set(key, made);
    return made;
  }
  function resultOf(hit, terms, asked, kept) {
    var r = JSON.parse(JSON.stringify(hit.item.result));
    r.url = absolute(r.url);
    if (r.api_url) r.api_url = absolute(r.api_url);
    (r.breadcrumb || []).forEach(function (c) { c.url = absolute(c.url); if (c.api_url) c.api_url = absolute(c.api_url); });
    r.snippet = snippetOf(hit.item, terms, asked, kept, hit.focus);
    r.exact = hit.exact;
    r.also_in = hit.others.map(function (o) {
      return {version: o.item.result.version, short_title: o.item.result.version_title, id: o.item.result.id,
              title: o.item.result.title, url: absolute(o.item.result.url), kind: o.item.result.kind,
              snippet: o.older ? snippetOf(o.item, terms, asked, kept) : null};
    });
    return r;
  }

  function gameOf(versions) {   // index.py: game_of: the one game of the versions named
    var games = gamesOf(versions);
    return games.size === 1 ? games.values().next().value : null;
  }
  function gamesOf(versions) {   // index.py: games_of: the games of the versions named
    var games = new Set();
    if (versions.size) D.items.forEach(function (it) { if (versions.has(it.result.document + "\u0000" + it.result.version)) games.add(it.edition); });
    return games;
  }
  // query.py: strip_named: the game named, or the one game of the versions named, unless the
  // judge chose (chosen) or the question names both games; "" unnamed: nothing but names.
  function namedGame(typed, named, games, chosen) {
    var every = new Set(games);
    named.names.forEach(function (g) { every.add(g); });
    var unnamed = every.size === 1 && !chosen ? withoutEdition(typed, typed, named.bare) : "";
    return unnamed ? {edition: every.values().next().value, unnamed: unnamed, every: every, query: named.bare}
      : {edition: null, unnamed: "", every: every, query: named.query};
  }
  function truthy(value) { return ["1", "true", "yes", "on"].indexOf(String(value).toLowerCase()) !== -1 || value === true; }

  // The question as searched: without the versions and the game it names (index.py: _search).
  function asSearched(query, filters) {
    var stripped = stripVersions(query), named = stripEdition(stripped.query);
    return {stripped: stripped, before: stripped.query, named: named, query: named.query,
            mentioned: !filters.version && !filters.document ? stripped.mentioned : new Set()};
  }
  // The words meaning is asked about, or null when it is not (too few words: index.py: _nearness).
  // Kept: a question is read for meaning more than once.
  var questionsKept = new Map(), QUESTIONS_KEPT = 32;
  function meaningQuestion(q, opts) {
    var key = JSON.stringify([q, opts || {}]);
    if (questionsKept.has(key)) return questionsKept.get(key);
    var asked = meaningQuestionOf(q, opts);   // may throw MORE: nothing kept
    if (questionsKept.size >= QUESTIONS_KEPT) questionsKept.delete(questionsKept.keys().next().value);
    questionsKept.set(key, asked);
    return asked;
  }
  function meaningQuestionOf(q, opts) {
    var query = cleanQuery(cutQuestion(q));
    if (QUOTED_IN.test(query)) {
      // A quoted phrase no passage holds is searched as words (index.py: _search): which words
      // are asked needs the words' stage's scores; any other question is planned alone, so that
      // the worker starts while this thread searches the words.
      var a = searchOf(q, opts), words = wordsFor(a.query, a.filters, a.allVersions, Math.max(a.limit, COMPARED), true);
      return wantsMeaning(words.asked, words.planned.groups.length) ? words.asked : null;
    }
    var searched = asSearched(query, filtersOf(opts || {})), filters = filtersOf(opts || {});
    var chosen = filters.edition || filters.document || filters.version;
    var named = namedGame(query, searched.named, gamesOf(searched.stripped.mentioned), chosen).edition;
    var groups = plan(searched.query, filters.edition || named, true).groups.length;
    return wantsMeaning(searched.query, groups) ? searched.query : null;
  }
  // index.py: wants_meaning: three meaningful words, or two in a question of four words or more.
  function wantsMeaning(query, groups) {
    var words = query.match(TOKENS) || [];   // analysis.py: TOKEN_RE, words with a letter or digit
    return groups >= D.settings.meaning_words - (words.length >= D.settings.meaning_question ? 1 : 0);
  }
  // The words' stage of a question (wordsOf), kept for the questions asked last: the answer by
  // meaning that follows the answer by words, a re-render when the snippets come, "did you mean"
  // and the other game's counts are not searched again. Keyed by all it depends on.
  var wordsKept = new Map(), WORDS_KEPT = 32;
  function find(query, filters, allVersions, limit, fuzzy, near) {
    return finish(wordsFor(query, filters, allVersions, limit, fuzzy), near, allVersions, limit);
  }
  function wordsFor(query, filters, allVersions, limit, fuzzy) {
    var key = JSON.stringify([query, filters, allVersions, limit, fuzzy]), words = wordsKept.get(key);
    if (!words) {
      words = wordsOf(query, Object.assign({}, filters), allVersions, limit, fuzzy);   // may throw MORE: nothing kept
      if (wordsKept.size >= WORDS_KEPT) wordsKept.delete(wordsKept.keys().next().value);
      wordsKept.set(key, words);
    }
    return words;
  }
  function wordsOf(query, filters, allVersions, limit, fuzzy, unquoted) {
    var S = D.settings, typed = query, given = filters;
    var searched = asSearched(query, filters), stripped = searched.stripped, mentioned = searched.mentioned;
    var named = searched.named, before = searched.before;
    query = named.query;
    // A game named in the question ("2e battle") is where to look, as the judge's choice.
    var chosen = {document: filters.document, version: filters.version, edition: filters.edition};
    // service.py: _set_aside: the game named (or a version's) when the one chosen kept the search to another.
    var game = named.edition || gameOf(stripped.mentioned);
    var aside = game && (chosen.document || chosen.version || chosen.edition) &&
      !D.items.some(function (it, i) { return it.edition === game && allowed(i, chosen); }) ? game : null;
    // A game named, or a version of it ("battle in CTA"), keeps the search to it (query.py: strip_named).
    var where = namedGame(typed, named, gamesOf(stripped.mentioned), chosen.document || chosen.version || chosen.edition);
    var games = ["2E", "1E"].filter(function (g) { return where.every.has(g); });   // index.py: games_named
    if (where.edition) filters = Object.assign({}, filters, {edition: where.edition});
    var planned = plan(query, filters.edition, fuzzy);
    var suggested = suggestion(typed, planned.groups);
    var wanted = new Set(planned.live);
    planned.concepts.forEach(function (c) { c.covers.forEach(function (i) { wanted.add(i); }); });
    var terms = new Set();
    planned.all.forEach(function (g) { g.terms.forEach(function (w, s) { terms.add(s); }); });
    planned.concepts.forEach(function (c) { c.phrases.forEach(function (seq) { seq.forEach(function (s) { terms.add(s); }); }); });
    var out = {total: 0, hits: [], terms: terms, asked: askedOf(planned), suggestion: suggested, unknown: planned.unknown, readAs: planned.readAs,
               named: where.edition, aside: aside, games: games, unquoted: unquoted || [],
               unnamed: where.edition ? where.unnamed : aside ? withoutEdition(typed, before, query) : null};
    var words = {out: out, planned: planned, wanted: wanted, filters: filters, mentioned: mentioned, ranked: null, snippets: new Map(),
                 asked: query};
    if (!wanted.size) return words;
    var acc = score(planned.all, filters);
    var gone = unquoted ? [] : lostPhrases(planned, acc);   // index.py: _search: the judge's quote is not the rulebook's wording
    if (gone.length) return wordsOf(unquote(typed, gone), given, allVersions, limit, fuzzy, gone);
    var seq = [];
    planned.groups.forEach(function (g) { if (!g.part.phrase) stems(g.part.text).forEach(function (s) { seq.push(s); }); });
    var exact = exactOf(wordings(query, suggested, planned).concat(cardCompletions(query)));
    var lean = filters.edition ? null : leanOf(seq);   // index.py: a game searched alone leans to none
    var number = D.numberCue.test(query);
    words.lean = lean || S.default_lean;
    words.ranked = rankWords(acc, planned, wanted, exact, number, words.lean, mentioned, limit);
    return words;
  }
  // The answer from the words' stage, with meaning joined when its nearness is given.
  function finish(words, near, allVersions, limit) {
    var planned = words.planned, wanted = words.wanted, out = Object.assign({}, words.out, {snippets: words.snippets});
    if (!words.ranked) return out;
    near = near && wantsMeaning(words.asked, planned.groups.length) ? near : null;
    var r = rank(words.ranked, near, words.filters, words.lean, words.mentioned, planned.groups.length);
    var found = collapse(r.ranked, r.every, allVersions, limit, words.mentioned);
    out.total = found.total;
    // A result whose place owes to meaning shows the sentences its nearest chunk holds (index.py:
    // _focused): the meaning part's, two for each item, given with the nearness (near.focus).
    var focus = near && near.focus;
    found.hits.forEach(function (h) {
      h.focus = focus && h.byMeaning && focus[2 * h.number] >= 0 ? [focus[2 * h.number], focus[2 * h.number + 1]] : null;
    });
    out.hits = found.hits;
    out.byMeaning = !!near;
    out.guess = isGuess(r.ranked, wanted, near, planned);
    return out;
  }
  var COMPARED = 3;   // index.py: COMPARED
  function top3(found) { return found.hits.slice(0, COMPARED).map(function (h) { return h.item.key; }).join("\n"); }

  function filtersOf(opts) {
    return {document: opts.document || null, version: opts.version || null, kind: opts.kind || null, edition: opts.edition || null};
  }
  // What run searches.
  function searchOf(q, opts) {
    opts = opts || {};
    var S = D.settings, limit = parseInt(opts.limit, 10);
    return {query: cleanQuery(cutQuestion(q)), filters: filtersOf(opts), allVersions: truthy(opts.all_versions),
            limit: isNaN(limit) ? S.default_limit : Math.max(1, Math.min(limit, S.max_limit))};
  }
  // run's words' stage, searched (and kept) while the worker finds the nearness.
  function wordsAhead(q, opts) {
    var a = searchOf(q, opts), wide = Math.max(a.limit, COMPARED);
    if (wordsFor(a.query, a.filters, a.allVersions, wide, true).out.suggestion) wordsFor(a.query, a.filters, a.allVersions, COMPARED, false);
  }
  // near: each item's nearness to meaningQuestion(q, opts) by meaning (pack-meaning.js), or none.
  // upto: the page's first screenful, shaped now (the rest in data.rest, shaped when asked).
  function run(q, opts, near, meaning, upto) {
    var a = searchOf(q, opts), query = a.query, filters = a.filters, allVersions = a.allVersions, limit = a.limit;
    var found = find(query, filters, allVersions, Math.max(limit, COMPARED), true, near);
    // "Did you mean" only when the correction changes the first three, whatever the limit
    // (index.py: search).
    if (found.suggestion && top3(find(query, filters, allVersions, COMPARED, false, near)) === top3(found)) found.suggestion = null;
    found.hits = found.hits.slice(0, limit);
    found.meaning = meaning;
    return shape(query, filters, found, upto);
  }
  function shape(query, filters, found, upto) {
    var kept = {}, make = function (h) { return resultOf(h, found.terms, found.asked, found.snippets); };
    var first = upto ? found.hits.slice(0, upto) : found.hits;
    filters.edition = filters.edition || found.named;   // the game searched
    ["document", "version", "kind", "edition"].forEach(function (k) { if (filters[k]) kept[k] = filters[k]; });
    var data = {
      query: query.trim(), total: found.total,
      results: first.map(make),
      suggestion: found.suggestion, not_in_rules: found.unknown, read_as: found.readAs,
      versions_not_held: stripVersions(query).unheld, unquoted: found.unquoted || [], filters: kept,
      edition_from: found.named ? "question" : filters.edition ? "filter" : null, edition_set_aside: found.aside, query_without_edition: found.unnamed,
      editions_named: found.games,
      // Whether meaning took part, and how it stands here: "not stored" until the judge stores
      // the pack's meaning part (the server's states otherwise: service.py, shape).
      by_meaning: !!found.byMeaning, guess: !!found.guess, meaning: found.meaning || "not stored"
    };
    // The page's results past its first screenful: shaped (their snippets made) when asked.
    if (first.length < found.hits.length) data.rest = {hits: found.hits.slice(first.length), make: make};
    return data;
  }

  /* -- the results as the server renders them (templates/search/_results.html and _macros.html:
     the same markup, held to it by tests/test_pack_results.py) ---------------------------- */
  var KIND_LABELS = {section: "Section", glossary: "Glossary", ruling: "Ruling", step: "Timing step"};
  var EDITIONS = {"2E": "Second Edition", "1E": "First Edition"};
  var EXAMPLES = {
    "": ["how many dilemmas do I draw", "beam personnel", "attempting missions", "commandeer a ship", "all personnel stopped"],
    "2E": ["how many dilemmas do I draw", "beam personnel", "attempting missions", "all personnel stopped", "headquarters"],
    "1E": ["commandeer a ship", "seed phase", "beam personnel", "stopped personnel", "download"]
  };
  var FILTERS = ["edition", "document", "version", "kind"];
  var WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;
  function pageLink(text, q, params) {
    var query = new URLSearchParams({q: q});
    Object.keys(params).forEach(function (k) { query.set(k, params[k]); });
    return '<a href="' + escapeHtml(root + "search/index.html?" + query.toString()) + '">' + escapeHtml(text) + "</a>";
  }
  function capitalize(text) { return text ? text.charAt(0).toUpperCase() + text.slice(1).toLowerCase() : ""; }
  var TYPE_ED = "The editors&#39; inference: no ruling states this type";  // as search/_macros.html
  function cardHTML(r) {
    var e = escapeHtml, c = r.card || {};
    var facts = c.type || c.set ? '<p class="result-card-facts">' + e(capitalize(c.type || "")) +
      (c.type_editorial ? ' <abbr class="tm-ed-mark" title="' + TYPE_ED + '">ed.</abbr>' : "") + (c.type && c.set ? " · " : "") +
      (c.set ? e(c.set) + (c.number ? " " + e(c.number) : "") : "") + "</p>" : "";
    return '<li class="result result-card result-ed-' + e(r.edition) + (r.exact ? " result-exact" : "") + '">' +
      '<div class="result-head"><a class="result-title" href="' + e(r.url) + '">' + e(r.title) + "</a> " +
      '<span class="badge badge-kind badge-card ed-' + e(r.edition) + '" title="A ' + e(r.edition_label) + ' card">Card · ' + e(r.edition) + "</span></div>" +
      facts + "</li>";
  }
  // templates/search/_macros.html: what "newest held here" rests on.
  var NEWEST_BASIS = "the newest version judgekit holds, as the editors record it; not necessarily current";
  function resultHTML(r, compact) {
    if (r.kind === "card") return cardHTML(r);
    var e = escapeHtml;
    var crumbs = (r.breadcrumb || []).map(function (c) {
      return "<li>" + (compact ? e(c.title) : '<a href="' + e(c.url) + '" tabindex="-1">' + e(c.title) + "</a>") + "</li>";
    }).join("");
    var chips = (r.also_in || []).map(function (o) {
      // search/_macros.html: a chip of another kind says its kind ("moving a ship (glossary)").
      var kinds = D.notes.chip_kinds;
      var label = o.short_title + (o.id !== r.id ? ": " + o.title : "") + (o.kind !== r.kind && has(kinds, o.kind) ? " (" + kinds[o.kind] + ")" : "");
      return "<li>" + (o.url ? '<a class="chip' + (o.snippet ? " chip-older-match" : "") + '" href="' + e(o.url) + '" tabindex="-1" title="Also found in ' +
        e(o.short_title) + ": " + e(o.title) + '">' + e(label) + "</a>" : '<span class="chip">' + e(label) + "</span>") + "</li>";
    }).join("");
    var older = (r.also_in || []).filter(function (o) { return o.snippet; }).map(function (o) {
      return '<p class="result-older"><span class="older-label">Matches more in ' + e(o.short_title) + " (another version held here):</span> " + o.snippet + "</p>";
    }).join("");
    return '<li class="result result-' + e(r.kind) + " result-ed-" + e(r.edition) + (r.exact ? " result-exact" : "") + '">' +
      '<div class="result-head"><span class="badge badge-ed ed-' + e(r.edition) + '" title="' + e(r.edition_label) + '">' + e(r.edition) + "</span> " +
      '<a class="result-title" href="' + e(r.url) + '">' + e(r.title) + "</a> " +
      '<span class="badge badge-kind badge-' + e(r.kind) + '">' + e(KIND_LABELS[r.kind] || r.kind) + "</span></div>" +
      '<ol class="result-crumbs" aria-label="Where"><li>' + e(r.document_title) + " " + e(r.version_title) + "</li>" + crumbs + "</ol>" +
      (r.snippet ? '<p class="result-snippet">' + r.snippet + "</p>" : "") +
      '<ul class="chips" aria-label="Versions"><li><span class="chip chip-here ed-' + e(r.edition) + '" title="This result is from the ' +
      e(r.edition_label) + " " + e(r.document_title) + " " + e(r.version_title) + (r.in_force ? ": " + NEWEST_BASIS : "") + '">' + e(r.edition) + " " +
      e(r.version_title) + (r.in_force ? " · " + e(r.status) : "") + "</span></li>" + chips + "</ul>" + older + "</li>";
  }
  // templates/search/_results.html: both games named ("1E rules in CTA"): both searched, either a tap away.
  function bothNamed(data, filtered, kept) {
    if (data.editions_named.length < 2 || data.filters.edition || filtered) return "";
    return " in both games (your question names " + data.editions_named.map(escapeHtml).join(" and ") + "; " + data.editions_named.map(function (ed) {
      return pageLink("search " + ed + " only", data.query, Object.assign({}, kept, {edition: ed}));
    }).join(" or ") + ")";
  }
  // search/elsewhere.py: the other game's matches when a search is kept to one game.
  function elsewhereOf(data) {
    var edition = data.filters.edition, query = data.query;
    if (data.edition_from === "question") query = data.query_without_edition || "";   // the game's name is no word to look for
    if (!EDITIONS[edition] || !query) return null;
    var other = edition === "2E" ? "1E" : "2E";
    var total = function (q, ed) { return run(q, {edition: ed, limit: 1}).total; };
    var words = [];
    (query.toLowerCase().match(WORD) || []).forEach(function (w) { if (Array.from(w).length >= 3 && words.indexOf(w) === -1 && !D.ordinarySet.has(w)) words.push(w); });
    var missing = words.slice(0, 8).filter(function (w) { return !total(w, edition) && total(w, other); });
    return {edition: edition, other: other, other_title: EDITIONS[other], other_total: total(query, other), missing: missing, query: query};
  }
  function quotedList(words) {
    return words.filter(function (w, i) { return words.indexOf(w) === i; }).map(function (w) { return "<q>" + escapeHtml(w) + "</q>"; }).join(", ");
  }
  function notesHTML(data, kept) {
    var out = "", where = elsewhereOf(data), aside = data.edition_set_aside, f = data.filters;
    if (aside) {   // templates/search/_results.html: the pack remembers no game
      var keep = {};
      ["kind", "all_versions"].forEach(function (k) { if (kept[k]) keep[k] = kept[k]; });
      out += '<p class="search-set-aside" role="status">Your question names ' + escapeHtml(aside) + ", but" + (f.edition ? " " + escapeHtml(f.edition) +
        " was searched (the game chosen)" : " only the chosen " + (f.version ? "version" : "document") + " was searched") + ": " +
        pageLink("search " + aside + " instead", data.query_without_edition, Object.assign(keep, {edition: aside})) + ".</p>";
    }
    if (where && !data.total && where.other_total) {
      out += '<p class="search-elsewhere">' + escapeHtml(where.other_title) + " has " + where.other_total + " result" + (where.other_total !== 1 ? "s" : "") + ": " +
        pageLink("search " + where.other_title + " instead", where.query, {edition: where.other}) + ".</p>";
    } else if (where && where.missing.length) {
      out += '<p class="not-in-edition">' + quotedList(where.missing) + ": not in the " + escapeHtml(where.edition) + " rules; " + escapeHtml(where.other_title) + " has " +
        (where.missing.length > 1 ? "them" : "it") + " (" + pageLink("search " + where.other_title + " instead", where.query, {edition: where.other}) + ").</p>";
    }
    if (data.suggestion) out += '<p class="did-you-mean">Did you mean ' + pageLink(data.suggestion, data.suggestion, kept) + "?</p>";
    if (data.not_in_rules && data.not_in_rules.length) {
      out += '<p class="not-in-rules">' + quotedList(data.not_in_rules) + ": not in the rules" + (data.read_as.length ? ". Showing the rules about " +
        data.read_as.map(function (r) { return quotedList(r.means); }).join("; ") + " instead" : "") + ".</p>";
    }
    if (data.guess) out += '<p class="search-guess" role="status">No rule matches your question closely: these are the nearest topics, not an answer. Try the rulebook\'s own words for it.</p>';
    return out;
  }
  // An answer's stages in a DevTools trace (TimeStamp events of its timeline: a phone's remote
  // profile, tests/benchmarks/bench_pack_meaning.py --each); nothing is kept in the page.
  function stage(name) {
    if (typeof console !== "undefined" && console.timeStamp) console.timeStamp("judgekit " + name);
  }
  // After the frame that shows what was just rendered (the next task after it is drawn).
  function afterDrawn(task) {
    (window.requestAnimationFrame || setTimeout)(function () { setTimeout(task, 0); });
  }
  /* -- search by meaning in the page (pack-meaning.js is api.meaning's provider: judgekit.meaning) */
  // A question's nearness once known (re-renders: the snippets that follow, say), and on its way.
  var nearKnown = new Map(), nearAsked = new Map(), NEAR_KEPT = 16, NEAR_WAIT_MS = 500;
  function nearOf(provider, question) {
    if (nearKnown.has(question)) return Promise.resolve(nearKnown.get(question));
    if (!nearAsked.has(question)) {
      nearAsked.set(question, provider.nearness(question).then(function (near) {
        stage("near");
        nearAsked.delete(question);
        if (near) {
          if (nearKnown.size >= NEAR_KEPT) nearKnown.delete(nearKnown.keys().next().value);
          nearKnown.set(question, near);
        }
        return near;
      }, function () { nearAsked.delete(question); return null; }));
    }
    return nearAsked.get(question);
  }
  // templates/search/_results.html: a question answered by words alone says why, in a judge's words.
  var WORDS_ONLY = {
    "missing": "this pack has no search by meaning",
    "not stored": "search by meaning is not stored on this phone",
    "loading": "search by meaning is still loading on this phone",
    "unavailable": "search by meaning cannot run from a folder (open the pack from its web address)",
    "failed": "search by meaning could not start on this phone"
  };
  // state: how meaning stands in this page, for a question it takes part in (else null: a pack
  // built without it, or a word or two, has nothing to say).
  function wordsOnlyHTML(data, state) {
    if (data.by_meaning || !state) return "";
    if (state === "ready") return '<p class="search-by-words muted">Found by words so far: the answer by meaning follows.</p>';
    var why = WORDS_ONLY[state];
    return why ? '<p class="search-by-words muted">Found by words only: ' + escapeHtml(why) + ".</p>" : "";
  }
  /* -- what the page says it did, in the server page's words (judgekit/shapes/search_notes.py
     writes them into D.notes; these fill in their blanks as its functions do) ------------- */
  function fill(words, blanks) {   // str.format's named blanks
    return words.replace(/\{(\w+)\}/g, function (m, name) { return String(blanks[name]); });
  }
  function andList(names) {   // search_notes.py: and_list
    return names.length > 1 ? names.slice(0, -1).join(", ") + " and " + names[names.length - 1] : names.join("");
  }
  // search_notes.py: page_notes' question: the question as the summary quotes it, cut short.
  function questionOf(query) {
    var chars = Array.from(query), most = D.notes.quote_chars;
    return chars.length > most ? chars.slice(0, most).join("") + "…" : query;
  }
  // search_notes.py: cut_note: a question longer than the search reads, the last words searched
  // and the first left out.
  function cutHTML(asked) {
    var parts = cutParts(asked), searched = wordsIn(parts[0]), left = wordsIn(parts[1]);
    if (!left.length) return "";
    var n = D.notes.cut_quote[0], most = D.notes.cut_quote[1];
    var end = Array.from(searched.slice(-n).join(" ")), start = Array.from(left.slice(0, n).join(" "));
    var blanks = {limit: D.notes.limit,
      searched: (searched.length > n || end.length > most ? "…" : "") + end.slice(-most).join(""),
      left: start.slice(0, most).join("") + (left.length > n || start.length > most ? "…" : "")};
    return '<p class="search-cut" role="status">' + escapeHtml(fill(D.notes.cut, blanks)) + "</p>";
  }
  function versionOrder() {   // each version's short title and place in its document, by key
    if (!D.versionOrder) {
      D.versionOrder = new Map();
      D.items.forEach(function (it) {
        var r = it.result, key = r.document + "\u0000" + r.version;
        if (!D.versionOrder.has(key)) D.versionOrder.set(key, {title: r.version_title, order: it.vorder});
      });
    }
    return D.versionOrder;
  }
  // search_notes.py: read_as: each version name, what it was read as and which shows first.
  function readAsOf(data) {
    if (data.filters.version || data.filters.document) return [];
    var query = data.query, mentioned = stripVersions(query).mentioned, said = new Map(), called = new Set(), known = versionOrder();
    D.versionNames.forEach(function (v) {
      var key = v[1] + "\u0000" + v[2], longest = null, m;
      if (!mentioned.has(key)) return;
      v[0].lastIndex = 0;
      while ((m = v[0].exec(query)) !== null) {
        if (longest === null || m[0].length > longest.length) longest = m[0];
        if (!m[0]) v[0].lastIndex++;
      }
      if (longest === null) return;
      if (!said.has(longest)) said.set(longest, []);
      said.get(longest).push(key);
      if (v[3]) called.add(longest);   // a name the editors record: search_notes.py READ_AS_CALLED
    });
    var out = [];
    said.forEach(function (keys, words) {
      var ordered = keys.map(function (k) { return known.get(k); }).sort(function (a, b) { return a.order - b.order; });
      if (ordered.length === 1 && words.toLowerCase() === ordered[0].title.toLowerCase()) return;   // "v4" read as v4
      out.push(fill(called.has(words) ? D.notes.read_as_called : D.notes.read_as, {words: words, versions: andList(ordered.map(function (v) { return v.title; })),
        first: ordered[ordered.length - 1].title}));
    });
    return out;
  }
  // search_notes.py: page_notes' unheld: versions the question names that none held answers to.
  function unheldHTML(data) { return quotedNoteHTML("search-unheld", D.notes.unheld, data.versions_not_held); }
  // search_notes.py: unquoted_said: quoted phrases no passage holds, searched as words.
  function unquotedHTML(data) { return quotedNoteHTML("search-unquoted", D.notes.unquoted, data.unquoted); }
  // search_notes.py: quoted_words: what the judge typed, each in quotes, filled into a note.
  function quotedNoteHTML(cls, note, typed) {
    if (!typed.length) return "";
    var words = andList(typed.map(function (w) { return "“" + w + "”"; }));
    return '<p class="' + cls + '" role="status">' + escapeHtml(fill(note, {words: words})) + "</p>";
  }
  // search_notes.py: held_note: the game searched (chosen, named, its document's or version's, or
  // the one game of every result), when judgekit holds no rulebook of it.
  function heldHTML(data) {
    var f = data.filters, games = new Set();
    if (f.edition) games.add(f.edition);
    else if (f.document || f.version) {
      D.items.forEach(function (it) {
        var r = it.result;
        if (r.kind !== "card" && (!f.document || r.document === f.document) && (!f.version || r.version === f.version)) games.add(it.edition);
      });
    } else {
      (data.editions_named || []).forEach(function (g) { games.add(g); });
      var shown = new Set(data.results.map(function (r) { return r.edition; }).concat(restOf(data).map(function (h) { return h.item.result.edition; })));
      if (!games.size && shown.size === 1) games = shown;
    }
    var found = Array.from(games).sort().reverse().filter(function (g) { return has(D.notes.held, g); });
    return found.length ? '<p class="search-held" role="note">' + escapeHtml(D.notes.held[found[0]]) + "</p>" : "";
  }
  // service.py: a bad parameter is answered with the server's message (its repr of the value,
  // cut as render/text.py: quoted cuts it), the whole answer. repr writes a character Python
  // does not print (Unicode's control, format, private, unassigned and separator characters but
  // the space) as \xNN, \uNNNN or \UNNNNNNNN, and \\, \n, \r, \t as such.
  var UNPRINTED = /[\\\n\r\t]|(?! )[\p{C}\p{Z}]/gu;
  function hexOf(code, width) { var hex = code.toString(16); return "0".repeat(Math.max(0, width - hex.length)) + hex; }
  function quoted(value) {
    var chars = Array.from(value || ""), cut = chars.length > 40 ? chars.slice(0, 40).join("") + "…" : chars.join("");
    var mark = cut.indexOf("'") !== -1 && cut.indexOf('"') === -1 ? '"' : "'";
    var escaped = cut.replace(UNPRINTED, function (c) {
      var short = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}[c], code = c.codePointAt(0);
      return short || (code < 0x100 ? "\\x" + hexOf(code, 2) : code < 0x10000 ? "\\u" + hexOf(code, 4) : "\\U" + hexOf(code, 8));
    });
    return mark + (mark === "'" ? escaped.replace(/'/g, "\\'") : escaped) + mark;
  }
  // service.py: parse_params: the first bad parameter, in its order (document, version, kind,
  // edition, all_versions, limit); opts as optsOf read them, params as the address gives them.
  function unknownOf(opts, params) {
    var U = D.notes.unknown, document = (opts.document || "").trim(), version = (opts.version || "").trim(), message = null, value = null;
    var raw = function (k) { return params.get(k) || ""; };
    var kind = raw("kind").trim(), edition = (opts.edition || "").trim(), flag = raw("all_versions").trim().toLowerCase(), limit = raw("limit").trim();
    if (document && !has(U.held, document)) {
      message = has(U.not_held, document) ? U.not_held[document] : U.document;
      value = document;
    } else if (version && !Object.keys(U.held).some(function (d) { return (!document || d === document) && U.held[d].indexOf(version) !== -1; })) {
      message = U.version[document || ""];
      value = version;
    } else if (kind && U.kinds.indexOf(kind) === -1) {
      message = U.kind;
      value = raw("kind");
    } else if (edition && U.editions.indexOf(edition) === -1) {
      message = U.edition;
      value = raw("edition");
    } else if (flag && U.flags.indexOf(flag) === -1) {
      message = U.all_versions;
      value = raw("all_versions");
    } else if (limit && !(/^[0-9]{1,3}$/.test(limit) && +limit >= 1 && +limit <= U.max_limit)) {
      message = U.limit;
      value = raw("limit");
    }
    return message === null ? null : message.split(U.value).join(quoted(value));
  }
  function restOf(data) { return data.rest ? data.rest.hits : []; }
  function resultsHTML(data, params, meaningState) {
    var e = escapeHtml, compact = params.get("compact") === "1", count = data.results.length + restOf(data).length;
    var kept = {};
    FILTERS.concat(["all_versions"]).forEach(function (k) { var v = (params.get(k) || "").trim(); if (v && v !== "0") kept[k] = v; });
    var filtered = FILTERS.some(function (k) { var v = (params.get(k) || "").trim(); return v && v.toLowerCase() !== "both"; });
    var examples = EXAMPLES[(params.get("edition") || "").trim().toUpperCase()] || EXAMPLES[""];
    var exampleLinks = function (p) { return examples.map(function (x) { return pageLink(x, x, p); }).join(" · "); };
    // aria-busy: the snippets are on their way (search-more.js); the whole answer replaces this.
    var out = '<div class="search-results" data-total="' + data.total + '"' + (pending ? ' aria-busy="true"' : "") +
      (data.by_meaning ? ' data-by-meaning="true"' : "") + ">";
    if (!data.query) {
      out += '<div class="search-hints"><p>Type a rule, a glossary term, a ruling\'s topic or a card\'s name, or ask in your own words.</p><p>Try: ' +
        exampleLinks(kept) + '</p><p class="muted">Quote words for an exact phrase: <code>"beam personnel"</code>. Misspellings are forgiven.</p></div>';
      return out + "</div>";
    }
    out += cutHTML(params.get("q") || "");
    out += '<p class="search-summary" role="status">' + (data.total
      ? data.total + " result" + (data.total !== 1 ? "s" : "") + " for <q>" + e(questionOf(data.query)) + "</q>" +
        (data.total > count ? ", showing the first " + count : "")
      : "No results for <q>" + e(questionOf(data.query)) + "</q>") + (data.edition_from === "question" ? " in " + e(data.filters.edition) + " only (named in your question; " +
        pageLink("search both games", data.query_without_edition, kept) + ")" : bothNamed(data, filtered, kept)) + (filtered ? " with these filters" : "") +
      readAsOf(data).map(function (said) { return ", " + e(said); }).join("") + ".</p>";
    out += unheldHTML(data);
    out += unquotedHTML(data);
    out += heldHTML(data);
    out += notesHTML(data, kept);
    out += wordsOnlyHTML(data, meaningState);
    if (count) {
      out += '<ol class="results' + (compact ? " results-compact" : "") + '">' + data.results.map(function (r) { return resultHTML(r, compact); }).join("") + "</ol>";
      if (data.total > count && !compact) out += "<p>" + pageLink("Show up to 100 results", data.query, Object.assign({}, kept, {limit: 100})) + "</p>";
    } else {
      out += '<ul class="search-hints">' + (filtered ? "<li>" + pageLink("Search without the filters", data.query, {}) + "</li>" : "") +
        "<li>Use fewer or other words: the card's or rule's name, or a glossary term.</li><li>Try: " + exampleLinks({}) + "</li></ul>";
    }
    return out + "</div>";
  }
  // web/version_names.py: canonical: a version as judges write it ("v4", "cta", "version-4") is
  // the one held version it names whole (the server redirects to its id); else null.
  function canonicalVersion(value, document) {
    var text = (value || "").trim(), held = D.notes.unknown.held, found = new Set();
    var docs = Object.keys(held).filter(function (d) { return !document || d === document; });
    if (!text || Array.from(text).length > D.settings.version_chars || docs.some(function (d) { return held[d].indexOf(text) !== -1; })) return null;
    var spaced = text.replace(/[-_+\s]+/g, " ");
    D.versions.forEach(function (v) {
      if (docs.indexOf(v[1]) === -1) return;
      var whole = new RegExp("^(?:" + v[0] + ")$", "i");
      if (whole.test(text) || whole.test(spaced)) found.add(v[2]);
    });
    return found.size === 1 ? found.values().next().value : null;
  }
  function optsOf(params) {
    var opts = {};
    FILTERS.concat(["all_versions", "limit"]).forEach(function (k) { if (params.get(k)) opts[k] = params.get(k); });
    var named = opts.version && canonicalVersion(opts.version, (opts.document || "").trim());
    if (named) opts.version = named;
    // edition=both: both games (the server's answer to a remembered game; the pack has none).
    if (opts.edition && opts.edition.trim().toLowerCase() === "both") delete opts.edition;
    if (opts.edition) opts.edition = opts.edition.trim().toUpperCase();
    return opts;
  }
  // search.js asks this instead of the server's /search/results. The first results may come
  // before search-more.js, without their snippets; then `better` gets the whole answer.
  // By meaning when its nearness is known (nearKnown), else by words, saying how meaning stands.
  var byMeaning = false;   // whether pageHTML's latest answer was by meaning
  var restHTML = null;     // its results past `upto` (their list items, from..to), made when called; or null
  var restCut = false;     // its results past `upto` left out until its texts come (pending)
  function pageHTML(params, upto) {
    partial = true;
    pending = false;
    byMeaning = false;
    restHTML = null;
    restCut = false;
    try {
      // The server's page searches a long question's first characters, and says so (cutHTML).
      var q = cutQuestion(params.get("q")), opts = optsOf(params), provider = api.meaning;
      var unknown = unknownOf(opts, params);
      if (unknown !== null) {   // templates/search/_results.html: the error, and the words without the filters
        return '<div class="search-results" data-total="0"><p class="notice search-error" role="alert">' + escapeHtml(unknown) + "</p>" +
          (q.trim() ? '<p class="search-hints">' + pageLink("Search without the filters", q, {}) + "</p>" : "") + "</div>";
      }
      // (a pack without meaning plans the question once, as before)
      var question = api.meaningCode ? meaningQuestion(q, opts) : null;
      var near = question ? nearKnown.get(question) || null : null;
      var state = provider ? provider.state : api.meaningCode ? "checking" : undefined;
      var data = run(q, opts, near, near ? "ready" : state, upto);
      byMeaning = !!near;
      var html = resultsHTML(data, params, question !== null ? data.meaning : null);
      // Snippets still on their way (pending): the whole answer follows once they come, or
      // whole without them if they cannot (searchResultsHTML: withRest).
      restCut = !!data.rest && pending;
      if (data.rest && !pending) {
        var rest = data.rest, compact = params.get("compact") === "1";
        restHTML = function (from, to) {
          return rest.hits.slice(from, to).map(function (h) { return resultHTML(rest.make(h), compact); }).join("");
        };
        restHTML.count = rest.hits.length;
      }
      return html;
    } finally {
      partial = false;
    }
  }
  // The answer by words at once; then the answer by meaning replaces it (`better`), never a
  // blank list between. The worker starts on the question before the words are searched: the
  // two overlap. later ({count, piece, add, current}, search.js on the search page): the answer
  // holds its first `count` results, and the rest's list items are given to `add(html, last)`
  // `piece` at a time (default `count`) once it is drawn, each in a task of its own (their
  // snippets, markup and layout are not on the way of the first screenful, nor long ahead of the
  // judge's next key: fewer pieces, fewer frames until the whole list is drawn); current()
  // says whether the question is still the one the page shows: an answer the judge has
  // replaced since is not made (its nearness come late, its texts, its rest).
  api.searchResultsHTML = function (params, better, later) {
    var meaning = null, working = null, upto = later && later.count > 0 ? later.count : 0;
    var replaced = function () { return !!(later && later.current && !later.current()); };
    return load().then(function () {
      // The model ready: the worker starts on the question now (or goes on with it: asked as
      // typed), while this thread searches the words' stage.
      var provider = api.meaning;
      if (provider && provider.state === "ready") {
        try {
          var asked = meaningQuestion(params.get("q") || "", optsOf(params));
          if (asked && !nearKnown.has(asked)) meaning = working = nearOf(provider, asked);
          else if (asked) meaning = Promise.resolve(null);   // by meaning already
        } catch (e) { /* search-more.js is needed first: asked below */ }
      }
      // pack-meaning.js comes after the page's load: the answer by words never waits for it.
      meaning = meaning || Promise.resolve(api.meaningCode).then(function () {
        return api.meaning ? api.meaning.ready() : false;
      }).then(function (ok) {
        if (!ok) return null;
        return settled(function () { return meaningQuestion(params.get("q") || "", optsOf(params)); }).then(function (asked) {
          return asked && !nearKnown.has(asked) ? nearOf(api.meaning, asked) : null;
        });
      });
      var answer = function () { return replaced() ? null : made(params, upto); };
      if (!working) return answer();
      // The worker at work on it: the first answer waits for its nearness (one rendering, by
      // meaning); past NEAR_WAIT_MS, by words first.
      try { wordsAhead(params.get("q") || "", optsOf(params)); } catch (e) { /* searched in pageHTML */ }
      stage("words");
      return Promise.race([working, new Promise(function (resolve) { setTimeout(resolve, NEAR_WAIT_MS); })]).then(answer);
    }).then(function (shown) {
      if (!shown) return null;   // replaced before it was made (search.js drops it)
      // Each answer handed over (the first, then `better`'s): its rest once it is drawn, unless
      // another answer to this question was handed over since.
      var handed = 0;
      // The whole answer in one part (without its snippets if the texts cannot come): never a
      // list cut short under "showing the first 20".
      var whole = function () {
        settled(function () { return pageHTML(params); }).then(function (html) { handed++; better(html); }, function () {});
      };
      var withRest = function (one) {
        var mine = ++handed;
        if (one.pending && better) {
          // Made again once its texts come, with its snippets and its rest. If they cannot come
          // (a phone dropping off the pack's host), an answer whose rest waited for them is
          // drawn whole without them, as an answer in one part was before.
          loadMore().then(function () {
            if (mine === handed && !replaced()) return made(params, upto).then(improve);
          }, function () {
            if (mine === handed && one.cut) whole();
          });
        }
        if (!one.rest) return one.html;
        var next = 0, count = one.rest.count;
        var piece = function () {
          if (mine !== handed || replaced()) return;
          var from = next;
          next = Math.min(count, next + (later.piece > 0 ? later.piece : upto));
          settled(function () { return one.rest(from, next); }).then(function (html) {
            later.add(html, next === count);
            if (next < count) setTimeout(piece, 0);
          }, function () {
            // The rest could not be made: the whole answer instead.
            if (better) whole();
          });
        };
        // After the frame, behind the tasks that frame queued (the address written, say); then
        // each piece a task of its own: a key or a tap goes between them.
        afterDrawn(function () { setTimeout(piece, 0); });
        return one.html;
      };
      var improve = function (one) { better(withRest(one)); };
      if (meaning && better) {
        var before = api.meaning ? api.meaning.state : "checking";
        meaning.then(function (near) {
          // By meaning; or, answered before pack-meaning.js knew, the same words saying why.
          var told = !near && before === "checking" && api.meaning && WORDS_ONLY[api.meaning.state];
          if (((near && !shown.byMeaning) || told) && !replaced()) return made(params, upto).then(improve);
        }).catch(function () {});
      }
      return withRest(shown);
    });
  };
  // pageHTML's answer for the page, with what it says of itself (settled: search-more.js first
  // if it needs it).
  function made(params, upto) {
    return settled(function () {
      var html = pageHTML(params, upto);
      stage("answer");
      return {html: html, pending: pending, byMeaning: byMeaning, rest: restHTML, cut: restCut};
    });
  }

  // The pack's search page: the query is in the address, the answer is made here.
  var opened = window.location.href;   // search.js writes the address of each answer it shows
  document.addEventListener("DOMContentLoaded", function () {
    var target = document.getElementById("search-results");
    if (!target) return;
    var params = new URLSearchParams(window.location.search);
    var box = document.getElementById("q");
    // A query typed while the page came is search.js's to answer (its listener runs first, and
    // it may have answered already): answering the address too would answer twice, or put the
    // address's query back over what the judge typed.
    if (window.location.href !== opened) return;
    if (box && box.value.trim() !== "" && box.value !== (params.get("q") || "")) return;
    if (box && params.get("q")) box.value = params.get("q");
    FILTERS.forEach(function (k) {
      var field = document.querySelector('[name="' + k + '"]');
      if (field && params.get(k)) field.value = params.get(k);
    });
    var all = document.querySelector('[name="all_versions"]');
    if (all && truthy(params.get("all_versions") || "")) all.checked = true;
    if (!params.get("q")) {
      // The page is painted and usable: fetch the index now, so the first typed query answers
      // without waiting for it (search-index.js is the pack's largest file; never render-blocking).
      load().catch(function () {});
      return;
    }
    var show = function (html) { target.innerHTML = html; };
    api.searchResultsHTML(params, show).then(show);
  });
  // Elsewhere the index loads when the judge goes to the search box, before the first key.
  document.addEventListener("focusin", function (event) {
    if (event.target && event.target.id === "q") load().catch(function () {});
  });
  // The worker starts on a question as it is typed, not after search.js's pause: by the time the
  // pause is over and the words are searched, its nearness is known or nearly, and the answer
  // comes by meaning at once. Only the question typed last waits for the worker (one in
  // flight, the latest next: typing never queues stale questions), and the page only parses it
  // here (parseQuery: a superset of the questions meaning is asked about).
  var typedNext = null, typedBusy = false;
  function askTyped() {
    var provider = api.meaning, question = typedNext;
    typedNext = null;
    if (!question || !provider || provider.state !== "ready" || nearKnown.has(question)) return;
    typedBusy = true;
    nearOf(provider, question).then(function () { typedBusy = false; askTyped(); });
  }
  function typed(form) {
    if (!D || !api.meaning || api.meaning.state !== "ready") return;
    var opts = {}, data = new FormData(form);
    data.forEach(function (value, key) { if (value !== "") opts[key] = value; });
    opts = optsOf(new URLSearchParams(opts));
    var query = cleanQuery(cutQuestion(data.get("q")));
    var searched = asSearched(query, filtersOf(opts)).query;
    if (!wantsMeaning(searched, parseQuery(searched).length)) return;
    typedNext = searched;
    if (!typedBusy) askTyped();
  }
  document.addEventListener("input", function (event) {
    var box = event.target;
    if (box && box.id === "q" && box.form) {
      try { typed(box.form); } catch (e) { /* the question is asked after the pause all the same */ }
    }
  });

  // Meaning, once pack-meaning.js has it (api.meaning: {state, nearness(question) -> Promise of
  // each item's nearness}); by words until then, saying how meaning stands.
  api.search = function (q, opts) {
    return load().then(function () {
      var provider = api.meaning, question = provider && provider.state === "ready" ? settled(function () { return meaningQuestion(q, opts); }) : null;
      return Promise.resolve(question).then(function (asked) {
        if (!asked) return settled(function () { return run(q, opts, null, provider ? provider.state : undefined); });
        return provider.nearness(asked).then(function (near) {
          return settled(function () { return run(q, opts, near, near ? "ready" : provider.state); });
        });
      });
    });
  };
  // The answer with each item's nearness given (tests/node: the server's, for the golden answers).
  api.searchWithNearness = function (q, opts, near) {
    return load().then(function () { return settled(function () { return run(q, opts, near, "ready"); }); });
  };
  api.meaningQuestion = function (q, opts) {
    return load().then(function () { return settled(function () { return meaningQuestion(q, opts); }); });
  };
  // Each saying with a stop word in a question, where it stands: [start, end, term] (tests/node).
  api.sayingsIn = function (query, edition) {
    return load().then(function () { return sayingsIn(query, edition || null); });
  };
  api.searchIndexLoaded = load;
  api.escapeHtml = escapeHtml;
})();
