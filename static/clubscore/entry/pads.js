// Card pads: they type into the last card field tapped; undo takes the last card back.
export function connectPads(form) {
  let target = null;
  let suit = "";
  form.querySelectorAll("input.cards, textarea.cards").forEach((el) => {
    el.addEventListener("focus", () => { target = el; });
  });
  // A pad that pops up (a card field among others) shows while its section has the focus.
  // It goes once the press that took the focus away is over: a mouse button pressed on a
  // chip below the pad would otherwise be released where the chip was before the page
  // moved up, and its click lost.
  let pressed = false;
  document.addEventListener("pointerdown", () => { pressed = true; }, true);
  const released = () => { pressed = false; };
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);
  form.querySelectorAll(".entry-section").forEach((section) => {
    const pad = section.querySelector(".cardpad.popup");
    if (!pad) return;
    section.addEventListener("focusin", (event) => {
      if (!event.target.matches("input.cards, textarea.cards") || !pad.hidden) return;
      pad.hidden = false;
      pad.scrollIntoView({ block: "nearest" });  // above the Save bar (scroll-margin)
    });
    section.addEventListener("focusout", () => {
      const hide = () => { if (!section.contains(document.activeElement)) pad.hidden = true; };
      if (!pressed) { setTimeout(hide, 0); return; }
      const over = new AbortController();  // after the press's click (the same task)
      const after = () => { over.abort(); setTimeout(hide, 0); };
      document.addEventListener("pointerup", after, { signal: over.signal });
      document.addEventListener("pointercancel", after, { signal: over.signal });
    });
  });
  // A sticky pad's height, for the fields that scroll under it to stop below it (site.css).
  form.querySelectorAll(".entry-section > .cardpad:not(.popup)").forEach((pad) => {
    const measure = () => pad.parentNode.style.setProperty("--pad-height", pad.offsetHeight + "px");
    measure();
    window.addEventListener("resize", measure);
  });
  // Under each card field, what it holds as people read it, in the pads' own labels
  // (DA → ♢A): the field keeps the codes the record takes.
  const labels = new Map();
  form.querySelectorAll(".cardpad button[data-code]").forEach((b) => labels.set(b.dataset.code, b.textContent.trim()));
  form.querySelectorAll(".cardpad button[data-suit]").forEach((b) => labels.set(b.dataset.suit, b.textContent.trim()));
  const readable = (code) => labels.get(code) || (labels.has(code[0]) ? labels.get(code[0]) + code.slice(1) : code);
  form.querySelectorAll("input.cards, textarea.cards").forEach((el) => {
    const shown = document.createElement("output");
    shown.className = "cards-read";
    shown.htmlFor = el.id;
    el.insertAdjacentElement("afterend", shown);
    const show = () => {
      shown.textContent = el.value.split("\n").map((line) => line.trim().split(/\s+/).filter(Boolean).map(readable).join(" ")).join("\n").trim();
    };
    el.addEventListener("input", show);
    show();
  });
  function append(code) {
    const value = target.value.replace(/[ \t]+$/, "");
    target.value = value && !/\n$/.test(value) ? value + " " + code : value + code;
    target.dispatchEvent(new Event("input", { bubbles: true }));
  }
  form.querySelectorAll(".cardpad button").forEach((button) => {
    button.addEventListener("mousedown", (event) => event.preventDefault());  // keep the focus
    button.addEventListener("click", () => {
      const d = button.dataset;
      if (d.suit) {
        suit = d.suit;
        form.querySelectorAll(".cardpad button.suit").forEach((b) => {
          b.setAttribute("aria-pressed", String(b === button));
        });
        return;
      }
      if (!target) return;
      if (d.code) append(d.code);
      else if (d.rank && suit) append(suit + d.rank);
      else if (d.newline) { if (target.value.trim()) target.value = target.value.replace(/\s+$/, "") + "\n"; }
      else if (d.undo) {
        target.value = target.value.replace(/\s*\S+\s*$/, "");
        target.dispatchEvent(new Event("input", { bubbles: true }));
      }
    });
  });
}
