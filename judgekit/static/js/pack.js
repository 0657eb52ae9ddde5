/* The judge pack in the browser: open the stored page a query stands for, install the service
   worker (HTTPS or localhost), and say when a newer pack has replaced the rules.
   Only in packs written by `judgekit build`; the pages work without it. */
(function () {
  "use strict";
  var script = document.currentScript;
  // This file is static/js/pack.<hash>.js: the pack's root is two folders up. The search page
  // carries a copy inside itself (pack/searchpage.py), which names the file in data-src.
  var file = script && (script.src || new URL(script.getAttribute("data-src") || "", document.baseURI).href);
  var root = new URL("../../", file || window.location.href).href;
  var meta = document.querySelector('meta[name="judgekit-pack"]');
  var id = meta ? meta.getAttribute("content") : "";
  var api = window.judgekit = window.judgekit || {};
  api.pack = {root: root, id: id, stored: false};

  /* -- a query the build wrote as a page of its own (the stepper's version and step) ------- */
  // Which query parameters name a page of their own, by page; a default value names none.
  // (A comparison's or history's views are all in its one page: diff-view.js reads the query.)
  var VARIANTS = [
    {path: /^timing\/[^/]+\/$/, keys: ["step", "version"], defaults: {}}
  ];
  function escapeValue(value) {
    var out = "";
    var bytes = new TextEncoder().encode(value);
    for (var i = 0; i < bytes.length; i++) {
      var c = String.fromCharCode(bytes[i]);
      out += /[A-Za-z0-9._-]/.test(c) ? c : "~" + (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16).toUpperCase();
    }
    return out;
  }
  function pagePath(here) {
    return here.href.slice(root.length).split(/[?#]/)[0].replace(/index\.html$/, "").replace(/([^/])$/, "$1/");
  }
  function variantOf(here) {
    if (!here.search || here.href.indexOf(root) !== 0) return null;
    var path = pagePath(here), params = new URLSearchParams(here.search);
    if (path === "diff/" && params.get("document") && params.get("from") && params.get("to")) {
      // The comparison picker: the server redirects to the pair's page; so does the pack.
      path = "diff/" + params.get("document") + "/" + params.get("from") + ".." + params.get("to") + "/";
      ["document", "from", "to"].forEach(function (k) { params.delete(k); });
      var rest = params.toString();
      return root + path.split("/").map(encodeURIComponent).join("/") + "index.html" + (rest ? "?" + rest : "");
    }
    if (path.indexOf("/~") !== -1) return null;   // already a variant
    var rule = VARIANTS.filter(function (r) { return r.path.test(path); })[0];
    if (!rule) return null;
    var keys = rule.keys.filter(function (k) { return params.get(k); });
    if (!keys.length) return null;
    keys.forEach(function (k) { if (rule.defaults[k] === params.get(k)) params.delete(k); });
    var named = keys.filter(function (k) { return params.get(k); });
    // What this plain page shows, alone, names no page of its own (a stepper's newest version,
    // build.py: same_as_plain): stay. With a step it is a page of its own.
    var shows = document.querySelector('meta[name="judgekit-pack-shows"]');
    var shown = new URLSearchParams(shows ? shows.getAttribute("content") : "");
    if (named.length && named.every(function (k) { return shown.get(k) === params.get(k); })) return null;
    var name = named.length ? "~" + named.map(function (k) { return k + "=" + escapeValue(params.get(k)); }).join(",") + "/" : "";
    keys.forEach(function (k) { params.delete(k); });
    var others = params.toString();
    return root + path + name + "index.html" + (others ? "?" + others : "") + here.hash;
  }
  var variant = variantOf(window.location);
  if (variant) { window.location.replace(variant); return; }

  /* -- the search, loaded when first wanted ---------------------------------------------- */
  // pack-search.js is not in every page's bundle: a reading page's first paint and scripts come
  // sooner without it on a slow network. The search page names it itself; elsewhere it comes
  // with the index, when the judge goes to the search box or a script asks judgekit.search.
  var searchCode = null;
  function loadSearchCode() {
    if (searchCode) return searchCode;
    searchCode = new Promise(function (resolve, reject) {
      var meta = document.querySelector('meta[name="judgekit-pack-search"]');
      var tag = document.createElement("script");
      tag.src = new URL(meta ? meta.getAttribute("data-url") : "static/js/pack-search.js", meta ? document.baseURI : root).href;
      tag.onload = function () { resolve(); };
      tag.onerror = function () { searchCode = null; reject(new Error("pack-search.js did not load")); };
      document.head.appendChild(tag);
    });
    return searchCode;
  }
  // Each stands in until pack-search.js replaces it, then hands over to the real one.
  function later(name) {
    var stand = function () {
      var args = arguments;
      return loadSearchCode().then(function () {
        if (api[name] === stand) throw new Error("pack-search.js gave no judgekit." + name);
        return api[name].apply(api, args);
      });
    };
    if (!api[name]) api[name] = stand;
  }
  ["search", "searchResultsHTML", "searchIndexLoaded"].forEach(later);
  // Search by meaning (pack-meaning.js) where the judge may store it: the search page and home.
  // It loads nothing big unless the judge stored it; pack-search.js waits for it (meaningCode).
  var meaningMeta = document.querySelector('meta[name="judgekit-pack-meaning"]');
  // Fetched once the page has loaded: never on the way of the first answer by words.
  api.meaningCode = meaningMeta ? new Promise(function (resolve) {
    function fetchCode() {
      var tag = document.createElement("script");
      tag.src = new URL(meaningMeta.getAttribute("data-url"), document.baseURI).href;
      tag.onload = tag.onerror = function () { resolve(); };
      document.head.appendChild(tag);
    }
    if (document.readyState === "complete") fetchCode();
    else window.addEventListener("load", fetchCode);
  }) : null;
  document.addEventListener("focusin", function (event) {
    if (event.target && event.target.id === "q") api.searchIndexLoaded().catch(function () {});
  });

  /* -- "rules updated: …" ----------------------------------------------------------------- */
  function notice(text, reloadButton) {
    var box = document.querySelector(".pack-notice");
    if (!box) {
      box = document.createElement("p");
      box.className = "pack-notice";
      box.setAttribute("role", "status");
      document.body.appendChild(box);
    }
    box.textContent = text + " ";
    if (!reloadButton) return;
    var reload = document.createElement("button");
    reload.type = "button";
    reload.textContent = "Reload";
    reload.addEventListener("click", function () { window.location.reload(); });
    box.appendChild(reload);
  }
  function stored(key, value) {
    try {
      if (value === undefined) return localStorage.getItem(key);
      localStorage.setItem(key, value);
    } catch (e) { /* private mode: no memory of the last pack */ }
    return null;
  }
  var seen = stored("jk-pack");
  if (id && seen && seen !== id) {
    notice("rules updated: pack of " + id.slice(-14, -6).replace(/(\d{4})(\d\d)(\d\d)/, "$1-$2-$3"));
  }
  if (id) stored("jk-pack", id);

  /* -- the service worker: HTTPS or localhost only (browsers allow no other) ---------------- */
  // A pack served over plain http from another machine (a laptop on the venue's Wi-Fi) reads,
  // but the browser stores none of it: say so, or the judge finds out when the Wi-Fi drops.
  if (window.location.protocol === "http:" && !window.isSecureContext) {
    notice("This copy is opened over plain http, so this device cannot store it: it needs the " +
      "network it came from. Open the pack from its https address to keep it with no network.");
    return;
  }
  if (!("serviceWorker" in navigator) || !window.isSecureContext || !/^https?:$/.test(window.location.protocol)) return;
  navigator.serviceWorker.onmessage = function (event) {
    var data = event.data || {};
    if (data.type !== "judgekit-pack") return;
    api.pack.stored = true;
    api.pack.storedId = data.id;
    if (data.updated) {
      stored("jk-pack", data.id);
      stored("jk-pack-stored", data.id);
      notice("rules updated: " + data.updated, true);
    } else if (stored("jk-pack-stored") === null) {
      stored("jk-pack-stored", data.id);
      notice("The whole pack is stored on this device: it works with no network now.");
    }
  };
  // Stored after the page has loaded: the first page's own files come first on a slow network.
  function register() {
    navigator.serviceWorker.register(root + "sw.js", {scope: root}).then(function (registration) {
      // Look for a newer pack on every online visit, not only when the browser gets round to it.
      if (navigator.onLine) registration.update().catch(function () {});
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      if (registration.active) registration.active.postMessage("judgekit-pack-version");
    }).catch(function () { /* the pack still reads online */ });
  }
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
})();
