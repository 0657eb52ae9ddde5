/* The judge pack's mission-attempt calculator: judgekit/timing/calculator.py in the browser, so a
   stepper page of the pack answers the calculator's form with no server. Each version's rules
   (duplicate, cost_counts, below_zero, the step of each rule, its label and citation) and the words
   of every open question come from timing-calculators.js, written by `judgekit build` from the
   server's own shapes (shapes/calculation.py's calculator_data and points_data), so each part's
   basis (Rule, Interpretation, Undetermined) is the server's, not a copy. */
(function () {
  "use strict";
  var script = document.currentScript;
  var root = new URL("../../", script ? script.src : window.location.href).href;
  var api = window.judgekit = window.judgekit || {};
  var TYPES = ["planet", "space", "dual"], MISSIONS = ["planet", "space"], REQUIREMENTS = ["met", "unmet"];
  var MAX_COUNT = 999, MAX_COST = 99, MAX_DILEMMAS = 100, MAX_MODIFIER = 99, MAX_DIGITS = 9;
  var FIRST_COPY = "dilemma 1 is marked :dup (a second copy), but no dilemma is revealed before it";
  var FLAGS = {dup: "duplicate", duplicate: "duplicate", placed: "placed"};
  var PARAMS = ["personnel", "overcome", "modifiers", "mission", "dilemmas", "no_personnel_after", "requirements"];

  function CalcError(message) { this.message = message; }

  // Python's repr of a short string, as the server's messages quote a parameter.
  function quoted(value) {
    value = value || "";
    if (value.length > 40) value = value.slice(0, 40) + "…";
    var q = value.indexOf("'") !== -1 && value.indexOf('"') === -1 ? '"' : "'";
    return q + value.replace(/\\/g, "\\\\").split(q).join("\\" + q) + q;
  }
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  function number(args, name, low, high, required) {
    var raw = (args.get(name) || "").trim();
    if (!raw) { if (required) throw new CalcError(name + " is required"); return null; }
    if (!/^[-+]?\d+$/.test(raw)) throw new CalcError(name + " must be a whole number, not " + quoted(raw));
    if (raw.replace(/^[-+]/, "").replace(/^0+/, "").length > MAX_DIGITS) {
      throw new CalcError(name + " is too " + (raw.charAt(0) === "-" ? "small" : "large") + ": " + quoted(raw) + " (it must be from " + low + " to " + high + ")");
    }
    var value = parseInt(raw, 10);
    if (value < low || value > high) throw new CalcError(name + " must be from " + low + " to " + high + ", not " + value);
    return value;
  }

  function parseDilemmas(raw) {
    var tokens = (raw || "").split(/[,;\n]/).map(function (t) { return t.trim(); }).filter(Boolean);
    if (tokens.length > MAX_DILEMMAS) throw new CalcError("at most " + MAX_DILEMMAS + " dilemmas, not " + tokens.length);
    var dilemmas = tokens.map(function (token, i) {
      var position = i + 1, parts = token.toLowerCase().split(/\s*:\s*|\s+/);
      var flags = parts.slice(2).map(function (p) { return FLAGS[p] || null; });
      if (parts.length < 2 || parts.length > 4 || flags.indexOf(null) !== -1 || new Set(flags).size < flags.length) {
        throw new CalcError("dilemma " + position + " " + quoted(token) + " must be TYPE:COST or TYPE:COST:dup, e.g. planet:2");
      }
      if (TYPES.indexOf(parts[0]) === -1) throw new CalcError("dilemma " + position + " has unknown type " + quoted(parts[0]) + " (planet, space or dual)");
      if (!/^\d{1,2}$/.test(parts[1])) throw new CalcError("dilemma " + position + " has cost " + quoted(parts[1]) + "; costs are whole numbers from 0 to " + MAX_COST);
      return {type: parts[0], cost: parseInt(parts[1], 10), duplicate: flags.indexOf("duplicate") !== -1, placed: flags.indexOf("placed") !== -1};
    });
    if (dilemmas.length && dilemmas[0].duplicate) throw new CalcError(FIRST_COPY);
    return dilemmas;
  }

  function parseInput(args) {
    var personnel = number(args, "personnel", 1, MAX_COUNT, true);
    var overcome = number(args, "overcome", 0, MAX_COUNT, false) || 0;
    var modifiers = number(args, "modifiers", -MAX_MODIFIER, MAX_MODIFIER, false) || 0;
    var dilemmas = parseDilemmas(args.get("dilemmas") || "");
    var mission = (args.get("mission") || "").trim().toLowerCase() || null;
    if (mission !== null && MISSIONS.indexOf(mission) === -1) throw new CalcError("mission must be planet or space, not " + quoted(mission));
    if (dilemmas.length && mission === null) throw new CalcError("mission is required with dilemmas (planet or space)");
    var after = number(args, "no_personnel_after", 0, dilemmas.length, false);
    var requirements = (args.get("requirements") || "").trim().toLowerCase() || null;
    if (requirements !== null && REQUIREMENTS.indexOf(requirements) === -1) throw new CalcError("requirements must be met or unmet, not " + quoted(requirements));
    return {personnel: personnel, overcome: overcome, mission: mission, dilemmas: dilemmas, after: after, requirements: requirements, modifiers: modifiers};
  }

  function why(rule, d, inp, total, limit) {
    if (rule === "duplicate") return "it is a second copy of the same dilemma in this attempt";
    if (rule === "type") return "it is a " + d.type + " dilemma at a " + inp.mission + " mission";
    if (rule === "cost") return "its cost " + d.cost + " would make the total " + total + ", more than the " + limit + " allowed";
    return "no personnel are left in the attempt";
  }

  function ending(inp, notes) {
    if (inp.after !== null) {
      if (inp.requirements) notes.push("The requirements were not checked: no personnel are left to meet them.");
      return ["failed", ["no_personnel", "unmet"], "No personnel are left to complete the mission: the attempt fails."];
    }
    if (inp.requirements === "met") return ["scored", ["met"], "The requirements are met: the mission is completed and its points are scored."];
    if (inp.requirements === "unmet") return ["failed", ["unmet"], "The requirements are not met: the attempt fails and all the personnel still in it are stopped."];
    return ["pending", ["met", "unmet"], "Check the mission requirements: if they are met, the mission is scored; if not, all the personnel still in the attempt are stopped."];
  }

  // What the text leaves open (timing/readings.py): the attempt runs under every reading. The
  // questions' words and order are timing-calculators.js's `points` (set by load()).
  var DEFAULT_READING = {copy_faced: false, unfaced_counts: true, cost_after_fail: true, limit_modified: true};
  var POINTS = {}, POINT_ORDER = [];
  // Reading.choices: which of a question's two readings a run took (true: the other one).
  function taken(r, point) {
    return {copy: r.copy_faced, unfaced_cost: !r.unfaced_counts, cost_after_fail: !r.cost_after_fail, limit_modified: !r.limit_modified}[point] || false;
  }
  function choices(r, seen) {
    return POINT_ORDER.filter(function (p) { return seen.has(p); }).map(function (p) { return taken(r, p) ? POINTS[p].other : POINTS[p].reading; });
  }
  function clampedLimit(config, inp) { return config.below_zero === "reading" && inp.personnel < inp.overcome; }
  var WORDS = {"faced": "faced", "overcome": "overcome without being faced", "not-allowed": "overcome without being faced"};
  var REST_OVERCOME = " All remaining dilemmas are overcome too, regardless of their cost.";
  function isV4(config) { return config.cost_counts === "faced"; }
  function limitOf(config, inp, r) {
    var announced = Math.max(0, inp.personnel - inp.overcome);
    return isV4(config) && r.limit_modified ? Math.max(0, announced + inp.modifiers) : announced;
  }
  function result(d, outcome, reasons, spent, rest, message, points) {
    return {d: d, outcome: outcome, reasons: reasons, spent: spent, rest: rest, message: message, points: points || []};
  }
  function fateV4(d, inp, spent, limit, r, shown) {
    var wrong = d.type !== "dual" && d.type !== inp.mission, points = [];
    var reasons = [["duplicate", d.duplicate], ["type", wrong]].filter(function (x) { return x[1]; }).map(function (x) { return x[0]; });
    if (spent + d.cost > limit) {
      if (reasons.length) points = ["cost_after_fail"];
      if (!reasons.length || r.cost_after_fail) reasons.push("cost");
    }
    var total = spent + d.cost;
    if (!reasons.length) {
      // An undetermined limit: say what was spent, not what is left.
      return result(d, "faced", [], total, "continue", shown !== String(limit)
        ? "Faced. Its cost is deducted: " + total + " spent of the " + shown + " allowed."
        : "Faced. Its cost is deducted: " + total + " of " + limit + " spent, " + (limit - total) + " left.");
    }
    var whys = reasons.map(function (n) { return [n, why(n, d, inp, total, shown)]; });
    var message = "Overcome without being faced: " + whys.map(function (w) { return w[1]; }).join("; ") + ".";
    var rest = reasons.indexOf("cost") !== -1 ? "overcome" : "continue";
    if (rest === "overcome") message += REST_OVERCOME;
    return Object.assign(result(d, "overcome", reasons, spent, rest, message, points), {whys: whys});
  }
  function fate2003(d, inp, spent, limit, r, shown) {
    var wrong = d.type !== "dual" && d.type !== inp.mission, total = spent + d.cost;
    var over = total > limit && (!wrong || r.unfaced_counts);
    var reasons = [["duplicate", d.duplicate], ["type", wrong], ["cost", over]].filter(function (x) { return x[1]; }).map(function (x) { return x[0]; });
    var stated = reasons.filter(function (n) { return n !== "duplicate"; });
    if (over || wrong) {
      var whys = stated.map(function (n) { return [n, why(n, d, inp, total, shown)]; });
      var message = "Overcome without being faced: " + whys.map(function (w) { return w[1]; }).join("; ") + ".";
      var counted = wrong && !over && r.unfaced_counts ? total : spent;
      if (over) message += REST_OVERCOME;
      return Object.assign(result(d, "overcome", reasons, counted, over ? "overcome" : "continue", message, wrong && d.cost ? ["unfaced_cost"] : []), {whys: whys});
    }
    if (d.duplicate) {
      return result(d, r.copy_faced ? "faced" : "not-allowed", reasons, r.copy_faced || r.unfaced_counts ? total : spent, "continue",
        "Not allowed: your opponent cannot choose more than one copy of the same dilemma. This version does not say what happens when one is revealed anyway.",
        r.copy_faced || !d.cost ? ["copy"] : ["copy", "unfaced_cost"]);
    }
    return result(d, "faced", [], total, "continue", "Faced. The chosen dilemmas so far cost " + total + " of the " + limit + " allowed.");
  }
  function runReading(config, inp, r, shown) {
    var limit = limitOf(config, inp, r), fate = isV4(config) ? fateV4 : fate2003;
    var spent = 0, restReason = null, results = [];
    inp.dilemmas.forEach(function (d, i) {
      var position = i + 1;
      if (restReason === null && inp.after !== null && position > inp.after) restReason = "no_personnel";
      if (restReason !== null) {
        var because = restReason === "cost" ? "an earlier dilemma broke the cost limit" : "no personnel are left in the attempt";
        // 1.1 and Call to Arms speak of personnel "killed or stopped by dilemmas": before the first, the editors' reading;
        // after one, that the dilemma (not another card) left no personnel is.
        var unrun = restReason === "no_personnel" && !isV4(config) ? [inp.after === 0 ? "no_personnel_first" : "no_personnel_how"] : [];
        results.push(Object.assign(result(d, "overcome", [restReason], spent, "overcome", "Overcome without being faced: " + because + ".", unrun), {position: position}));
        return;
      }
      var res = fate(d, inp, spent, limit, r, shown);
      res.position = position;
      if (clampedLimit(config, inp)) res.points = res.points.concat(["below_zero"]);
      spent = res.spent;
      if (res.rest === "overcome") restReason = "cost";
      else if (inp.after === position && position < inp.dilemmas.length) {
        res.rest = "overcome";
        res.message += " No personnel are left: the remaining dilemmas are overcome.";
        if (!isV4(config)) res.points = res.points.concat(["no_personnel_how"]);
      }
      if (res.outcome === "faced" && d.placed) {
        res.placed = true;
        res.message += " Its text placed it elsewhere, so it is not overcome and not beneath the mission.";
      }
      results.push(res);
    });
    return results;
  }
  function readingsOf(config, inp) {
    var out = [];
    if (isV4(config)) {
      [true, false].forEach(function (c) { (inp.modifiers ? [true, false] : [true]).forEach(function (m) {
        out.push(Object.assign({}, DEFAULT_READING, {cost_after_fail: c, limit_modified: m}));
      }); });
    } else {
      [false, true].forEach(function (f) { [true, false].forEach(function (u) {
        out.push(Object.assign({}, DEFAULT_READING, {copy_faced: f, unfaced_counts: u}));
      }); });
    }
    return out;
  }
  // calculator.py's _rest_undetermined: what every reading says, then what only some add (the
  // cost check, say), as undetermined, never as fact.
  function restUndetermined(res, at) {
    var whysOf = function (x) { return x.whys || []; };
    var fewest = at.reduce(function (a, b) { return whysOf(b).length < whysOf(a).length ? b : a; });
    var agreed = whysOf(fewest).map(function (w) { return w[0]; }), extra = [];
    at.forEach(function (x) { whysOf(x).forEach(function (w) { if (agreed.indexOf(w[0]) === -1 && extra.indexOf(w[1]) === -1) extra.push(w[1]); }); });
    if (!whysOf(fewest).length || !extra.length) return res.message.replace(REST_OVERCOME, "") + " Whether the remaining dilemmas are overcome too is undetermined by the text.";
    return fewest.message.replace(REST_OVERCOME, "") + " Whether the cost check applies to it as well (" + extra.join("; ") +
      "), overcoming the remaining dilemmas too, is undetermined by the text.";
  }
  function merge(runs, readings, points) {
    // runs[0] is the default reading's (readingsOf lists it first).
    var seen = new Set(points);
    return runs[0].map(function (res, i) {
      var at = runs.map(function (run) { return run[i]; });
      at.forEach(function (x) { x.points.forEach(function (p) { seen.add(p); }); });
      // calculator.py's _group: each distinct fate, the totals and the readings giving it.
      var groups = new Map();
      at.forEach(function (x, j) {
        var k = x.outcome + "\u0000" + x.rest;
        if (!groups.has(k)) groups.set(k, [x.outcome, x.rest, [], []]);
        var g = groups.get(k), said = choices(readings[j], seen).join("; ");
        if (g[2].indexOf(x.spent) === -1) g[2].push(x.spent);
        if (g[3].indexOf(said) === -1) g[3].push(said);
      });
      var spents = new Set(at.map(function (x) { return x.spent; }));
      var merged = Object.assign({}, res);
      if (groups.size > 1) {
        var outcomes = new Set(), words = [];
        groups.forEach(function (g) { outcomes.add(g[0]); if (words.indexOf(WORDS[g[0]]) === -1) words.push(WORDS[g[0]]); });
        var kinds = new Set(Array.from(outcomes).map(function (o) { return WORDS[o]; }));
        var message = kinds.size > 1
          ? "Undetermined by the text: " + words.join(" or ") + ", depending on how it is read."
          : restUndetermined(res, at);
        if (res.outcome === "not-allowed") message = res.message + " " + message;
        merged.outcome = outcomes.size === 1 || res.outcome === "not-allowed" ? res.outcome : "undetermined";
        merged.rest = new Set(Array.from(groups.values()).map(function (g) { return g[1]; })).size === 1 ? res.rest : "undetermined";
        merged.basis = "undetermined";
        merged.points = POINT_ORDER.filter(function (p) { return seen.has(p); });
        merged.message = message;
        merged.readings = Array.from(groups.values()).map(function (g) {
          return {outcome: g[0], rest: g[1], spent: g[2].sort(function (a, b) { return a - b; }), "if": g[3]};
        });
      } else if (res.points.length || spents.size > 1) {
        merged.basis = "interpretation";
        if (!res.points.length) merged.points = POINT_ORDER.filter(function (p) { return seen.has(p); });
      } else {
        merged.basis = "rule";
      }
      return merged;
    });
  }

  // calculator.py's _start_notes: which of the two took the number to nothing, and whether every
  // reading's limit is 0 (only then may nothing be spent).
  function startNotes(inp, difference, limits) {
    var total = difference + inp.modifiers;
    if (total > 0 || (total === 0 && inp.modifiers >= 0)) return [];
    var spend = limits.every(function (l) { return l === 0; }) ? " and nothing may be spent" : "";
    if (difference < 0) return ["The overcome dilemmas (" + inp.overcome + ") outnumber the personnel (" + inp.personnel + "): no dilemmas are drawn" + spend + "."];
    var where = total === 0 ? "to 0" : "below zero (" + total + ")";
    return ["The modifiers (" + (inp.modifiers > 0 ? "+" : "") + inp.modifiers + ") bring the number (" + difference + ") " + where + ": no dilemmas are drawn" + spend + "."];
  }

  function calculate(config, inp) {
    var difference = inp.personnel - inp.overcome, drawn = Math.max(0, difference + inp.modifiers);
    var readings = readingsOf(config, inp);
    var limits = [];
    readings.forEach(function (r) { var l = limitOf(config, inp, r); if (limits.indexOf(l) === -1) limits.push(l); });
    var limit = limits[0], shown = limits.join(" or ");
    var runs = readings.map(function (r) { return runReading(config, inp, r, shown); });
    var modified = inp.modifiers ? " " + (inp.modifiers > 0 ? "+" : "") + inp.modifiers + " modifiers" : "";
    var start = inp.personnel + " personnel attempting − " + inp.overcome + " overcome beneath the mission" + modified + " = " +
      (difference + inp.modifiers) + ": your opponent draws " + plural(drawn, "dilemma") + " and may spend a total cost of " +
      (limits.length > 1 ? shown + " (undetermined)" : shown) + ".";
    var notes = startNotes(inp, difference, limits);
    if (inp.dilemmas.length > drawn) notes.push(plural(inp.dilemmas.length, "dilemma") + " revealed but " + drawn + " drawn: only card text can add dilemmas to the stack.");
    var results = merge(runs, readings, limits.length > 1 ? ["limit_modified"] : []);
    var end = ending(inp, notes);
    var beneath = [];
    runs.forEach(function (run) {
      var n = inp.overcome + run.filter(function (x) { return !x.placed; }).length;
      if (beneath.indexOf(n) === -1) beneath.push(n);
    });
    var startBasis = basisOf(config, ["draw", "cost_limit"]);
    if (limits.length > 1) startBasis = basisOf(config, ["draw", "cost_limit"], {basis: "undetermined", points: ["limit_modified"]});
    else if (startPoints(config, inp).length) startBasis = basisOf(config, ["draw", "cost_limit"], {basis: "interpretation", points: startPoints(config, inp)});
    var basis = {
      start: startBasis,
      dilemmas: results.map(function (r) { return basisOf(config, r.reasons.length ? r.reasons : ["cost"], r); }),
      end: basisOf(config, end[1]),
      beneath: beneath,
    };
    basis.cited = numberCitations([basis.start].concat(basis.dilemmas, [basis.end]));
    return {drawn: drawn, limit: limit, limits: limits, start: start, results: results, end: end, notes: notes, basis: basis};
  }

  // calculator.py's _start_points: the editors' "minimum 0" where the version's words give none.
  function startPoints(config, inp) {
    var difference = inp.personnel - inp.overcome;
    return config.below_zero === "reading" && Math.min(difference, difference + inp.modifiers) < 0 ? ["below_zero"] : [];
  }

  // shapes/calculation.py's _basis: what a part rests on, the rules' citations (every section
  // its steps cite, each once, from the first step citing it) and, for a reading, the open
  // questions and each outcome.
  function basisOf(config, rules, part) {
    var numbers = [], citations = [], urls = [];
    rules.forEach(function (r) { var n = config.steps[r]; if (n && numbers.indexOf(n) === -1) numbers.push(n); });
    numbers.forEach(function (n) {
      (config.cites[n] || []).forEach(function (c) {
        if (urls.indexOf(c.url) === -1) { urls.push(c.url); citations.push(Object.assign({}, c)); }
      });
    });
    var out = {basis: part ? part.basis : "rule", citations: citations};
    if (part && part.basis !== "rule") out.points = part.points.map(function (p) { return POINTS[p]; });
    if (part && part.readings) out.readings = part.readings;
    return out;
  }

  // shapes/calculation.py's number_citations: each section cited once, numbered in the order first
  // cited, its number (n) on every part's citation of it.
  function numberCitations(parts) {
    var cited = [], byUrl = {};
    parts.forEach(function (part) {
      part.citations.forEach(function (c) {
        if (!Object.prototype.hasOwnProperty.call(byUrl, c.url)) {
          byUrl[c.url] = {n: cited.length + 1, citation: c.citation, page_editorial: c.page_editorial, url: c.url};
          cited.push(byUrl[c.url]);
        }
        c.n = byUrl[c.url].n;
      });
    });
    return cited;
  }

  /* -- the page: the server's _calculator.html result, under the form ---------------------------- */
  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) { return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]; });
  }
  var ED = "Editorial: added by the editors, not quoted from the source";
  function ed(why) { return '<abbr class="tm-ed-mark" title="' + esc(why || ED) + '">ed.</abbr>'; }
  // The server's basis macro (templates/timing/_calculator.html), from the same data.
  // The server's page_mark macro (templates/macros.html): "ed." after a page the editors read.
  function pageMark(why) { return why ? " " + ed(why) : ""; }
  // The server's refs macro: a line's sections by their numbers in the list under the answer.
  function refsHtml(part) {
    return part.citations.map(function (c) {
      return ' <a class="tm-cite-ref" href="#calc-cite-' + c.n + '" aria-label="rule ' + c.n + ' cited under the answer">[' + c.n + "]</a>";
    }).join("");
  }
  function citedHtml(cited) {
    if (!cited.length) return "";
    return '<div class="tm-calc-cited"><p class="tm-calc-cited-label">Rules cited</p><ol>' + cited.map(function (c) {
      return '<li id="calc-cite-' + c.n + '"><span class="tm-cite-n">[' + c.n + "]</span> " + '<a href="' + esc(root + (FILES[c.url] || "")) + '">' +
        esc(c.citation) + "</a>" + pageMark(c.page_editorial) + "</li>";
    }).join("") + "</ol></div>";
  }
  function basisHtml(part) {
    var html = '<div class="tm-basis tm-basis-' + esc(part.basis) + '">';
    if (part.basis === "rule") return html + '<span class="tm-basis-label">Rule</span>' + refsHtml(part) + "</div>";
    var interpretation = part.basis === "interpretation";
    html += '<span class="tm-basis-label">' + (interpretation ? "Interpretation " + ed() : "Undetermined by the text") + "</span>" + refsHtml(part) + "<ul>";
    html += part.points.map(function (p) { return "<li>" + (interpretation ? "Read as: " + esc(p.reading) + ". " : "") + esc(p.why) + "</li>"; }).join("");
    html += (part.readings || []).map(function (r) {
      return "<li>" + esc(r.outcome) + (r.rest === "overcome" ? ", the rest overcome" : "") + " (total " + r.spent.join(" or ") + ") if " + esc(r["if"].join(", or if ")) + ".</li>";
    }).join("");
    return html + "</ul></div>";
  }
  // The inputs given (the calculator's parameters that are not blank), in their order.
  function keptOf(args) {
    var kept = new URLSearchParams();
    PARAMS.forEach(function (k) { if ((args.get(k) || "").trim()) kept.set(k, args.get(k)); });
    return kept;
  }
  function render(section, config, seqId, version, args) {
    var old = section.querySelector(".tm-calc-result, .tm-calc-error");
    if (old) old.remove();
    var kept = keptOf(args);
    function link(numberOfStep) {
      var name = "~step=" + numberOfStep.replace(/[^A-Za-z0-9._-]/g, "") + ",version=" + version.replace(/[^A-Za-z0-9._-]/g, "");
      return root + "timing/" + encodeURIComponent(seqId) + "/" + name + "/index.html?" + kept.toString();
    }
    function steplinks(rules) {
      var numbers = [];
      rules.forEach(function (r) { var n = config.steps[r]; if (n && numbers.indexOf(n) === -1) numbers.push(n); });
      return numbers.map(function (n) { return '<a href="' + esc(link(n)) + '">step ' + esc(config.labels[n] || n) + "</a>"; }).join(", ");
    }
    var html;
    try {
      var calc = calculate(config, parseInput(args));
      html = '<div class="tm-calc-result" aria-live="polite" tabindex="-1"><p class="tm-calc-start"><strong>Dilemmas drawn: <span data-calc="drawn">' +
        calc.drawn + '</span>. Cost limit: <span data-calc="limit">' + (calc.limits.length > 1 ? "undetermined (" + calc.limits.join(" or ") + ")" : calc.limit) + "</span>.</strong> " + esc(calc.start) +
        ' <span class="muted">(' + steplinks(["draw", "cost_limit"]) + ")</span></p>" + basisHtml(calc.basis.start);
      if (calc.results.length) {
        html += '<table class="tm-calc-table"><caption class="visually-hidden">Each revealed dilemma</caption><thead><tr><th scope="col">#</th><th scope="col">Dilemma</th><th scope="col">Outcome</th><th scope="col">Spent</th><th scope="col">What happens</th><th scope="col">Rule</th></tr></thead><tbody>' +
          calc.results.map(function (r, i) {
            return '<tr class="tm-outcome-' + r.outcome + '"><td>' + r.position + "</td><td>" + esc(r.d.type) + ", cost " + r.d.cost +
              (r.d.duplicate ? ", second copy" : "") + (r.d.placed ? ", placed elsewhere" : "") + '</td><td><strong data-outcome="' + r.outcome + '">' + r.outcome + "</strong></td><td>" +
              r.spent + " / " + calc.limits.join(" or ") + "</td><td>" + esc(r.message) + basisHtml(calc.basis.dilemmas[i]) + "</td><td>" + steplinks(r.reasons.length ? r.reasons : ["cost"]) + "</td></tr>";
          }).join("") + "</tbody></table>";
      }
      var result = calc.end[0];
      html += '<p class="tm-calc-end tm-end-' + result + '"><strong data-calc="end">' + result.charAt(0).toUpperCase() + result.slice(1) + ".</strong> " +
        esc(calc.end[2]) + ' <span class="muted">(' + steplinks(calc.end[1]) + ")</span></p>" + basisHtml(calc.basis.end) +
        '<p class="tm-calc-beneath">Overcome dilemmas beneath the mission afterwards: <strong data-calc="beneath">' +
        (calc.basis.beneath.length === 1 ? calc.basis.beneath[0] : "undetermined (" + calc.basis.beneath.join(" or ") + ")") +
        '</strong> <span class="muted">(the next attempt subtracts these)</span></p>' +
        calc.notes.map(function (n) { return '<p class="tm-note"><span class="tm-note-label">Note</span> ' + esc(n) + "</p>"; }).join("") +
        citedHtml(calc.basis.cited) + "</div>";
    } catch (e) {
      if (!(e instanceof CalcError)) throw e;
      html = '<p class="tm-calc-error" role="alert" tabindex="-1">' + esc(e.message) + "</p>";
    }
    // Above the form, as the server's page draws it (the answer first, where the judge looks).
    section.querySelector("form.tm-calc-form").insertAdjacentHTML("beforebegin", html);
  }

  var FILES = {};
  // The open questions' words and order, and where cited pages are; each version's calculators.
  function loaded(all) {
    POINTS = all.points;
    POINT_ORDER = Object.keys(all.points);
    FILES = all.files;
    return all.sequences;
  }
  function load() {
    return new Promise(function (resolve, reject) {
      if (self.JUDGEKIT_CALCULATORS) { resolve(loaded(self.JUDGEKIT_CALCULATORS)); return; }
      var tag = document.createElement("script");
      tag.src = root + "timing-calculators.js";
      tag.onload = function () { resolve(loaded(self.JUDGEKIT_CALCULATORS)); };
      tag.onerror = function () { reject(new Error("timing-calculators.js did not load")); };
      document.head.appendChild(tag);
    });
  }

  api.calculate = function (sequence, version, params) {
    return load().then(function (all) {
      var config = (all[sequence] || {})[version];
      if (!config) throw new Error("no calculator for " + sequence + " " + version);
      return calculate(config, parseInput(new URLSearchParams(params)));
    });
  };

  // Answer the form's inputs on this page; resolves false when there is no calculator for it.
  function answer(form, args) {
    var seqId = decodeURIComponent((window.location.pathname.match(/\/timing\/([^/]+)\//) || [])[1] || "");
    var version = form.querySelector('[name="version"]').value;
    return load().then(function (all) {
      var config = (all[seqId] || {})[version];
      if (!config) return false;
      render(form.closest(".tm-calc"), config, seqId, version, args);
      return true;
    });
  }

  // The address that answers the same when reloaded or shared: this page's own, with the inputs
  // in its query. Its folder stays (the page's links are relative to it, and a file: page may
  // change only its query); over http(s) without "index.html", which a static host and the
  // service worker (sw.js: candidates) serve for the folder.
  function addressOf(kept, hash) {
    var path = window.location.pathname;
    if (window.location.protocol !== "file:") path = path.replace(/\/index\.html$/, "/");
    return path + (kept.toString() ? "?" + kept.toString() : "") + hash;
  }
  function keep(kept, hash) {
    try { history.replaceState(history.state, "", addressOf(kept, hash)); } catch (e) { /* the answer stands */ }
  }

  // Calculate answers in place, as on the server. Submitting the form would ask for the
  // sequence's own page with the inputs in its query: a static host sends that page as it was
  // written (no answer, the first step), and only pack.js's redirect to the step's page, on a
  // reload, brought the answer back. The capture phase runs before any other submit handler.
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.matches || !form.matches("form.tm-calc-form")) return;
    ev.preventDefault();
    ev.stopImmediatePropagation();
    var args = new URLSearchParams(new FormData(form));
    var kept = keptOf(args);
    answer(form, args).then(function (done) {
      if (!done) { form.submit(); return; }
      // A reload, a bookmark, a shared link or Back shows the same answer.
      keep(kept, "#calc");
      // In view and focused, as timing.js shows the server's answer: a phone shows the change.
      var shown = form.closest(".tm-calc").querySelector(".tm-calc-result, .tm-calc-error");
      if (shown) { shown.scrollIntoView({block: "start"}); shown.focus({preventScroll: true}); }
    }, function () { form.submit(); });
  }, true);

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form.tm-calc-form");
    var args = new URLSearchParams(window.location.search);
    if (!form || !PARAMS.some(function (k) { return (args.get(k) || "").trim(); })) return;
    PARAMS.forEach(function (k) { var field = form.querySelector('[name="' + k + '"]'); if (field && args.get(k)) field.value = args.get(k); });
    var kept = keptOf(args);
    // Answered from the address (a step's link, a reload, a shared link): the address as Calculate
    // writes it, where the judge was on the page (the step, or the answer).
    answer(form, args).then(function (done) { if (done) keep(kept, window.location.hash); });
  });
})();
