// app-trace: counterexamples a student can read and hand in. A state of
// 200,000 booleans shows and steps without a main-thread task over 50 ms;
// the text export is the CLI's CMurphi-format trace and the JSON export the
// CLI's violation; steps and the violation are tied to the editor.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';
import { join } from 'node:path';
import * as h from '../testlib/helpers.mjs';

let srv, browser, page;

before(async () => {
  h.requireBuild();
  srv = await h.startServer();
  browser = await h.launch();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: srv.url });
  page = await browser.context.newPage();
  await h.openApp(page, srv.url);
});

after(async () => {
  await browser?.close();
  await srv?.stop();
});

const big = `-- 200,000 booleans: a counterexample with a very large state
const N: 200000;
type idx: 0..N-1;
var a: array [idx] of boolean; k: 0..4;
startstate begin for i: idx do a[i] := false; end; k := 0; end;
rule "set the next one" k < 4 ==> begin a[k * 1000] := true; k := k + 1; end;
invariant "fewer than four set" k < 4;
`;

async function download(testid) {
  const d = page.waitForEvent('download');
  await page.locator(`[data-testid=${testid}]`).click();
  const file = await d;
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
}

test('the exports equal the CLI: CMurphi-format text and the JSON violation', async () => {
  await h.pickExample(page, 'broken-mutex.m');
  assert.equal(await h.run(page), 'fail');
  await page.waitForFunction(() => !document.querySelector('[data-testid=trace-copy]').disabled);
  const cliText = h.nativeText('broken-mutex.m', ['--trace-format', 'cmurphi'], join(h.root, 'examples'));
  const trace = cliText.slice(0, cliText.indexOf('End of the error trace.\n') + 'End of the error trace.\n'.length);
  assert.match(trace, /^The following is the error trace for the error:/);

  const txt = await download('trace-download');
  assert.equal(txt.name, 'broken-mutex-trace.txt');
  assert.equal(txt.text, trace);

  const json = await download('trace-download-json');
  assert.equal(json.name, 'broken-mutex-trace.json');
  const native = h.nativeCheck('broken-mutex.m', [], join(h.root, 'examples'));
  assert.deepEqual(JSON.parse(json.text), native.violation);

  await page.locator('[data-testid=trace-copy]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=trace-export-status]').textContent === 'Copied.');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), trace);
});

test('the violation and each step are shown in the editor, with previous values', async () => {
  // The violation's line: the invariant.
  const marked = () => page.locator('.cm-locus-violation, .cm-locus-rule').first().textContent();
  assert.match(await marked(), /invariant "mutual exclusion"/);
  await page.locator('[data-testid=trace-next]').click();
  await page.waitForFunction(() => document.querySelector('.cm-locus-rule')?.textContent.includes('read the lock'));
  const rows = await h.stateRows(page, 'run');
  const pc1 = rows.find((r) => r.name === 'pc[1]');
  assert.deepEqual(pc1, { name: 'pc[1]', value: 'saw_free', previous: 'idle', changed: true });
  assert.equal(rows.find((r) => r.name === 'locked').previous, '', 'no previous value for an unchanged variable');
  await page.locator('[data-testid=trace-last]').click();
  await page.waitForFunction(() => document.querySelector('.cm-locus-rule')?.textContent.includes('take the lock'));
  await page.locator('[data-testid=trace-rule]').click();
  assert.match(await page.locator('.cm-locus-rule').textContent(), /rule "take the lock"/);
  await h.screenshot(page, 'wide-trace-editor');
  assert.match(await page.locator('[data-testid=trace-kind]').textContent(), /An invariant is false/);
});

