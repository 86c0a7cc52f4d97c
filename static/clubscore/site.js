// What every page does with a script (the pages' Content-Security-Policy allows no inline
// script): the language menu takes effect when chosen, Print links print, a button with
// data-confirm asks before acting, links copy and share, and the attendance page counts who is ticked present.
(function () {
  "use strict";
  document.querySelectorAll("select[data-submit-on-change]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
  // A form sent back with a problem: the cursor in the first field that has one, in sight
  // (not the first field of the form, which may be a screen above it); where the page
  // sums its problems up in a box, the box, in sight (a browser that keeps the place
  // of a page sent again would leave it above the screen), its links to the fields.
  var summary = document.getElementById("error-summary");
  var wrong = summary || document.querySelector("main [aria-invalid=true]");
  if (wrong) {
    wrong.focus({ preventScroll: true });
    wrong.scrollIntoView({ block: summary ? "start" : "center" });
  }
  document.querySelectorAll("[data-print]").forEach(function (link) {
    link.addEventListener("click", function (event) { event.preventDefault(); window.print(); });
  });
  // A shared phone forgets the pages it kept for use offline (a private season's entry
  // page, its players, its sheet) when its user signs out, or once a page shows nobody is
  // signed in; the deals waiting to be sent (IndexedDB) stay.
  function forgetPages() {
    return window.caches ? caches.delete("clubscore-pages").catch(function () {}) : Promise.resolve();
  }
  if (document.body.dataset.signedIn === "0") forgetPages();
  // The service worker on every page: the site installs like an app (its manifest), and
  // the entry pages kept by it open with no network (entry/offline.js keeps them).
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(function () {});
  document.querySelectorAll("form[data-sign-out]").forEach(function (signOut) {
    signOut.addEventListener("submit", function (event) {
      if (signOut.dataset.forgotten) return;
      event.preventDefault();
      forgetPages().then(function () { signOut.dataset.forgotten = "1"; signOut.submit(); });
    });
  });
  // A button that changes what others rely on (a table's link) or cannot be undone (a
  // merge) asks once before acting; "%s" names the choice of the field data-confirm-with.
  document.querySelectorAll("button[data-confirm]").forEach(function (button) {
    button.addEventListener("click", function (event) {
      var message = button.dataset.confirm;
      var chosen = button.dataset.confirmWith && document.querySelector(button.dataset.confirmWith);
      if (chosen && chosen.selectedIndex >= 0) {
        if (!chosen.value) return;  // nothing chosen: the server says so
        message = message.split("%s").join(chosen.options[chosen.selectedIndex].text);
      }
      if (!window.confirm(message)) event.preventDefault();
    });
  });
  // A link to hand on (an invitation, a table's): Copy puts it on the clipboard, Share
  // opens the phone's share sheet (shown only where the browser has one).
  document.querySelectorAll(".copy-link").forEach(function (box) {
    var field = box.querySelector("input.copy");
    var copy = box.querySelector("[data-copy]");
    var share = box.querySelector("[data-share]");
    function copied() { copy.textContent = copy.dataset.copied; }
    function selectAndCopy() {
      field.select();
      try { if (document.execCommand("copy")) copied(); } catch (e) { /* selected: the thumb copies */ }
    }
    copy.addEventListener("click", function () {
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(field.value).then(copied, selectAndCopy);
      else selectAndCopy();
    });
    if (share && navigator.share) {
      share.hidden = false;
      share.addEventListener("click", function () {
        navigator.share({ title: share.dataset.shareTitle, url: field.value }).catch(function () {});
      });
    }
  });
  // Fields that matter for one choice only (the final table's size and the others) show
  // while that choice is made; without a script they all show.
  document.querySelectorAll("[data-shown-for]").forEach(function (block) {
    var choices = document.querySelectorAll(block.dataset.shownFor);
    function show() {
      var chosen = Array.prototype.some.call(choices, function (c) { return c.checked && c.value === block.dataset.shownValue; });
      block.hidden = !chosen;
    }
    choices.forEach(function (c) { c.addEventListener("change", show); });
    show();
  });
  // A table wider than the screen scrolls by keyboard too: its box takes the focus and is
  // named after the heading before it (a sheet of many players on a phone).
  document.querySelectorAll(".scroll").forEach(function (box) {
    if (box.scrollWidth <= box.clientWidth + 1 || box.hasAttribute("tabindex")) return;
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    var heading = box.previousElementSibling;
    while (heading && !/^H[1-6]$/.test(heading.tagName)) heading = heading.previousElementSibling;
    box.setAttribute("aria-label", heading ? heading.textContent.trim() : document.title);
  });
  // A leaderboard scrolled sideways on a phone stops where no heading is left half under
  // its sticky columns (rank, player, points): the column cut by their edge is shown or
  // hidden whole once the scrolling ends.
  document.querySelectorAll(".scroll > table.leaderboard").forEach(function (table) {
    var box = table.parentNode;
    var lastSticky = table.querySelector("tr th:nth-child(3)");
    if (!lastSticky) return;
    box.addEventListener("scrollend", function () {
      var edge = lastSticky.getBoundingClientRect().right;
      var headings = table.querySelectorAll("tr:first-child th:nth-child(n+4)");
      for (var i = 0; i < headings.length; i++) {
        var cell = headings[i].getBoundingClientRect();
        if (cell.left < edge - 1 && cell.right > edge + 1) {
          var back = edge - cell.left, on = cell.right - edge;
          var room = box.scrollWidth - box.clientWidth - box.scrollLeft;
          box.scrollBy({ left: on <= back && on <= room ? on : -back, behavior: "smooth" });
          return;
        }
      }
    });
  });
  // "Tick everyone" / "Untick everyone": every box of its field ticked or not (then
  // untick who is missing); while a name finder narrows the field, only the names shown,
  // and the button says so ("Tick the names shown").
  document.querySelectorAll("[data-tick-all]").forEach(function (button) {
    var field = document.querySelector(button.dataset.tickAll);
    if (!field) return;
    var everyone = button.textContent;
    button.addEventListener("click", function () {
      var boxes = Array.prototype.filter.call(
        field.querySelectorAll("input[type=checkbox]"),
        function (box) { return !box.closest("[hidden]"); }
      );
      boxes.forEach(function (box) { box.checked = button.dataset.tick !== "off"; });
      if (boxes.length) boxes[0].dispatchEvent(new Event("change", { bubbles: true }));
    });
    field.addEventListener("names-found", function (event) {
      button.textContent = event.detail.narrowed ? button.dataset.shown : everyone;
    });
  });
  // A long list of names ({% name_finder %}): its box shown, and as a name is typed the
  // list's items that do not hold it hidden (by their text and their data-also: the name
  // in Japanese and its reading), in capitals or not, katakana and hiragana alike.
  // Typed with letters, a name is found as typed, spaces and all ("kim" does not find
  // "Aki Mori"); typed in Japanese, with or without the space between family and given
  // name ("森亜紀" finds "森 亜紀").
  var plain = function (text) {
    return text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim().replace(
      /[\u30a1-\u30f6]/g,
      function (c) { return String.fromCharCode(c.charCodeAt(0) - 0x60); }
    );
  };
  var holds = function (one, asked) {
    if (/[a-z0-9]/.test(asked)) return one.text.indexOf(asked) >= 0;
    return one.joined.indexOf(asked.replace(/ /g, "")) >= 0;
  };
  document.querySelectorAll("[data-find-names]").forEach(function (box) {
    var list = document.querySelector(box.dataset.findNames);
    if (!list) return;
    var items = Array.prototype.map.call(list.querySelectorAll("[data-also]"), function (item) {
      // The name apart from the others (a line between), so that letters typed do not run
      // from one into the next.
      var text = plain(item.textContent) + "\n" + plain(item.dataset.also);
      return { item: item, text: text, joined: text.replace(/ /g, "") };
    });
    var none = box.parentNode.querySelector("[data-none]");
    box.parentNode.hidden = false;
    box.addEventListener("input", function () {
      var asked = plain(box.value);
      var found = 0;
      items.forEach(function (one) {
        one.item.hidden = !holds(one, asked);
        if (!one.item.hidden) found += 1;
      });
      none.hidden = found > 0;
      list.dispatchEvent(new CustomEvent("names-found", { detail: { narrowed: asked !== "" } }));
    });
    // The keyboard's "search" key finds, as the typing did: it does not send the form
    // around the list (the attendance), and it puts the keyboard away.
    box.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      event.preventDefault();
      box.blur();
    });
  });
  var out = document.getElementById("present-count");
  var form = document.getElementById("attendance");
  if (out && form) {
    var count = function () {
      out.textContent = out.dataset.label + ": " +
        form.querySelectorAll("#field-present input:checked").length;
    };
    form.addEventListener("change", count);
    count();
  }
})();
