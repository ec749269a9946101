// app-resume: a checkpointed disk run (ldbfs) whose tab is closed mid-run
// is listed on the next visit, resumes from its newest checkpoint, and ends
// with the counts of an uninterrupted run (the native CLI's exact BFS).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import * as h from '../testlib/helpers.mjs';

// axe fails on serious or critical accessibility problems of page's view.
async function axe(page, view) {
  const r = await new AxeBuilder({ page }).analyze();
  const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.equal(bad.length, 0, `${view}:\n` + bad.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')})`).join('\n'));
}

// n_peterson with N = 7: about a hundred and fifty table checks (one per
// BFS level and more when M fills), so the tab is closed after a few
// checkpoints and long before the end.
const model = readFileSync(join(h.root, '..', 'shared', 'models', 'cmurphi', 'mux', 'n_peterson.m'), 'utf8')
  .replace(/^(\s*N\s*:\s*)\d+/m, '$17');

const app = h.serveAndLaunch();

// liveChecks reads the table checks of the run's progress, -1 before any.
async function liveChecks(page) {
  const el = page.locator('[data-testid=live-disk-checks] dd');
  if (await el.count() === 0) return -1;
  return Number((await el.textContent()).split(',')[0].replace(/,/g, ''));
}

// closeAndResume runs the model with ldbfs on storage ('opfs', or
// 'indexeddb' with OPFS hidden from the engine), closes the tab mid-run,
// and resumes the run from a new tab.
async function closeAndResume(storage) {
  assert.match(model, /N\s*:\s*7\b/, 'N was set in the model');
  const file = join(h.tempDir('locus-resume-'), 'np7.m');
  writeFileSync(file, model);
  const exact = h.nativeCheck(file, []);
  assert.equal(exact.verdict, 'pass', exact.reason);

  const first = await app.browser.context.newPage();
  if (storage === 'indexeddb') await first.addInitScript(() => localStorage.setItem('locus-storage', 'indexeddb'));
  // Run is pressed before the engine has loaded (its fetch is held back),
  // so before the page knows that ldbfs checkpoints: the run must wait for
  // the engine list rather than go ahead without its checkpoint option.
  // The first page of the test's fresh browser has no service worker yet,
  // so the page's own fetch of engine.wasm is the one held.
  let held = 0;
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  await first.route('**/engine.wasm', async (route) => { held++; await gate; await route.continue(); });
  await h.openApp(first, app.srv.url + h.shareFragment(model, { f: 'np7.m', a: 'ldbfs', mem: '16' }));
  await first.waitForFunction((want) => window.locus.editor.getText() === want, model);
  assert.equal(await first.locator('[data-testid=opt-algorithm]').inputValue(), 'ldbfs');
  await first.keyboard.press('Control+Enter');
  if (held > 0) {
    assert.equal(await first.locator('[data-testid=run-status]').textContent(), 'Loading the engine…');
    assert.ok(!(await first.locator('[data-testid=run]').isEnabled()), 'Run is disabled while the run waits for the engine');
  } else {
    assert.equal(storage, 'indexeddb', 'the first page fetched engine.wasm itself');
  }
  release();
  // Close the tab once a few checkpoints are written, while it runs.
  await first.waitForFunction(() => {
    const dd = document.querySelector('[data-testid=live-disk-checks] dd');
    return (dd && Number(dd.textContent.split(',')[0].replace(/,/g, '')) >= 4) || !document.querySelector('[data-testid=run]').disabled;
  }, null, { timeout: 240000 }).catch(async (e) => {
    await h.screenshot(first, `resume-09-${storage}-no-checks`);
    throw new Error(`${e.message}; status: ${await first.locator('[data-testid=run-status]').textContent()}`);
  });
  assert.ok(!(await first.locator('[data-testid=run]').isEnabled()),
    'the run ended before the tab closed: ' + (await first.locator('[data-testid=verdict-panel]').innerText().catch(() => '')));
  const checksAtClose = await liveChecks(first);
  assert.match(await first.locator('.progress .storage').textContent(), storage === 'opfs' ? /origin private/ : /IndexedDB/);
  for (const key of ['disk-m', 'disk-d', 'disk-cloud', 'disk-rates']) {
    assert.equal(await first.locator(`[data-testid=live-${key}]`).count(), 1, `the live view shows ${key}`);
  }
  await axe(first, 'a disk run in progress');
  assert.ok(await first.locator('[data-testid=verdict-panel] [data-testid=verdict]').count() === 0 ||
    !(await first.locator('[data-testid=run]').isEnabled()), 'the run was still going when the tab closed');
  await h.screenshot(first, `resume-10-${storage}-before-close`);
  await first.close();

  const second = await app.browser.context.newPage();
  await h.openApp(second, app.srv.url);
  const stored = second.locator('[data-testid=stored-run]');
  const resume = stored.locator('[data-testid=stored-resume]');
  second.on('console', (m) => console.log('# console: ' + m.text()));
  await second.waitForFunction(() => {
    const b = document.querySelector('[data-testid=stored-run] [data-testid=stored-resume]');
    return b && !b.disabled;
  }, null, { timeout: 60000 }).catch(async (e) => {
    await h.screenshot(second, `resume-21-${storage}-not-listed`);
    throw new Error(e.message + '; the storage panel says: ' + (await second.locator('[data-testid=storage-panel]').innerText()));
  });
  assert.equal(await stored.count(), 1);
  const summary = await stored.textContent();
  assert.match(summary, /np7\.m/);
  assert.match(summary, /checkpoint after/, `a checkpoint was written before the tab closed (${checksAtClose} checks): ${summary}`);
  assert.match(await second.locator('[data-testid=storage-usage]').textContent(), /used of/);
  await h.screenshot(second, `resume-20-${storage}-listed`);
  await axe(second, 'the stored runs');

  const before = await second.locator('[data-testid=verdict-panel]').getAttribute('data-run');
  await resume.click();
  await second.waitForFunction((old) => {
    const p = document.querySelector('[data-testid=verdict-panel]');
    return p && !p.hidden && p.dataset.run !== old && document.querySelector('[data-testid=verdict]');
  }, before, { timeout: 300000 });
  await second.waitForFunction(() => !document.querySelector('[data-testid=run]').disabled, null, { timeout: 300000 });
  await h.screenshot(second, `resume-30-${storage}-done`);
  const verdict = (await second.locator('[data-testid=verdict]').textContent()).trim();
  assert.equal(verdict, 'pass', await second.locator('[data-testid=verdict-text]').textContent());
  assert.equal(await second.evaluate(() => window.locus.editor.getText()), model, 'the stored model is back in the editor');
  assert.equal(await h.statNumber(second, 'states'), exact.states);
  assert.equal(await h.statNumber(second, 'rules'), exact.rules_fired);
  assert.match(await second.locator('[data-testid=stat-checkpoint] dd').textContent(), /resumed 1 time/);
  // The finished run's store is deleted.
  await second.waitForFunction(() => document.querySelectorAll('[data-testid=stored-run]').length === 0 &&
    !document.querySelector('[data-testid=stored-none]').hidden, null, { timeout: 30000 });
  await second.close();
}

test('a disk run interrupted by closing the tab resumes on the next visit with the exact counts (OPFS)', () => closeAndResume('opfs'));

test('the same on IndexedDB (OPFS hidden from the engine)', async () => {
  try {
    await closeAndResume('indexeddb');
  } finally {
    // The switch is the origin's localStorage: later tests use OPFS again.
    const page = await app.browser.context.newPage();
    await page.goto(app.srv.url + 'robots.txt');
    await page.evaluate(() => localStorage.removeItem('locus-storage'));
    await page.close();
  }
});

test('a disk run that fills the storage quota ends incomplete, keeps its checkpoint, and resumes once there is room', async () => {
  const file = join(h.tempDir('locus-quota-'), 'np7.m');
  writeFileSync(file, model);
  const exact = h.nativeCheck(file, []);
  const onDisk = h.nativeCheck(file, ['--algo', 'ldbfs', '-m', '16']);
  assert.ok(onDisk.disk.d_bytes > 1 << 20, `D grows past 1 MiB (${onDisk.disk.d_bytes} bytes)`);

  const page = await app.browser.context.newPage();
  await h.openApp(page, app.srv.url + h.shareFragment(model, { f: 'np7.m', a: 'ldbfs', mem: '16' }));
  await page.waitForFunction((want) => window.locus.editor.getText() === want, model);
  // Let the service worker finish caching the site, so that the origin's
  // usage holds still; then leave the run a quota of 3 MiB more than that
  // (Chromium's DevTools quota override).
  await page.evaluate(() => navigator.serviceWorker.ready);
  let usage = -1;
  for (let i = 0; i < 30; i++) {
    const u = await page.evaluate(async () => (await navigator.storage.estimate()).usage);
    if (u === usage) break;
    usage = u;
    await page.waitForTimeout(1000);
  }
  const cdp = await app.browser.context.newCDPSession(page);
  const origin = new URL(app.srv.url).origin;
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage + (3 << 20) });
  try {
    const verdict = await h.run(page, { timeout: 300000 });
    await h.screenshot(page, 'resume-40-quota');
    const why = await page.locator('[data-testid=verdict-text]').textContent();
    assert.equal(verdict, 'incomplete', why);
    assert.match(why, /quota/i);
    console.log('# quota verdict: ' + why.replace(/\s+/g, ' '));
    assert.match(await page.locator('[data-testid=stat-checkpoint] dd').textContent(), /kept in browser storage/);
  } finally {
    await cdp.send('Storage.overrideQuotaForOrigin', { origin });
  }
  const stored = page.locator('[data-testid=stored-run]');
  await page.waitForFunction(() => {
    const b = document.querySelector('[data-testid=stored-run] [data-testid=stored-resume]');
    return b && !b.disabled;
  }, null, { timeout: 60000 });
  assert.equal(await stored.count(), 1);
  assert.match(await stored.textContent(), /checkpoint after/);

  const before = await page.locator('[data-testid=verdict-panel]').getAttribute('data-run');
  await stored.locator('[data-testid=stored-resume]').click();
  await page.waitForFunction((old) => {
    const p = document.querySelector('[data-testid=verdict-panel]');
    return p && !p.hidden && p.dataset.run !== old && document.querySelector('[data-testid=verdict]');
  }, before, { timeout: 300000 });
  await page.waitForFunction(() => !document.querySelector('[data-testid=run]').disabled, null, { timeout: 300000 });
  assert.equal((await page.locator('[data-testid=verdict]').textContent()).trim(), 'pass',
    await page.locator('[data-testid=verdict-text]').textContent());
  assert.equal(await h.statNumber(page, 'states'), exact.states);
  assert.equal(await h.statNumber(page, 'rules'), exact.rules_fired);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=stored-run]').length === 0, null, { timeout: 30000 });
  await page.close();
});