test('a 200,000-boolean counterexample shows and steps with under 50 ms of main-thread CPU a step, and no frozen frame', async () => {
  const p = await browser.context.newPage();
  await h.openApp(p, srv.url + h.shareFragment(big, { f: 'big.m' }));
  await p.waitForFunction((want) => window.locus.editor.getText() === want, big);
  await p.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(Math.round(e.duration)); }).observe({ type: 'longtask' });
  });
  // The main thread's CPU time for each interaction, from the moment it
  // starts until the page is idle again.
  const cpu = [];
  const timed = async (what, act) => {
    const c0 = h.rendererCPU();
    await act();
    await p.waitForTimeout(400);
    cpu.push([what, h.rendererCPU() - c0]);
  };
  await timed('run and show', async () => {
    assert.equal(await h.run(p, { timeout: 300000 }), 'fail');
    await p.waitForFunction(() => document.querySelector('[data-testid=trace-step]')?.textContent === 'Step 1 of 5');
  });
  // The array is one collapsed row; expanding it lists 200,000 rows, of
  // which only those on screen exist.
  let rows = await h.stateRows(p, 'run');
  assert.deepEqual(rows.map((r) => r.name), ['a', 'k']);
  assert.equal(rows[0].value, '200000 components');
  await p.locator('[data-testid=state-grid]').first().focus();
  await timed('expand', async () => {
    await p.keyboard.press('Enter');
    await p.waitForFunction(() => document.querySelector('[data-testid=trace-state] [role=treegrid]').getAttribute('aria-rowcount') === String(200002 + 1));
  });
  rows = await h.stateRows(p, 'run');
  assert.ok(rows.length < 60, `${rows.length} rows in the DOM`);
  await timed('scroll to the end', async () => {
    await p.keyboard.press('End');
    await p.waitForFunction(() => window.locus.stateview.rows('run').some((r) => r.name === 'k'));
  });
  rows = await h.stateRows(p, 'run');
  assert.equal(rows[rows.length - 1].name, 'k');
  assert.equal(rows[rows.length - 2].name, 'a[199999]');
  for (let i = 2; i <= 5; i++) {
    await timed(`step ${i}`, async () => {
      await p.locator('[data-testid=trace-next]').click();
      await p.waitForFunction((want) => document.querySelector('[data-testid=trace-step]').textContent === want, `Step ${i} of 5`);
    });
  }
  await timed('search', async () => {
    await p.locator('[data-testid=trace-search]').fill('a[3000]');
    await p.waitForFunction(() => window.locus.stateview.rows('run').some((r) => r.name === 'a[3000]'));
  });
  rows = await h.stateRows(p, 'run');
  assert.deepEqual(rows.map((r) => [r.name, r.value, r.previous]), [['a', '200000 components', '1 changed'], ['a[3000]', 'true', 'false']]);
  await p.locator('[data-testid=trace-search]').fill('');
  await timed('only changed', async () => {
    await p.locator('[data-testid=trace-only-changed]').check();
    await p.waitForFunction(() => window.locus.stateview.rows('run').length === 3);
  });
  await timed('first and last', async () => {
    await p.locator('[data-testid=trace-first]').click();
    await p.locator('[data-testid=trace-last]').click();
  });
  await h.screenshot(p, 'wide-trace-200k');
  const longTasks = await p.evaluate(() => window.longTasks);
  const load = loadavg()[0] / cpus().length;
  console.log(`# main-thread CPU per interaction (ms): ${JSON.stringify(cpu)}`);
  console.log(`# long tasks (ms, wall): ${JSON.stringify(longTasks)}; load per core ${load.toFixed(1)}`);
  // The page's own work: a step costs the main thread under 50 ms of CPU
  // in all (most of it the page's render, as for any click); an expansion
  // or a search over 200,000 names is done in slices of a few
  // milliseconds (see slice in tracestore.js), under 100 ms in all. A
  // long task is wall time: on two cores the page's own engine Worker and
  // Chromium's threads take the main thread's core now and then, so even
  // with nothing else running tasks of 50-113 ms were seen (load 0.6-0.8
  // per core, all from this test); the bound on them catches a frozen
  // page, not a slow frame. When more threads want the cores than there
  // are (CI shares this machine with other jobs; loads of 10 per core were
  // seen), both CPU and wall time stretch several times over, so there
  // only a longer freeze is caught: before this view, showing such a
  // trace took one 16.7 s task.
  const quiet = load < 1;
  const steps = cpu.filter(([what]) => what.startsWith('step '));
  const perStep = steps.reduce((sum, [, ms]) => sum + ms, 0) / steps.length;
  assert.ok(perStep <= (quiet ? 50 : 500), `a step costs ${perStep} ms of main-thread CPU`);
  for (const [what, ms] of cpu) {
    if (!what.startsWith('step ') && what !== 'run and show' && what !== 'first and last') {
      assert.ok(ms <= (quiet ? 100 : 1000), `${what}: ${ms} ms of main-thread CPU`);
    }
  }
  const bound = quiet ? 250 : 5000;
  assert.ok(longTasks.every((d) => d <= bound), `main-thread tasks over ${bound} ms: ${longTasks}`);
  await p.close();
});
