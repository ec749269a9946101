// app-check: pick shipped examples, run them in the browser and compare with
// the native CLI: verdict, exact state count, and the counterexample step by step.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as h from '../testlib/helpers.mjs';

let srv, browser, page, errors;

before(async () => {
  h.requireBuild();
  srv = await h.startServer();
  browser = await h.launch();
  page = await browser.context.newPage();
  errors = await h.openApp(page, srv.url);
  await h.screenshot(page, 'wide-1-loaded');
});

after(async () => {
  await browser?.close();
  await srv?.stop();
});

test('the page loads with the examples and no script errors', async () => {
  const files = await page.locator('[data-testid=examples] option').evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
  assert.ok(files.length >= 3, `expected the shipped examples, got ${files}`);
  assert.deepEqual(errors, []);
});

test('a passing example gives the same verdict and state count as the CLI', async () => {
  const file = 'peterson.m';
  const native = h.nativeCheck(join('examples', file));
  await h.pickExample(page, file);
  const verdict = await h.run(page);
  await h.screenshot(page, 'wide-2-pass');
  assert.equal(verdict, native.verdict, await page.locator('[data-testid=verdict-text]').textContent());
  assert.equal(await h.statNumber(page, 'states'), native.states);
  assert.equal(await h.statNumber(page, 'rules'), native.rules_fired);
  // A one-worker bfs of a model without symmetry runs in code generated
  // for it, and the counts above are the generated search's.
  assert.match(await page.locator('[data-testid=stat-code] dd').textContent(), /WebAssembly generated for this model/);
});

test('the bakery example (a ruleset over a range, a while loop) runs in generated code with the CLI\'s counts', async () => {
  const file = 'bakery.m';
  const native = h.nativeCheck(join('examples', file));
  await h.pickExample(page, file);
  const verdict = await h.run(page);
  assert.equal(verdict, native.verdict);
  assert.equal(await h.statNumber(page, 'states'), native.states);
  assert.equal(await h.statNumber(page, 'rules'), native.rules_fired);
  assert.match(await page.locator('[data-testid=stat-code] dd').textContent(), /WebAssembly generated for this model/);
});

test('a scalarset example counts the same states as the CLI with each symmetry option', async () => {
  const file = 'german.m';
  await h.pickExample(page, file);
  for (const sym of ['exact', 'off']) {
    const native = h.nativeCheck(join('examples', file), ['--symmetry', sym]);
    await page.locator('[data-testid=opt-symmetry]').selectOption(sym);
    const verdict = await h.run(page, { keys: sym === 'off' ? 'Control+Enter' : '' });
    assert.equal(verdict, native.verdict, `symmetry ${sym}`);
    assert.equal(await h.statNumber(page, 'states'), native.states, `symmetry ${sym}`);
    // The default engine, auto, in generated code with symmetry
    // reduction or without.
    const code = await page.locator('[data-testid=stat-code] dd').textContent();
    assert.match(code, /WebAssembly generated for this model/, `symmetry ${sym}`);
  }
  // Two Workers chosen in the menu (it offers up to the cores): the
  // generated code, which covers the model, runs on two (a part of the
  // search in each), with the same count.
  await page.locator('[data-testid=opt-symmetry]').selectOption('exact');
  if (await page.evaluate(() => navigator.hardwareConcurrency) >= 2) {
    await page.locator('[data-testid=opt-workers]').selectOption('2');
    const native = h.nativeCheck(join('examples', file), ['--symmetry', 'exact']);
    assert.equal(await h.run(page), native.verdict);
    assert.equal(await h.statNumber(page, 'states'), native.states);
    assert.match(await page.locator('[data-testid=stat-code] dd').textContent(), /WebAssembly generated for this model \(browser\), on 2 Workers/);
    await page.locator('[data-testid=opt-workers]').selectOption('0');
  }
});

