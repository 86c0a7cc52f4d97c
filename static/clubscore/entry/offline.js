// Keep the entry page for use without a network: the service worker, and the page with
// its style, scripts and modules in its caches (the browser's own cache may let them go).
export async function keepForOffline({ cache = true } = {}) {
  if (!("serviceWorker" in navigator)) return;
  try {
    await navigator.serviceWorker.register("/sw.js");
  } catch {
    return;
  }
  if (!cache || !window.caches) return;
  caches.open("clubscore-pages").then((pages) => pages.add(location.pathname));
  const assets = [...document.querySelectorAll(
    "link[rel=stylesheet][href^='/static/'], link[rel=modulepreload][href^='/static/'], script[src^='/static/']",
  )].map((el) => el.getAttribute("href") || el.getAttribute("src"));
  caches.open("clubscore-assets").then((kept) => kept.addAll(assets)).catch(() => {});
}
