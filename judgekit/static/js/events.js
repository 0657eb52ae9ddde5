/* The ruling form on a judge's phone: the draft is kept on the device as it is typed, and a ruling
   sent while the laptop cannot be reached stays there, said so, and is sent when it is back.
   Without JavaScript the form posts as any form does. Each draft has its own id, so a ruling
   sent twice (its answer lost with the Wi-Fi) is recorded once. */
(function () {
  "use strict";
  var form = document.querySelector("[data-ruling-form]");
  if (!form) return;
  var KEY = "jk-ruling-draft";
  var FIELDS = ["round", "table", "question", "ruling", "players"];
  var status = form.querySelector("[data-draft-status]");
  var sending = false;
  var timer = null;

  function load() {
    try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { return null; }
  }
  function save(draft) {
    try { localStorage.setItem(KEY, JSON.stringify(draft)); } catch (e) { /* private mode */ }
  }
  function forget() {
    try { localStorage.removeItem(KEY); } catch (e) { /* nothing kept */ }
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
  function current(old) {
    var draft = { id: (old && old.id) || newId(), cites: cites(), pending: !!(old && old.pending) };
    FIELDS.forEach(function (name) { draft[name] = form.elements[name].value; });
    return draft;
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

  // A draft from before (typed, or kept when the laptop was gone) comes back, with the
  // citations this visit adds (the "Cite in a ruling" tap that opened the form).
  var draft = load();
  if (draft) {
    FIELDS.forEach(function (name) {
      if (!form.elements[name].value && draft[name]) form.elements[name].value = draft[name];
    });
    (draft.cites || []).forEach(addCite);
    if (draft.pending) say("Not sent yet: kept on this phone. Sending…");
  }
  draft = current(draft);
  save(draft);
  form.addEventListener("input", function () { draft = current(draft); save(draft); });
  form.addEventListener("change", function () { draft = current(draft); save(draft); });

  function send() {
    if (sending) return;
    sending = true;
    var body = new URLSearchParams(new FormData(form));
    body.set("draft", draft.id);
    fetch(form.action, { method: "POST", body: body, credentials: "same-origin", redirect: "follow" })
      .then(function (answer) {
        sending = false;
        if (answer.ok) {
          forget();
          window.location.assign(answer.url);
          return;
        }
        // Refused (a field, the session): the server's page says why, as without JavaScript.
        draft.pending = false; save(draft);
        form.removeEventListener("submit", onSubmit);
        form.submit();
      })
      .catch(function () {
        sending = false;
        draft.pending = true; save(draft);
        say("No connection to the laptop: this ruling is kept on this phone and will be sent when the laptop is back.");
        if (!timer) timer = setInterval(function () { if (navigator.onLine !== false) send(); }, 10000);
      });
  }
  function onSubmit(event) {
    if (!form.reportValidity()) return;
    event.preventDefault();
    draft = current(draft); save(draft);
    send();
  }
  form.addEventListener("submit", onSubmit);
  // A draft kept from before shows again on the next form: the judge can drop it.
  var discard = form.querySelector("[data-draft-discard]");
  discard.hidden = false;
  discard.addEventListener("click", function () {
    FIELDS.forEach(function (name) { form.elements[name].value = ""; });
    forget();
    draft = current(null);
    save(draft);
    say("");
  });
  window.addEventListener("online", function () { if (draft.pending) send(); });
  if (draft.pending && form.reportValidity()) send();
})();
