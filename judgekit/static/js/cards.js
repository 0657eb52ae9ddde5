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
  var MAX_ASKED = 100, SHORTEST_INSIDE = 3, SHORTEST_START = 8, LIMIT = 5;

  function slips(a, b) {
    // judgekit.nearness.slips: letters left out, added, changed or two side by side swapped,
    // each one slip (the optimal string alignment distance), in code points.
    a = Array.from(a); b = Array.from(b);
    var before = null, row = [], i, j;
    for (j = 0; j <= b.length; j++) row.push(j);
    for (i = 1; i <= a.length; i++) {
      var next = [i];
      for (j = 1; j <= b.length; j++) {
        var best = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (before && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2] + 1);
        next.push(best);
      }
      before = row; row = next;
    }
    return row[b.length];
  }

  function allowed(wanted) {
    // judgekit.shapes.cards.slips_allowed: none in three letters, one up to seven, two beyond.
    var size = Array.from(wanted).length;
    return size <= 3 ? 0 : size <= 7 ? 1 : 2;
  }

  function slipsTo(wanted, keys) {
    // judgekit.shapes.cards.slips_to: a key whole, or (typed long enough) its start; typed found
    // whole inside a key is no slip.
    var size = Array.from(wanted).length;
    if (size >= SHORTEST_INSIDE && keys.some(function (key) { return key.indexOf(wanted) !== -1; })) return 0;
    var best = Infinity;
    keys.forEach(function (key) {
      best = Math.min(best, slips(wanted, key));
      if (size >= SHORTEST_START) best = Math.min(best, slips(wanted, Array.from(key).slice(0, size).join("")));
    });
    return best;
  }

  function nearest(section, typed) {
    typed = typed.trim();
    var size = Array.from(typed).length;
    var wanted = size > 0 && size <= MAX_ASKED ? fold(typed) : "";
    if (!wanted) return [];
    var most = allowed(wanted), scored = [];
    section.querySelectorAll("li[data-card-keys]").forEach(function (li) {
      var keys = li.getAttribute("data-card-keys").split(" ").filter(Boolean);
      var count = slipsTo(wanted, keys);
      if (count <= most) scored.push({ slips: count, title: li.getAttribute("data-card-title"), id: keys[0], li: li });
    });
    scored.sort(function (x, y) {
      if (x.slips !== y.slips) return x.slips - y.slips;
      if (x.title !== y.title) return x.title < y.title ? -1 : 1;
      return x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
    });
    if (!scored.length) return [];
    var fewest = scored[0].slips;
    return scored.filter(function (s) { return s.slips === fewest; }).slice(0, LIMIT).map(function (s) { return s.li; });
  }

  function link(li) {
    var a = document.createElement("a");
    a.href = li.querySelector("a").getAttribute("href");
    a.textContent = li.getAttribute("data-card-title");
    return a;
  }

  function matches(li, words) {
    // Every word typed is in the title (judgekit.shapes.cards.title_matches).
    var title = fold(li.getAttribute("data-card-title"));
    return words.every(function (w) { return title.indexOf(w) !== -1; });
  }

  function elsewhere(section, typed, words, alone, nearHere) {
    // judgekit.shapes.cards.other_game_cards: where this game alone is shown and no card of it
    // matches, the other game's cards whose titles hold the words, else (no card of this game
    // being near either) its nearest cards.
    var line = section.querySelector("[data-card-elsewhere]");
    if (!line) return;
    line.textContent = "";
    var other = null;
    sections.forEach(function (s) { if (s !== section) other = s; });
    var found = [], more = 0;
    if (alone && other && typed.trim()) {
      found = Array.from(other.querySelectorAll("li[data-card-title]")).filter(function (li) { return matches(li, words); });
      more = Math.max(0, found.length - LIMIT);
      found = found.length ? found.slice(0, LIMIT) : nearHere ? [] : nearest(other, typed);
    }
    line.hidden = !found.length;
    if (!found.length) return;
    var game = other.getAttribute("data-edition");
    line.append(game + " has ");
    found.forEach(function (li, n) {
      if (n) line.append(n === found.length - 1 && !more ? " and " : ", ");
      line.append(link(li));
    });
    if (more) {
      line.append(" and ");
      var all = document.createElement("a");
      var query = new URLSearchParams({q: typed, edition: game.toLowerCase()});
      all.href = window.location.pathname + "?" + query.toString();
      all.textContent = more + " more";
      line.append(all);
    }
    line.append(".");
  }

  function offer(section, typed) {
    // The section's "Did you mean …?" line: links to the nearest cards, or hidden; whether any.
    var line = section.querySelector("[data-card-near]");
    var found = nearest(section, typed);
    if (!line) return found.length > 0;
    line.textContent = "";
    line.hidden = !found.length;
    if (!found.length) return false;
    line.append("Did you mean ");
    found.forEach(function (li, n) {
      if (n) line.append(" or ");
      line.append(link(li));
    });
    line.append("?");
    return true;
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
        var match = matches(li, words);
        li.hidden = !match;
        if (match) here += 1;
      });
      var none = section.querySelector("[data-card-none]");
      if (none) none.hidden = here !== 0;
      if (!here) {
        var near = offer(section, box.value);
        elsewhere(section, box.value, words, on && !!wanted, near);
      }
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

  // The filter in the address (q and edition, as the server's form sends them), replaced as the
  // judge types, so a reload or a shared link shows the same list.
  function remember() {
    var query = new URLSearchParams(window.location.search);
    query.delete("q"); query.delete("edition");
    if (box.value) query.set("q", box.value);
    if (edition && edition.value) query.set("edition", edition.value);
    var text = query.toString();
    try {
      history.replaceState(history.state, "", window.location.pathname + (text ? "?" + text : "") + window.location.hash);
    } catch (e) { /* a page opened from a file may not change its address: the list stands */ }
  }
  function changed() { apply(); remember(); }

  // An address's filter (a judge pack's page is the same file whatever its query, so the page
  // itself reads it): the server's page already holds it in the box and the list.
  var asked = new URLSearchParams(window.location.search);
  if (asked.has("q") && box.value !== asked.get("q")) box.value = (asked.get("q") || "").slice(0, 200);
  if (edition && asked.has("edition")) {
    var slug = (asked.get("edition") || "").toLowerCase();
    if (Array.from(edition.options).some(function (o) { return o.value === slug; })) edition.value = slug;
  }

  box.addEventListener("input", changed);
  if (edition) edition.addEventListener("change", changed);
  box.form.addEventListener("submit", function (ev) { ev.preventDefault(); changed(); });
  apply();
})();
