/* judgekit reading pages: "/" to search, theme toggle, glossary pop-ups, copy citation.
   Everything here enhances pages that already work without JavaScript. */
(function () {
  "use strict";

  function store(key, value) {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch (e) { /* private mode: the choice lasts for this page only */ }
  }
  function stored(key) {
    try { return localStorage.getItem(key); } catch (e) { return null; }
  }

  /* -- "/" focuses the search box --------------------------------------------------------- */
  function typingIn(el) {
    if (!el) return false;
    var tag = el.tagName;
    return el.isContentEditable || tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT";
  }
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "/" || ev.ctrlKey || ev.metaKey || ev.altKey || ev.defaultPrevented) return;
    if (typingIn(document.activeElement)) return;
    var box = document.querySelector('.site-header input[type="search"], .site-header input[name="q"]');
    if (!box) return;
    ev.preventDefault();
    box.focus();
    box.select();
  });

  /* -- dark mode: follows the system until the judge picks --------------------------------- */
  var systemDark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  function isDark() {
    var chosen = document.documentElement.getAttribute("data-theme");
    if (chosen) return chosen === "dark";
    return !!(systemDark && systemDark.matches);
  }
  function showTheme(button) {
    // The label says what a tap will do, not the state the page is in.
    var next = isDark() ? "Light mode" : "Dark mode";
    button.querySelector(".theme-toggle-label").textContent = next;
    button.title = "Switch to " + next.toLowerCase();
  }
  document.querySelectorAll("[data-theme-toggle]").forEach(function (button) {
    button.hidden = false;
    showTheme(button);
    button.addEventListener("click", function () {
      var want = isDark() ? "light" : "dark";
      var system = systemDark && systemDark.matches ? "dark" : "light";
      if (want === system) {
        document.documentElement.removeAttribute("data-theme");
        store("jk-theme", null);
      } else {
        document.documentElement.setAttribute("data-theme", want);
        store("jk-theme", want);
      }
      showTheme(button);
    });
    if (systemDark && systemDark.addEventListener) {
      systemDark.addEventListener("change", function () { showTheme(button); });
    }
  });

  /* -- copy citation ---------------------------------------------------------------------- */
  function copyText(text) {
    // navigator.clipboard needs a secure context; a phone on http://192.168.x.y is not one.
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    return new Promise(function (resolve, reject) {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      document.body.removeChild(area);
      if (ok) resolve(); else reject(new Error("copy refused"));
    });
  }
  document.querySelectorAll("[data-citation]").forEach(function (box) {
    var status = box.querySelector(".copy-status");
    box.querySelectorAll("button[data-copy]").forEach(function (button) {
      var what = button.getAttribute("data-copy") === "data-citation" ? "Citation" : "Short form";
      button.hidden = false;
      button.addEventListener("click", function () {
        copyText(box.getAttribute(button.getAttribute("data-copy"))).then(
          function () { status.textContent = what + " copied."; },
          function () {
            // Select the visible text so the judge can copy it by hand.
            var shown = what === "Citation" ? ".citation-text" : ".citation-short-text";
            var range = document.createRange();
            range.selectNodeContents(box.querySelector(shown));
            var sel = window.getSelection();
            sel.removeAllRanges();
            sel.addRange(range);
            status.textContent = "Copy was blocked: the " + what.toLowerCase() + " is selected, copy it by hand.";
          }
        );
      });
    });
  });

  /* -- keyboard hints only where there is a keyboard (CSS hides the others the same way) ----- */
  // The search box says "( / )" only where a keyboard types it, and only when the box holds it
  // whole: a narrow window would cut it ("Search rules  ( /"). Measured as typed text is, put in
  // and taken out at once (no event fires); again whenever the box's width changes.
  var finePointer = window.matchMedia && window.matchMedia("(hover: hover) and (pointer: fine)").matches;
  function keyHints() {
    document.querySelectorAll("input[data-key-hint]").forEach(function (input) {
      var plain = input.getAttribute("data-plain") || input.placeholder;
      input.setAttribute("data-plain", plain);
      input.placeholder = plain;
      if (!finePointer || input.value) return;
      input.value = input.getAttribute("data-key-hint");
      var fits = input.scrollWidth <= input.clientWidth;
      input.value = "";
      if (fits) input.placeholder = input.getAttribute("data-key-hint");
    });
  }
  if (finePointer) {
    keyHints();
    if (window.ResizeObserver) {
      var watched = new ResizeObserver(keyHints);
      document.querySelectorAll("input[data-key-hint]").forEach(function (input) { watched.observe(input); });
    } else {
      window.addEventListener("resize", keyHints);
    }
  }

  /* -- the table of contents starts folded on a phone ------------------------------------- */
  var toc = document.querySelector("[data-toc]");
  if (toc && window.matchMedia && window.matchMedia("(max-width: 59.99rem)").matches) {
    toc.open = location.hash === "#jk-toc";  // arriving from "Contents" on an entry page
  }
  // "Contents" in the bar of a long page unfolds the contents it jumps to.
  document.querySelectorAll("[data-open-toc]").forEach(function (a) {
    a.addEventListener("click", function () { if (toc) toc.open = true; });
  });

  /* -- glossary pop-ups: click, tap or Enter; Escape or outside click closes --------------- */
  var popover = document.getElementById("jk-popover");
  var terms = document.querySelectorAll("a.gloss[data-gloss]");
  if (!popover || !terms.length) return;
  var title = popover.querySelector(".popover-title");
  var body = popover.querySelector(".popover-body");
  var link = popover.querySelector(".popover-link");
  var closeButton = popover.querySelector(".popover-close");
  var trigger = null;
  var enabled = stored("jk-popovers") !== "off";

  function definition(id) {
    // Entry pages carry <template id="def-ID">; a version page holds the entry itself.
    var tpl = document.getElementById("def-" + id);
    if (tpl && tpl.content) {
      return { title: tpl.getAttribute("data-title"), url: tpl.getAttribute("data-url"),
               linkText: tpl.getAttribute("data-link-text"), nodes: tpl.content.cloneNode(true) };
    }
    var section = document.querySelector('section[data-entry-id="' + CSS.escape(id) + '"]');
    if (!section) return null;
    var text = section.querySelector(".entry-body");
    var heading = section.querySelector(".entry-heading .anchor");
    var perma = section.querySelector(".entry-heading .permalink");
    return { title: heading ? heading.textContent : id, url: perma ? perma.getAttribute("href") : "#" + id,
             nodes: text ? text.cloneNode(true) : document.createTextNode("") };
  }

  function place(anchor) {
    if (window.matchMedia("(max-width: 40rem)").matches) {
      popover.style.left = popover.style.top = "";  // a bottom sheet on phones (CSS)
      return;
    }
    var r = anchor.getBoundingClientRect();
    var width = popover.offsetWidth;
    var left = Math.min(Math.max(8, r.left + window.scrollX), window.scrollX + document.documentElement.clientWidth - width - 8);
    popover.style.left = left + "px";
    popover.style.top = (r.bottom + window.scrollY + 6) + "px";
  }

  function close(returnFocus) {
    if (popover.hidden) return;
    popover.hidden = true;
    if (trigger) {
      trigger.setAttribute("aria-expanded", "false");
      if (returnFocus) trigger.focus();
    }
    trigger = null;
  }

  function open(anchor) {
    var def = definition(anchor.getAttribute("data-gloss"));
    if (!def) return false;
    if (trigger) trigger.setAttribute("aria-expanded", "false");
    title.textContent = def.title;
    body.replaceChildren(def.nodes);
    // Links inside the pop-up navigate normally; copied ids would be duplicates.
    body.querySelectorAll("[id]").forEach(function (el) { el.removeAttribute("id"); });
    link.setAttribute("href", def.url);
    link.textContent = def.linkText || "Open this glossary entry";  // a card opens its card page
    trigger = anchor;
    anchor.setAttribute("aria-expanded", "true");
    popover.hidden = false;
    place(anchor);
    popover.focus();
    return true;
  }

  function setEnabled(on) {
    enabled = on;
    terms.forEach(function (a) {
      if (on) {
        a.setAttribute("aria-haspopup", "dialog");
        a.setAttribute("aria-expanded", "false");
        a.setAttribute("aria-controls", "jk-popover");
      } else {
        a.removeAttribute("aria-haspopup");
        a.removeAttribute("aria-expanded");
        a.removeAttribute("aria-controls");
      }
    });
    document.documentElement.classList.toggle("popovers-off", !on);
    if (!on) close(false);
  }

  document.addEventListener("click", function (ev) {
    var a = ev.target.closest ? ev.target.closest("a.gloss[data-gloss]") : null;
    if (a && enabled && !ev.ctrlKey && !ev.metaKey && !ev.shiftKey && !popover.contains(a)) {
      if (trigger === a && !popover.hidden) { ev.preventDefault(); close(true); return; }
      if (open(a)) ev.preventDefault();
      return;
    }
    if (!popover.hidden && !popover.contains(ev.target)) close(false);
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape" && !popover.hidden) { ev.preventDefault(); close(true); }
  });
  popover.addEventListener("focusout", function (ev) {
    // Tabbing out of the pop-up closes it, so it never hides text behind the focus.
    if (ev.relatedTarget && !popover.contains(ev.relatedTarget) && ev.relatedTarget !== trigger) close(false);
  });
  closeButton.addEventListener("click", function () { close(true); });
  window.addEventListener("resize", function () { if (trigger) place(trigger); });

  document.querySelectorAll("[data-popover-toggle]").forEach(function (label) {
    var box = label.querySelector("input");
    label.hidden = false;
    box.checked = enabled;
    box.addEventListener("change", function () {
      store("jk-popovers", box.checked ? null : "off");
      setEnabled(box.checked);
    });
  });
  setEnabled(enabled);
})();
