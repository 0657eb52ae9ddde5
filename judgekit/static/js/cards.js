/* judgekit card index: filter the list as you type. Without JavaScript the filter is a GET form
   that the server answers with the same list, already filtered. */
(function () {
  "use strict";

  var box = document.querySelector("[data-card-filter]");
  var edition = document.querySelector("[data-card-edition]");
  var count = document.querySelector("[data-card-count]");
  if (!box) return;
  var sections = document.querySelectorAll("section[data-edition]");

  function fold(text) {
    // The server's rule (judgekit.shapes.cards.fold_title): letters and digits only, lowercase,
    // so case, accents, spaces, dots, apostrophes, hyphens and the unique dot do not count.
    return text.normalize("NFKD").replace(/\p{M}/gu, "").replace(/[^\p{L}\p{N}]/gu, "").toLowerCase();
  }

  // "Did you mean": judgekit.shapes.cards.nearest_cards, step for step, on the keys the page
  // writes (data-card-keys), so the server's page and this one offer the same cards.
  var MAX_ASKED = 100, CUTOFF = 0.6, INSIDE = 0.9, WINDOW = 0.1, LIMIT = 5;

  function similarity(a, b) {
    // judgekit.nearness.ratio: (both lengths - the Indel distance) / both lengths, that is twice
    // the longest common subsequence over both lengths, in code points.
    a = Array.from(a); b = Array.from(b);
    var total = a.length + b.length;
    if (!total) return 1;
    var row = new Array(b.length + 1).fill(0);
    for (var i = 1; i <= a.length; i++) {
      var diagonal = 0;
      for (var j = 1; j <= b.length; j++) {
        var above = row[j];
        row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(row[j], row[j - 1]);
        diagonal = above;
      }
    }
    var distance = total - 2 * row[b.length];
    return (total - distance) / total;
  }

  function nearness(wanted, keys) {
    var best = 0, inside = false;
    keys.forEach(function (key) {
      best = Math.max(best, similarity(wanted, key));
      if (key.indexOf(wanted) !== -1) inside = true;
    });
    return inside ? Math.max(best, INSIDE) : best;
  }

  function nearest(section, typed) {
    typed = typed.trim();
    var size = Array.from(typed).length;
    var wanted = size > 0 && size <= MAX_ASKED ? fold(typed) : "";
    if (!wanted) return [];
    var scored = [];
    section.querySelectorAll("li[data-card-keys]").forEach(function (li) {
      var keys = li.getAttribute("data-card-keys").split(" ").filter(Boolean);
      var near = nearness(wanted, keys);
      if (near >= CUTOFF) scored.push({ near: -near, title: li.getAttribute("data-card-title"), id: keys[0], li: li });
    });
    scored.sort(function (x, y) {
      if (x.near !== y.near) return x.near - y.near;
      if (x.title !== y.title) return x.title < y.title ? -1 : 1;
      return x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
    });
    if (!scored.length) return [];
    var edge = scored[0].near + WINDOW;
    return scored.filter(function (s) { return s.near <= edge; }).slice(0, LIMIT).map(function (s) { return s.li; });
  }

  function offer(section, typed) {
    // The section's "Did you mean …?" line: links to the nearest cards, or hidden.
    var line = section.querySelector("[data-card-near]");
    if (!line) return;
    var found = nearest(section, typed);
    line.textContent = "";
    line.hidden = !found.length;
    if (!found.length) return;
    line.append("Did you mean ");
    found.forEach(function (li, n) {
      if (n) line.append(" or ");
      var link = document.createElement("a");
      link.href = li.querySelector("a").getAttribute("href");
      link.textContent = li.getAttribute("data-card-title");
      line.append(link);
    });
    line.append("?");
  }

  function apply() {
    // Every word typed must be in the title (judgekit.shapes.cards.title_matches).
    var words = box.value.split(/\s+/).map(fold).filter(Boolean);
    var wanted = edition ? edition.value.toUpperCase() : "";
    var shown = 0;
    sections.forEach(function (section) {
      var on = !wanted || section.getAttribute("data-edition") === wanted;
      section.hidden = !on;
      var here = 0;
      section.querySelectorAll("li[data-card-title]").forEach(function (li) {
        var title = fold(li.getAttribute("data-card-title"));
        var match = words.every(function (w) { return title.indexOf(w) !== -1; });
        li.hidden = !match;
        if (match) here += 1;
      });
      var none = section.querySelector("[data-card-none]");
      if (none) none.hidden = here !== 0;
      if (!here) offer(section, box.value);
      // The heading says how many it shows of its edition's cards, as the server writes it.
      var tally = section.querySelector("[data-card-tally]");
      if (tally) {
        var total = tally.getAttribute("data-total");
        tally.textContent = (here < Number(total) ? here + " of " : "") + total + " cards";
      }
      if (on) shown += here;
    });
    if (count) count.textContent = shown + (shown === 1 ? " card" : " cards");
  }

  box.addEventListener("input", apply);
  if (edition) edition.addEventListener("change", apply);
  box.form.addEventListener("submit", function (ev) { ev.preventDefault(); apply(); });
  apply();
})();
