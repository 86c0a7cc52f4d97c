// The entry form itself: a fresh key per entry, problems in sight, the running sum of the
// point cards (and the last player's count), moving on by itself, the deal's number.
const SAVED = "clubscore-saved:" + location.pathname;

export function newKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Date.now().toString(36) + Math.random().toString(36).slice(2);
}

const number = (el) => parseInt(el.value || "0", 10) || 0;

// The text of a card field without the digits that are no card's: a digit only follows a
// suit (S5, H10), and a 0 only its 1.
const SUIT = /^[SHDC♠♥♡♦♢♣]$/i;
const TEN = /^[SHDC♠♥♡♦♢♣]1$/i;
function cardDigits(text) {
  return text.replace(/[^\s,]+/g, (word) => {
    let kept = "";
    for (const c of word) {
      if (!/\d/.test(c) || SUIT.test(kept) || (c === "0" && TEN.test(kept))) kept += c;
    }
    return kept;
  });
}

export class EntryForm {
  constructor(element) {
    this.element = element;
    this.bound = element.dataset.bound === "1";
    // A fresh form gets a fresh key: a page kept by the browser or the offline cache never
    // sends an old one.  A form shown again with its problems keeps its key.
    if (!this.bound) element.elements.key.value = newKey();
    window.addEventListener("pageshow", (event) => { if (event.persisted) location.reload(); });
    this.focusProblems();
    this.connectPoints();
    this.connectAdvance();
  }

  // -- problems in sight ---------------------------------------------------------------
  focusProblems() {
    const summary = document.getElementById("error-summary") || document.getElementById("stale") ||
      document.getElementById("same-as");
    if (summary) { summary.focus(); summary.scrollIntoView({ block: "start" }); }
    // A problem's link puts the cursor in its field (not only the page at the field), its
    // whole value selected: the next digits typed replace the slip.
    document.querySelectorAll("#error-summary a[href^='#field-']").forEach((link) => {
      link.addEventListener("click", () => {
        const block = document.getElementById(link.getAttribute("href").slice(1));
        const control = block && block.querySelector("input:not([type=hidden]), select, textarea");
        if (!control) return;
        window.setTimeout(() => {  // after the jump
          control.focus();
          if (control.select && !["radio", "checkbox"].includes(control.type)) control.select();
        }, 0);
      });
    });
  }

  // -- point cards: the running sum, the last player's count ---------------------------
  connectPoints() {
    this.total = parseInt(this.element.dataset.pointTotal || "0", 10);
    this.sum = document.getElementById("points-sum");
    this.derived = this.element.querySelector("input[data-derived]");
    this.touched = this.bound;  // a refused form shows what was sent, as it was sent
    if (this.derived) this.derived.addEventListener("input", () => { this.touched = true; });
    this.element.addEventListener("input", () => this.refresh());
    this.refresh();
  }

  refresh() {
    if (!this.sum) return;
    const inputs = [...this.element.querySelectorAll("input.points")];
    if (this.derived && !this.touched) {
      const others = inputs.filter((el) => el !== this.derived);
      const sum = others.reduce((n, el) => n + number(el), 0);
      const typed = others.some((el) => el.value !== "" && el.name.startsWith("pc_"));
      this.derived.value = typed && this.total - sum >= 0 ? String(this.total - sum) : "";
    }
    const n = inputs.reduce((sum, el) => sum + number(el), 0);
    this.sum.textContent = this.sum.dataset.label.replace("%s", n).replace("%t", this.total);
    // Nothing typed yet is no mistake: the sum stays plain until a count is typed.
    const begun = this.bound || inputs.some((el) => el !== this.derived && el.value !== el.defaultValue);
    this.sum.className = "sum" + (n === this.total ? " ok" : begun ? " off" : "");
  }

