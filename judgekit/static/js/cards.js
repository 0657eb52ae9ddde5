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
