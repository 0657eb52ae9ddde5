/* The judge pack's search, in the browser: the server's ranking (judgekit/search/index.py) over
   the index items `judgekit build` wrote to search-index.js with the server's own analysis.
   window.judgekit.search(q, {edition, document, version, kind, all_versions, limit}) answers
   with the JSON shape of /api/search; the search page and the live results use it too. */
(function () {
  "use strict";
  var script = document.currentScript;
  var root = new URL("../../", script ? script.src : window.location.href).href;
  var api = window.judgekit = window.judgekit || {};
  var loading = null;
  var D = null;        // the data
  var sorted = null;   // the vocabulary, sorted, for completions
  var near = null;     // symmetric deletes, for corrections
  var avg = null;

  var TOKEN = /[\p{L}\p{N}\p{M}_]+(?:['’][\p{L}\p{N}\p{M}_]+)*/gu;
  var HOW_MANY = /\bhow\s+(?:many|much)\b|\bnumber\s+of\b/i;
  var CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\ufeff]/g;

  function load() {
    if (loading) return loading;
    loading = new Promise(function (resolve, reject) {
      if (self.JUDGEKIT_SEARCH) { resolve(); return; }
      var tag = document.createElement("script");
      tag.src = root + "search-index.js";
      tag.onload = function () { resolve(); };
      tag.onerror = function () { loading = null; reject(new Error("search-index.js did not load")); };
      document.head.appendChild(tag);
    }).then(prepare);
    return loading;
  }

  function prepare() {
    if (D) return;
    D = self.JUDGEKIT_SEARCH;
    D.stopSet = new Set(D.stops);
    D.questionSet = new Set(D.questions);
    D.numberSet = new Set(D.numbers);
    sorted = Object.keys(D.vocabulary).sort(function (a, b) { return a < b ? -1 : a > b ? 1 : 0; });
    near = new Map();
    Object.keys(D.vocabulary).forEach(function (word) {
      if (word.length < 3 || /^\d+$/.test(word) || D.stopSet.has(word)) return;
      deletes(word).concat([word]).forEach(function (key) {
        if (!near.has(key)) near.set(key, []);
        near.get(key).push(word);
      });
    });
    var t = 0, x = 0;
    D.lengths.forEach(function (l) { t += l[0]; x += l[1]; });
    var n = Math.max(D.lengths.length, 1);
    avg = {title: t / n, text: x / n};
  }

  /* -- analysis (the stems come from the build: no stemmer here) --------------------------- */
  function stemOf(token) {
    var low = token.toLowerCase().replace(/’/g, "'");
    if (D.stopSet.has(low)) return null;
    if (Object.prototype.hasOwnProperty.call(D.stems, low)) return D.stems[low];
    // A word the corpus does not hold: the stem of a corpus word it inflects, or itself.
    var bases = [low.replace(/'s$/, ""), low.replace(/(ies)$/, "y"), low.replace(/(es|s|ed|ing|ly|er)$/, ""),
                 low.replace(/(ed|ing)$/, "e")];
    for (var i = 0; i < bases.length; i++) {
      if (bases[i] !== low && Object.prototype.hasOwnProperty.call(D.stems, bases[i])) return D.stems[bases[i]];
    }
    return low;
  }
  function stems(text) {
    var out = [];
    (text.match(TOKEN) || []).forEach(function (t) { var s = stemOf(t); if (s) out.push(s); });
    return out;
  }
  function titleKey(text) { return stems(text).join(" "); }
  function isNumber(stem) { return /^\d+$/.test(stem) || D.numberSet.has(stem); }

  function cleanQuery(raw) {
    var text = String(raw).normalize("NFKC").replace(CONTROL, " ").replace(/[“”„‟«»]/g, '"');
    var trailing = /\s$/.test(text) && text.trim() !== "";
    return text.split(/\s+/).filter(Boolean).join(" ") + (trailing ? " " : "");
  }

  function parseQuery(query) {
    var typing = query.length > 0 && !/\s$/.test(query) && !/"$/.test(query);
    var re = new RegExp('"([^"]*)"|' + TOKEN.source, "gu");
    var found = [], m;
    while ((m = re.exec(query)) !== null) found.push(m);
    var parts = [];
    found.forEach(function (m, i) {
      if (m[1] !== undefined) {
        var inner = m[1].trim().toLowerCase();
        var start = m.index + 1;
        if (new RegExp(TOKEN.source, "u").test(inner)) parts.push({text: inner, phrase: true, last: false, start: start, end: start + m[1].length});
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
  function correct(word) {
    if (word.length < 3 || /^\d+$/.test(word) || Object.prototype.hasOwnProperty.call(D.vocabulary, word)) return [];
    var maxdist = word.length >= 6 ? 2 : 1;
    var keys = new Set(deletes(word).concat([word]));
    if (maxdist === 2) deletes(word).forEach(function (d) { deletes(d).forEach(function (d2) { keys.add(d2); }); });
    var candidates = new Set();
    keys.forEach(function (k) { (near.get(k) || []).forEach(function (w) { candidates.add(w); }); });
    var scored = [];
    candidates.forEach(function (c) {
      var dist = editDistance(word, c, maxdist + 1);
      if (dist <= maxdist) scored.push([dist, -D.vocabulary[c], c]);
    });
    scored.sort(function (a, b) { return (a[0] - b[0]) || (a[1] - b[1]) || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0); });
    return scored.slice(0, 3).map(function (s) { return s[2]; });
  }

  /* -- the query as weighted terms (index.py: SearchIndex._groups) ---------------------------- */
  function groupsOf(parts) {
    var S = D.settings, groups = [];
    parts.forEach(function (part) {
      if (part.phrase) {
        var seq = stems(part.text);
        if (seq.length) { var t = new Map(); seq.forEach(function (s) { if (!t.has(s)) t.set(s, 1); }); groups.push({part: part, terms: t, seq: seq}); }
        return;
      }
      var own = stems(part.text), terms = new Map(), correction = null;
      if (own.length) terms.set(own[0], 1);
      var width = part.text.length === 1 ? 4 : part.text.length === 2 ? 8 : 12;
      var completions = part.last ? complete(part.text, width) : [];
      completions.forEach(function (w) { stems(w).forEach(function (s) { if (!terms.has(s)) terms.set(s, S.prefix_weight); }); });
      if (!Object.prototype.hasOwnProperty.call(D.vocabulary, part.text) && !completions.length) {
        var fixes = correct(part.text);
        correction = fixes.length ? fixes[0] : null;
        fixes.forEach(function (w) { stems(w).forEach(function (s) { if (!terms.has(s)) terms.set(s, S.fuzzy_weight); }); });
      }
      if (terms.size) groups.push({part: part, terms: terms, correction: correction, completions: completions.slice(0, 3)});
    });
    return groups;
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

  function wordings(query, suggested, groups) {
    var out = [query].concat(suggested ? [suggested] : []);
    var typing = groups.filter(function (g) { return g.completions && g.completions.length; });
    if (typing.length) {
      var last = typing[typing.length - 1];
      last.completions.forEach(function (w) { out.push(query.slice(0, last.part.start) + w + query.slice(last.part.end)); });
    }
    return out;
  }

  /* -- scoring: BM25F as Whoosh computes it ------------------------------------------------- */
  function allowed(i, filters) {
    var it = D.items[i], r = it.result;
    return (!filters.document || r.document === filters.document) && (!filters.version || r.version === filters.version) &&
      (!filters.kind || r.kind === filters.kind) && (!filters.edition || it.edition === filters.edition);
  }
  function bm25(field, term, boost, scores, matched, group, filters) {
    var list = D[field][term];
    if (!list) return;
    var S = D.settings, n = D.items.length;
    var idf = Math.log(n / (list.length + 1)) + 1;
    var fieldBoost = field === "title" ? S.title_boost : 1;
    list.forEach(function (p) {
      var i = p[0], tf = p[1];
      if (!allowed(i, filters)) return;
      var len = D.lengths[i][field === "title" ? 0 : 1];
      var norm = (1 - S.b) + S.b * len / (avg[field] || 1);
      var score = idf * (tf * (S.k1 + 1)) / (tf + S.k1 * norm) * fieldBoost * boost;
      scores.set(i, (scores.get(i) || 0) + score);
      if (!matched.has(i)) matched.set(i, {found: new Set(), title: new Set()});
      matched.get(i).found.add(group);
      if (field === "title") matched.get(i).title.add(group);
    });
  }
  function phraseHolds(i, seq) {
    var fields = [stems(D.items[i].result.title), textStems(i)];
    return fields.some(function (terms) {
      for (var s = 0; s + seq.length <= terms.length; s++) {
        var ok = true;
        for (var k = 0; k < seq.length && ok; k++) ok = terms[s + k] === seq[k];
        if (ok) return true;
      }
      return false;
    });
  }
  var textCache = new Map();
  function textStems(i) {
    if (!textCache.has(i)) textCache.set(i, stems(D.items[i].result.text));
    return textCache.get(i);
  }

  function proximity(seq, stemGroups, count, number) {
    var numeral = number ? [count - 1] : [];
    var spots = [];
    seq.forEach(function (s, pos) {
      if (stemGroups.has(s)) spots.push([pos, stemGroups.get(s)]);
      else if (number && isNumber(s)) spots.push([pos, numeral]);
    });
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

  function rank(groups, filters, exact, number) {
    var S = D.settings, scores = new Map(), matched = new Map();
    groups.forEach(function (g, gi) {
      if (g.seq && g.seq.length > 1) {
        var sub = new Map(), subMatched = new Map();
        g.seq.forEach(function (stem) { ["title", "text"].forEach(function (f) { bm25(f, stem, 1, sub, subMatched, gi, filters); }); });
        sub.forEach(function (score, i) {
          if (subMatched.get(i).found.size && phraseHolds(i, g.seq)) {
            scores.set(i, (scores.get(i) || 0) + score);
            if (!matched.has(i)) matched.set(i, {found: new Set(), title: new Set()});
            matched.get(i).found.add(gi);
            if (subMatched.get(i).title.size) matched.get(i).title.add(gi);
          }
        });
        return;
      }
      g.terms.forEach(function (weight, stem) {
        ["title", "text"].forEach(function (f) { bm25(f, stem, weight, scores, matched, gi, filters); });
      });
    });
    var ranked = [];
    scores.forEach(function (score, i) {
      var m = matched.get(i);
      var tier = exact.get(i) || (m.title.size === groups.length ? 2 : 0);
      var value = score * Math.pow(m.found.size / groups.length, S.coord_power);
      if (!D.items[i].current) value *= S.superseded;
      ranked.push([tier, value, i]);
    });
    var order = function (a, b) { return (b[0] - a[0]) || (b[1] - a[1]) || (a[2] - b[2]); };
    ranked.sort(order);
    if (groups.length > 1 || number) {
      var stemGroups = new Map();
      groups.forEach(function (g, gi) { g.terms.forEach(function (w, s) { if (!stemGroups.has(s)) stemGroups.set(s, []); stemGroups.get(s).push(gi); }); });
      var wanted = groups.length + (number ? 1 : 0);
      ranked.slice(0, S.rerank).forEach(function (item) { item[1] *= proximity(textStems(item[2]), stemGroups, wanted, number); });
      ranked.sort(order);
    }
    return ranked;
  }

  function exactOf(words, filters) {
    var keys = new Set(words.map(titleKey).filter(Boolean)), out = new Map();
    if (!keys.size) return out;
    D.items.forEach(function (it, i) {
      if (!allowed(i, filters) || !it.keys.some(function (k) { return keys.has(k); })) return;
      out.set(i, D.settings.exact_tiers[it.result.kind] || 3);
    });
    return out;
  }

  /* -- one hit per topic (index.py: _collapse and _fold) ------------------------------------- */
  function fold(topics, order) {
    var place = new Map();
    order.forEach(function (t, i) { place.set(t, i); });
    var live = new Set(order.filter(function (t) { return topics.get(t).some(function (it) { return D.items[it[2]].current; }); }));
    order.slice().forEach(function (topic) {
      if (live.has(topic) || !topics.has(topic)) return;
      var heirs = [];
      topics.get(topic).forEach(function (it) { D.items[it[2]].successors.forEach(function (s) { if (live.has(s)) heirs.push(s); }); });
      if (!heirs.length) return;
      var heir = heirs.reduce(function (a, b) { return place.get(b) < place.get(a) ? b : a; });
      topics.set(heir, topics.get(heir).concat(topics.get(topic)));
      place.set(heir, Math.min(place.get(heir), place.get(topic)));
      topics.delete(topic);
      place.delete(topic);
    });
    return Array.from(topics.keys()).sort(function (a, b) { return place.get(a) - place.get(b); });
  }

  function collapse(ranked, allVersions, limit) {
    var topics = new Map(), order = [];
    ranked.forEach(function (item) {
      var it = D.items[item[2]], key = allVersions ? it.key : it.topic;
      if (!topics.has(key)) { topics.set(key, []); order.push(key); }
      topics.get(key).push(item);
    });
    if (!allVersions) order = fold(topics, order);
    var hits = order.slice(0, limit).map(function (key) {
      var items = topics.get(key);
      var best = items.reduce(function (a, b) {
        var A = D.items[a[2]], B = D.items[b[2]];
        return (B.current > A.current || (B.current === A.current && B.vorder > A.vorder)) ? b : a;
      });
      var others = items.filter(function (it) { return it !== best; }).map(function (it) { return D.items[it[2]]; })
        .sort(function (a, b) { return a.vorder - b.vorder; });
      return {item: D.items[best[2]], exact: Math.max.apply(null, items.map(function (it) { return it[0]; })) >= 3, others: others};
    });
    return {total: order.length, hits: hits};
  }

  /* -- snippets (analysis.py: snippet) --------------------------------------------------------- */
  function escapeHtml(text) {
    return text.replace(/[&<>"']/g, function (c) { return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"}[c]; });
  }
  function snippet(text, terms, width) {
    width = width || 220;
    var flat = text.split(/\s+/).filter(Boolean).join(" ");
    if (!flat) return "";
    var hits = [], m, re = new RegExp(TOKEN.source, "gu");
    while ((m = re.exec(flat)) !== null) {
      var s = stemOf(m[0]);
      if (s && terms.has(s)) hits.push([m.index, m.index + m[0].length, s]);
    }
    var start = 0;
    if (hits.length && flat.length > width) {
      var best = 0, bestCount = -1, j = 0, counts = new Map();
      hits.forEach(function (h, i) {
        while (j < hits.length && hits[j][0] < h[0] + width - 30) { counts.set(hits[j][2], (counts.get(hits[j][2]) || 0) + 1); j++; }
        if (counts.size > bestCount) { best = i; bestCount = counts.size; }
        counts.set(h[2], counts.get(h[2]) - 1);
        if (!counts.get(h[2])) counts.delete(h[2]);
      });
      start = Math.min(Math.max(0, hits[best][0] - 40), flat.length - width);
      if (start) {
        var space = flat.indexOf(" ", start);
        start = space >= 0 && space < hits[best][0] ? space + 1 : hits[best][0];
      }
    }
    var end = Math.min(flat.length, start + width);
    if (end < flat.length) {
      var sp = flat.lastIndexOf(" ", end - 1);
      end = sp > start ? sp : end;
    }
    var out = "", pos = start;
    hits.forEach(function (h) {
      if (h[0] < start || h[1] > end) return;
      out += escapeHtml(flat.slice(pos, h[0])) + "<mark>" + escapeHtml(flat.slice(h[0], h[1])) + "</mark>";
      pos = h[1];
    });
    out += escapeHtml(flat.slice(pos, end));
    return (start ? "…" : "") + out + (end < flat.length ? "…" : "");
  }

  /* -- the answer, shaped like /api/search ------------------------------------------------------ */
  function absolute(rel) { return rel ? new URL(rel, root).href : rel; }
  function resultOf(hit, terms) {
    var r = JSON.parse(JSON.stringify(hit.item.result));
    r.url = absolute(r.url);
    if (r.api_url) r.api_url = absolute(r.api_url);
    (r.breadcrumb || []).forEach(function (c) { c.url = absolute(c.url); });
    r.snippet = snippet(r.text, terms);
    r.exact = hit.exact;
    r.also_in = hit.others.map(function (o) {
      return {version: o.result.version, short_title: o.result.version_title, id: o.result.id,
              title: o.result.title, url: absolute(o.result.url)};
    });
    var ordered = {};
    ["id", "kind", "title", "document", "version", "url", "api_url", "snippet", "text", "edition", "in_force",
     "document_title", "version_title", "exact", "citation", "breadcrumb", "also_in"].forEach(function (k) {
      if (k in r) ordered[k] = r[k];
    });
    return ordered;
  }

  function truthy(value) { return ["1", "true", "yes", "on"].indexOf(String(value).toLowerCase()) !== -1 || value === true; }

  function run(q, opts) {
    opts = opts || {};
    var S = D.settings;
    var query = cleanQuery(q || "").slice(0, S.max_query_chars);
    var limit = parseInt(opts.limit, 10);
    limit = isNaN(limit) ? S.default_limit : Math.max(1, Math.min(limit, S.max_limit));
    var filters = {document: opts.document || null, version: opts.version || null, kind: opts.kind || null, edition: opts.edition || null};
    var parts = parseQuery(query), groups = groupsOf(parts), suggested = suggestion(query, groups);
    var answer = {query: query.trim(), total: 0, results: [], suggestion: suggested};
    if (!groups.length) return answer;
    var exact = exactOf(wordings(query, suggested, groups), filters);
    var ranked = rank(groups, filters, exact, HOW_MANY.test(query));
    var found = collapse(ranked, truthy(opts.all_versions), limit);
    var terms = new Set();
    groups.forEach(function (g) { g.terms.forEach(function (w, s) { terms.add(s); }); });
    answer.total = found.total;
    answer.results = found.hits.map(function (h) { return resultOf(h, terms); });
    return answer;
  }


  /* -- the results as the server's search/_results.html renders them (for the pack's pages) ---- */
  var KIND_LABELS = {section: "Section", glossary: "Glossary", ruling: "Ruling", step: "Timing step"};
  var EXAMPLES = ["how many dilemmas do I draw", "beam personnel", "attempting missions", "commandeer a ship", "all personnel stopped"];
  var FILTERS = ["edition", "document", "version", "kind"];
  function pageLink(text, q, params) {
    var query = new URLSearchParams({q: q});
    Object.keys(params).forEach(function (k) { query.set(k, params[k]); });
    return '<a href="' + escapeHtml(root + "search/index.html?" + query.toString()) + '">' + escapeHtml(text) + "</a>";
  }
  function resultHTML(r, compact) {
    var e = escapeHtml;
    var crumbs = (r.breadcrumb || []).map(function (c) {
      return "<li>" + (compact ? e(c.title) : '<a href="' + e(c.url) + '" tabindex="-1">' + e(c.title) + "</a>") + "</li>";
    }).join("");
    var chips = (r.also_in || []).map(function (o) {
      var label = o.short_title + (o.id !== r.id ? ": " + o.title : "");
      return "<li>" + (o.url ? '<a class="chip" href="' + e(o.url) + '" tabindex="-1" title="Also found in ' + e(o.short_title) + ": " + e(o.title) + '">' + e(label) + "</a>" : '<span class="chip">' + e(label) + "</span>") + "</li>";
    }).join("");
    return '<li class="result result-' + e(r.kind) + (r.exact ? " result-exact" : "") + '">' +
      '<div class="result-head"><a class="result-title" href="' + e(r.url) + '">' + e(r.title) + '</a> ' +
      '<span class="badge badge-kind badge-' + e(r.kind) + '">' + e(KIND_LABELS[r.kind] || r.kind) + "</span></div>" +
      '<ol class="result-crumbs" aria-label="Where"><li>' + e(r.document_title) + " " + e(r.version_title) + "</li>" + crumbs + "</ol>" +
      (r.snippet ? '<p class="result-snippet">' + r.snippet + "</p>" : "") +
      '<ul class="chips" aria-label="Versions"><li><span class="chip chip-here" title="This result is from ' + e(r.version_title) + '">' +
      e(r.version_title) + (r.in_force ? " · in force" : "") + "</span></li>" + chips + "</ul></li>";
  }
  function resultsHTML(data, params) {
    var e = escapeHtml, compact = params.get("compact") === "1";
    var kept = {};
    FILTERS.concat(["all_versions"]).forEach(function (k) { var v = params.get(k); if (v && v !== "0") kept[k] = v; });
    var filtered = FILTERS.some(function (k) { return params.get(k); });
    var examples = function (p) { return EXAMPLES.map(function (x) { return pageLink(x, x, p); }).join(" · "); };
    var out = '<div class="search-results" data-total="' + data.total + '">';
    if (!data.query) {
      out += '<div class="search-hints"><p>Type a rule, a glossary term, a ruling\'s topic or a card\'s name, or ask in your own words.</p><p>Try: ' +
        examples(kept) + '</p><p class="muted">Quote words for an exact phrase: <code>"beam personnel"</code>. Misspellings are forgiven.</p></div>';
      return out + "</div>";
    }
    out += '<p class="search-summary" role="status">' + (data.total
      ? data.total + " result" + (data.total !== 1 ? "s" : "") + " for <q>" + e(data.query) + "</q>" +
        (data.total > data.results.length ? ", showing the first " + data.results.length : "")
      : "No results for <q>" + e(data.query) + "</q>") + (filtered ? " with these filters" : "") + ".</p>";
    if (data.suggestion) out += '<p class="did-you-mean">Did you mean ' + pageLink(data.suggestion, data.suggestion, kept) + "?</p>";
    if (data.results.length) {
      out += '<ol class="results' + (compact ? " results-compact" : "") + '">' + data.results.map(function (r) { return resultHTML(r, compact); }).join("") + "</ol>";
      if (data.total > data.results.length && !compact) out += "<p>" + pageLink("Show up to 100 results", data.query, Object.assign({}, kept, {limit: 100})) + "</p>";
    } else {
      out += '<ul class="search-hints">' + (filtered ? "<li>" + pageLink("Search without the filters", data.query, {}) + "</li>" : "") +
        "<li>Use fewer or other words: the card's or rule's name, or a glossary term.</li><li>Try: " + examples({}) + "</li></ul>";
    }
    return out + "</div>";
  }
  function optsOf(params) {
    var opts = {};
    FILTERS.concat(["all_versions", "limit"]).forEach(function (k) { if (params.get(k)) opts[k] = params.get(k); });
    return opts;
  }
  // search.js asks this instead of the server's /search/results.
  api.searchResultsHTML = function (params) {
    return api.search(params.get("q") || "", optsOf(params)).then(function (data) { return resultsHTML(data, params); });
  };

  // The pack's search page: the query is in the address, the answer is made here.
  document.addEventListener("DOMContentLoaded", function () {
    var target = document.getElementById("search-results");
    if (!target) return;
    var params = new URLSearchParams(window.location.search);
    var box = document.getElementById("q");
    if (box && params.get("q")) box.value = params.get("q");
    FILTERS.forEach(function (k) {
      var field = document.querySelector('[name="' + k + '"]');
      if (field && params.get(k)) field.value = params.get(k);
    });
    var all = document.querySelector('[name="all_versions"]');
    if (all && truthy(params.get("all_versions") || "")) all.checked = true;
    if (!params.get("q")) return;
    api.searchResultsHTML(params).then(function (html) { target.innerHTML = html; });
  });

  api.search = function (q, opts) { return load().then(function () { return run(q, opts); }); };
  api.searchIndexLoaded = load;
  api.escapeHtml = escapeHtml;
})();
