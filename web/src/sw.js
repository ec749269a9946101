// sw.js: keeps Locus working with the network gone. Written by web/sitegen
// from web/src/sw.js: VERSION is a hash of every file below, so each new
// build is a new service worker that caches the new files and drops the old.
'use strict';
const VERSION = '__VERSION__';
const CACHE = 'locus-' + VERSION;
const ASSETS = __ASSETS__;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // cache: 'reload' skips the HTTP cache so a new build never mixes with old files.
    await cache.addAll(ASSETS.map((url) => new Request(url, { cache: 'reload' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith('locus-') && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

// Every answer carries the headers that make the page cross-origin isolated,
// whatever server the files came from: the engine's Web Workers may then
// share memory (SharedArrayBuffer) in a parallel check. The app loads
// nothing from other origins, so isolation takes nothing from it.
const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

function isolated(res) {
  if (!res || res.type === 'opaque' || res.type === 'opaqueredirect' || res.status < 200) return res;
  const headers = new Headers(res.headers);
  let changed = false;
  for (const [k, v] of Object.entries(ISOLATION)) {
    if (headers.get(k) !== v) {
      headers.set(k, v);
      changed = true;
    }
  }
  if (!changed) return res;
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

// Cache first: every file of a build is cached at install, so the network is
// only asked for what is not part of the app.
self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  if (sharedLink(event)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = (await cache.match(req, { ignoreSearch: true })) ||
      (req.mode === 'navigate' ? await cache.match('./') : undefined);
    return isolated(hit || await fetch(req));
  })());
});

// Short links (edge/): documents of api/share/{id} never change (the id is
// their hash), so they are answered from their own cache, which outlives
// app versions; the page fills it when it opens a link. A /s/{id} page is
// fetched fresh when online; offline, the cached app opens in its place,
// with a <base> so its relative URLs still reach the cached files.
const SHARED = 'shared-models';

function sharedLink(event) {
  const req = event.request;
  const rel = req.url.slice(self.registration.scope.length);
  if (rel.startsWith('api/share/')) {
    event.respondWith((async () => {
      const cache = await caches.open(SHARED);
      const hit = await cache.match(req);
      if (hit) return isolated(hit);
      const res = await fetch(req);
      if (res.ok) await cache.put(req, res.clone());
      return isolated(res);
    })());
    return true;
  }
  if (req.mode === 'navigate' && rel.startsWith('s/')) {
    event.respondWith((async () => {
      try {
        return isolated(await fetch(req));
      } catch (err) {
        const shell = await (await caches.open(CACHE)).match('./');
        if (!shell) throw err;
        const page = (await shell.text()).replace(/<head>/i, '<head><base href="' + self.registration.scope + '">');
        return new Response(page, { headers: { 'Content-Type': 'text/html; charset=utf-8', ...ISOLATION } });
      }
    })());
    return true;
  }
  return false;
}
