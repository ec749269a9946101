// engine.js: the page's side of the engine Workers. engine.wasm is fetched
// and compiled once, here, and handed to every Worker (a compiled
// WebAssembly.Module can be posted), so a new Worker is ready in tens of
// milliseconds and the file is never fetched twice. Messages that carry
// typed arrays or Blobs (traces, graphs, exports) are unpacked here and kept
// for the JavaScript views; the Go UI gets only their JSON summary.
import { traces } from './tracestore.js';

let modulePromise = null;

function compile() {
  if (!modulePromise) {
    modulePromise = WebAssembly.compileStreaming(fetch('engine.wasm')).catch((err) => {
      console.warn('locus: engine.wasm not compiled on the page; each Worker loads it', err);
      return null;
    });
  }
  return modulePromise;
}

const graphs = new Map(); // request id -> graph JSON text, until the graph view takes it
const exportsByKey = new Map(); // trace key -> {text: Blob, json: Blob}

export const engine = {
  compile,
  // spawn starts an engine Worker and hands it the compiled module.
  // localStorage 'locus-storage' = 'indexeddb' makes the engine use
  // IndexedDB even where OPFS exists, and 'locus-codegen' = 'off' makes a
  // one-worker bfs run on the compiled closures instead of code generated
  // for the model (for measurements and tests).
  spawn() {
    let storage = '';
    let codegen = '';
    try {
      storage = localStorage.getItem('locus-storage') || '';
      codegen = localStorage.getItem('locus-codegen') || '';
    } catch (e) { /* no localStorage */ }
    const w = new Worker('worker.js');
    compile().then((module) => w.postMessage({ module, storage, codegen }));
    return w;
  },
  // accept unpacks a structured message and returns its JSON summary.
  accept(data) {
    if (data.trace) {
      traces.load(data.trace);
      if (data.exports) exportsByKey.set(data.trace.key, data.exports);
    }
    if (data.graph) {
      const id = JSON.parse(data.summary).id;
      graphs.set(id, data.graph);
    }
    return data.summary;
  },
  takeGraph(id) {
    const g = graphs.get(id);
    graphs.delete(id);
    return g;
  },
  exports(key) { return exportsByKey.get(key) || null; },
  dropExports(key) { exportsByKey.delete(key); },
};
