/* A prototype: the whole judge pack in one HTML file (bench_single_file.py). The pack's files
   are in this page, gzipped; each page of the pack is shown in an iframe written from them, its
   scripts and stylesheets inlined, under a <base> at a made-up address (ROOT) so that its
   relative links resolve; taps on links and form submits are answered from the files, and so
   are the scripts the pages load later and their fetches. The address bar's fragment holds the
   page shown ("#!rules/2e-rulebook/4/beaming/"), so Back and a reload work. */
(function () {
  "use strict";
  var ROOT = "https://judgekit.pack/";
  var files = null, frame = null;

  function fileOf(url) {
    if (url.indexOf(ROOT) !== 0) return null;
    var path = decodeURIComponent(url.slice(ROOT.length).split(/[?#]/)[0]);
    if (path === "" || /\/$/.test(path)) path += "index.html";
    if (files[path] === undefined && files[path + "/index.html"] !== undefined) path += "/index.html";
    return files[path] === undefined ? null : path;
  }

  function inline(doc, base) {
    var head = doc.head, body = doc.body, deferred = [];
    var b = doc.createElement("base");
    b.href = base;
    head.insertBefore(b, head.firstChild);
    Array.prototype.forEach.call(doc.querySelectorAll("link"), function (link) {
      var url = new URL(link.getAttribute("href") || "", base).href, path = fileOf(url);
      if (/stylesheet/.test(link.rel) && path) {
        var style = doc.createElement("style");
        style.textContent = files[path];
        link.replaceWith(style);
      } else if (!/alternate|canonical/.test(link.rel)) link.remove();
    });
    Array.prototype.forEach.call(doc.querySelectorAll("script[src]"), function (script) {
      var url = new URL(script.getAttribute("src"), base).href, path = fileOf(url);
      if (!path) { script.remove(); return; }
      var copy = doc.createElement("script");
      copy.setAttribute("data-src", url);
      copy.textContent = files[path];
      if (script.defer) { script.remove(); deferred.push(copy); } else script.replaceWith(copy);
    });
    deferred.forEach(function (s) { body.appendChild(s); });  // defer: after the page is parsed
  }

  function patch(win, base) {
    var proto = win.HTMLScriptElement.prototype;
    var desc = Object.getOwnPropertyDescriptor(proto, "src");
    Object.defineProperty(proto, "src", {
      configurable: true,
      get: function () {
        var named = this.getAttribute("data-src");
        return named ? new URL(named, win.document.baseURI).href : desc.get.call(this);
      },
      set: function (value) {
        var url = new URL(value, win.document.baseURI).href, path = fileOf(url), el = this;
        if (!path) return desc.set.call(this, value);
        el.setAttribute("data-src", url);
        el.text = files[path];
        setTimeout(function () { el.dispatchEvent(new win.Event("load")); }, 0);
      },
    });
    var realFetch = win.fetch;
    win.fetch = function (input, init) {
      var url = new URL(typeof input === "string" ? input : input.url, win.document.baseURI).href;
      var path = fileOf(url);
      if (path) return Promise.resolve(new win.Response(files[path], {status: 200, headers: {"Content-Type": /\.json$/.test(path) ? "application/json" : "text/html"}}));
      return realFetch.call(win, input, init);
    };
    ["pushState", "replaceState"].forEach(function (name) {
      var real = win.history[name].bind(win.history);
      win.history[name] = function (state, title, url) {
        if (url === undefined || url === null) return real(state, title);
        var to = new URL(url, win.document.baseURI);
        if (to.href.indexOf(ROOT) === 0) {
          var address = "#!" + to.href.slice(ROOT.length);
          history.replaceState(null, "", address);  // the outer page's address: reload and Back
          return real(state, title, to.search + to.hash);
        }
        return real(state, title, url);
      };
    });
  }

  // After the page is written: document.open() erased every listener set before it.
  function follow(win, base) {
    win.document.addEventListener("click", function (ev) {
      if (ev.defaultPrevented || ev.button !== 0) return;
      var a = ev.target.closest && ev.target.closest("a[href]");
      if (!a || a.hasAttribute("download")) return;
      var url = new URL(a.getAttribute("href"), base);
      if (url.href.indexOf(ROOT) !== 0) return;
      ev.preventDefault();
      var here = new URL(base);
      if (url.pathname === here.pathname && url.search === "" && url.hash) {
        var target = win.document.getElementById(decodeURIComponent(url.hash.slice(1)));
        if (target) target.scrollIntoView();
        return;
      }
      go(url.href, true);
    });
    win.document.addEventListener("submit", function (ev) {
      if (ev.defaultPrevented) return;
      var form = ev.target, url = new URL(form.getAttribute("action") || "", base);
      if (url.href.indexOf(ROOT) !== 0 || (form.method || "get").toLowerCase() !== "get") return;
      ev.preventDefault();
      url.search = new URLSearchParams(new win.FormData(form)).toString();
      go(url.href, true);
    });
  }

  function show(url) {
    var path = fileOf(url);
    if (!path) path = "index.html", url = ROOT;
    var parsed = new URL(url);
    var base = ROOT + path.replace(/index\.html$/, "");
    var doc = new DOMParser().parseFromString(files[path], "text/html");
    inline(doc, base);
    var old = frame;
    frame = document.createElement("iframe");
    frame.title = "judgekit";
    document.body.appendChild(frame);
    if (old) old.remove();
    var win = frame.contentWindow;
    win.document.open();
    patch(win, base);
    // The page reads its query (a search's words, a step) from its own address.
    try { win.history.replaceState(null, "", parsed.search + parsed.hash); } catch (e) { /* file: */ }
    win.document.write("<!DOCTYPE html>" + doc.documentElement.outerHTML);
    win.document.close();
    follow(win, base);
    document.title = win.document.title;
    if (parsed.hash) {
      var target = win.document.getElementById(decodeURIComponent(parsed.hash.slice(1)));
      if (target) target.scrollIntoView();
    }
  }

  function go(url, push) {
    var address = "#!" + url.slice(ROOT.length);
    if (push) history.pushState(null, "", address);
    show(url);
  }

  function fromAddress() {
    return ROOT + (location.hash.indexOf("#!") === 0 ? location.hash.slice(2) : "");
  }

  window.addEventListener("popstate", function () { show(fromAddress()); });

  var packed = document.getElementById("jk-files").textContent;
  var bytes = Uint8Array.from(atob(packed), function (c) { return c.charCodeAt(0); });
  new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text().then(function (text) {
    files = JSON.parse(text);
    document.getElementById("jk-loading").remove();
    show(fromAddress());
  });
})();
