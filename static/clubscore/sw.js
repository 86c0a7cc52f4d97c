// Clubscore's service worker: the table-side entry page and its assets stay usable with
// no network.  Entry pages: the network first, the copy kept last time when there is
// none; a page the server no longer gives (a withdrawn table link: 410; sent to sign
// in) is forgotten.  Static assets: the copy kept, refreshed in the background.  Deals typed
// offline are not handled here: the page queues them in IndexedDB (entry/queue.js).
"use strict";
var PAGES = "clubscore-pages";
var ASSETS = "clubscore-assets";

self.addEventListener("install", function (event) { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

function isEntryPage(url) { return /^\/matches\/\d+\/enter\/$/.test(url.pathname); }

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (isEntryPage(url) && request.mode === "navigate") {
    event.respondWith(fetch(request).then(function (response) {
      if (response.ok && !response.redirected) {
        var copy = response.clone();
        caches.open(PAGES).then(function (cache) { cache.put(url.pathname, copy); });
      } else if (response.status === 410 || response.redirected) {
        // The table's link was withdrawn, or the phone was sent to sign in: the private
        // page is not kept for use without a network any more.
        caches.open(PAGES).then(function (cache) { cache.delete(url.pathname); });
      }
      return response;
    }).catch(function () {
      return caches.open(PAGES).then(function (cache) { return cache.match(url.pathname); })
        .then(function (kept) { return kept || Response.error(); });
    }));
    return;
  }
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(caches.open(ASSETS).then(function (cache) {
      return cache.match(request).then(function (kept) {
        var fresh = fetch(request).then(function (response) {
          if (response.ok) cache.put(request, response.clone());
          return response;
        }).catch(function () { return kept || Response.error(); });
        return kept || fresh;
      });
    }));
  }
});

// Push messages (reach.push): the notification as the server wrote it, in the language the
// player chose; tapping it opens (or brings forward) the page it names, on this site only.
self.addEventListener("push", function (event) {
  var message = {};
  try { message = event.data ? event.data.json() : {}; } catch (e) { message = {}; }
  var title = message.title || "Clubscore";
  event.waitUntil(self.registration.showNotification(title, {
    body: message.body || "",
    tag: message.tag || undefined,
    icon: "/static/clubscore/icon-192.png",
    data: { url: message.url || "/" }
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var wanted = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (wanted.origin !== self.location.origin) wanted = new URL("/", self.location.origin);
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (open) {
    for (var i = 0; i < open.length; i++) {
      if (new URL(open[i].url).pathname + new URL(open[i].url).search === wanted.pathname + wanted.search && "focus" in open[i]) {
        return open[i].focus();
      }
    }
    return self.clients.openWindow(wanted.href);
  }));
});
