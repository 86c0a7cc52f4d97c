// The queue on the phone (IndexedDB): deals typed with no network, sent in order when it
// is back, each exactly once; refusals shown for correction.
import { post, remember } from "./send.js";

const DB = "clubscore", STORE = "queue";

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function tx(mode, work) {
  const connection = await open();
  return new Promise((resolve, reject) => {
    const t = connection.transaction(STORE, mode);
    const result = work(t.objectStore(STORE));
    t.oncomplete = () => resolve(result && result.result !== undefined ? result.result : result);
    t.onerror = () => reject(t.error);
  });
}

export class Queue {
  constructor(labels) {
    this.labels = labels;
    this.syncing = false;
    this.box = document.getElementById("queue");
    this.status = document.getElementById("queue-status");
    this.refused = document.getElementById("queue-refused");
  }

  add(entry) { return tx("readwrite", (s) => s.add(entry)); }
  put(entry) { return tx("readwrite", (s) => s.put(entry)); }
  remove(entry) { return tx("readwrite", (s) => s.delete(entry.id)); }

  async mine() {  // this page's entries, in the order they were kept
    const entries = await tx("readonly", (s) => s.getAll());
    return entries.filter((e) => e.url === location.pathname);
  }

  async lastNumber() {
    let last = 0;
    for (const entry of await this.mine()) {
      for (const [name, value] of entry.fields) {
        if (name === "number") last = Math.max(last, parseInt(value || "0", 10));
      }
    }
    return last;
  }

  // How many wait, with "Load into the form" for each refused one (``restore``).
  async show(note, restore) {
    const mine = await this.mine();
    const refused = mine.filter((e) => e.status === "refused");
    this.box.hidden = !mine.length && !note;
    this.box.dataset.waiting = String(mine.length);  // what waits, refused ones included
    this.status.textContent = (note ? note + " " : "") +
      (mine.length ? this.labels.waitingLabel.replace("%s", mine.length) : "");
    this.refused.textContent = "";
    for (const entry of refused) {
      const item = document.createElement("li");
      item.textContent = this.labels.refusedLabel + " " + entry.errors.join(" · ") + " ";
      const load = document.createElement("button");
      load.type = "button";
      load.className = "button secondary";
      load.textContent = this.labels.loadLabel;
      load.addEventListener("click", async () => {
        restore(entry);
        await this.remove(entry);
        await this.show("", restore);
      });
      item.appendChild(load);
      this.refused.appendChild(item);
    }
  }

  // Send what waits, in order, each once; stop at a refusal (corrected first) or when the
  // network or the server fails.  True when entries wait to be tried again.
  async sync(labels, restore) {
    if (this.syncing || navigator.onLine === false) return false;
    this.syncing = true;
    let note = "";
    let again = false;
    try {
      const mine = await this.mine();
      if (!mine.some((e) => e.status === "refused")) {
        for (const entry of mine) {
          let answer;
          try { answer = await post(entry, true, labels); } catch { again = true; break; }  // no network
          if (answer.status === "server") { again = true; break; }  // the server failed
          if (answer.status === "stored") {
            remember(answer);
            await this.remove(entry);
            note = labels.sentLabel.replace("%s", answer.message);
            continue;
          }
          await this.put({ ...entry, status: "refused", errors: answer.errors || [] });
          break;
        }
      }
      await this.show(note, restore);
    } catch { /* the phone's storage failed: the next sync tries again */ }
    finally { this.syncing = false; }
    return again;
  }
}
