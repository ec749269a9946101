// app-memory: with a memory budget smaller than the run needs without a
// disk (its visited set plus the whole BFS queue in memory), exact BFS
// spills the queue to browser storage (OPFS or IndexedDB), completes, and
// still counts exactly the states the native CLI counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as h from '../testlib/helpers.mjs';

// Wide and shallow, with large states: nearly every state is on the last
// BFS level, so the queue holds most of them at once. Unbudgeted, the run
// peaks near 38 MB on the closures (about 240k states) and 18 MB in
// generated code; under 16 MiB (the browser's smallest budget) the
// closures' visited set fits but the queue must keep to its share (a
// tenth) and spill the rest, and the generated code, which keeps
// everything in memory, cannot finish. The window is narrow and moves as
// the generated search needs less (its records lost their parent's id
// with 1286a6e, and it fitted 238k states), so the registers' range is
// the first, from 0..61, at which the native CLI, in the browser's
// runtime and under the budget, finds the generated code full and the
// closures spilling. The run is bfs: auto runs the generated code again
// with 64-bit hash compaction, which fits this model under the budget.
const wideModel = (top) => `-- Three registers, each set once, and a constant 40-byte payload
type val: 0..${top}; slot: 1..40;
var x: val; y: val; z: val;
    payload: array [slot] of 0..255;
startstate
begin
  x := 0; y := 0; z := 0;
  for j: slot do payload[j] := j * 5; endfor;
end;
ruleset v: val do
  rule "set x" x = 0 ==> begin x := v; end;
  rule "set y" y = 0 ==> begin y := v; end;
  rule "set z" z = 0 ==> begin z := v; end;
endruleset;
rule "start over" x != 0 & y != 0 & z != 0 ==> begin x := 0; y := 0; z := 0; end;
`;
// Below what both the closures and the generated code (the app's engine
// where the generator covers the model) need without a disk.
const budgetMB = 16;

// wideInWindow writes the first wide model in the window to dir and
// returns its text and file.
function wideInWindow(dir) {
  const tried = [];
  for (let top = 61; top <= 66; top++) {
    const src = wideModel(top);
    const file = join(dir, `wide${top}.m`);
    writeFileSync(file, src);
    const r = h.nativeCheck(file, ['--algo', 'bfs', '--codegen=wazero', '-m', String(budgetMB)]);
    if (r.verdict === 'pass' && !r.code_gen && r.disk_bytes_written > 0) {
      return { src, file };
    }
    tried.push(`0..${top}: ${r.verdict}, ${r.states} states, ${r.code_gen ? 'in generated code' : 'on the closures'}, ${r.disk_bytes_written || 0} bytes to disk`);
  }
  assert.fail(`no wide model is in the window under ${budgetMB} MiB:\n${tried.join('\n')}`);
}

const app = h.serveAndLaunch();

test('a small memory budget spills the queue to browser storage and keeps the count', async () => {
  const { src: wide, file } = wideInWindow(h.tempDir('locus-wide-'));
  const unbudgeted = h.nativeCheck(file, ['--algo', 'bfs']);
  assert.ok(budgetMB * 1024 * 1024 < unbudgeted.peak_bytes,
    `the budget (${budgetMB} MiB) must be below what the run needs without a disk (${unbudgeted.peak_bytes} bytes)`);
  const generated = h.nativeCheck(file, ['--algo', 'bfs', '--codegen=wazero']); // the browser's runtime: the same module and memory
  assert.equal(generated.code_gen, 'wazero', 'the generator covers the model');
  assert.ok(budgetMB * 1024 * 1024 < generated.peak_bytes,
    `the budget (${budgetMB} MiB) must be below what generated code needs (${generated.peak_bytes} bytes), or the app's run fits in memory`);
  const native = h.nativeCheck(file, ['--algo', 'bfs', '-m', String(budgetMB)]);
  assert.equal(native.verdict, 'pass', native.reason);
  assert.ok(native.disk_bytes_written > 0, 'the native CLI spills this model to disk too');

  const page = await app.browser.context.newPage();
  await h.openApp(page, app.srv.url + h.shareFragment(wide, { f: 'wide.m', a: 'bfs', mem: String(budgetMB) }));
  await page.waitForFunction((want) => window.locus.editor.getText() === want, wide);
  assert.equal(await page.locator('[data-testid=opt-memory]').inputValue(), String(budgetMB));
  assert.equal(await page.locator('[data-testid=opt-algorithm]').inputValue(), 'bfs');
  const verdict = await h.run(page, { timeout: 240000 });
  await h.screenshot(page, 'wide-10-small-budget');
  assert.equal(verdict, 'pass', await page.locator('[data-testid=verdict-text]').textContent());
  assert.equal(await h.statNumber(page, 'states'), native.states);
  assert.doesNotMatch(await page.locator('.progress .storage').textContent(), /none/, 'the worker has browser storage');
  const disk = await page.locator('[data-testid=stat-disk] dd').textContent();
  const written = disk.split('/')[0].trim();
  assert.notEqual(written, '0 B', `bytes written to browser storage: ${disk}`);
});
