// sw.js: keeps Locus working with the network gone. Written by web/sitegen
// from web/src/sw.js: VERSION is a hash of every file below, so each new
// build is a new service worker that caches the new files and drops the old.
'use strict';
const VERSION = '__VERSION__';
const CACHE = 'locus-' + VERSION;
// [url, SHA-256 of the content] of every file to cache at install.
const ASSETS = __ASSETS__;
// Files loaded only when a feature is first used: cached then.
const LAZY = new Set(__LAZY__);

const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

// fetchChecked gets url with the content this build expects. The page
// registers this worker after it has loaded, so most files are in the HTTP
// cache: taking them from there (force-cache) means nothing is downloaded
// twice. A cached copy from another build fails the hash check and is
// fetched again from the server.
async function fetchChecked(url, sum) {
  for (const mode of ['force-cache', 'reload']) {
    const res = await fetch(url, { cache: mode });
    if (!res.ok) throw new Error(url + ': HTTP ' + res.status);
    const body = await res.clone().arrayBuffer();
    if (hex(await crypto.subtle.digest('SHA-256', body)) === sum) return res;
  }
  throw new Error(url + ' on the server is not the one of build ' + VERSION);
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(ASSETS.map(async ([url, sum]) => cache.put(url, await fetchChecked(url, sum))));
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

// Cache first: every file of a build is cached at install (or, for the lazy
// ones, on first use), so the network is only asked for what is not part
// of the app.
self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin) return;
  if (sharedLink(event)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const rel = url.pathname.slice(new URL(self.registration.scope).pathname.length);
    const hit = (await cache.match(req, { ignoreSearch: true })) ||
      (req.mode === 'navigate' || rel === 'index.html' ? await cache.match('./') : undefined);
    if (hit) return isolated(hit);
    const res = await fetch(req);
    if (res.ok && LAZY.has(rel)) await cache.put(req, res.clone());
    return isolated(res);
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
