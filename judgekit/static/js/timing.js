/* Timing stepper: the arrow keys follow the Previous and Next links. The links work without this. */
(function () {
  "use strict";
  function typingIn(el) {
    if (!el) return false;
    var tag = el.tagName;
    return el.isContentEditable || tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT";
  }
  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.shiftKey || ev.defaultPrevented) return;
    if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight") return;
    if (typingIn(document.activeElement)) return;
    var rel = ev.key === "ArrowLeft" ? "prev" : "next";
    var link = document.querySelector('.tm-prevnext a[rel="' + rel + '"]');
    if (!link) return;
    ev.preventDefault();
    window.location.href = link.href;
  });
  // Keep the current step in view in the sequence beside it, scrolling only that list (on a
  // phone the list sits above the step and must not pull the page away from the step).
  var nav = document.querySelector(".tm-sequence");
  var current = nav && nav.querySelector("[aria-current]");
  if (current && nav.scrollHeight > nav.clientHeight) {
    var top = current.getBoundingClientRect().top - nav.getBoundingClientRect().top;
    if (top < 0 || top > nav.clientHeight - 40) nav.scrollTop += top - nav.clientHeight / 3;
  }
})();
