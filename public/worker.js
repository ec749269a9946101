// worker.js: runs the Locus engine (engine.wasm, Go) in this dedicated Web Worker.
// Messages are JSON strings; see wasm/protocol. Messages that arrive while the
// engine loads are kept in self.locusPending, which the engine drains.
'use strict';
self.locusPending = [];
self.onmessage = (e) => self.locusPending.push(e.data);

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

function fail(what) {
  const detail = stderrTail.trim().split('\n').slice(0, 3).join('\n');
  postMessage(JSON.stringify({ type: 'error', message: detail ? what + ': ' + detail : what }));
}

(async () => {
  const go = new Go();
  go.exit = (code) => fail('the engine stopped (exit code ' + code + ')');
  try {
    const { instance } = await WebAssembly.instantiateStreaming(fetch('engine.wasm'), go.importObject);
    await go.run(instance);
  } catch (err) {
    fail('the engine failed: ' + (err && err.message ? err.message : String(err)));
  }
})();
