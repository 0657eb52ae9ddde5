/* judgekit live search: results as you type (debounced), arrow keys and Enter to open one.
   Without JavaScript the search box is a plain form that opens /search?q=. The results are
   HTML rendered by the server from the same data as /api/search, escaped there. */
(function () {
  "use strict";

  var DELAY = 120;
  var form = document.getElementById("search-form");
  var box = document.getElementById("q");
  if (!form || !box || !window.fetch) return;
  var page = document.getElementById("search-results");   // on /search: update the page itself
  var drop = document.getElementById("q-suggest");        // elsewhere: a list under the box
  var target = page || drop;
  if (!target) return;

  var timer = null;
  var asked = 0;       // the number of the latest request; older answers are dropped
  var controller = null;
  var active = -1;
  var shownFor = null;   // the question whose results the list holds
  var sent = null;       // the parameters of the latest question asked
  var KEY = "judgekitSearch";   // its place in history.state (elsewhere than /search)
  var NO_ANSWER_MS = 8000;
  var NO_CONNECTION = "No connection to the laptop: search needs the venue’s Wi-Fi. Try again when it is back.";

  if (drop && !page) {
    box.setAttribute("role", "combobox");
    box.setAttribute("aria-autocomplete", "list");
    box.setAttribute("aria-expanded", "false");
    box.setAttribute("aria-controls", "q-suggest");
  }

  function params(forPage) {
    var data = new FormData(form);   // includes the filters that join the form on /search
    var out = new URLSearchParams();
    // An empty filter names nothing (the remembered game applies); "both games" is edition=both.
    data.forEach(function (value, key) { if (value !== "") out.append(key, value); });
    if (!forPage && !page) { out.set("limit", "8"); out.set("compact", "1"); }
    return out;
  }

  function items() { return target.querySelectorAll(".result"); }

  function setActive(index) {
    var list = items();
    list.forEach(function (li, i) {
      li.classList.toggle("is-active", i === index);
      li.setAttribute("aria-selected", i === index ? "true" : "false");
    });
    active = index;
    if (index >= 0 && list[index]) {
      if (!list[index].id) list[index].id = "search-result-" + index;
      box.setAttribute("aria-activedescendant", list[index].id);
      list[index].scrollIntoView({block: "nearest"});
    } else {
      box.removeAttribute("aria-activedescendant");
    }
  }

  function open(show) {
    if (!drop || page) return;
    drop.hidden = !show;
    box.setAttribute("aria-expanded", show ? "true" : "false");
    if (!show) setActive(-1);
    // Back shows the list as the judge left it: open, or closed (Escape, a tap elsewhere).
    var kept = history.state && history.state[KEY];
    if (kept && kept.open !== show) remember({q: kept.q, fields: kept.fields, open: show});
  }

  // Elsewhere than /search the question is kept in this history entry's state, not in the
  // address (a rule page's address is its citation): Back, Forward and a reload show it again.
  function remember(shown) {
    var state = {};
    var old = history.state;
    if (old && typeof old === "object") Object.keys(old).forEach(function (k) { state[k] = old[k]; });
    if (shown) state[KEY] = shown; else delete state[KEY];
    // Safari refuses too many calls in a short time: the question is then not kept, nothing else.
    try { history.replaceState(state, ""); } catch (e) { /* keep the page working */ }
  }

  // Results past the first four are laid out when scrolled near: search.css
  // (.results > .result:nth-child(n+5)). The pack's page draws those four first (FIRST_SCREEN).
  var FIRST_SCREEN = 4;
  var drawn = 0;   // answers rendered so far: a question's later results join its own answer only
  function dress(li) { li.setAttribute("role", "option"); }
  function render(html) {
    target.innerHTML = html;
    drawn++;
    active = -1;
    box.removeAttribute("aria-activedescendant");
    items().forEach(dress);
    var list = target.querySelector(".results");
    if (list) list.setAttribute("role", "listbox");
  }
  // The pack's results past the first screenful, made after it is drawn (a few at a time):
  // added to its list.
  function renderRest(html) {
    var list = target.querySelector(".results");
    if (!list) return;
    var before = items().length;
    list.insertAdjacentHTML("beforeend", html);
    var all = items();
    for (var i = before; i < all.length; i++) dress(all[i]);
  }

  // The address follows the answer, written after it is drawn (replaceState is slow on a phone),
  // and only if it changed.
  var addressNext = null;
  function address(url) {
    var waiting = addressNext !== null;
    addressNext = url;
    if (waiting) return;
    (window.requestAnimationFrame || setTimeout)(function () {
      setTimeout(function () {
        var next = addressNext;
        addressNext = null;
        if (new URL(next, window.location.href).href !== window.location.href) history.replaceState(null, "", next);
      }, 0);
    });
  }

  function update() {
    var query = box.value;
    if (!page && query.trim() === "") { open(false); remember(null); return; }
    var number = ++asked;
    sent = params(false).toString();
    if (!page) {
      // Kept as it is asked: Back before its answer came (a tap on an earlier one) asks it again.
      var fields = [];
      new FormData(form).forEach(function (value, key) { if (key !== "q") fields.push([key, value]); });
      remember({q: query, fields: fields, open: true});
    }
    if (controller) controller.abort();
    controller = window.AbortController ? new AbortController() : null;
    // In a judge pack (no server) the pack's own search renders the same results.
    var local = window.judgekit && window.judgekit.searchResultsHTML;
    // A laptop gone from the network may never answer (no error for a long time): past
    // NO_ANSWER_MS the question is given up and said to have no connection.
    var asking = controller, gaveUp = false;
    var watch = !local && asking && setTimeout(function () { gaveUp = true; asking.abort(); }, NO_ANSWER_MS);
    var url = form.getAttribute("action") + "/results?" + params(false).toString();
    var mine = -1;   // the rendering of this question's latest answer
    function show(html) {
      clearTimeout(watch);
      if (number !== asked) return;
      render(html);
      mine = drawn;
      shownFor = query;
      if (page) {
        address(form.getAttribute("action") + "?" + params(true).toString());
      } else {
        open(true);
      }
    }
    // The pack may answer before its snippets have come: then it shows the whole answer too. On
    // the search page it answers with the first screenful, and the rest follows once drawn, a
    // few results at a time; an answer to a question asked since is not made (current).
    var rest = page && {
      count: FIRST_SCREEN,
      piece: 2 * FIRST_SCREEN,
      current: function () { return number === asked; },
      add: function (html) { if (number === asked && drawn === mine) renderRest(html); }
    };
    (local ? local(params(false), show, rest).then(show) :
      fetch(url, {headers: {"Accept": "text/html"}, signal: controller ? controller.signal : undefined})
        .then(function (response) { return response.text(); }).then(show))
      .catch(function (error) {
        // A newer question took over: nothing to say. Otherwise the laptop could not be reached
        // (the venue's Wi-Fi dropped): say so where the results go, never an empty list.
        clearTimeout(watch);
        if (local || number !== asked || (error && error.name === "AbortError" && !gaveUp)) return;
        render('<p class="search-failed" role="alert">' + NO_CONNECTION + "</p>");
        shownFor = null;   // asked again on the next keystroke or focus
        if (!page) open(true);
        document.dispatchEvent(new CustomEvent("judgekit:no-connection"));
      });
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(update, DELAY);
  }

  box.addEventListener("input", later);
  // The pack's search page answers a question sent at once and in place: opened again, it would
  // load its index and model again (seconds). On a phone the keyboard steps aside. The server's
  // page opens its own answer.
  if (page) {
    form.addEventListener("submit", function (ev) {
      if (!(window.judgekit && window.judgekit.searchResultsHTML)) return;
      ev.preventDefault();
      clearTimeout(timer);
      if (params(false).toString() !== sent) update();
      if (window.matchMedia && window.matchMedia("(pointer: coarse)").matches) box.blur();
    });
  }
  form.querySelectorAll("select, input[type=checkbox]").forEach(function (el) {
    el.addEventListener("change", later);
  });
  if (page) {
    document.querySelectorAll('[form="search-form"]').forEach(function (el) {
      if (el.tagName === "SELECT" || el.type === "checkbox") el.addEventListener("change", later);
    });
    // A query typed before this script ran (a slow network: the box is shown first) had no
    // input listener, and one typed since may still wait out its pause (the pack's search page
    // runs its scripts before its index is whole): answer it at once, once the page is whole.
    document.addEventListener("DOMContentLoaded", function () {
      var inAddress = new URLSearchParams(window.location.search).get("q") || "";
      if (box.value.trim() !== "" && box.value !== inAddress) { clearTimeout(timer); update(); }
    });
  }

  box.addEventListener("keydown", function (ev) {
    var list = items();
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      if (!list.length) return;
      ev.preventDefault();
      if (drop && !page && drop.hidden) { open(true); }
      var step = ev.key === "ArrowDown" ? 1 : -1;
      var next = active + step;
      if (next < -1) next = list.length - 1;
      if (next >= list.length) next = -1;
      setActive(next);
    } else if (ev.key === "Enter") {
      if (active >= 0 && list[active]) {
        var link = list[active].querySelector(".result-title");
        if (link) { ev.preventDefault(); window.location.href = link.href; }
      }
    } else if (ev.key === "Escape") {
      // The first Escape closes the list (a search input would also clear its text).
      if (active >= 0) { ev.preventDefault(); setActive(-1); }
      else if (drop && !page && !drop.hidden) { ev.preventDefault(); open(false); }
    }
  });

  // The question kept for this entry, back in the box; its results again if the list was open.
  // A box that holds it already (restored by the browser, or the page kept whole by the
  // back-forward cache) is not written twice, and results it still shows are not asked again.
  function restore() {
    var kept = history.state && history.state[KEY];
    if (!kept || typeof kept.q !== "string") return;
    if (box.value !== "" && box.value !== kept.q) { later(); return; }  // typed since: answer it
    box.value = kept.q;
    (kept.fields || []).forEach(function (pair) {
      var field = form.elements[pair[0]];
      if (field && "value" in field) field.value = pair[1];
    });
    if (!kept.open) { open(false); return; }
    if (shownFor === kept.q && target.innerHTML !== "") open(true); else update();
  }

  if (drop && !page) {
    document.addEventListener("click", function (ev) {
      if (!form.contains(ev.target)) open(false);
    });
    box.addEventListener("focus", function () {
      if (box.value.trim() === "") return;
      if (shownFor !== box.value) later();  // a question put back closed: its results now
      else if (items().length) open(true);
    });
    restore();
    window.addEventListener("pageshow", function (ev) { if (ev.persisted) restore(); });
  }
})();
