/* "Download the judge pack" (the home page, the phone page) while the zip is being built: ask
   the server's status (/api/pack), show its message and how far the build has come (or why it
   failed), and become the link once the zip is ready. Without JavaScript the line says the same
   and a reload shows the progress, then the link. */
(function () {
  "use strict";

  var line = document.querySelector(".pack-download[data-status-url]");
  if (!line || line.getAttribute("data-state") === "ready") return;
  var url = line.getAttribute("data-status-url");

  function showLink(status) {
    var link = document.createElement("a");
    link.href = status.url;
    link.setAttribute("download", "");
    link.textContent = "Download the judge pack";
    var note = document.createElement("span");
    note.className = "muted";
    note.textContent = " (" + (status.size / 1e6).toFixed(1) + " MB zip of every page, in one folder)";
    line.replaceChildren(link, note);
    line.setAttribute("data-state", "ready");
  }

  // The bar under the message: how far the build has come, gone when no build runs.
  function showProgress(progress) {
    var bar = line.querySelector(".pack-progress");
    if (!progress) {
      if (bar) bar.remove();
      return;
    }
    if (!bar) {
      bar = document.createElement("progress");
      bar.className = "pack-progress";
      line.querySelector(".pack-download-state").after(" ", bar);
    }
    bar.max = progress.total;
    bar.value = progress.done;
  }

  function ask() {
    fetch(url, { cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (response) { return response.json(); })
      .then(function (status) {
        if (status.state === "ready") return showLink(status);
        line.setAttribute("data-state", status.state);
        var shown = line.querySelector(".pack-download-state");
        if (shown) shown.textContent = status.message;
        showProgress(status.progress);
        var hint = line.querySelector(".muted");
        if (hint) hint.textContent = "This line turns into the link when the pack is ready.";
        var most = status.state === "failed" ? 60 : 10;
        var wait = Math.min(Math.max(status.retry_after || 5, 2), most);
        // While pages are being written, often enough for the count to move.
        setTimeout(ask, (status.progress ? 2 : wait) * 1000);
      })
      .catch(function () { setTimeout(ask, 15000); });
  }

  // Soon after the page opens, then as often as the server says.
  setTimeout(ask, 2000);
})();
