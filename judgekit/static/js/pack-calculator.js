/* The judge pack's mission-attempt calculator: judgekit/timing/calculator.py in the browser, so a
   stepper page of the pack answers the calculator's form with no server. Each version's rules
   (duplicate, cost_counts, the step of each rule) come from timing-calculators.js, written by
   `judgekit build` from the timing files. */
(function () {
  "use strict";
  var script = document.currentScript;
  var root = new URL("../../", script ? script.src : window.location.href).href;
  var api = window.judgekit = window.judgekit || {};
  var TYPES = ["planet", "space", "dual"], MISSIONS = ["planet", "space"], REQUIREMENTS = ["met", "unmet"];
  var MAX_COUNT = 999, MAX_COST = 99, MAX_DILEMMAS = 100;
  var PARAMS = ["personnel", "overcome", "mission", "dilemmas", "no_personnel_after", "requirements"];

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
    if (!/^-?\d{1,9}$/.test(raw)) throw new CalcError(name + " must be a whole number, not " + quoted(raw));
    var value = parseInt(raw, 10);
    if (value < low || value > high) throw new CalcError(name + " must be from " + low + " to " + high + ", not " + value);
    return value;
  }

  function parseDilemmas(raw) {
    var tokens = (raw || "").split(/[,;\n]/).map(function (t) { return t.trim(); }).filter(Boolean);
    if (tokens.length > MAX_DILEMMAS) throw new CalcError("at most " + MAX_DILEMMAS + " dilemmas, not " + tokens.length);
    return tokens.map(function (token, i) {
      var position = i + 1, parts = token.toLowerCase().split(/\s*:\s*|\s+/);
      var flag = parts.length === 3 ? parts[2] : "";
      if ((parts.length !== 2 && parts.length !== 3) || ["", "dup", "duplicate"].indexOf(flag) === -1) {
        throw new CalcError("dilemma " + position + " " + quoted(token) + " must be TYPE:COST or TYPE:COST:dup, e.g. planet:2");
      }
      if (TYPES.indexOf(parts[0]) === -1) throw new CalcError("dilemma " + position + " has unknown type " + quoted(parts[0]) + " (planet, space or dual)");
      if (!/^\d{1,2}$/.test(parts[1])) throw new CalcError("dilemma " + position + " has cost " + quoted(parts[1]) + "; costs are whole numbers from 0 to " + MAX_COST);
      return {type: parts[0], cost: parseInt(parts[1], 10), duplicate: !!flag};
    });
  }

  function parseInput(args) {
    var personnel = number(args, "personnel", 1, MAX_COUNT, true);
    var overcome = number(args, "overcome", 0, MAX_COUNT, false) || 0;
    var dilemmas = parseDilemmas(args.get("dilemmas") || "");
    var mission = (args.get("mission") || "").trim().toLowerCase() || null;
    if (mission !== null && MISSIONS.indexOf(mission) === -1) throw new CalcError("mission must be planet or space, not " + quoted(mission));
    if (dilemmas.length && mission === null) throw new CalcError("mission is required with dilemmas (planet or space)");
    var after = number(args, "no_personnel_after", 0, dilemmas.length, false);
    var requirements = (args.get("requirements") || "").trim().toLowerCase() || null;
    if (requirements !== null && REQUIREMENTS.indexOf(requirements) === -1) throw new CalcError("requirements must be met or unmet, not " + quoted(requirements));
    return {personnel: personnel, overcome: overcome, mission: mission, dilemmas: dilemmas, after: after, requirements: requirements};
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

  function outcomeOf(config, inp, d, spent, limit) {
    var reasons = [];
    if (d.duplicate) reasons.push("duplicate");
    if (d.type !== "dual" && d.type !== inp.mission) reasons.push("type");
    if (spent + d.cost > limit) reasons.push("cost");
    var total = spent + d.cost;
    var stated = reasons.filter(function (r) { return !(r === "duplicate" && config.duplicate === "not-allowed"); });
    // Version 4 deducts only a dilemma that passes; 2003 limits what was chosen.
    if (reasons.indexOf("cost") === -1 && (config.cost_counts === "chosen" || !reasons.length)) spent = total;
    var outcome, message, broke = false;
    if (stated.length) {
      outcome = "overcome";
      message = "Overcome without being faced: " + stated.map(function (r) { return why(r, d, inp, total, limit); }).join("; ") + ".";
      if (stated.indexOf("cost") !== -1) { broke = true; message += " All remaining dilemmas are overcome too, regardless of their cost."; }
    } else if (reasons.length) {
      outcome = "not-allowed";
      message = "Not allowed: your opponent cannot choose more than one copy of the same dilemma. This version does not say what happens when one is revealed anyway.";
    } else {
      outcome = "faced";
      message = config.cost_counts === "chosen"
        ? "Faced. The chosen dilemmas so far cost " + spent + " of the " + limit + " allowed."
        : "Faced. Its cost is deducted: " + spent + " of " + limit + " spent, " + (limit - spent) + " left.";
    }
    return {outcome: outcome, reasons: reasons, spent: spent, message: message, broke: broke};
  }

  function calculate(config, inp) {
    var difference = inp.personnel - inp.overcome, limit = Math.max(0, difference), drawn = limit;
    var start = inp.personnel + " personnel attempting − " + inp.overcome + " overcome beneath the mission = " + difference +
      ": your opponent draws " + plural(drawn, "dilemma") + " and may spend a total cost of " + limit + ".";
    var notes = [];
    if (difference < 0) notes.push("The overcome dilemmas (" + inp.overcome + ") outnumber the personnel (" + inp.personnel + "): no dilemmas are drawn and nothing may be spent.");
    if (inp.dilemmas.length > drawn) notes.push(plural(inp.dilemmas.length, "dilemma") + " revealed but " + drawn + " drawn: only card text can add dilemmas to the stack.");
    var spent = 0, results = [], restReason = null;
    inp.dilemmas.forEach(function (d, i) {
      var position = i + 1;
      if (restReason === null && inp.after !== null && position > inp.after) restReason = "no_personnel";
      if (restReason !== null) {
        var because = restReason === "cost" ? "an earlier dilemma broke the cost limit" : "no personnel are left in the attempt";
        results.push({position: position, d: d, outcome: "overcome", reasons: [restReason], spent: spent, rest: "overcome", message: "Overcome without being faced: " + because + "."});
        return;
      }
      var r = outcomeOf(config, inp, d, spent, limit);
      spent = r.spent;
      if (r.broke) restReason = "cost";
      var rest = restReason === "cost" ? "overcome" : "continue";
      if (inp.after === position && rest === "continue" && position < inp.dilemmas.length) {
        rest = "overcome";
        r.message += " No personnel are left: the remaining dilemmas are overcome.";
      }
      results.push({position: position, d: d, outcome: r.outcome, reasons: r.reasons, spent: spent, rest: rest, message: r.message});
    });
    var end = ending(inp, notes);
    return {drawn: drawn, limit: limit, start: start, results: results, end: end, notes: notes};
  }

  /* -- the page: the server's _calculator.html result, under the form ---------------------------- */
  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) { return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]; });
  }
  function render(section, config, seqId, version, args) {
    var old = section.querySelector(".tm-calc-result, .tm-calc-error");
    if (old) old.remove();
    var kept = new URLSearchParams();
    PARAMS.forEach(function (k) { if ((args.get(k) || "").trim()) kept.set(k, args.get(k)); });
    function link(numberOfStep) {
      var name = "~step=" + numberOfStep.replace(/[^A-Za-z0-9._-]/g, "") + ",version=" + version.replace(/[^A-Za-z0-9._-]/g, "");
      return root + "timing/" + encodeURIComponent(seqId) + "/" + name + "/index.html?" + kept.toString();
    }
    function steplinks(rules) {
      var numbers = [];
      rules.forEach(function (r) { var n = config.steps[r]; if (n && numbers.indexOf(n) === -1) numbers.push(n); });
      return numbers.map(function (n) { return '<a href="' + esc(link(n)) + '">step ' + esc(n) + "</a>"; }).join(", ");
    }
    var html;
    try {
      var calc = calculate(config, parseInput(args));
      html = '<div class="tm-calc-result" aria-live="polite"><p class="tm-calc-start"><strong>Dilemmas drawn: <span data-calc="drawn">' +
        calc.drawn + '</span>. Cost limit: <span data-calc="limit">' + calc.limit + "</span>.</strong> " + esc(calc.start) +
        ' <span class="muted">(' + steplinks(["draw", "cost_limit"]) + ")</span></p>";
      if (calc.results.length) {
        html += '<table class="tm-calc-table"><caption class="visually-hidden">Each revealed dilemma</caption><thead><tr><th scope="col">#</th><th scope="col">Dilemma</th><th scope="col">Outcome</th><th scope="col">Spent</th><th scope="col">What happens</th><th scope="col">Rule</th></tr></thead><tbody>' +
          calc.results.map(function (r) {
            return '<tr class="tm-outcome-' + r.outcome + '"><td>' + r.position + "</td><td>" + esc(r.d.type) + ", cost " + r.d.cost +
              (r.d.duplicate ? ", second copy" : "") + '</td><td><strong data-outcome="' + r.outcome + '">' + r.outcome + "</strong></td><td>" +
              r.spent + " / " + calc.limit + "</td><td>" + esc(r.message) + "</td><td>" + steplinks(r.reasons.length ? r.reasons : ["cost"]) + "</td></tr>";
          }).join("") + "</tbody></table>";
      }
      var result = calc.end[0];
      html += '<p class="tm-calc-end tm-end-' + result + '"><strong data-calc="end">' + result.charAt(0).toUpperCase() + result.slice(1) + ".</strong> " +
        esc(calc.end[2]) + ' <span class="muted">(' + steplinks(calc.end[1]) + ")</span></p>" +
        calc.notes.map(function (n) { return '<p class="tm-note"><span class="tm-note-label">Note</span> ' + esc(n) + "</p>"; }).join("") + "</div>";
    } catch (e) {
      if (!(e instanceof CalcError)) throw e;
      html = '<p class="tm-calc-error" role="alert">' + esc(e.message) + "</p>";
    }
    section.insertAdjacentHTML("beforeend", html);
  }

  function load() {
    return new Promise(function (resolve, reject) {
      if (self.JUDGEKIT_CALCULATORS) { resolve(self.JUDGEKIT_CALCULATORS); return; }
      var tag = document.createElement("script");
      tag.src = root + "timing-calculators.js";
      tag.onload = function () { resolve(self.JUDGEKIT_CALCULATORS); };
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

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form.tm-calc-form");
    var args = new URLSearchParams(window.location.search);
    if (!form || !PARAMS.some(function (k) { return (args.get(k) || "").trim(); })) return;
    var seqId = (window.location.pathname.match(/\/timing\/([^/]+)\//) || [])[1];
    var version = form.querySelector('[name="version"]').value;
    PARAMS.forEach(function (k) { var field = form.querySelector('[name="' + k + '"]'); if (field && args.get(k)) field.value = args.get(k); });
    load().then(function (all) {
      var config = (all[decodeURIComponent(seqId || "")] || {})[version];
      if (config) render(form.closest(".tm-calc"), config, decodeURIComponent(seqId), version, args);
    });
  });
})();
