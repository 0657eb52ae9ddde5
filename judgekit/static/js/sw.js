/* The judge pack's service worker. The build puts self.JUDGEKIT_PACK (this pack's version and
   files) in front of this code, at the pack's root, so the worker's scope is the whole pack.
   Install: store every file of the pack. Activate: drop older packs and tell open pages what
   changed. Fetch: answer from the stored pack, so every page works with no network at all. */
"use strict";
var PACK = self.JUDGEKIT_PACK;
var PREFIX = "judgekit-pack-";
var CACHE = PREFIX + PACK.version.id;
var ROOT = new URL("./", self.location.href).href;
// Files fetched at once: a static host over HTTP/2 answers many on one connection.
var BATCH = 12;

function absolute(name) { return new URL(name, ROOT).href; }

async function olderCaches() {
  var keys = await caches.keys();
  return keys.filter(function (k) { return k.indexOf(PREFIX) === 0 && k !== CACHE; });
}

async function fetchFile(name, older) {
  var url = absolute(name);
  // Static files keep content-hashed names: the same name in an older pack is the same file.
  if (older && name.indexOf("static/") === 0) {
    var kept = await older.match(url);
    if (kept) return kept;
  }
  // Past the browser's HTTP cache: a page from the older pack must not enter this one.
  var response = await fetch(url, {cache: "no-cache"});
  if (!response.ok) throw new Error(name + ": HTTP " + response.status);
  return response;
}

async function storePack() {
  var cache = await caches.open(CACHE);
  var older = (await olderCaches())[0];
  var olderCache = older ? await caches.open(older) : null;
  var files = PACK.files;
  for (var i = 0; i < files.length; i += BATCH) {
    await Promise.all(files.slice(i, i + BATCH).map(async function (name) {
      var url = absolute(name);
      if (await cache.match(url)) return;   // an install that was interrupted goes on from here
      await cache.put(url, await fetchFile(name, olderCache));
    }));
  }
  await self.skipWaiting();
}

async function changesSince(older) {
  var date = "pack of " + PACK.version.date;
  var answer = await (await caches.open(older)).match(absolute("pack.json"));
  if (!answer) return date;
  var before = {};
  ((await answer.json()).versions || []).forEach(function (v) {
    before[v.document + "/" + v.version] = v.hash;
  });
  var changed = PACK.version.versions.filter(function (v) {
    return before[v.document + "/" + v.version] !== v.hash;
  }).map(function (v) { return v.title; });
  return date + (changed.length ? " (" + changed.join(", ") + ")" : "");
}

async function activate() {
  var older = await olderCaches();
  var text = older.length ? await changesSince(older[0]) : null;
  await Promise.all(older.map(function (k) { return caches.delete(k); }));
  await self.clients.claim();
  var pages = await self.clients.matchAll({type: "window"});
  pages.forEach(function (page) {
    page.postMessage({type: "judgekit-pack", id: PACK.version.id, updated: text});
  });
}

function candidates(url) {
  var u = new URL(url);
  u.hash = "";
  u.search = "";   // a page reads its query itself (search, stepper, calculator)
  var plain = u.href;
  if (/\/$/.test(plain)) return [plain + "index.html"];
  return [plain, plain + "/index.html"];
}

// Search by meaning (meaning/: pack-meaning.js) is stored apart, only when the judge asks, under
// its content-hashed names: a newer pack keeps it, and this worker never stores it itself.
var MEANING = "judgekit-meaning";

async function answer(request) {
  var cache = await caches.open(CACHE);
  var names = candidates(request.url);
  for (var i = 0; i < names.length; i++) {
    var hit = await cache.match(names[i]);
    if (hit) return hit;
  }
  if (request.url.indexOf(ROOT + "meaning/") === 0 && (await caches.has(MEANING))) {
    var kept = await (await caches.open(MEANING)).match(names[0]);
    if (kept) return kept;
  }
  try {
    return await fetch(request);
  } catch (err) {
    // With no network, a page the pack does not hold would show the browser's offline error:
    // the judge gets a way back into the pack instead.
    if (request.mode === "navigate") return notInPack();
    throw err;
  }
}

function notInPack() {
  var css = PACK.files.filter(function (n) { return /^static\/css\/pack-bundle\.[0-9a-f]+\.css$/.test(n); });
  var html = '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    "<title>Not in the judge pack – judgekit</title>" +
    (css.length ? '<link rel="stylesheet" href="' + absolute(css[0]) + '">' : "") +
    '</head><body><main id="content"><h1>Not in the judge pack</h1>' +
    "<p>This page is not in the judge pack stored on this device, and there is no network to " +
    "fetch it. Check the address, or go on from the pack:</p><ul>" +
    '<li><a href="' + absolute("index.html") + '">the pack\'s home page</a></li>' +
    '<li><a href="' + absolute("search/index.html") + '">search the rules</a></li>' +
    "</ul></main></body></html>";
  return new Response(html, {status: 404, headers: {"Content-Type": "text/html; charset=utf-8"}});
}

self.addEventListener("install", function (event) { event.waitUntil(storePack()); });
self.addEventListener("activate", function (event) { event.waitUntil(activate()); });
self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || request.url.indexOf(ROOT) !== 0) return;
  event.respondWith(answer(request));
});
self.addEventListener("message", function (event) {
  if (event.data === "judgekit-pack-version") {
    event.source.postMessage({type: "judgekit-pack", id: PACK.version.id, updated: null});
  }
});
