// "Tell me on this phone" (reach.push, web/pages/push.py): one tap turns push messages on
// for the player the page shows, every kind chosen (the browser then asks its permission:
// the second tap); the kinds are chips to change afterwards, and Turn off stops them.  On
// an iPhone not opened from the home screen the page says to add it there first (iOS
// allows web push only there); a browser with no push says so.
(function () {
  "use strict";
  var box = document.getElementById("push");
  if (!box) return;
  var say = box.querySelector("[data-push-say]");
  var on = box.querySelector("[data-push-on]");
  var off = box.querySelector("[data-push-off]");
  var kinds = box.querySelector("[data-push-kinds]");
  var chips = Array.prototype.slice.call(kinds.querySelectorAll("input[name=kinds]"));
  var csrf = box.querySelector("input[name=csrfmiddlewaretoken]").value;
  box.hidden = false;

  function show(selector) { box.querySelector(selector).hidden = false; }
  function hide(selector) { box.querySelector(selector).hidden = true; }
  function ios() {
    return /iPad|iPhone|iPod/.test(navigator.userAgent) ||
      (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
  }
  function standalone() {
    return window.navigator.standalone === true ||
      (window.matchMedia && window.matchMedia("(display-mode: standalone)").matches);
  }
  if (ios() && !standalone()) { show("[data-push-ios]"); return; }
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    show("[data-push-none]");
    return;
  }

  function serverKey() {
    var text = box.dataset.key.replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(text + "===".slice((text.length + 3) % 4));
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }
  function chosen() { return chips.filter(function (c) { return c.checked; }).map(function (c) { return c.value; }); }
  function shown(state) {
    on.hidden = state.on;
    off.hidden = !state.on;
    kinds.hidden = !state.on;
    if (state.on) chips.forEach(function (c) { c.checked = state.kinds.indexOf(c.value) >= 0; });
    if (state.message) { say.textContent = state.message; say.classList.remove("push-error"); }
  }
  function post(action, subscription, wanted) {
    return fetch(box.dataset.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify({
        action: action,
        player: Number(box.dataset.player),
        subscription: subscription.toJSON ? subscription.toJSON() : subscription,
        kinds: wanted
      })
    }).then(function (answer) {
      return answer.json().catch(function () { return {}; }).then(function (data) {
        if (!answer.ok) {
          var refused = new Error(data.error || box.dataset.failed);
          refused.said = true;  // the site's own words, in the reader's language
          throw refused;
        }
        return data;
      });
    });
  }
  function registration() { return navigator.serviceWorker.ready; }
  function current() { return registration().then(function (r) { return r.pushManager.getSubscription(); }); }
  // The site's refusal is said in the reader's language; the browser's own errors
  // ("Registration failed - permission denied") are in the browser's: said as the site's.
  function failed(error) {
    if (!error) return;
    say.textContent = error.said ? error.message : box.dataset.failed;
    say.classList.add("push-error");
  }

  // Tap 1: the browser asks its permission (tap 2), then this phone subscribes with every kind.
  on.hidden = false;
  on.addEventListener("click", function () {
    on.disabled = true;
    var asked = Notification.permission === "granted" ? Promise.resolve("granted") : Notification.requestPermission();
    asked.then(function (permission) {
      if (permission !== "granted") { show("[data-push-blocked]"); throw null; }
      hide("[data-push-blocked]");
      return registration();
    }).then(function (r) {
      return r.pushManager.getSubscription().then(function (kept) {
        return kept || r.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey() });
      });
    }).then(function (subscription) {
      chips.forEach(function (c) { c.checked = true; });
      return post("on", subscription, chosen());
    }).then(shown, failed).then(function () { on.disabled = false; });
  });
  // A chip changes what this phone is told (none left: off).
  chips.forEach(function (chip) {
    chip.addEventListener("change", function () {
      current().then(function (subscription) {
        if (!subscription) return shown({ on: false });
        var wanted = chosen();
        return post(wanted.length ? "on" : "off", subscription, wanted).then(shown);
      }).catch(failed);
    });
  });
  off.addEventListener("click", function () {
    current().then(function (subscription) {
      // The browser's subscription stays: it may follow another player from another page.
      return subscription ? post("off", subscription, []).then(shown) : shown({ on: false });
    }).catch(failed);
  });
  // Already on for this player (this phone subscribed before)?  A permission refused
  // before is said once the button asks again (some browsers report "denied" for "not
  // asked yet").
  if (Notification.permission === "granted") {
    current().then(function (subscription) {
      if (subscription) return post("state", subscription, []).then(function (state) { delete state.message; shown(state); });
    }).catch(function () { /* shown as off */ });
  }
})();
