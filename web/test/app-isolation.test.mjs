// app-isolation: the site is cross-origin isolated (COOP/COEP from the server
// and the service worker), the app works under isolation, and a parallel
// check runs its parts in Web Workers (shared memory, or postMessage) with
// the native engine's result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import * as h from '../testlib/helpers.mjs';

const app = h.serveAndLaunch();

test('the page is cross-origin isolated and the app works in it', async () => {
  const native = h.nativeCheck(join('examples', 'peterson.m'));
  const page = await app.browser.context.newPage();
  const errors = await h.openApp(page, app.srv.url);
  assert.equal(await page.evaluate(() => self.crossOriginIsolated), true, 'the page is cross-origin isolated');
  // The editor (CodeMirror) takes input, and a check runs from the UI.
  await page.locator('.cm-content').waitFor();
  await h.pickExample(page, 'peterson.m');
  assert.equal(await h.run(page), native.verdict);
  assert.equal(await h.statNumber(page, 'states'), native.states);
  // Served by the service worker, the page stays isolated.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60000 });
  await page.reload();
  await page.locator('[data-testid=examples] option[value$=".m"]').first().waitFor({ state: 'attached', timeout: 60000 });
  assert.equal(await page.evaluate(() => self.crossOriginIsolated && navigator.serviceWorker.controller !== null), true,
    'the page served by the service worker is isolated');
  assert.deepEqual(errors, [], 'no page errors');
  await page.close();
});

// engineCheck posts a check to a fresh engine Worker and returns its result.
async function engineCheck(page, file, options, transport) {
  const source = readFileSync(join(h.root, file), 'utf8');
  return page.evaluate(async ({ source, filename, options, transport }) => {
    const w = new Worker('worker.js' + (transport === 'message' ? '?transport=message' : ''));
    try {
      return await new Promise((resolve, reject) => {
        w.onmessage = (e) => {
          const m = JSON.parse(e.data);
          if (m.type === 'result') resolve(m.result);
          else if (m.type === 'error') reject(new Error(m.message));
        };
        w.postMessage({ module: null }); // no compiled module: the Worker fetches engine.wasm
        w.postMessage(JSON.stringify({ type: 'check', id: 1, filename, source, options }));
      });
    } finally {
      w.terminate();
    }
  }, { source, filename: file, options, transport });
}

test('a parallel check in Web Workers gives the native result', async () => {
  const page = await app.browser.context.newPage();
  await h.openApp(page, app.srv.url);
  for (const [file, sym] of [['examples/german.m', 'exact'], ['examples/broken-mutex.m', 'off']]) {
    const native = h.nativeCheck(file, ['--algo', 'bfs', '--workers', '1', '--symmetry', sym, '--trace', 'full']);
    for (const transport of ['shared', 'message']) {
      for (const workers of [2, 3]) {
        const got = await engineCheck(page, file, { algorithm: 'bfs', symmetry: sym, memory_bytes: 256 << 20, workers }, transport);
        const what = `${file}, ${workers} workers over ${transport}`;
        assert.equal(got.workers, workers, `${what}: ran on ${got.workers} workers`);
        for (const k of ['verdict', 'states', 'rules_fired', 'depth', 'level_sizes']) {
          assert.deepEqual(got[k], native[k], `${what}: ${k}`);
        }
        // A result's trace carries each step's rule and position; the
        // states travel in a separate trace message (wasm/protocol).
        const steps = (v) => v && { ...v, trace: v.trace?.map(({ rule, pos }) => ({ rule, pos })) };
        assert.deepEqual(steps(got.violation), steps(native.violation), `${what}: violation`);
      }
    }
  }
  await page.close();
});
