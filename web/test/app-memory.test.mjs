// app-memory: with a memory budget too small for the BFS queue, the engine
// spills the queue to browser storage (OPFS or IndexedDB) and still counts
// exactly the states the native CLI counts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as h from '../testlib/helpers.mjs';

// Wide and shallow: level 3 holds almost every state, so the queue is
// nearly as large as the visited set when it is expanded.
const wide = `-- A wide model: three registers set one at a time
type val: 0..119;
var x: val; y: val; z: val;
startstate begin x := 0; y := 0; z := 0; end;
ruleset v: val do
  rule "set x" true ==> begin x := v; end;
  rule "set y" true ==> begin y := v; end;
  rule "set z" true ==> begin z := v; end;
endruleset;
`;
const budgetMB = 32;

let srv, browser;

before(async () => {
  h.requireBuild();
  srv = await h.startServer();
  browser = await h.launch();
});

after(async () => {
  await browser?.close();
  await srv?.stop();
});

test('a small memory budget spills the queue to browser storage and keeps the count', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'locus-wide-')), 'wide.m');
  writeFileSync(file, wide);
  const native = h.nativeCheck(file);
  assert.equal(native.verdict, 'pass');

  const page = await browser.context.newPage();
  await h.openApp(page, srv.url + h.shareFragment(wide, { f: 'wide.m', mem: String(budgetMB) }));
  await page.waitForFunction((want) => window.locus.editor.getText() === want, wide);
  assert.equal(await page.locator('[data-testid=opt-memory]').inputValue(), String(budgetMB));
  const verdict = await h.run(page, { timeout: 240000 });
  await h.screenshot(page, 'wide-10-small-budget');
  assert.equal(verdict, 'pass', await page.locator('[data-testid=verdict-text]').textContent());
  assert.equal(await h.statNumber(page, 'states'), native.states);
  assert.doesNotMatch(await page.locator('.progress .storage').textContent(), /none/, 'the worker has browser storage');
  const disk = await page.locator('[data-testid=stat-disk] dd').textContent();
  const written = disk.split('/')[0].trim();
  assert.notEqual(written, '0 B', `bytes written to browser storage: ${disk}`);
});
