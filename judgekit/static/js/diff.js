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
