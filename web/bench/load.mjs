// load.mjs: what a first and a repeat visit download, and how long a click
// on Run takes to show the verdict of the shipped small examples.
//
//   node web/bench/load.mjs [SITE_DIR]      (default: public)
//
// locus-serve logs every request (-log); a first visit runs until the
// service worker controls the page (it has cached the site), a repeat
// visit reloads the page. Click-to-verdict is measured on the page, from
// the click to the verdict panel showing the new run, several times.
import { readFileSync, rmSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as h from '../testlib/helpers.mjs';

export async function measureLoad(site = 'public', { examples = [], runs = 5 } = {}) {
  mkdirSync(join(h.root, 'test-output'), { recursive: true });
  const log = join(h.root, 'test-output', `load-${process.pid}.log`);
  rmSync(log, { force: true });
  const srv = await h.startServer(site, { log });
  const browser = await h.launch();
  const requests = () => readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((l) => {
    const [status, bytes, path] = l.split(' ');
    return { status: Number(status), bytes: Number(bytes), path };
  });
  try {
    const page = await browser.context.newPage();
    const t0 = Date.now();
    // (Waits only for what any build of the page shows, so that an older
    // build can be measured the same way.)
    await page.goto(srv.url);
    await page.locator('[data-testid=examples] option[value$=".m"]').first().waitFor({ state: 'attached', timeout: 120000 });
    await page.waitForFunction(() => (window.locus?.editor?.getText() || '').length > 0, null, { timeout: 60000 });
    const shown = Date.now() - t0;
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 120000 });
    await page.waitForTimeout(500);
    const cold = requests();
    const n = cold.length;
    const t1 = Date.now();
    await page.reload();
    await page.locator('[data-testid=examples] option[value$=".m"]').first().waitFor({ state: 'attached', timeout: 60000 });
    await page.waitForFunction(() => (window.locus?.editor?.getText() || '').length > 0, null, { timeout: 60000 });
    const warmShown = Date.now() - t1;
    await page.waitForTimeout(500);
    const warm = requests().slice(n);
    const clicks = {};
    for (const file of examples) {
      await page.locator('[data-testid=examples]').selectOption(file);
      await page.waitForFunction((f) => document.querySelector('[data-testid=filename]')?.textContent === f, file);
      await page.waitForTimeout(1500); // the spare Worker loads
      clicks[file] = [];
      for (let i = 0; i < runs; i++) {
        clicks[file].push(Math.round(await page.evaluate(() => new Promise((resolve) => {
          const panel = document.querySelector('[data-testid=verdict-panel]');
          const old = panel.dataset.run;
          const t = performance.now();
          const obs = new MutationObserver(() => {
            if (!panel.hidden && panel.dataset.run !== old) { obs.disconnect(); resolve(performance.now() - t); }
          });
          obs.observe(panel, { attributes: true });
          document.querySelector('[data-testid=run]').click();
        }))));
        await page.waitForTimeout(700);
      }
    }
    return { cold, warm, shownMs: shown, warmShownMs: warmShown, clicks };
  } finally {
    await browser.close();
    await srv.stop();
    rmSync(log, { force: true });
  }
}

export function summarize(reqs) {
  const full = reqs.filter((r) => r.status === 200);
  const byPath = new Map();
  for (const r of full) byPath.set(r.path, (byPath.get(r.path) || []).concat(r.bytes));
  const twice = [...byPath].filter(([, b]) => b.length > 1).map(([p, b]) => `${p} x${b.length}`);
  const total = full.reduce((s, r) => s + r.bytes, 0);
  const table = [...byPath].map(([p, b]) => ({ path: p, bytes: b.reduce((s, x) => s + x, 0), times: b.length })).sort((a, b) => b.bytes - a.bytes);
  return { requests: reqs.length, total, twice, table };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const site = resolve(process.argv[2] || join(h.root, 'public'));
  const r = await measureLoad(site, { examples: ['peterson.m', 'broken-mutex.m'] });
  const c = summarize(r.cold);
  console.log(`first visit: ${c.requests} requests, ${c.total} bytes sent; fetched more than once: ${c.twice.join(', ') || 'none'}; page shown after ${r.shownMs} ms`);
  console.table(c.table);
  const w = summarize(r.warm);
  console.log(`repeat visit: ${w.requests} requests, ${w.total} bytes; page shown after ${r.warmShownMs} ms`);
  console.log('click to verdict (ms):', JSON.stringify(r.clicks));
}
