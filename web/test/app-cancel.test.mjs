// app-cancel: a long run can be cancelled; the engine Worker really stops and
// the page stays responsive throughout, since the engine never runs on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as h from '../testlib/helpers.mjs';

// A LONG run: three independent counters, about a billion states.
const long = `-- A LONG run: about a billion states
var a: 0..1000; b: 0..1000; c: 0..1000;
startstate begin a := 0; b := 0; c := 0; end;
rule "a" true ==> begin a := (a + 1) % 1001; end;
rule "b" true ==> begin b := (b + 1) % 1001; end;
rule "c" true ==> begin c := (c + 1) % 1001; end;
`;

const app = h.serveAndLaunch();

const liveStates = async (page) => Number((await page.locator('[data-testid=live-states] dd').textContent()).replace(/,/g, ''));

test('cancelling a long run stops the engine and keeps the page responsive', async () => {
  const page = await app.browser.context.newPage();
  // Depth-first with a 256 MiB budget: the search stack spills to the
  // browser's storage (which a run opens only when it first spills).
  await h.openApp(page, app.srv.url + h.shareFragment(long, { f: 'counters.m', mem: '256' }));
  await page.waitForFunction((want) => window.locus.editor.getText() === want, long);
  await page.locator('[data-testid=opt-algorithm]').selectOption('dfs');

  // A timer on the page counts its ticks while the engine runs.
  await page.evaluate(() => { window.ticks = 0; window.tickTimer = setInterval(() => window.ticks++, 50); });
  await page.locator('[data-testid=run]').click();
  await page.waitForFunction(() => Number((document.querySelector('[data-testid=live-states] dd')?.textContent || '0').replace(/,/g, '')) > 0, null, { timeout: 60000 });
  const ticksBefore = await page.evaluate(() => window.ticks);
  // The page handles input during the run: change an option and see it change.
  await page.locator('[data-testid=opt-algorithm]').selectOption('bfs');
  assert.equal(await page.locator('[data-testid=opt-algorithm]').inputValue(), 'bfs');
  const s1 = await liveStates(page);
  await page.waitForFunction((s) => Number(document.querySelector('[data-testid=live-states] dd').textContent.replace(/,/g, '')) > s, s1, { timeout: 30000 });
  const ticksDuring = (await page.evaluate(() => window.ticks)) - ticksBefore;
  assert.ok(ticksDuring > 0, 'the page timer kept ticking during the run');
  assert.equal(await page.locator('[data-testid=run-status]').textContent().then((t) => t.startsWith('Checking')), true);
  await h.screenshot(page, 'wide-7-running');

  // Wait until the stack has spilled, so the run has a store to leave behind.
  await page.waitForFunction(() => {
    const t = document.querySelector('[data-testid=live-queue] dd')?.textContent || '';
    return Number((t.split('/')[1] || '0').replace(/[^0-9]/g, '')) > 0;
  }, null, { timeout: 120000 });
  await page.locator('[data-testid=cancel]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=run-status]').textContent === 'Cancelled');
  assert.equal(await page.locator('[data-testid=verdict]').textContent(), 'incomplete');
  assert.match(await page.locator('[data-testid=verdict-text]').textContent(), /Cancelled/);
  assert.equal(await page.locator('[data-testid=run-status]').textContent(), 'Cancelled');
  assert.ok(await page.locator('[data-testid=run]').isEnabled());
  await h.screenshot(page, 'wide-8-cancelled');

  // The Worker is gone: no progress arrives any more.
  const frozen = await liveStates(page);
  await page.waitForTimeout(1000);
  assert.equal(await liveStates(page), frozen, 'no progress after cancel');

  // The cancelled run could not clean up its browser storage; the next run
  // removes it (its Worker, and so its lock, is gone).
  const stores = () => page.evaluate(async () => {
    const names = [];
    for await (const name of (await navigator.storage.getDirectory()).keys()) if (name.startsWith('locus-run-')) names.push(name);
    return names;
  });
  const left = await stores();
  assert.ok(left.length > 0, 'the cancelled run had a store');
  // Its Worker's lock goes when the browser has torn the Worker down
  // (waitForFunction does not await an async predicate, so poll).
  const held = () => page.evaluate(async (name) => (await navigator.locks.query()).held.some((l) => l.name === name), left[0]);
  for (let i = 0; i < 300 && await held(); i++) await page.waitForTimeout(100);
  assert.equal(await held(), false, "the terminated Worker's lock was released");

  // And a new run starts in a fresh Worker right away.
  await h.pickExample(page, 'peterson.m');
  assert.equal(await h.run(page), 'pass');
  // (The clean-up runs beside the run, not before it: poll.)
  let now = await stores();
  for (let i = 0; i < 100 && now.includes(left[0]); i++) {
    await page.waitForTimeout(100);
    now = await stores();
  }
  assert.ok(!now.includes(left[0]), `the cancelled run's store ${left[0]} was removed (now: ${now})`);
  await page.evaluate(() => clearInterval(window.tickTimer));
});
