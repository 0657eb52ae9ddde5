/* Timing stepper: the arrow keys follow the Previous and Next links; the calculator answers in
   place; with no connection to the laptop both say so on the page. Everything works without
   this file (links, and a form that returns to #calc). */
(function () {
  "use strict";
  function typingIn(el) {
    if (!el) return false;
    var tag = el.tagName;
    return el.isContentEditable || tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT";
  }
  // The arrow keys are this file's: their hint shows only where it runs.
  function showKeys() {
    var keys = document.querySelector(".tm-keys");
    if (keys) keys.hidden = false;
  }
  showKeys();
  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.shiftKey || ev.defaultPrevented) return;
    if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight") return;
    if (typingIn(document.activeElement)) return;
    var rel = ev.key === "ArrowLeft" ? "prev" : "next";
    var link = document.querySelector('.tm-prevnext a[rel="' + rel + '"]');
    if (!link) return;
    ev.preventDefault();
    if (cannotReach()) return;
    window.location.href = link.href;
  });
  // With the device's network gone (the venue's Wi-Fi dropped), a step from the laptop would end
  // on the browser's error page: say so on this page instead. A pack has every step stored.
  var inPack = !!document.querySelector('meta[name="judgekit-pack"]');
  var STEP_NO_CONNECTION = "No connection to the laptop: the next step needs the venue’s Wi-Fi. This step stays here; try again when it is back.";
  function cannotReach() {
    if (inPack || navigator.onLine !== false) return false;
    var nav = document.querySelector(".tm-prevnext");
    var said = document.querySelector(".tm-step-no-connection");
    if (nav && !said) {
      said = document.createElement("p");
      said.className = "tm-step-no-connection";
      said.setAttribute("role", "alert");
      said.textContent = STEP_NO_CONNECTION;
      nav.parentNode.insertBefore(said, nav.nextSibling);
    }
    if (said) said.scrollIntoView({ block: "nearest" });
    document.dispatchEvent(new CustomEvent("judgekit:no-connection"));
    return true;
  }
  document.addEventListener("click", function (ev) {
    var link = ev.target.closest && ev.target.closest(".tm-prevnext a, .tm-sequence a, .tm-versions a");
    if (link && !ev.defaultPrevented && cannotReach()) ev.preventDefault();
  });
  window.addEventListener("online", function () {
    var said = document.querySelector(".tm-step-no-connection");
    if (said) said.remove();
  });
  // Keep the current step in view in the sequence beside it, scrolling only that list (on a
  // phone the list sits below the step and must not pull the page away from the step).
  var nav = document.querySelector(".tm-sequence");
  var current = nav && nav.querySelector("[aria-current]");
  if (current && nav.scrollHeight > nav.clientHeight) {
    var top = current.getBoundingClientRect().top - nav.getBoundingClientRect().top;
    if (top < 0 || top > nav.clientHeight - 40) nav.scrollTop += top - nav.clientHeight / 3;
  }

  // The calculator: fetch the same page with the form's query and swap in the parts that change
  // (the answer, and every link that carries the inputs), then show the answer where the judge is.
  var SWAP = [".tm-calc", ".tm-step", ".tm-versions", ".tm-sequence"];
  function swap(doc) {
    SWAP.forEach(function (sel) {
      var old = document.querySelector(sel);
      var fresh = doc.querySelector(sel);
      if (old && fresh) old.replaceWith(document.importNode(fresh, true));
    });
    showKeys();
    bind();
    var calc = document.querySelector(".tm-calc");
    var answer = calc && (calc.querySelector(".tm-calc-result, .tm-calc-error") || calc);
    if (answer) showAnswer(answer);
  }
  // The answer (or what is missing, in words) where the judge is looking, and focused, so a
  // phone shows the change and a screen reader reads it (pack-calculator.js does the same).
  function showAnswer(answer) {
    answer.scrollIntoView({ block: "start" });
    answer.focus({ preventScroll: true });
  }
  // The laptop could not be reached (the venue's Wi-Fi dropped): say so by the form, not the
  // browser's error page; the inputs stay for Calculate once the connection is back.
  var NO_ANSWER_MS = 8000;
  var NO_CONNECTION = "No connection to the laptop: the calculator needs the venue’s Wi-Fi. Try again when it is back.";
  function noConnection(form) {
    form.removeAttribute("aria-busy");
    var calc = form.closest(".tm-calc");
    var old = calc.querySelector(".tm-calc-result, .tm-calc-error");
    if (old) old.remove();
    var message = document.createElement("p");
    message.className = "tm-calc-error tm-no-connection";
    message.setAttribute("role", "alert");
    message.textContent = NO_CONNECTION;
    message.tabIndex = -1;
    form.parentNode.insertBefore(message, form);
    showAnswer(message);
    document.dispatchEvent(new CustomEvent("judgekit:no-connection"));
  }
  function bind() {
    var form = document.querySelector(".tm-calc-form");
    // In a judge pack there is no server to ask: pack-calculator.js answers in the page.
    if (inPack) return;
    if (!form || !window.fetch || !window.DOMParser) return;
    form.addEventListener("submit", function (ev) {
      var params = new URLSearchParams(new FormData(form));
      Array.from(params.keys()).forEach(function (k) { if (!params.get(k)) params.delete(k); });
      var url = form.getAttribute("action").split("#")[0] + "?" + params.toString();
      ev.preventDefault();
      form.setAttribute("aria-busy", "true");
      // A laptop gone from the network may never answer: given up after NO_ANSWER_MS.
      var controller = window.AbortController ? new AbortController() : null;
      var watch = controller && setTimeout(function () { controller.abort(); }, NO_ANSWER_MS);
      fetch(url, { headers: { Accept: "text/html" }, signal: controller ? controller.signal : undefined })
        .then(function (r) { return r.text(); })
        .then(function (html) { return html; }, function () { return null; })
        .then(function (html) {
          clearTimeout(watch);
          if (html === null) { noConnection(form); return; }
          swap(new DOMParser().parseFromString(html, "text/html"));
          history.replaceState(history.state, "", url + "#calc");  // keeps search.js's question
        })
        .catch(function () { form.removeAttribute("aria-busy"); form.submit(); });
    });
  }
  bind();
})();
