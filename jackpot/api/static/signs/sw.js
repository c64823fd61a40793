// The signs' service worker: keeps each sign's page and assets, so a screen that boots while
// the controller is down still shows its page, which then says PROGRESSIVE CLOSED.
// Pages are fetched from the network first (a change reaches the screens), the cache only
// when the network fails. The event stream is never cached.
const CACHE = "jackpot-signs-v1";
const ASSETS = ["/static/signs/sign.css", "/static/signs/sign.js"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(ASSETS)).then(() => self.skipWaiting()));
});
// the page that installed us was loaded before we ran: keep it too (and any other open sign)
self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim()
    .then(() => self.clients.matchAll({ type: "window" }))
    .then((windows) => caches.open(CACHE).then((cache) => Promise.all(windows
      .map((w) => new URL(w.url))
      .filter((u) => u.pathname.startsWith("/signs/"))
      .map((u) => cache.add(u.pathname).catch(() => {}))))));
});
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.pathname.endsWith("/stream")) return;
  const mine = url.pathname.startsWith("/signs/") || ASSETS.includes(url.pathname);
  if (!mine) return;
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(event.request, copy));
        }
        return response;
      })
      .catch(() => caches.match(event.request).then((hit) => hit || Response.error())),
  );
});