test('a buggy example fails and its counterexample steps like the CLI trace', async () => {
  const file = 'broken-mutex.m';
  const native = h.nativeCheck(join('examples', file));
  assert.equal(native.verdict, 'fail');
  const trace = native.violation.trace;
  await h.pickExample(page, file);
  assert.equal(await h.run(page), 'fail');
  await page.locator('[data-testid=trace]:not([hidden])').waitFor();
  assert.equal(await page.locator('[data-testid=trace-step]').textContent(), `Step 1 of ${trace.length}`);

  // The state view lists arrays as a row of their own: keep the variables.
  const names = new Set(trace[0].state.map((v) => v.name));
  const shown = async () => (await h.stateRows(page, 'run')).filter((r) => names.has(r.name)).map(({ name, value, changed }) => ({ name, value, changed }));
  for (let i = 0; i < trace.length; i++) {
    if (i > 0) await page.locator('[data-testid=trace-next]').click();
    await page.waitForFunction((want) => document.querySelector('[data-testid=trace-step]').textContent === want, `Step ${i + 1} of ${trace.length}`);
    assert.equal(await page.locator('[data-testid=trace-rule]').textContent(), trace[i].rule, `rule of step ${i + 1}`);
    const rows = await shown();
    const changed = new Set(i > 0 ? trace[i].changed || [] : []);
    assert.deepEqual(rows, trace[i].state.map((v, j) => ({ name: v.name, value: v.value, changed: changed.has(j) })), `state of step ${i + 1}`);
  }
  assert.ok(await page.locator('[data-testid=trace-next]').isDisabled(), 'Next is disabled on the last step');
  await h.screenshot(page, 'wide-3-fail-trace');

  await page.locator('[data-testid=trace-first]').click();
  assert.equal(await page.locator('[data-testid=trace-step]').textContent(), `Step 1 of ${trace.length}`);
  // Keyboard: End jumps to the last step, ArrowLeft steps back.
  await page.locator('[data-testid=trace-rule]').focus();
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((want) => document.querySelector('[data-testid=trace-step]').textContent === want, `Step ${trace.length - 1} of ${trace.length}`);
  await page.locator('[data-testid=trace-last]').click();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('[data-testid=trace]').scrollIntoViewIfNeeded();
  await h.screenshot(page, 'phone-3-fail-trace');
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('errors typed into the editor are shown inline, and a rejected model says why', async () => {
  await h.pickExample(page, 'peterson.m');
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\nvar broken: ;\n');
  await page.locator('[data-testid=diagnostics]:not([hidden]) li').first().waitFor({ timeout: 20000 });
  const lines = await page.evaluate(() => window.locus.editor.getText().split('\n').length);
  const pos = await page.locator('[data-testid=diagnostics] li button').first().textContent();
  assert.match(pos, /^\d+:\d+$/);
  assert.ok(Number(pos.split(':')[0]) >= lines - 2, `diagnostic at ${pos} should be on the typed line (of ${lines})`);
  assert.ok(await page.locator('.cm-lintRange-error').count() > 0, 'the error is underlined in the editor');
  assert.match(await page.locator('[data-testid=diag-summary]').textContent(), /error/);
  await h.screenshot(page, 'wide-4-diagnostics');
  assert.equal(await h.run(page), 'rejected');
});

test('the phone-sized layout shows the editor and the options in one column', async () => {
  await h.pickExample(page, 'peterson.m');
  await page.setViewportSize({ width: 390, height: 844 });
  await h.screenshot(page, 'phone-1-loaded');
  const editor = await page.locator('[data-testid=editor]').boundingBox();
  const run = await page.locator('[data-testid=run]').boundingBox();
  assert.ok(editor.width <= 390 && editor.x >= 0, 'the editor fits the width');
  assert.ok(run.y > editor.y + editor.height, 'the options come below the editor');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.equal(overflow, 0, 'nothing sticks out sideways');
  await h.run(page);
  await page.locator('[data-testid=verdict-panel]').scrollIntoViewIfNeeded();
  await h.screenshot(page, 'phone-2-verdict');
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.deepEqual(errors, []);
});
