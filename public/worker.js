// worker.js: runs the Locus engine (engine.wasm, Go) in this dedicated Web Worker.
// Messages are JSON strings; see wasm/protocol. The page's first message is
// {module}: engine.wasm compiled once by the page, so no Worker fetches or
// compiles it again (a Worker started without it fetches engine.wasm itself).
// Messages that arrive while the engine loads are kept in self.locusPending,
// which the engine drains.
'use strict';
self.locusPending = [];
let gotModule;
const moduleReady = new Promise((resolve) => { gotModule = resolve; });
self.onmessage = (e) => {
  if (e.data && typeof e.data === 'object' && 'module' in e.data) gotModule(e.data.module);
  else self.locusPending.push(e.data);
};

importScripts('wasm_exec.js');

// Keep the tail of Go's standard error so a fatal error (such as running
// out of memory) reaches the page as a message instead of a silent stop.
let stderrTail = '';
const decoder = new TextDecoder();
const writeSync = globalThis.fs.writeSync.bind(globalThis.fs);
globalThis.fs.writeSync = (fd, buf) => {
  if (fd === 2) stderrTail = (stderrTail + decoder.decode(buf)).slice(-2000);
  return writeSync(fd, buf);
};

// locusHoldLock takes the Web Lock called name for the rest of this Worker's
// life: the run's storage of that name is in use while the Worker lives.
self.locusHoldLock = (name) => new Promise((resolve) => {
  if (!navigator.locks) {
    resolve(false);
    return;
  }
  navigator.locks.request(name, () => {
    resolve(true);
    return new Promise(() => {}); // released when the Worker ends
  });
});

// locusCleanStores deletes the run stores (OPFS directories and IndexedDB
// databases) whose names start with prefix and whose lock nobody holds:
// those of runs cancelled by terminating their Worker.
self.locusCleanStores = async (prefix) => {
  if (!navigator.locks) return 0;
  const held = new Set((await navigator.locks.query()).held.map((l) => l.name));
  const dead = (name) => name && name.startsWith(prefix) && !held.has(name);
  let removed = 0;
  try {
    const root = await navigator.storage.getDirectory();
    for await (const name of root.keys()) {
      if (dead(name)) {
        await root.removeEntry(name, { recursive: true }).then(() => removed++, (e) => console.warn('locus: cannot remove', name, String(e)));
      }
    }
  } catch (e) { /* no OPFS here */ }
  try {
    for (const db of (indexedDB.databases ? await indexedDB.databases() : [])) {
      if (dead(db.name)) {
        indexedDB.deleteDatabase(db.name);
        removed++;
      }
    }
  } catch (e) { /* no IndexedDB here */ }
  return removed;
};

function fail(what) {
  const detail = stderrTail.trim().split('\n').slice(0, 3).join('\n');
  postMessage(JSON.stringify({ type: 'error', message: detail ? what + ': ' + detail : what }));
}

(async () => {
  const go = new Go();
  go.exit = (code) => fail('the engine stopped (exit code ' + code + ')');
  try {
    // The page sends its compiled module, or null if it has none.
    const module = await moduleReady;
    const instance = module
      ? await WebAssembly.instantiate(module, go.importObject)
      : (await WebAssembly.instantiateStreaming(fetch('engine.wasm'), go.importObject)).instance;
    await go.run(instance);
  } catch (err) {
    fail('the engine failed: ' + (err && err.message ? err.message : String(err)));
  }
})();
