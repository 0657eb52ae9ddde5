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
  var notice = document.querySelector("[data-df-filtered]");
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
    if (notice) {
      notice.hidden = kind === "all";
      var name = notice.querySelector("[data-df-filter-name]");
      if (name) name.textContent = kind;
    }
    if (href && window.history && window.history.replaceState) {
      window.history.replaceState(null, "", href);
    }
  }

  // A page the pack stored once for every filter: the filter in the address applies here.
  var asked = new URLSearchParams(window.location.search).get("show");
  if (asked && kinds.indexOf(asked) !== -1 && asked !== current()) apply(asked, null);

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
      var all = document.querySelector('.df-counts a[data-df-filter="all"]');
      apply("all", all ? all.getAttribute("href") + "#" + id : null);
      event.preventDefault();
      target.scrollIntoView({ block: "start" });
    }
  });
})();
