// app-isolation: the site is cross-origin isolated (COOP/COEP from the server
// and the service worker), the app works under isolation, and a parallel
// check runs its parts in Web Workers (shared memory, or postMessage) with
// the native engine's result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
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

// engineCheck posts a check to a fresh engine Worker and returns its result
// (codegen 'off': the Worker runs the closures, never generated code).
async function engineCheck(page, file, options, transport, codegen = '') {
  return engineRun(page, file, readFileSync(join(h.root, file), 'utf8'), options, transport, codegen);
}

async function engineRun(page, file, source, options, transport, codegen) {
  return page.evaluate(async ({ source, filename, options, transport, codegen }) => {
    const w = new Worker('worker.js' + (transport === 'message' ? '?transport=message' : ''));
    try {
      return await new Promise((resolve, reject) => {
        w.onmessage = (e) => {
          const m = JSON.parse(e.data);
          if (m.type === 'result') resolve(m.result);
          else if (m.type === 'error') reject(new Error(m.message));
        };
        // No compiled module: the Worker fetches engine.wasm. codegen
        // 'off': a model without symmetry would otherwise run in code
        // generated for it.
        w.postMessage({ module: null, codegen });
        w.postMessage(JSON.stringify({ type: 'check', id: 1, filename, source, options }));
      });
    } finally {
      w.terminate();
    }
  }, { source, filename: file, options, transport, codegen });
}

test('a parallel check in Web Workers gives the native result', async () => {
  const page = await app.browser.context.newPage();
  await h.openApp(page, app.srv.url);
  for (const [file, sym] of [['examples/german.m', 'exact'], ['examples/broken-mutex.m', 'off']]) {
    const native = h.nativeCheck(file, ['--algo', 'bfs', '--workers', '1', '--symmetry', sym, '--trace', 'full']);
    for (const transport of ['shared', 'message']) {
      for (const workers of [2, 3]) {
        const got = await engineCheck(page, file, { algorithm: 'bfs', symmetry: sym, memory_bytes: 256 << 20, workers }, transport, 'off');
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

test('asked for several Workers, the engine runs generated code on parts in helper Workers', async () => {
  const page = await app.browser.context.newPage();
  await h.openApp(page, app.srv.url);
  // Each part is an instance of the model's module in a Worker of its own
  // (wasm/worker/genparts.go): the counts and levels are the one search's,
  // exact and with hash compaction, on 2 and 3 parts, for bfs and auto.
  const file = 'examples/bakery.m';
  for (const [sym, hash] of [['off', 0], ['exact', 0], ['off', 40]]) {
    const flags = ['--algo', 'bfs', '--workers', '1', '--symmetry', sym, '--trace', 'none'];
    const native = h.nativeCheck(file, hash ? [...flags, '--hash-compaction', String(hash)] : flags);
    for (const [algorithm, workers] of [['bfs', 2], ['bfs', 3], ['auto', 2]]) {
      if (algorithm === 'auto' && hash) continue;
      const options = { algorithm, symmetry: sym, memory_bytes: 256 << 20, workers };
      if (hash) options.hash_compaction = hash;
      const got = await engineCheck(page, file, options, 'shared');
      const what = `${algorithm}, symmetry ${sym}, hash ${hash}, ${workers} workers`;
      assert.ok(got.code_gen, `${what}: ran on the closures, not generated code`);
      assert.equal(got.workers, workers, `${what}: ran on ${got.workers} workers (${JSON.stringify(got.diagnostics)})`);
      for (const k of ['verdict', 'states', 'rules_fired', 'depth', 'level_sizes']) assert.deepEqual(got[k], native[k], `${what}: ${k}`);
    }
  }
  // A violation found on parts: the search runs again on one Worker, which
  // reports the one search's counterexample.
  const broken = 'examples/broken-mutex.m';
  const native = h.nativeCheck(broken, ['--algo', 'bfs', '--workers', '1', '--symmetry', 'off', '--trace', 'full']);
  for (const algorithm of ['bfs', 'auto']) {
    const got = await engineCheck(page, broken, { algorithm, symmetry: 'off', memory_bytes: 256 << 20, workers: 2 }, 'shared');
    assert.ok(got.code_gen, `${algorithm}: ran on the closures, not generated code`);
    assert.ok(!(got.workers > 1), `${algorithm}: ran on ${got.workers} workers`);
    assert.ok((got.diagnostics || []).some((d) => /stopped at a violation, and ran again on one/.test(d.message)), `${algorithm}: ${JSON.stringify(got.diagnostics)}`);
    for (const k of ['verdict', 'states', 'rules_fired']) assert.deepEqual(got[k], native[k], `${algorithm}: ${k}`);
    const steps = (v) => v && v.trace?.map(({ rule }) => rule);
    assert.deepEqual(steps(got.violation), steps(native.violation), `${algorithm}: the counterexample`);
  }
  await page.close();
});

test("auto's exact phase on Web Workers starts over on one when their sets fill the budget", async () => {
  // A pair of counters beside 24 constant bytes: 524,288 states of 27
  // bytes, more than an exact search holds in 16 MiB (the app's least
  // budget) on two Workers (they fill it at 376,064), and one goes on
  // with signatures or on disk. (Counters alone needed 2,097,152 states
  // of 3 bytes, and the test took two and a half minutes.)
  const source = `var a: 0..511; b: 0..1023; pad: array [1..24] of 0..255;
startstate begin a := 0; b := 0; for i: 1..24 do pad[i] := i; end; end;
rule "a" true ==> begin a := (a + 1) % 512; end;
rule "b" true ==> begin b := (b + 1) % 1024; end;
`;
  const dir = h.tempDir('locus-grid-');
  writeFileSync(join(dir, 'grid.m'), source);
  const native = h.nativeCheck(join(dir, 'grid.m'), ['--algo', 'auto', '--workers', '1', '-m', '16', '--symmetry', 'off']);
  const page = await app.browser.context.newPage();
  await h.openApp(page, app.srv.url);
  const got = await engineRun(page, 'grid.m', source, { algorithm: 'auto', symmetry: 'off', memory_bytes: 16 << 20, workers: 2 }, 'shared', 'off');
  const notes = (got.diagnostics || []).map((d) => d.message).join('\n');
  assert.match(notes, /started over on one worker/);
  assert.ok(!(got.workers > 1), `ran on ${got.workers} workers`);
  assert.equal(got.verdict, native.verdict, got.reason);
  assert.equal(got.states, native.states);
  await page.close();
});
