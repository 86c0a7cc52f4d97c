// Table-side entry: fewer taps (moving on by itself, the last point count, card pads),
// exactly once (a key per entry, one send at a time) and offline (a queue on the phone).
// Each concern is a module of its own; this one puts them together on the page.
import { EntryForm } from "./form.js";
import { connectPads } from "./pads.js";
import { Queue } from "./queue.js";
import { post, remember } from "./send.js";
import { keepForOffline } from "./offline.js";

const element = document.getElementById("deal-entry");
if (element) start(element);

function start(element) {
  const form = new EntryForm(element);
  const labels = element.dataset;
  connectPads(element);
  // The queue on the phone: the entry page's (a correction's page sends at once).
  const queue = window.indexedDB && document.getElementById("queue") ? new Queue(labels) : null;
  const save = document.getElementById("save");
  const problem = document.getElementById("send-problem");
  let busy = false;

  function say(errors) {  // a refusal the page cannot show next to a field: said, never "no network"
    problem.textContent = errors.join(" ");
    problem.hidden = false;
    problem.focus();
  }

  // A signal that comes back is often not quite back when the phone says so, and a send
  // can fail with the signal on: what waits is tried again after 1 s, then 2, 4, 8 and 15 s.
  const restore = (kept) => form.restore(kept);
  let retry = 1000;
  let timer = 0;

  async function sync() {
    clearTimeout(timer);
    if (await queue.sync(labels, restore)) later();
    else retry = 1000;
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(sync, retry);
    retry = Math.min(retry * 2, 15000);
  }

  async function keep(entry) {  // no network: on the phone, and the next form
    await queue.add(entry);
    await queue.show(labels.offlineLabel, restore);
    form.next();
    if (navigator.onLine !== false) later();  // the signal is on, yet the send failed
  }

  async function send(entry, submitter) {
    let answer;
    try {
      answer = await post(entry, false, labels);
    } catch {
      if (queue) await keep(entry);  // no answer at all: no network
      return;
    }
    if (answer.status === "stored") {
      remember(answer);
      location.assign(answer.next || location.pathname);
      return;
    }
    if (answer.status === "withdrawn" && queue) {  // kept for the page the new link opens
      await queue.add({ ...entry, status: "refused", errors: answer.errors }).catch(() => {});
      await queue.show("", restore);
    }
    if (["signin", "server", "withdrawn"].includes(answer.status)) {
      say(answer.errors);
      return;
    }
    // Not stored: the page shows every problem next to its field (nothing was written).
    form.submitNatively(submitter);
  }

  element.addEventListener("submit", async (event) => {
    if (labels.native === "1") return;
    event.preventDefault();
    if (busy) return;
    busy = true;
    if (problem) problem.hidden = true;
    if (save) save.disabled = true;
    const entry = form.snapshot(event.submitter);
    try {
      if (navigator.onLine === false && queue) await keep(entry);
      else await send(entry, event.submitter);
    } finally {
      busy = false;
      if (save) save.disabled = false;
    }
  });

  if (!form.bound) form.numberAfterTheLastSaved();
  if (queue) {
    if (!form.bound) queue.lastNumber().then((last) => form.numberAfter(last));
    queue.show("", restore);
    sync();
    window.addEventListener("online", sync);
    setInterval(sync, 15000);
  }
  if (!form.bound) keepForOffline();
  else keepForOffline({ cache: false });
  element.dataset.ready = "1";  // every tap from now on reaches its handler (the browser tests wait for it)
}
