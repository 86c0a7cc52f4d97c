// A player's own night: asks for its own part (?part=mine, the content of #mine alone)
// every few seconds with the ETag of what it shows (answered 304 while nothing changed)
// and puts the new part in place.  The new part is the server's own markup for this
// page, read with DOMParser: never built here.
(function () {
  "use strict";
  var box = document.getElementById("mine");
  if (!box) return;
  var tag = box.dataset.tag || null;  // the part's ETag as the page shows it
  var timer = null;
  var part = new URL(location.href);
  part.searchParams.set("part", "mine");
  function ask() {
    if (document.hidden) return;  // a phone in a pocket asks nothing
    var headers = tag ? { "If-None-Match": tag } : {};
    fetch(part.href, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (answer) {
        if (answer.status === 404) clearInterval(timer);  // the link was withdrawn
        if (answer.status !== 200) return null;
        tag = answer.headers.get("ETag");
        return answer.text();
      })
      .then(function (text) {
        if (!text) return;
        var fresh = new DOMParser().parseFromString(text, "text/html").body;
        box.replaceChildren.apply(box, Array.from(fresh.childNodes).map(function (n) {
          return document.importNode(n, true);
        }));
      })
      .catch(function () { /* no network: asked again later */ });
  }
  timer = setInterval(ask, 4000);
  document.addEventListener("visibilitychange", ask);  // back in hand: asked at once
})();
