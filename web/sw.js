// Tapete's service worker: precaches every file of the build under a cache named after the
// build's version, serves same-origin GETs cache-first, and deletes older caches when it
// activates. It never calls skipWaiting by itself: the page asks for it between games.

const BUILD = "__TAPETE_BUILD__"; // replaced by build.py with {version, files}
const DEV = typeof BUILD === "string";
const VERSION = DEV ? "dev" : BUILD.version;
const FILES = DEV ? [] : BUILD.files;
const PREFIX = "tapete-";
const CACHE = PREFIX + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil(onInstall());
});

async function onInstall() {
  if (DEV) return;
  const cache = await caches.open(CACHE);
  await cache.addAll(FILES.map((file) => new Request(file, { cache: "no-cache" })));
}

self.addEventListener("activate", (event) => {
  event.waitUntil(onActivate());
});

async function onActivate() {
  const names = await caches.keys();
  await Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)));
  await self.clients.claim();
}

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skipWaiting") event.waitUntil(self.skipWaiting());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (DEV || request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  event.respondWith(cacheFirst(request));
});

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request, { ignoreSearch: request.mode === "navigate" });
  if (hit) return hit;
  return fetch(request);
}
