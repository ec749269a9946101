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

// Cache first: every file of a build is cached at install, so the network is
// only asked for what is not part of the app.
self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = (await cache.match(req, { ignoreSearch: true })) ||
      (req.mode === 'navigate' ? await cache.match('./') : undefined);
    return hit || fetch(req);
  })());
});
