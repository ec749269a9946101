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
  if (e.data && typeof e.data === 'object' && 'genpart' in e.data) {
    hostPart(e.data.genpart);
    return;
  }
  if (e.data && typeof e.data === 'object' && 'module' in e.data) {
    // {module, storage: 'indexeddb'} hides OPFS from the engine, which then
    // keeps its disk data in IndexedDB (to measure or test that backend
    // where OPFS exists; see web/src/engine.js). It rides on this message,
    // not on the script's URL: a Worker whose script the service worker
    // serves from its cache gets the cached URL, without the query.
    if (e.data.storage === 'indexeddb' && self.FileSystemFileHandle) {
      delete self.FileSystemFileHandle.prototype.createSyncAccessHandle;
    }
    // {module, codegen: 'off'}: a one-worker bfs runs on the compiled
    // closures, not in code generated for the model (wasm/worker/codegen.go).
    if (e.data.codegen === 'off') self.locusCodegen = 'off';
    gotModule(e.data.module);
  } else self.locusPending.push(e.data);
};

// hostPart makes this Worker a part of a search in code generated for the
// model on several Workers (wasm/worker/genparts.go): it instantiates the
// module the engine Worker compiled and answers that Worker's calls, reads
// and writes of the instance's memory, one message each. A write is not
// answered: a write that failed fails the next question. The Go engine
// does not start here.
function hostPart(module) {
  let exports;
  try {
    exports = new WebAssembly.Instance(module, {}).exports;
  } catch (err) {
    postMessage({ error: String(err) });
    return;
  }
  const view = (addr, n) => {
    const buf = exports.memory.buffer; // a new one after every memory.grow
    if (addr + n > buf.byteLength) throw new RangeError(n + ' bytes at ' + addr + ' are out of memory');
    return new Uint8Array(buf, addr, n);
  };
  // steps runs a batch of steps (wasmgen.Step: a write, a call, a read)
  // and answers once: the calls' results and what was read, or how many
  // steps ran before one failed, and why.
  const steps = (list) => {
    const results = [];
    const bytes = [];
    const transfer = [];
    try {
      for (const st of list) {
        if (st.write) view(st.writeAt, st.write.byteLength).set(new Uint8Array(st.write));
        const r = exports[st.name](...st.args);
        results.push(r);
        let read = null;
        if (st.readBytes || st.readUnit) {
          const n = st.readBytes + st.readUnit * (typeof r === 'bigint' ? Number(r) : r >>> 0);
          read = view(st.readAt, n).slice().buffer;
          transfer.push(read);
        }
        bytes.push(read);
      }
    } catch (err) {
      postMessage({ error: (err && err.name ? err.name + ': ' + err.message : String(err)), done: results.length });
      return;
    }
    postMessage({ results, bytes }, transfer);
  };
  let failed = '';
  self.onmessage = (e) => {
    const m = e.data;
    try {
      if (m.op === 'write') {
        if (!failed) view(m.addr, m.bytes.byteLength).set(new Uint8Array(m.bytes));
        return;
      }
      if (failed) throw new Error(failed);
      if (m.op === 'call') {
        postMessage({ result: exports[m.name](...m.args) });
      } else if (m.op === 'steps') {
        steps(m.steps);
      } else if (m.op === 'read') {
        const out = view(m.addr, m.n).slice();
        postMessage({ bytes: out.buffer }, [out.buffer]);
      } else throw new Error('no operation ' + m.op);
    } catch (err) {
      const what = (err && err.name ? err.name + ': ' + err.message : String(err));
      if (m.op === 'write') failed = 'writing ' + m.bytes.byteLength + ' bytes at ' + m.addr + ': ' + what;
      else postMessage({ error: what });
    }
  };
  postMessage({ ready: true });
}

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

// locusTryLock takes the Web Lock called name for the rest of this Worker's
// life if nobody holds it, and reports whether it did: a checkpointed run's
// store is resumed by one Worker at a time.
self.locusTryLock = (name) => new Promise((resolve) => {
  if (!navigator.locks) {
    resolve(true);
    return;
  }
  navigator.locks.request(name, { ifAvailable: true }, (lock) => {
    resolve(!!lock);
    return lock ? new Promise(() => {}) : undefined;
  });
});

