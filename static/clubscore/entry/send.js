// Sending an entry to the page, and remembering the last deal this phone stored.
import { SAVED } from "./form.js";

function csrfToken() {
  // The token of now (a sign-in since the deal was typed changed it), not the form's.
  const found = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
  return found ? decodeURIComponent(found.slice("csrftoken=".length)) : "";
}

// Resolves with the page's JSON answer, or {status: "signin" | "server"} when the answer
// is not one (signed out, a refused token, the server failing); rejects only when no
// answer came at all (no network).
export async function post(entry, queued, labels) {
  const body = new FormData();
  for (const [name, value] of entry.fields) if (name !== "csrfmiddlewaretoken") body.append(name, value);
  const headers = { "Accept": "application/json", "X-CSRFToken": csrfToken() };
  if (queued) headers["X-Clubscore-Queue"] = "1";
  const response = await fetch(entry.url, { method: "POST", body, headers, credentials: "same-origin" });
  const type = response.headers.get("Content-Type") || "";
  const signedOut = response.status === 401 || response.status === 403 ||
    (response.redirected && response.url.includes("/accounts/login/"));
  if (signedOut) return { status: "signin", errors: [labels.signinLabel] };
  if (response.status === 410) {  // the table's link was withdrawn: forget this page
    if (window.caches) caches.open("clubscore-pages").then((c) => c.delete(location.pathname));
    return response.json();
  }
  if (!type.includes("application/json")) return { status: "server", errors: [labels.serverLabel] };
  return response.json();
}

export function remember(answer) {
  try {
    localStorage.setItem(SAVED, JSON.stringify({ number: answer.number, message: answer.message, at: Date.now() }));
  } catch { /* private mode: the server still refuses a number taken */ }
}
