// The room display: asks the night's live data every few seconds with the ETag of what it
// shows (a 304 answer costs the server two small queries and carries no body), and
// redraws the round, the tables, the standings and the latest deals when they change.
// No HTML is ever built from data: every name goes in as text.
(function () {
  "use strict";
  var root = document.getElementById("live");
  if (!root) return;
  var labels = root.dataset;
  var every = 3000;

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }
  function fill(id, nodes) {
    var box = document.getElementById(id);
    while (box.firstChild) box.removeChild(box.firstChild);
    nodes.forEach(function (n) { box.appendChild(n); });
  }
  function draw(data) {
    var r = data.round;
    document.getElementById("live-round").textContent = r
      ? labels.round + " " + r.number + " · " + r.game_label + " · " + r.method_label +
        (!r.deals ? "" : " · " + (r.deals === 1 ? labels.dealsOne
          : labels.dealsMany.replace("%s", r.deals)))
      : "";
    // The draw's figures (the night up to this round): a figure to worry about in bold,
    // starting with ⚠ (scoring/draw_figures.py says the words).
    var fair = r && r.fairness;
    var figures = [];
    if (fair) {
      figures.push(el("span", labels.draw + ":", "figures-label"));
      fair.parts.forEach(function (part, i) {
        figures.push(document.createTextNode(i ? " · " : " "));
        figures.push(el(part.bad ? "strong" : "span", part.text, part.bad ? "figure bad" : "figure"));
      });
    }
    fill("live-fairness", figures);
    document.getElementById("live-fairness").hidden = !fair;
    // Each table's game named where the tables play different games (web/room_display.py).
    var mixed = data.tables.some(function (t) { return t.game !== data.tables[0].game; });
    fill("live-tables", data.tables.map(function (t) {
      var li = el("li", null, (t.finished ? "done" : "") + (t.behind ? " behind" : ""));
      li.appendChild(el("strong", mixed ? t.name + " · " + t.game : t.name));
      li.appendChild(document.createTextNode(" "));
      li.appendChild(el("span", t.progress +
        (t.finished ? " · " + labels.finished : "") + (t.behind ? " · " + labels.behind : ""), "progress"));
      li.appendChild(el("br"));
      var who = el("span", null, "who");  // each name whole: a line breaks between names
      t.players.forEach(function (name) { who.appendChild(el("span", name, "nm")); });
      li.appendChild(who);
      return li;
    }));
    var waiting = document.getElementById("live-waiting");
    waiting.hidden = !data.waiting;
    waiting.textContent = !data.waiting ? "" : data.waiting === 1 ? labels.waitingOne
      : labels.waitingMany.replace("%s", data.waiting);
    document.getElementById("live-out").textContent =
      r && r.sat_out.length ? labels.out + ": " + r.sat_out.join(", ") : "";
    // One table per game when the night's points are per game (never added together),
    // its rows in one to three columns by their count, the type sized to fit the screen
    // (the rule of web/room_display.py: keep the two alike).
    var boards = data.standings.boards;
    var count = boards.reduce(function (n, b) { return n + b.rows.length; }, 0);
    var columns = Math.min(3, Math.max(1, Math.ceil(count / 12)));
    var per = Math.max(1, Math.ceil(count / columns));
    function step(n, steps) {
      for (var i = 0; i < steps.length; i++) if (n <= steps[i]) return steps[i];
      return steps[steps.length - 1] + 1;
    }
    var chunks = [];
    boards.forEach(function (board) {
      for (var i = 0; i < Math.max(board.rows.length, 1); i += per) {
        var last = i + per >= board.rows.length;
        chunks.push({ caption: boards.length > 1 ? board.game_label : "", rows: board.rows.slice(i, i + per),
                      shown: last && board.rows.length < board.of ? board.rows.length : 0, of: board.of });
      }
    });
    // The rows the standings stand in (room_display.height): the grid's rows, each as
    // tall as its tallest chunk with its heading, game and "top N" lines.
    var tall = -1;
    for (var g = 0; g < chunks.length; g += columns) {
      tall += Math.max.apply(null, chunks.slice(g, g + columns).map(function (c) {
        return Math.max(c.rows.length, 1) + 1 + (c.caption ? 1 : 0) + (c.shown ? 1 : 0);
      }));
    }
    root.className = "live columns-" + columns + " rows-" + step(tall, [8, 12, 16, 20]) +
      " tables-" + step(data.tables.length, [4, 6, 8]);
    fill("live-standings", chunks.map(function (chunk) {
      var table = el("table", null, "live-standings");
      if (chunk.caption) table.appendChild(el("caption", chunk.caption));
      var head = el("tr");
      [["#", "", labels.rank], [labels.player], [labels.total, "num"]].forEach(function (h) {
        var th = head.appendChild(el("th", h[0], h[1]));
        if (h[2]) th.setAttribute("aria-label", h[2]);  // a short heading: "#", read "Rank"
      });
      table.appendChild(el("thead")).appendChild(head);
      var body = table.appendChild(el("tbody"));
      chunk.rows.forEach(function (row) {
        var tr = body.appendChild(el("tr"));
        tr.appendChild(el("td", row.begun === false ? "—" : String(row.rank)));  // no deal yet: no place
        tr.appendChild(el("td", row.shown, "name"));
        tr.appendChild(el("td", String(row.total), "num"));
      });
      if (!chunk.rows.length) {  // nobody has played on this board yet
        body.appendChild(el("tr")).appendChild(el("td", labels.noDeal, "muted")).colSpan = 3;
      }
      if (chunk.shown) {  // the board's lines cut short: "top 30 of 42"
        var more = el("td", labels.more.replace("%s", chunk.shown).replace("%n", chunk.of), "more");
        table.appendChild(el("tfoot")).appendChild(el("tr")).appendChild(more).colSpan = 3;
      }
      return table;
    }));
    fill("live-latest", data.latest.map(function (d) {
      // As the signed_scores filter: each "Aki +3" whole, a line breaking between them.
      var line = el("li", d.table + " · " + labels.deal + " " + d.number + ": ");
      d.scores.forEach(function (s, i) {
        if (i) line.appendChild(document.createTextNode(", "));
        line.appendChild(el("span", s[0] + " " + (s[1] > 0 ? "+" : "") + s[1], "sc"));
      });
      return line;
    }));
  }
  // On the room's screen (60rem wide or more), the type as large as the window holds:
  // the classes above are a first guess by counting rows (the same as the server's, and
  // all there is without the script); measured here, the standings and the tables grow
  // to fill the window's height, or shrink where they would pass its bottom, but never
  // so far that a name is cut short that was whole at the first guess (a table's
  // progress may take two lines, broken between words: live.css).
  var wide = window.matchMedia("(min-width: 60rem)");
  function fit() {
    root.style.removeProperty("--size");
    if (!wide.matches) { root.dataset.fitted = String(Date.now()); return; }
    var grid = root.querySelector(".live-grid");
    var boxes = [document.getElementById("live-standings"), document.getElementById("live-tables")];
    function fits() {
      var floor = grid.getBoundingClientRect().bottom + 1;
      return boxes.every(function (box) {
        return Array.prototype.every.call(box.children, function (child) {
          return child.getBoundingClientRect().bottom <= floor;
        });
      });
    }
    function cut() {
      return Array.prototype.filter.call(root.querySelectorAll("#live-standings .name, #live-tables .who"),
        function (e) { return e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1; }).length;
    }
    function size(px) { root.style.setProperty("--size", px + "px"); }
    var guess = parseFloat(getComputedStyle(root).fontSize);
    var names = cut();
    var low = guess, high = guess * 1.8;
    if (!fits()) { low = 10; high = guess; }
    for (var i = 0; i < 8 && high - low > 0.5; i++) {
      var mid = (low + high) / 2;
      size(mid);
      if (fits() && cut() <= names) low = mid; else high = mid;
    }
    size(Math.floor(low * 2) / 2);
    root.dataset.fitted = String(Date.now());
  }
  var pending = 0;
  window.addEventListener("resize", function () {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(fit);
  });
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(fit); else fit();
  function poll() {
    var headers = { "Accept": "application/json" };
    if (root.dataset.etag) headers["If-None-Match"] = root.dataset.etag;
    fetch(root.dataset.url, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        document.getElementById("live-status").textContent = "";
        if (response.status === 304) return null;
        if (!response.ok) throw new Error(String(response.status));
        root.dataset.etag = response.headers.get("ETag") || "";
        return response.json();
      })
      .then(function (data) { if (data) { draw(data); fit(); root.dataset.updated = String(Date.now()); } })
      .catch(function () { document.getElementById("live-status").textContent = labels.stale; })
      .then(function () { setTimeout(poll, every); });
  }
  setTimeout(poll, every);
})();
