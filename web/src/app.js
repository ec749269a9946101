// app.js: the JavaScript half of the Locus page. It bundles the editor and
// charts (window.locus, used by the Go UI), registers the service worker
// that keeps the app working offline, and starts the UI (locus-ui.wasm).
import 'uplot/dist/uPlot.min.css';
import './app.css';
import './share.css';
import { editor } from './editor.js';
import { charts } from './charts.js';
import { engine } from './engine.js';
import { traces } from './tracestore.js';
import { stateview } from './stateview.js';
import { files } from './files.js';
import { graph } from './graph.js';

const util = {
  async fetchText(url) {
    const r = await fetch(url);
    if (!r.ok) throw new Error(url + ': HTTP ' + r.status);
    return r.text();
  },
  // loaded is called by the UI once the first model is shown.
  loaded() {
    document.body.dataset.loaded = 'true';
    if (window.locusLoaded) window.locusLoaded();
  },
  // storageEstimate reports the origin's storage as JSON {usage, quota, persisted}.
  async storageEstimate() {
    const s = navigator.storage;
    if (!s || !s.estimate) return JSON.stringify({ usage: 0, quota: 0, persisted: false });
    const { usage = 0, quota = 0 } = await s.estimate();
    const persisted = s.persisted ? await s.persisted() : false;
    return JSON.stringify({ usage, quota, persisted });
  },
  async persist() {
    return navigator.storage && navigator.storage.persist ? navigator.storage.persist() : false;
  },
  async copyText(text) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      return false;
    }
  },
};

window.locus = { editor, charts, util, engine, traces, stateview, files, graph };
window.locusReady = new Promise((resolve) => { window.locusLoaded = resolve; });

function showFatal(message) {
  const el = document.getElementById('app');
  el.className = 'boot-error';
  el.textContent = message;
}

function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('sw.js').then((reg) => {
    reg.addEventListener('updatefound', () => {
      // With a worker already active this is a new build, not the first
      // install, and the page runs the old one until it reloads.
      const isUpdate = !!reg.active;
      const next = reg.installing;
      if (!next) return;
      next.addEventListener('statechange', () => {
        // A new build was installed while this page runs the old one.
        if (next.state === 'activated' && isUpdate) {
          document.getElementById('update').hidden = false;
        }
      });
    });
  }).catch((err) => console.warn('service worker not registered:', err));
  document.getElementById('update-reload').addEventListener('click', () => location.reload());
}

// serviceWorkerAfterLoad registers the service worker once the page has
// loaded what it needs, so that its install (which caches the whole site)
// finds those files in the HTTP cache instead of downloading them again.
function serviceWorkerAfterLoad() {
  const ready = window.locusReady || Promise.resolve();
  Promise.race([ready, new Promise((r) => setTimeout(r, 15000))]).then(registerServiceWorker);
}

async function boot() {
  engine.compile(); // in parallel with the UI's own download
  serviceWorkerAfterLoad();
  if (typeof WebAssembly !== 'object' || typeof Worker !== 'function') {
    showFatal('Locus needs a browser with WebAssembly and Web Workers (any current Chrome, Edge, Firefox or Safari).');
    return;
  }
  try {
    const go = new Go();
    const { instance } = await WebAssembly.instantiateStreaming(fetch('locus-ui.wasm'), go.importObject);
    go.run(instance);
  } catch (err) {
    showFatal('Locus could not start: ' + (err && err.message ? err.message : err));
  }
}

boot();
