// Table-side entry: fewer taps (moving on by itself, the last point count, card pads),
// exactly once (a key per entry, one send at a time) and offline (a queue on the phone).
(function () {
  "use strict";
  var form = document.getElementById("deal-entry");
  if (!form) return;
  var data = form.dataset;

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + Math.random().toString(36).slice(2);
  }
  // A fresh form gets a fresh key: a page kept by the browser or the offline cache never
  // sends an old one.  A form shown again with its problems keeps its key.
  if (data.bound !== "1") form.elements.key.value = newKey();
  window.addEventListener("pageshow", function (event) { if (event.persisted) location.reload(); });

  // -- problems in sight ---------------------------------------------------------------
  var summary = document.getElementById("error-summary") || document.getElementById("stale") ||
    document.getElementById("same-as");
  if (summary) { summary.focus(); summary.scrollIntoView({ block: "start" }); }
  // A problem's link puts the cursor in its field (not only the page at the field).
  document.querySelectorAll("#error-summary a[href^='#field-']").forEach(function (link) {
    link.addEventListener("click", function () {
      var block = document.getElementById(link.getAttribute("href").slice(1));
      var control = block && block.querySelector("input:not([type=hidden]), select, textarea");
      if (control) window.setTimeout(function () { control.focus(); }, 0);  // after the jump
    });
  });

  // -- point cards: the running sum, the last player's count ---------------------------
  var total = parseInt(data.pointTotal || "0", 10);
  var sum = document.getElementById("points-sum");
  var derived = form.querySelector("input[data-derived]");
  var touched = data.bound === "1";  // a refused form shows what was sent, as it was sent
  if (derived) derived.addEventListener("input", function () { touched = true; });
  function number(el) { return parseInt(el.value || "0", 10) || 0; }
  function refresh() {
    if (!sum) return;
    var inputs = form.querySelectorAll("input.points");
    if (derived && !touched) {
      var others = 0, typed = false;
      inputs.forEach(function (el) {
        if (el === derived) return;
        others += number(el);
        typed = typed || (el.value !== "" && el.name.indexOf("pc_") === 0);
      });
      derived.value = typed && total - others >= 0 ? String(total - others) : "";
    }
    var n = 0;
    inputs.forEach(function (el) { n += number(el); });
    sum.textContent = sum.dataset.label.replace("%s", n).replace("%t", total);
    sum.className = "sum " + (n === total ? "ok" : "off");
  }
  form.addEventListener("input", refresh);
  refresh();

  // -- moving on: a number that cannot take another digit goes to the next field ----------
  var advancing = Array.prototype.slice.call(form.querySelectorAll("input[data-advance='1'], input.cards"));
  form.querySelectorAll("input[data-advance='1']").forEach(function (el) {
    el.addEventListener("input", function () {
      var max = parseInt(el.dataset.max || "0", 10);
      var value = number(el);
      if (!max || el.value === "" || value * 10 <= max) return;
      var next = advancing[advancing.indexOf(el) + 1];
      if (next) next.focus();
    });
    el.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      event.preventDefault();
      var next = advancing[advancing.indexOf(el) + 1];
      if (next) next.focus();
    });
  });

  // -- card pads: they type into the last card field tapped; undo takes the last card back --
  var target = null;
  form.querySelectorAll("input.cards, textarea.cards").forEach(function (el) {
    el.addEventListener("focus", function () { target = el; });
  });
  // A pad that pops up (a card field among others) shows while its section has the focus.
  form.querySelectorAll(".entry-section").forEach(function (section) {
    var pad = section.querySelector(".cardpad.popup");
    if (!pad) return;
    section.addEventListener("focusin", function (event) {
      if (!event.target.matches("input.cards, textarea.cards") || !pad.hidden) return;
      pad.hidden = false;
      pad.scrollIntoView({ block: "nearest" });  // above the Save bar (scroll-margin)
    });
    section.addEventListener("focusout", function () {
      setTimeout(function () { if (!section.contains(document.activeElement)) pad.hidden = true; }, 0);
    });
  });
  // A sticky pad's height, for the fields that scroll under it to stop below it (site.css).
  form.querySelectorAll(".entry-section > .cardpad:not(.popup)").forEach(function (pad) {
    function measure() { pad.parentNode.style.setProperty("--pad-height", pad.offsetHeight + "px"); }
    measure();
    window.addEventListener("resize", measure);
  });
  var suit = "";
  function append(code, separator) {
    if (!target) return;
    var value = target.value.replace(/[ \t]+$/, "");
    target.value = value && !/\n$/.test(value) ? value + (separator || " ") + code : value + code;
    target.dispatchEvent(new Event("input", { bubbles: true }));
  }
  form.querySelectorAll(".cardpad button").forEach(function (button) {
    button.addEventListener("mousedown", function (event) { event.preventDefault(); }); // keep focus
    button.addEventListener("click", function () {
      var d = button.dataset;
      if (d.suit) {
        suit = d.suit;
        form.querySelectorAll(".cardpad button.suit").forEach(function (b) {
          b.setAttribute("aria-pressed", String(b === button));
        });
        return;
      }
      if (!target) return;
      if (d.code) append(d.code);
      else if (d.rank && suit) append(suit + d.rank);
      else if (d.newline) { if (target.value.trim()) target.value = target.value.replace(/\s+$/, "") + "\n"; }
      else if (d.undo) target.value = target.value.replace(/\s*\S+\s*$/, "");
    });
  });

  // -- sending: one at a time, queued on the phone when there is no network ----------------
  var save = document.getElementById("save");
  var busy = false;
  var DB = "clubscore", STORE = "queue";
  function db() {
    return new Promise(function (resolve, reject) {
      var open = indexedDB.open(DB, 1);
      open.onupgradeneeded = function () { open.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true }); };
      open.onsuccess = function () { resolve(open.result); };
      open.onerror = function () { reject(open.error); };
    });
  }
  function tx(mode, work) {
    return db().then(function (conn) {
      return new Promise(function (resolve, reject) {
        var t = conn.transaction(STORE, mode);
        var result = work(t.objectStore(STORE));
        t.oncomplete = function () { resolve(result && result.result !== undefined ? result.result : result); };
        t.onerror = function () { reject(t.error); };
      });
    });
  }
  function all() { return tx("readonly", function (s) { return s.getAll(); }); }
  // -- the last deal stored from this phone: a page kept from before a save (the network
  // dropped on the way to the next form) must not offer that deal's number again --------
  var SAVED = "clubscore-saved:" + location.pathname;
  function remember(answer) {
    try {
      localStorage.setItem(SAVED, JSON.stringify({ number: answer.number, message: answer.message, at: Date.now() }));
    } catch (e) { /* private mode: the server still refuses a number taken */ }
  }
  function showNumber(number) {
    form.elements.number.value = String(number);
    var heading = document.getElementById("deal-number");
    if (heading) heading.textContent = String(number);
  }
  function numberAfterTheLastSaved() {
    var saved = null;
    try { saved = JSON.parse(localStorage.getItem(SAVED) || "null"); } catch (e) { saved = null; }
    if (!saved || !saved.number) return;
    var shown = parseInt(form.elements.number.value || "0", 10);
    if (saved.number < shown) { localStorage.removeItem(SAVED); return; }  // the server knows more
    showNumber(saved.number + 1);
    var note = document.getElementById("kept-saved");
    if (note) {
      note.querySelector(".saved-line").textContent = saved.message;
      note.hidden = false;
    }
  }
  function numberAfterTheQueue() {
    // Deals typed offline are numbered after the ones waiting, also after a reload (the
    // page kept offline shows the number it had when it was kept).
    return all().then(function (entries) {
      var last = 0;
      entries.forEach(function (e) {
        if (e.url !== location.pathname) return;
        e.fields.forEach(function (pair) { if (pair[0] === "number") last = Math.max(last, parseInt(pair[1] || "0", 10)); });
      });
      var shown = parseInt(form.elements.number.value || "0", 10);
      if (last >= shown) showNumber(last + 1);
    });
  }
  function snapshot(submitter) {
    var fields = [];
    new FormData(form).forEach(function (value, name) { fields.push([name, value]); });
    if (submitter && submitter.name) fields.push([submitter.name, submitter.value]);
    return { url: location.pathname, fields: fields, at: Date.now(), status: "waiting", errors: [] };
  }
  function csrfToken() {
    // The token of now (a sign-in since the deal was typed changed it), not the form's.
    var found = document.cookie.split("; ").filter(function (c) { return c.indexOf("csrftoken=") === 0; })[0];
    return found ? decodeURIComponent(found.slice("csrftoken=".length)) : "";
  }
  function post(entry, queued) {
    // Resolves with the page's JSON answer, or {status: "signin" | "server"} when the answer
    // is not one (signed out, a refused token, the server failing); rejects only when no
    // answer came at all (no network).
    var body = new FormData();
    entry.fields.forEach(function (pair) { if (pair[0] !== "csrfmiddlewaretoken") body.append(pair[0], pair[1]); });
    var headers = { "Accept": "application/json", "X-CSRFToken": csrfToken() };
    if (queued) headers["X-Clubscore-Queue"] = "1";
    return fetch(entry.url, { method: "POST", body: body, headers: headers, credentials: "same-origin" })
      .then(function (response) {
        var type = response.headers.get("Content-Type") || "";
        var signedOut = response.status === 401 || response.status === 403 ||
          (response.redirected && response.url.indexOf("/accounts/login/") >= 0);
        if (signedOut) return { status: "signin", errors: [data.signinLabel] };
        if (response.status === 410) {  // the table's link was withdrawn: forget this page
          if (window.caches) caches.open("clubscore-pages").then(function (c) { c.delete(location.pathname); });
          return response.json();
        }
        if (type.indexOf("application/json") < 0) return { status: "server", errors: [data.serverLabel] };
        return response.json();
      });
  }
  function nextForm() {
    var number = parseInt(form.elements.number.value || "0", 10) + 1;
    form.reset();
    showNumber(number);
    form.elements.key.value = newKey();
    touched = false;
    refresh();
    window.scrollTo(0, 0);
  }
  form.addEventListener("submit", function (event) {
    if (data.native === "1") return;
    event.preventDefault();
    if (busy) return;
    busy = true;
    if (problem) problem.hidden = true;
    if (save) save.disabled = true;
    var entry = snapshot(event.submitter);
    function queue() {
      return tx("readwrite", function (s) { return s.add(entry); }).then(function () {
        showQueue(data.offlineLabel);
        nextForm();
      });
    }
    var sending = navigator.onLine === false ? queue() : post(entry, false).then(function (answer) {
      if (answer.status === "stored") {
        remember(answer);
        location.assign(answer.next || location.pathname);
        return;
      }
      if (answer.status === "withdrawn") {  // kept for the page the new link opens
        entry.status = "refused";
        entry.errors = answer.errors;
        tx("readwrite", function (s) { return s.add(entry); }).then(function () { showQueue(); }).catch(function () {});
      }
      if (answer.status === "signin" || answer.status === "server" || answer.status === "withdrawn") {  // said, never "no network"
        problem.textContent = answer.errors.join(" ");
        problem.hidden = false;
        problem.focus();
        return;
      }
      // Not stored: the page shows every problem next to its field (nothing was written).
      data.native = "1";
      if (event.submitter && form.requestSubmit) form.requestSubmit(event.submitter); else form.submit();
    }, queue);
    sending.then(function () { busy = false; if (save) save.disabled = false; });
  });

  // -- the queue: sent in order when the network is back; refusals shown for correction ------
  var problem = document.getElementById("send-problem");
  var box = document.getElementById("queue");
  var status = document.getElementById("queue-status");
  var refusedList = document.getElementById("queue-refused");
  function showQueue(note) {
    return all().then(function (entries) {
      var mine = entries.filter(function (e) { return e.url === location.pathname; });
      var waiting = mine.filter(function (e) { return e.status === "waiting"; });
      var refused = mine.filter(function (e) { return e.status === "refused"; });
      box.hidden = !mine.length && !note;
      status.textContent = (note ? note + " " : "") + (mine.length ? data.waitingLabel.replace("%s", waiting.length + refused.length) : "");
      refusedList.textContent = "";
      refused.forEach(function (e) {
        var item = document.createElement("li");
        item.textContent = data.refusedLabel + " " + e.errors.join(" · ") + " ";
        var load = document.createElement("button");
        load.type = "button";
        load.className = "button secondary";
        load.textContent = data.loadLabel;
        load.addEventListener("click", function () { restore(e); });
        item.appendChild(load);
        refusedList.appendChild(item);
      });
    });
  }
  function restore(entry) {
    form.reset();
    entry.fields.forEach(function (pair) {
      var name = pair[0], value = pair[1];
      if (typeof value !== "string" || name === "csrfmiddlewaretoken") return;
      var controls = form.querySelectorAll("[name='" + name + "']");
      controls.forEach(function (el) {
        if (el.type === "radio" || el.type === "checkbox") { if (el.value === value) el.checked = true; }
        else el.value = value;
      });
    });
    touched = true;
    refresh();
    tx("readwrite", function (s) { return s.delete(entry.id); }).then(function () { showQueue(); });
    window.scrollTo(0, 0);
  }
  var syncing = false;
  function sync() {
    if (syncing || navigator.onLine === false) return;
    syncing = true;
    var note = "";
    all().then(function (entries) {
      var mine = entries.filter(function (e) { return e.url === location.pathname; });
      if (mine.some(function (e) { return e.status === "refused"; })) return null;
      return mine.reduce(function (chain, entry) {
        return chain.then(function (go) {
          if (!go) return false;
          return post(entry, true).then(function (answer) {
            if (answer.status === "server") return false;  // the server failed: try again later
            if (answer.status === "stored") {
              remember(answer);
              return tx("readwrite", function (s) { return s.delete(entry.id); }).then(function () {
                note = data.sentLabel.replace("%s", answer.message);
                return true;
              });
            }
            entry.status = "refused";
            entry.errors = answer.errors || [];
            return tx("readwrite", function (s) { return s.put(entry); }).then(function () { return false; });
          }, function () { return false; });
        });
      }, Promise.resolve(true));
    }).then(function () { syncing = false; return showQueue(note); }, function () { syncing = false; });
  }
  if (data.bound !== "1") numberAfterTheLastSaved();
  if (window.indexedDB) {
    if (data.bound !== "1") numberAfterTheQueue();
    showQueue();
    sync();
    window.addEventListener("online", sync);
    setInterval(sync, 15000);
  }

  // -- keep the page for use without a network --------------------------------------------
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").then(function () {
      if (window.caches && data.bound !== "1") {
        caches.open("clubscore-pages").then(function (cache) { cache.add(location.pathname); });
        // ... with its style and scripts (the browser's own cache may have let them go).
        var assets = [];
        document.querySelectorAll("link[rel=stylesheet][href^='/static/'], script[src^='/static/']").forEach(function (el) {
          assets.push(el.getAttribute("href") || el.getAttribute("src"));
        });
        caches.open("clubscore-assets").then(function (cache) { cache.addAll(assets); }).catch(function () {});
      }
    }).catch(function () {});
  }
})();