// locusListStores lists the stores (OPFS directories, IndexedDB databases)
// whose names start with prefix, as JSON [{name, kind, held}]; held: a
// Worker holds its lock (the run is going on, in this tab or another).
self.locusListStores = async (prefix) => {
  const held = new Set(navigator.locks ? (await navigator.locks.query()).held.map((l) => l.name) : []);
  const out = [];
  try {
    const root = await navigator.storage.getDirectory();
    for await (const [name, h] of root.entries()) {
      if (h.kind === 'directory' && name.startsWith(prefix)) out.push({ name, kind: 'opfs', held: held.has(name) });
    }
  } catch (e) { /* no OPFS here */ }
  try {
    for (const db of (indexedDB.databases ? await indexedDB.databases() : [])) {
      if (db.name && db.name.startsWith(prefix)) out.push({ name: db.name, kind: 'indexeddb', held: held.has(db.name) });
    }
  } catch (e) { /* no IndexedDB here */ }
  return JSON.stringify(out);
};

// locusDeleteStore deletes the store called name of kind ('opfs' or
// 'indexeddb'). An IndexedDB database still open in this Worker is deleted
// once the Worker ends: the promise does not wait for that.
self.locusDeleteStore = async (name, kind) => {
  if (kind === 'opfs') {
    const root = await navigator.storage.getDirectory();
    await root.removeEntry(name, { recursive: true });
    return true;
  }
  return new Promise((resolve, reject) => {
    const req = indexedDB.deleteDatabase(name);
    req.onsuccess = () => resolve(true);
    req.onblocked = () => resolve(false);
    req.onerror = () => reject(req.error);
  });
};

// bugReport ends the message of a crash that is Locus's fault.
const bugReport = '. This is a bug in Locus; please report it, with the model and the options.';

function fail(what) {
  // The Go runtime's own word on what went wrong ("fatal error: out of
  // memory", "panic: ..."); the stack trace below it stays in the console.
  const lines = stderrTail.split('\n').map((l) => l.trim()).filter((l) => l);
  const detail = lines.find((l) => /^(fatal error|panic): /.test(l)) || lines[0];
  const msg = detail ? what + ': ' + detail : what;
  // Running out of memory is the model's size meeting the browser's limit,
  // which the page reports as such; anything else is a bug.
  postMessage(JSON.stringify({ type: 'error', message: /out of memory/.test(msg) ? msg : msg + bugReport }));
}

(async () => {
  const go = new Go();
  go.exit = (code) => fail('the engine stopped (exit code ' + code + ')');
  // A JavaScript exception out of the engine (its call stack exhausted: a
  // RangeError; a WebAssembly trap: a RuntimeError) leaves Go's runtime
  // dead. Thrown from an event handler it would only reach the console, and
  // the page would wait for a result forever; so every resumption of the
  // engine catches it and reports it instead.
  const resume = go._resume.bind(go);
  let crashed = false;
  go._resume = () => {
    if (crashed || go.exited) return;
    try {
      resume();
    } catch (err) {
      crashed = true;
      fail('the engine crashed: ' + (err && err.name ? err.name + ': ' + err.message : String(err)));
    }
  };
  try {
    // The page sends its compiled module, or null if it has none.
    const module = await moduleReady;
    // Kept for the helper Workers a parallel check starts (wasm/worker/parts.go).
    self.locusModule = module || null;
    const instance = module
      ? await WebAssembly.instantiate(module, go.importObject)
      : (await WebAssembly.instantiateStreaming(fetch('engine.wasm'), go.importObject)).instance;
    await go.run(instance);
  } catch (err) {
    // The engine's first run (which handles the messages that came while
    // it loaded) may crash here rather than in a resumption.
    if (crashed) return;
    crashed = true;
    fail('the engine failed: ' + (err && err.name ? err.name + ': ' + err.message : String(err)));
  }
})();
