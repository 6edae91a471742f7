/*
 * SAGE service worker: lets the installed app start offline.
 * - On install, caches the app shell: index.html plus the /assets/ files it references, every
 *   lazily loaded page chunk listed in the build's asset manifest, the web manifest and the icons.
 * - Navigations: network first, falling back to the cached index.html (the SPA handles routes).
 * - /assets/ (content-hashed, immutable): cache first. Other static files: network first.
 * - /api/ is never intercepted or cached; nor are files shared by link (/shared/), anything cross-origin or non-GET.
 * Bump CACHE_VERSION to drop every old cache on the next activation.
 */
const CACHE_VERSION = "v2";
const CACHE_NAME = `sage-shell-${CACHE_VERSION}`;
const INDEX_URL = "/index.html";
const STATIC_URLS = ["/manifest.webmanifest", "/icons/icon.svg", "/icons/icon-192.png", "/icons/icon-512.png"];

function isApiRequest(url) {
  return url.pathname === "/api" || url.pathname.startsWith("/api/");
}

/** The /assets/ files referenced by an index.html (entry script, preloads, stylesheet). */
function assetUrlsIn(html) {
  const urls = new Set();
  for (const match of html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)) urls.add(match[1]);
  return [...urls];
}

/** Every file of the build (pages load lazily, so index.html alone does not name them all). */
async function manifestAssetUrls() {
  try {
    const response = await fetch("/asset-manifest.json", { cache: "reload" });
    if (!response.ok) return [];
    const manifest = await response.json();
    const urls = new Set();
    for (const entry of Object.values(manifest)) {
      for (const file of [entry.file, ...(entry.css ?? []), ...(entry.assets ?? [])]) if (file) urls.add(`/${file}`);
    }
    return [...urls];
  } catch {
    return [];
  }
}

async function precacheShell() {
  const cache = await caches.open(CACHE_NAME);
  const response = await fetch(INDEX_URL, { cache: "reload" });
  if (!response.ok) throw new Error(`index.html answered ${response.status}`);
  const html = await response.clone().text();
  await cache.put(INDEX_URL, response);
  const urls = new Set([...assetUrlsIn(html), ...(await manifestAssetUrls()), ...STATIC_URLS]);
  await cache.addAll([...urls]);
}

self.addEventListener("install", (event) => {
  event.waitUntil(precacheShell().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith("sage-shell-") && name !== CACHE_NAME).map((name) => caches.delete(name)));
      await self.clients.claim();
    })(),
  );
});

async function rememberShell(response) {
  const cache = await caches.open(CACHE_NAME);
  const html = await response.clone().text();
  await cache.put(INDEX_URL, response);
  // Keep the assets of the newest shell too, so the next offline start finds them.
  const missing = [];
  for (const url of assetUrlsIn(html)) if (!(await cache.match(url))) missing.push(url);
  if (missing.length) await cache.addAll(missing);
}

async function networkFirstNavigation(event) {
  try {
    const response = await fetch(event.request);
    const type = response.headers.get("content-type") || "";
    if (response.ok && type.includes("text/html")) {
      event.waitUntil(rememberShell(response.clone()).catch(() => {}));
    }
    return response;
  } catch (error) {
    const cached = await caches.match(INDEX_URL, { cacheName: CACHE_NAME });
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE_NAME);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE_NAME);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(request);
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // Never cached: always straight to the network (a shared file must stop opening the moment sharing stops).
  if (isApiRequest(url) || url.pathname.startsWith("/shared/")) return;

  if (request.mode === "navigate") {
    event.respondWith(networkFirstNavigation(event));
  } else if (url.pathname.startsWith("/assets/")) {
    event.respondWith(cacheFirst(request));
  } else if (url.pathname === "/sw.js") {
    return;
  } else {
    event.respondWith(networkFirst(request));
  }
});

/*
 * Web push (decision 041): the server sends { kind, title, body, url } encrypted to this browser; it is shown as a
 * notification even with no SAGE tab open, and a click opens (or focuses) SAGE at `url`, a path in SAGE only.
 */
self.addEventListener("push", (event) => {
  let message = { title: "SAGE", body: "", url: "/conversations" };
  try {
    message = { ...message, ...event.data.json() };
  } catch {
    // A message that is not JSON still says something arrived.
  }
  const url = typeof message.url === "string" && message.url.startsWith("/") && !message.url.startsWith("//") ? message.url : "/conversations";
  event.waitUntil(self.registration.showNotification(message.title, { body: message.body, icon: "/icons/icon-192.png", tag: url, data: { url } }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? "/conversations", self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        // Focus is refused without the user's click behind it; the page should still move to the notification's.
        await open.focus().catch(() => undefined);
        return open.navigate(url);
      }
      return self.clients.openWindow(url);
    })(),
  );
});
