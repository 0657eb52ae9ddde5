/* A pack page that holds a comparison's or history's four views: name the view the address asks
   for (?view=side, ?typography=show) before the page paints; diff.css shows only its parts.
   Without this script the page shows the plain view, as the server's page without a query. */
(function () {
  "use strict";
  var params = new URLSearchParams(window.location.search);
  var view = params.get("view") === "side" ? "side" : "inline";
  var typography = params.get("typography") === "show" ? "show" : "hide";
  document.documentElement.setAttribute("data-pv-key", view + "-" + typography);
})();
