/* The ruling form on a judge's phone: the draft is kept on the device as it is typed, and a ruling
   sent while the laptop cannot be reached stays there, said so, and is sent when it is back.
   Without JavaScript the form posts as any form does. Each draft has its own id, so a ruling
   sent twice (its answer lost with the Wi-Fi) is recorded once.

   A draft belongs to the form it was typed in: the form opened with the same citations (its
   "Cite in a ruling" tap). Only that form fills itself from it (and sends it by itself when it
   was sent without the laptop); any other form lists it apart, and the judge sends it (as it
   was written, with its own citations), opens it, or discards it. A ruling is never merged into
   another. */
(function () {
  "use strict";
  var form = document.querySelector("[data-ruling-form]");
  if (!form) return;
  var KEY = "jk-ruling-drafts"; // {id: draft}
  var OLD_KEY = "jk-ruling-draft"; // one draft, before drafts had their forms
  var FIELDS = ["round", "table", "question", "ruling", "players"];
  var status = form.querySelector("[data-draft-status]");
  var others = document.querySelector("[data-other-drafts]");
  var sending = false;
  var timer = null;

  function loadAll() {
    var all;
    try { all = JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch (e) { all = {}; }
    var old = null;
    try { old = JSON.parse(localStorage.getItem(OLD_KEY) || "null"); } catch (e) { old = null; }
    if (old && old.id && !all[old.id]) {
      old.form = (old.cites || []).slice().sort().join(" ");
      all[old.id] = old;
    }
    try { localStorage.removeItem(OLD_KEY); } catch (e) { /* nothing kept */ }
    return all;
  }
  function saveAll(all) {
    try { localStorage.setItem(KEY, JSON.stringify(all)); } catch (e) { /* private mode */ }
  }
  function keep(d) {
    var all = loadAll();
    var empty = FIELDS.every(function (name) { return !d[name]; });
    if (empty && !d.pending) delete all[d.id]; else all[d.id] = d;
    saveAll(all);
  }
  function forget(id) {
    var all = loadAll();
    delete all[id];
    saveAll(all);
  }
  function say(text) {
    status.textContent = text;
    status.hidden = !text;
  }
  function newId() {
    var bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function cites() {
    return Array.prototype.map.call(form.querySelectorAll("input[name=cite]:checked"), function (i) { return i.value; });
  }
  // This form is the one opened with these citations (what the page was given, before any draft);
  // the server keeps that in "opened" when its Cite field's Find brings the form back with one more.
  // (No control of the form is named "action": form.action would be that control.)
  var FORM_KEY = form.elements.opened ? form.elements.opened.value :
    Array.prototype.map.call(form.querySelectorAll("input[name=cite]"), function (i) { return i.value; }).sort().join(" ");

  function current(old) {
    var d = {
      id: (old && old.id) || newId(), form: FORM_KEY, cites: cites(),
      pending: !!(old && old.pending), at: Date.now()
    };
    FIELDS.forEach(function (name) { d[name] = form.elements[name].value; });
    // The Cite field's text and the pick among what it names are the ruling's too: a draft sent
    // later (or from another form) cites what the judge typed, or is refused until one is picked.
    d.find = form.elements.find ? form.elements.find.value : "";
    var pick = form.querySelector("input[name=pick]:checked");
    d.pick = pick ? pick.value : "";
    return d;
  }
  function addCite(spec) {
    if (cites().indexOf(spec) >= 0) return;
    var label = document.createElement("label");
    label.className = "cite-choice";
    var box = document.createElement("input");
    box.type = "checkbox"; box.name = "cite"; box.value = spec; box.checked = true;
    label.appendChild(box);
    label.appendChild(document.createTextNode(" " + spec));
    form.querySelector("fieldset").appendChild(label);
  }
  function bodyOf(d) {
    var body = new URLSearchParams();
    body.set("csrf", form.elements.csrf.value);
    FIELDS.forEach(function (name) { body.set(name, d[name] || ""); });
    (d.cites || []).forEach(function (c) { body.append("cite", c); });
    if (d.find) body.set("find", d.find);
    if (d.pick) body.set("pick", d.pick);
    body.set("draft", d.id);
    return body;
  }
  function formUrl(d) {
    var query = (d.form ? d.form.split(" ") : []).map(function (c) { return "cite=" + encodeURIComponent(c); }).join("&");
    return form.getAttribute("data-new-url") + (query ? "?" + query : "");
  }

  // This form's own draft (typed before, or kept when the laptop was gone) comes back.
  var all = loadAll();
  var draft = null;
  Object.keys(all).forEach(function (id) {
    var d = all[id];
    if (d.form === FORM_KEY && (!draft || (d.at || 0) > (draft.at || 0))) draft = d;
  });
  if (draft) {
    FIELDS.forEach(function (name) {
      if (!form.elements[name].value && draft[name]) form.elements[name].value = draft[name];
    });
    if (form.elements.find && !form.elements.find.value && draft.find) form.elements.find.value = draft.find;
    (draft.cites || []).forEach(addCite);
    if (draft.pending) say("Not sent yet: kept on this phone. Sending…");
  }
  draft = current(draft);
  // The choices listed name what the field said when it was sent: typed again, they are gone
  // (the server lists the new text's when it is sent).
  if (form.elements.find) form.elements.find.addEventListener("input", function () {
    var found = form.querySelector("[data-cite-found]");
    if (!found) return;
    found.hidden = true;
    found.querySelectorAll("input[name=pick]").forEach(function (r) { r.checked = false; r.disabled = true; });
  });
  form.addEventListener("input", function () { draft = current(draft); keep(draft); });
  form.addEventListener("change", function () { draft = current(draft); keep(draft); });

  function send() {
    if (sending) return;
    sending = true;
    // What the Cite field names is cited too: a title naming several is refused until one is
    // picked, and the refusal is the server's form again (below), as without JavaScript.
    fetch(form.action, { method: "POST", body: bodyOf(draft), credentials: "same-origin", redirect: "follow" })
      .then(function (answer) {
        sending = false;
        if (answer.ok) {
          forget(draft.id);
          window.location.assign(answer.url);
          return;
        }
        // Refused (a field, the session): the server's page says why, as without JavaScript.
        draft.pending = false; keep(draft);
        form.removeEventListener("submit", onSubmit);
        form.submit();
      })
      .catch(function () {
        sending = false;
        draft.pending = true; keep(draft);
        say("No connection to the laptop: this ruling is kept on this phone and will be sent when the laptop is back.");
        if (!timer) timer = setInterval(function () { if (navigator.onLine !== false) send(); }, 10000);
      });
  }
  // Find loads the server's page: with the laptop out of reach that would be the browser's error
  // page. So the laptop is asked first (a small answer, never from a cache); when it does not
  // answer, the form says so in a judge's words and offers to try again, the draft kept.
  var findButton = form.querySelector("button[name=step][value=find]");
  var REACH_MS = 8000;
  var FIND_NO_CONNECTION = "The laptop could not be reached, so Find cannot look this up now. " +
    "Your draft is kept on this phone. Check the venue’s Wi-Fi, then try again.";
  var reached = false;
  var findSaid = null;
  function cannotFind() {
    if (!findSaid) {
      findSaid = document.createElement("div");
      findSaid.className = "notice cite-find-offline";
      findSaid.setAttribute("role", "alert");
      var words = document.createElement("p");
      words.textContent = FIND_NO_CONNECTION;
      findSaid.appendChild(words);
      findSaid.appendChild(button("Try again", find));
      form.querySelector(".cite-find-row").insertAdjacentElement("afterend", findSaid);
    }
    findSaid.hidden = false;
    findSaid.scrollIntoView({ block: "nearest" });
  }
  function find() {
    draft = current(draft); keep(draft);  // the text typed in the Cite field too
    if (findSaid) findSaid.setAttribute("aria-busy", "true");
    var controller = window.AbortController ? new AbortController() : null;
    var watch = controller && setTimeout(function () { controller.abort(); }, REACH_MS);
    fetch(form.getAttribute("data-reach-url"), {
      cache: "no-store", credentials: "same-origin", signal: controller ? controller.signal : undefined
    }).then(function () {
      clearTimeout(watch);
      if (findSaid) { findSaid.hidden = true; findSaid.removeAttribute("aria-busy"); }
      reached = true;
      findButton.click();
    }, function () {
      clearTimeout(watch);
      if (findSaid) findSaid.removeAttribute("aria-busy");
      cannotFind();
    });
  }
  function onSubmit(event) {
    // Find asks the server what the Cite field names: the page comes back, nothing is sent.
    // The page that comes back shows what the text named (ticked, the field emptied) or why not
    // (the text kept there): the draft keeps the rest.
    if (event.submitter && event.submitter.value === "find") {
      if (!reached) { event.preventDefault(); find(); return; }
      reached = false;
      draft = current(draft); draft.find = ""; draft.pick = ""; keep(draft);
      return;
    }
    if (!form.reportValidity()) return;
    event.preventDefault();
    draft = current(draft); keep(draft);
    send();
  }
  form.addEventListener("submit", onSubmit);
  var discard = form.querySelector("[data-draft-discard]");
  discard.hidden = false;
  discard.addEventListener("click", function () {
    FIELDS.forEach(function (name) { form.elements[name].value = ""; });
    if (form.elements.find) form.elements.find.value = "";
    forget(draft.id);
    draft = current(null);
    say("");
  });
  window.addEventListener("online", function () { if (draft.pending) send(); });
  if (draft.pending && form.reportValidity()) send();

  // Drafts of other forms: listed apart, each sent, opened or discarded by the judge.
  function button(text, act) {
    var b = document.createElement("button");
    b.type = "button"; b.textContent = text;
    b.addEventListener("click", act);
    return b;
  }
  function showOthers() {
    var list = others.querySelector("ul");
    list.textContent = "";
    var kept = loadAll();
    var ids = Object.keys(kept).filter(function (id) { return kept[id].form !== FORM_KEY; });
    others.hidden = !ids.length;
    ids.forEach(function (id) {
      var d = kept[id];
      var item = document.createElement("li");
      item.setAttribute("data-other-draft", id);
      var what = document.createElement("span");
      what.textContent = "Table " + (d.table || "?") + ", round " + (d.round || "?") + ": " +
        (d.question || "").slice(0, 120) + (d.pending ? " (not sent: the laptop was gone)" : " (not sent)");
      var said = document.createElement("span");
      said.className = "draft-said";
      said.setAttribute("role", "status");
      var open = document.createElement("a");
      open.href = formUrl(d); open.textContent = "Open it";
      item.appendChild(what); item.appendChild(document.createTextNode(" "));
      if (d.pending) {
        item.appendChild(button("Send it now", function (event) {
          event.target.disabled = true;
          said.textContent = " Sending…";
          fetch(form.action, { method: "POST", body: bodyOf(d), credentials: "same-origin", redirect: "follow" })
            .then(function (answer) {
              if (answer.ok) {
                forget(d.id);
                item.textContent = "";
                var link = document.createElement("a");
                link.href = answer.url; link.textContent = "Sent: recorded";
                item.appendChild(link);
                item.appendChild(document.createTextNode(" (table " + (d.table || "?") + ", round " + (d.round || "?") + ")."));
                return;
              }
              d.pending = false; keep(d);
              event.target.disabled = false;
              said.textContent = " The laptop refused it: open it to see why.";
            })
            .catch(function () {
              event.target.disabled = false;
              said.textContent = " Still no connection to the laptop: it stays on this phone.";
            });
        }));
        item.appendChild(document.createTextNode(" "));
      }
      item.appendChild(open);
      item.appendChild(document.createTextNode(" "));
      item.appendChild(button("Discard", function () { forget(d.id); showOthers(); }));
      item.appendChild(said);
      list.appendChild(item);
    });
  }
  if (others) showOthers();
})();
