// The version picker: offer only the chosen document's versions. Without this script every
// version is listed, grouped by document, and the server checks the choice.
(function () {
  "use strict";
  document.querySelectorAll("form[data-df-pick]").forEach(function (form) {
    var docSelect = form.querySelector("[data-df-document]");
    var versionSelects = form.querySelectorAll("[data-df-version]");
    if (!docSelect) return;

    function sync(resetChoice) {
      var doc = docSelect.value;
      versionSelects.forEach(function (select) {
        var options = [];
        select.querySelectorAll("optgroup").forEach(function (group) {
          var mine = group.getAttribute("data-document") === doc;
          group.hidden = !mine;
          group.disabled = !mine;
          if (mine) options = Array.prototype.slice.call(group.querySelectorAll("option"));
        });
        var current = select.selectedOptions[0];
        if (!options.length) return;
        if (resetChoice || !current || options.indexOf(current) === -1) {
          // From: the release before the latest; to: the latest.
          var pick = select.name === "from" ? options[Math.max(options.length - 2, 0)] : options[options.length - 1];
          pick.selected = true;
        }
      });
    }

    docSelect.addEventListener("change", function () { sync(true); });
    sync(false);
  });
})();

// The summary boxes filter the changes in place. Without this script each box is a link to the
// same page filtered by the server (?show=kind), so the filter works either way.
(function () {
  "use strict";
  var list = document.querySelector("[data-df-changes]");
  if (!list) return;
  // A pack page holding every view has a notice per view (their links differ): all follow.
  var notices = document.querySelectorAll("[data-df-filtered]");
  var kinds = ["all", "changed", "added", "removed", "renamed", "moved"];

  function current() {
    for (var i = 0; i < kinds.length; i++) {
      if (list.classList.contains("df-show-" + kinds[i])) return kinds[i];
    }
    return "all";
  }

  function apply(kind, href) {
    kinds.forEach(function (k) { list.classList.remove("df-show-" + k); });
    list.classList.add("df-show-" + kind);
    document.querySelectorAll("[data-df-filter]").forEach(function (link) {
      if (link.closest("[data-df-filtered]")) return;
      if (link.getAttribute("data-df-filter") === kind) link.setAttribute("aria-current", "true");
      else link.removeAttribute("aria-current");
    });
    notices.forEach(function (notice) {
      notice.hidden = kind === "all";
      var name = notice.querySelector("[data-df-filter-name]");
      if (name) name.textContent = kind;
    });
    if (href && window.history && window.history.replaceState) {
      window.history.replaceState(window.history.state, "", href);  // keeps search.js's question
    }
  }

  // A page the pack stored once for every filter: the filter in the address applies here.
  function asked() {
    var kind = new URLSearchParams(window.location.search).get("show");
    return kind && kinds.indexOf(kind) !== -1 ? kind : "all";
  }
  if (asked() !== current()) apply(asked(), null);
  // Back and Forward between a pack page's views (pushed in place): the address's filter again.
  window.addEventListener("popstate", function () {
    if (asked() !== current()) apply(asked(), null);
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-df-filter]");
    if (link) {
      event.preventDefault();
      apply(link.getAttribute("data-df-filter"), link.getAttribute("href"));
      list.scrollIntoView({ block: "start" });
      return;
    }
    // A jump to a change the filter hides shows every change first.
    var jump = event.target.closest("a[data-df-jump]");
    if (!jump) return;
    var id = decodeURIComponent(jump.hash.slice(1));
    var target = document.getElementById(id);
    if (target && current() !== "all" && target.getAttribute("data-status") !== current()) {
      // The box of the view shown (a pack page holds one per view, the others not displayed).
      var all = Array.prototype.filter.call(
        document.querySelectorAll('.df-counts a[data-df-filter="all"]'),
        function (a) { return a.getClientRects().length > 0; })[0];
      apply("all", all ? all.getAttribute("href") + "#" + id : null);
      event.preventDefault();
      target.scrollIntoView({ block: "start" });
    }
  });
})();

// A pack page holding a comparison's or history's four views (pack/views.py): diff.css shows the
// parts of the view diff-view.js named; here the ids move onto the parts shown, so a link to a
// change (#anchor) lands on it, and the layout and typography toggles switch views in place.
(function () {
  "use strict";
  var root = document.documentElement;
  if (!document.querySelector("[data-pv]") || !root.hasAttribute("data-pv-key")) return;

  function shownIn(node, key) {
    for (var part = node.closest("[data-pv]"); part; part = part.parentElement && part.parentElement.closest("[data-pv]")) {
      if (part.getAttribute("data-pv").split(" ").indexOf(key) === -1) return false;
    }
    return true;
  }

  function keyOf(search) {
    var params = new URLSearchParams(search);
    return (params.get("view") === "side" ? "side" : "inline") + "-" +
      (params.get("typography") === "show" ? "show" : "hide");
  }

  function apply(key) {
    root.setAttribute("data-pv-key", key);
    // Ids off the hidden parts first, so that no id is on two elements at once.
    var nodes = Array.prototype.slice.call(document.querySelectorAll("[data-pv] [id], [data-pv][id], [data-pv-id]"));
    var on = nodes.filter(function (node) { return shownIn(node, key); });
    nodes.forEach(function (node) {
      if (on.indexOf(node) === -1 && node.hasAttribute("id")) {
        node.setAttribute("data-pv-id", node.id);
        node.removeAttribute("id");
      }
    });
    on.forEach(function (node) {
      if (node.hasAttribute("data-pv-id")) {
        node.id = node.getAttribute("data-pv-id");
        node.removeAttribute("data-pv-id");
      }
    });
    var view = key.split("-")[0];
    document.querySelectorAll("[data-df-changes], ol.df-history").forEach(function (list) {
      list.classList.remove("df-view-inline", "df-view-side");
      list.classList.add("df-view-" + view);
    });
  }

  function scrollToHash() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (target) target.scrollIntoView({ block: "start" });
  }

  apply(root.getAttribute("data-pv-key"));
  scrollToHash();

  // A toggle names this page with another view: shown in place, the address following.
  document.addEventListener("click", function (event) {
    var link = event.target.closest(".df-toggles a");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var url = new URL(link.href);
    var page = function (path) { return path.replace(/index\.html$/, ""); };
    if (page(url.pathname) !== page(window.location.pathname)) return;
    event.preventDefault();
    // The filter chosen in place stays, as the server's toggles keep ?show=: a reload or a
    // shared address shows what the judge saw.
    var show = new URLSearchParams(window.location.search).get("show");
    if (show && show !== "all") url.searchParams.set("show", show);
    apply(keyOf(url.search));
    if (window.history && window.history.pushState) window.history.pushState(null, "", url.href);
  });
  window.addEventListener("popstate", function () {
    apply(keyOf(window.location.search));
  });
})();
