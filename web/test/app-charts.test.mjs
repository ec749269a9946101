// app-charts: the progress panel's charts beyond states and levels. A small
// ldbfs run under the smallest budget charts memory, disk I/O and the disk
// cloud per table check; an exact run that follows charts memory only (the
// disk charts were reset with the run); a randomized BFS run, whose cache
// fills, charts its cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import * as h from '../testlib/helpers.mjs';

// n_peterson with N = 6: about a hundred table checks under ldbfs, and a
// D that leaves memory under 16 MiB (the native CLI says so below).
const model = readFileSync(join(h.root, '..', 'shared', 'models', 'cmurphi', 'mux', 'n_peterson.m'), 'utf8')
  .replace(/^(\s*N\s*:\s*)\d+/m, '$16');
assert.match(model, /^\s*N\s*:\s*6;/m, 'n_peterson.m declares N');

const app = h.serveAndLaunch();

// shown lists which of the charts' figures are visible.
async function shown(page) {
  const out = {};
  for (const which of ['memory', 'disk', 'cloud', 'collisions']) {
    out[which] = await page.locator(`[data-testid=figure-${which}]`).isVisible();
  }
  return out;
}

// checkBoth checks the model with algo under 16 MiB natively and in a new
// page, where the run must pass; it returns the native result, the page and
// the page's script errors.
async function checkBoth(algo) {
  const file = join(h.tempDir('locus-charts-'), 'np6.m');
  writeFileSync(file, model);
  const native = h.nativeCheck(file, ['--algo', algo, '-m', '16']);
  assert.equal(native.verdict, 'pass', native.reason);
  const page = await app.browser.context.newPage();
  const errors = await h.openApp(page, app.srv.url + h.shareFragment(model, { f: 'np6.m', a: algo, mem: '16' }));
  await page.waitForFunction((want) => window.locus.editor.getText() === want, model);
  assert.equal(await page.locator('[data-testid=opt-algorithm]').inputValue(), algo);
  assert.equal(await h.run(page, { timeout: 240000 }), 'pass', await page.locator('[data-testid=verdict-text]').textContent());
  return { native, page, errors };
}

// drawn waits until chart which shows at least one point and returns how many.
async function drawn(page, which) {
  await page.waitForFunction((w) => window.locus.charts.drawn(w) > 0, which, { timeout: 10000 });
  return page.evaluate((w) => window.locus.charts.drawn(w), which);
}

test('a disk run charts memory, disk I/O and the disk cloud; an exact run after it only memory', async () => {
  const { native, page, errors } = await checkBoth('ldbfs');
  assert.ok(native.disk_bytes_written > 0 && native.disk.checks > 1, `ldbfs under 16 MiB writes D to disk (${native.disk_bytes_written} bytes, ${native.disk.checks} checks)`);
  await page.locator('[data-testid=progress]').scrollIntoViewIfNeeded();
  await h.screenshot(page, 'charts-10-ldbfs');
  await page.locator('[data-testid=figure-cloud]').scrollIntoViewIfNeeded();
  await h.screenshot(page, 'charts-11-ldbfs-cloud');
  assert.deepEqual(await shown(page), { memory: true, disk: true, cloud: true, collisions: false });
  const memory = await drawn(page, 'memory');
  const disk = await drawn(page, 'disk');
  // The cloud chart ends with the result's history, drawn once the result
  // is in (a frame or more after the verdict shows): wait for it.
  await page.waitForFunction(([w, n]) => window.locus.charts.drawn(w) >= n, ['cloud', native.disk.cloud.length], { timeout: 10000 })
    .catch(() => {}); // the assertion below says what was drawn
  const cloud = await drawn(page, 'cloud');
  console.log(`# ldbfs: ${memory} memory, ${disk} disk and ${cloud} cloud points (${native.disk.checks} checks natively)`);
  // The cloud chart ends with the result's history: a point per check
  // (the engine thins it only past thousands).
  assert.equal(cloud, native.disk.cloud.length);
  for (const which of ['memory', 'disk', 'cloud']) {
    assert.equal(await page.locator(`[data-testid=chart-${which}] canvas`).count(), 1, `the ${which} chart is drawn`);
  }
  // The rows stay beside the charts.
  assert.match(await page.locator('[data-testid=live-disk-cloud] dd').textContent(), /of D/);
  const r = await new AxeBuilder({ page }).include('[data-testid=progress]').analyze();
  const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.equal(bad.length, 0, bad.map((v) => `${v.impact} ${v.id}: ${v.help}`).join('\n'));

  // An exact in-memory run: the memory chart again, no disk charts, and
  // none of the disk run's points.
  await page.locator('[data-testid=opt-algorithm]').selectOption('bfs');
  await page.locator('[data-testid=opt-memory]').selectOption('256');
  await page.waitForFunction(() => document.querySelector('[data-testid=opt-memory]').value === '256');
  assert.equal(await h.run(page, { timeout: 240000 }), 'pass');
  await h.screenshot(page, 'charts-20-bfs');
  assert.deepEqual(await shown(page), { memory: true, disk: false, cloud: false, collisions: false });
  assert.ok(await drawn(page, 'memory') >= 1);
  await page.waitForFunction(() => window.locus.charts.drawn('disk') === 0 && window.locus.charts.drawn('cloud') === 0, null, { timeout: 10000 });
  assert.match(await page.locator('[data-testid=figure-memory] figcaption').textContent(), /256\.0 MiB/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a randomized BFS run charts its cache fill', async () => {
  // rbfs's queue may spill under 16 MiB: the disk chart is shown as the
  // native run's disk writes say.
  const { native, page, errors } = await checkBoth('rbfs');
  await page.locator('[data-testid=figure-collisions]').scrollIntoViewIfNeeded();
  await h.screenshot(page, 'charts-30-rbfs');
  assert.deepEqual(await shown(page), { memory: true, disk: (native.disk_bytes_written ?? 0) > 0, cloud: false, collisions: true });
  const points = await drawn(page, 'collisions');
  const fill = await page.evaluate(() => window.locus.charts.last('collisions'));
  console.log(`# rbfs: ${points} collision points, the last ${JSON.stringify(fill)}`);
  assert.ok(fill[2] > 0 && fill[2] <= 1, `the cache's fill is a share (${fill[2]})`);
  assert.match(await page.locator('[data-testid=live-cache-fill] dd').textContent(), /%/);
  assert.deepEqual(errors, []);
  await page.close();
});
