// app-a11y: axe-core finds no serious or critical problem on any view, and
// every control is reachable and usable from the keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import AxeBuilder from '@axe-core/playwright';
import * as h from '../testlib/helpers.mjs';

let srv, browser, page;

before(async () => {
  h.requireBuild();
  srv = await h.startServer();
  browser = await h.launch();
  page = await browser.context.newPage();
  await h.openApp(page, srv.url);
});

after(async () => {
  await browser?.close();
  await srv?.stop();
});

async function axe(view) {
  const r = await new AxeBuilder({ page }).analyze();
  const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const text = bad.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')})`).join('\n');
  console.log(`# axe on ${view}: ${r.violations.length} finding(s), ${bad.length} serious or critical${r.violations.length ? ': ' + r.violations.map((v) => `${v.impact} ${v.id}`).join(', ') : ''}`);
  assert.equal(bad.length, 0, `${view}:\n${text}`);
}

test('axe-core: no serious or critical violations on any view', async () => {
  await h.pickExample(page, 'broken-mutex.m');
  await axe('the editor');
  await page.locator('[data-testid=help-symmetry] summary').click();
  await h.run(page);
  await axe('a verdict with its counterexample');
  await page.locator('[data-testid=tab-simulate]').click();
  await page.locator('[data-testid=sim-choice]').first().click();
  await page.waitForFunction(() => document.querySelector('[data-testid=sim-step]')?.textContent === 'State 1 of 1');
  await axe('the simulation');
  await page.locator('[data-testid=tab-graph]').click();
  await page.locator('[data-testid=graph-draw]').click();
  await page.locator('svg.state-graph').waitFor({ timeout: 60000 });
  await page.waitForFunction(() => document.querySelector('[data-testid=graph-step]'));
  await axe('the state graph');
  await page.locator('[data-testid=tab-help]').click();
  await axe('the help');
  await h.screenshot(page, 'wide-help');
  await page.locator('[data-testid=files]').click();
  await page.locator('[data-testid=files-dialog]').waitFor();
  await axe('my models');
  await page.locator('[data-testid=files]').click();
  await page.setViewportSize({ width: 390, height: 844 });
  await axe('the phone layout');
  await page.locator('[data-testid=help]').scrollIntoViewIfNeeded();
  await h.screenshot(page, 'phone-help');
  await page.locator('[data-testid=tab-check]').click();
  await page.locator('[data-testid=editor]').scrollIntoViewIfNeeded();
  await h.screenshot(page, 'phone-editor');
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('the keyboard reaches and works every control', async () => {
  await page.locator('[data-testid=tab-check]').click();
  await h.pickExample(page, 'broken-mutex.m');
  // Tab from the top of the page visits the header, file and option
  // controls, Run and the tabs, in order.
  await page.locator('body').focus();
  await page.evaluate(() => document.activeElement.blur());
  const seen = [];
  for (let i = 0; i < 40; i++) {
    // In the editor Tab indents; Escape first makes Tab leave it.
    if (await page.evaluate(() => !!document.activeElement?.closest('.cm-content'))) await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    seen.push(await page.evaluate(() => document.activeElement?.dataset.testid || document.activeElement?.id || document.activeElement?.className || document.activeElement?.tagName));
  }
  for (const id of ['examples', 'files', 'share', 'new-model', 'open-file', 'download', 'opt-algorithm', 'opt-memory', 'opt-deadlock', 'opt-symmetry', 'run', 'tab-check']) {
    assert.ok(seen.includes(id), `Tab reaches ${id} (order: ${seen.join(' ')})`);
  }
  // Run with the keyboard, step the counterexample, open a state's array.
  await page.locator('[data-testid=run]').focus();
  const before = await page.locator('[data-testid=verdict-panel]').getAttribute('data-run');
  await page.keyboard.press('Enter');
  await page.waitForFunction((old) => document.querySelector('[data-testid=verdict-panel]').dataset.run !== old && !document.querySelector('[data-testid=verdict-panel]').hidden, before);
  await page.locator('[data-testid=trace-next]').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=trace-step]').textContent === 'Step 2 of 5');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('[data-testid=trace-step]').textContent === 'Step 5 of 5');
  await page.locator('[data-testid=state-grid]').first().focus();
  await page.keyboard.press('ArrowDown'); // pc
  await page.keyboard.press('ArrowLeft'); // close it
  await page.waitForFunction(() => window.locus.stateview.rows('run').length === 2);
  await page.keyboard.press('ArrowRight'); // open it again
  await page.waitForFunction(() => window.locus.stateview.rows('run').length === 4);
  // The tabs follow the arrow keys.
  await page.locator('[data-testid=tab-check]').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'tab-simulate');
  assert.equal(await page.locator('[data-testid=tab-simulate]').getAttribute('aria-selected'), 'true');
  await page.keyboard.press('Tab');
  await page.keyboard.press('End');
  await page.locator('[data-testid=sim-choice]').first().focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=sim-step]')?.textContent === 'State 1 of 1');
  // Option help opens from the keyboard.
  await page.locator('[data-testid=help-deadlock] summary').focus();
  await page.keyboard.press('Enter');
  // The toggle lands a task later: under load, after the key press returns.
  await page.waitForFunction(() => document.querySelector('[data-testid=help-deadlock]')?.open === true);
  // Ctrl+Enter runs from anywhere.
  await page.locator('[data-testid=tab-check]').click();
  assert.equal(await h.run(page, { keys: 'Control+Enter' }), 'fail');
  // The help the user opened stays open through the run's renders.
  assert.equal(await page.locator('[data-testid=help-deadlock]').getAttribute('open'), 'open');
  await page.locator('[data-testid=help-deadlock] summary').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=help-deadlock]')?.open === false);
  assert.equal(await h.run(page, { keys: 'Control+Enter' }), 'fail');
  assert.equal(await page.locator('[data-testid=help-deadlock]').getAttribute('open'), null);
});
