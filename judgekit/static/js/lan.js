/* The honest banner: a page opened from the laptop over the venue's network (plain http, another
   device) needs that network, and nothing of it is stored: browsers allow no service worker on a
   plain-http address. Said once, until dismissed (remembered on the device); said again, as an
   alert, when the connection drops or a request to the laptop fails (judgekit:no-connection,
   sent by search.js and timing.js). Not on this computer (localhost), https, or the judge pack. */
(function () {
  "use strict";
  var banner = document.querySelector("[data-lan-banner]");
  if (!banner || window.isSecureContext || window.location.protocol !== "http:") return;
  var KEY = "jk-lan-banner";
  var text = banner.querySelector("[data-lan-text]");
  var usual = text.textContent;
  var LOST = "No connection to the laptop: this page stays readable; new pages need its Wi-Fi.";
  function dismissed() {
    try { return localStorage.getItem(KEY) === "dismissed"; } catch (e) { return false; }
  }
  function show(lost) {
    text.textContent = lost ? LOST : usual;
    banner.classList.toggle("is-lost", lost);
    banner.setAttribute("role", lost ? "alert" : "note");
    banner.hidden = false;
  }
  banner.querySelector("[data-lan-dismiss]").addEventListener("click", function () {
    banner.hidden = true;
    if (banner.classList.contains("is-lost")) return;   // the drop is news, not a setting
    try { localStorage.setItem(KEY, "dismissed"); } catch (e) { /* private mode: shown again */ }
  });
  window.addEventListener("offline", function () { show(true); });
  document.addEventListener("judgekit:no-connection", function () { show(true); });
  window.addEventListener("online", function () {
    if (!banner.classList.contains("is-lost")) return;
    if (dismissed()) banner.hidden = true; else show(false);
  });
  if (navigator.onLine === false) show(true);
  else if (!dismissed()) show(false);
})();