  // -- moving on: a number that cannot take another digit goes to the next field ----------
  // (a card field too: its pad pops up).  A card field is typed by its pad, so a digit that
  // reaches it from the keyboard (a thumb still typing as the page moves on) starts no card
  // and is dropped: no digit is ever carried into a card field.
  connectAdvance() {
    const advancing = [...this.element.querySelectorAll("input[data-advance='1'], input.cards")];
    const onwards = (el) => {
      const next = advancing[advancing.indexOf(el) + 1];
      if (next) next.focus();
    };
    this.element.querySelectorAll("input.cards, textarea.cards").forEach((el) => {
      el.addEventListener("beforeinput", (event) => {
        if (!event.cancelable || !/\d/.test(event.data || "")) return;
        const before = el.value.slice(0, el.selectionStart ?? el.value.length);
        if (cardDigits(before + event.data) !== before + event.data) event.preventDefault();
      });
      el.addEventListener("input", (event) => {  // where the phone's keyboard cannot be told no
        if (!event.inputType) return;  // the pad's own input
        const kept = cardDigits(el.value);
        if (kept !== el.value) el.value = kept;
      });
    });
    this.element.querySelectorAll("input[data-advance='1']").forEach((el) => {
      el.addEventListener("input", () => {
        const max = parseInt(el.dataset.max || "0", 10);
        if (!max || el.value === "" || number(el) * 10 <= max) return;  // a digit may follow
        onwards(el);
      });
      el.addEventListener("keydown", (event) => {
        if (event.key !== "Enter") return;
        event.preventDefault();
        onwards(el);
      });
    });
  }

  // -- the deal's number ---------------------------------------------------------------
  get shownNumber() {
    return parseInt(this.element.elements.number.value || "0", 10);
  }

  showNumber(value) {
    this.element.elements.number.value = String(value);
    const heading = document.getElementById("deal-number");
    if (heading) heading.textContent = String(value);
  }

  // The last deal stored from this phone: a page kept from before a save (the network
  // dropped on the way to the next form) must not offer that deal's number again.
  numberAfterTheLastSaved() {
    let saved = null;
    try { saved = JSON.parse(localStorage.getItem(SAVED) || "null"); } catch { saved = null; }
    if (!saved || !saved.number) return;
    if (saved.number < this.shownNumber) { localStorage.removeItem(SAVED); return; }  // the server knows more
    this.showNumber(saved.number + 1);
    const note = document.getElementById("kept-saved");
    if (note) {
      note.querySelector(".saved-line").textContent = saved.message;
      note.hidden = false;
    }
  }

  // Deals typed offline are numbered after the ones waiting, also after a reload (the
  // page kept offline shows the number it had when it was kept).
  numberAfter(last) {
    if (last >= this.shownNumber) this.showNumber(last + 1);
  }

  // -- what is sent, and what comes back into the form ------------------------------------
  snapshot(submitter) {
    const fields = [...new FormData(this.element)].map(([name, value]) => [name, value]);
    if (submitter && submitter.name) fields.push([submitter.name, submitter.value]);
    return { url: location.pathname, fields, at: Date.now(), status: "waiting", errors: [] };
  }

  next() {
    const following = this.shownNumber + 1;
    this.element.reset();
    this.showNumber(following);
    this.element.elements.key.value = newKey();
    this.touched = false;
    this.refresh();
    window.scrollTo(0, 0);
  }

  restore(entry) {
    this.element.reset();
    for (const [name, value] of entry.fields) {
      if (typeof value !== "string" || name === "csrfmiddlewaretoken") continue;
      this.element.querySelectorAll(`[name='${name}']`).forEach((el) => {
        if (el.type === "radio" || el.type === "checkbox") { if (el.value === value) el.checked = true; }
        else el.value = value;
      });
    }
    this.touched = true;
    this.refresh();
    window.scrollTo(0, 0);
  }

  submitNatively(submitter) {
    this.element.dataset.native = "1";
    if (submitter && this.element.requestSubmit) this.element.requestSubmit(submitter);
    else this.element.submit();
  }
}

export { SAVED };
