// app-tools: simulation (pick rules, go back, run randomly) and the state
// graph, compared with the CLI.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as h from '../testlib/helpers.mjs';

let srv, browser, page, log;

before(async () => {
  h.requireBuild();
  log = join(h.root, 'test-output', `tools-requests-${process.pid}.log`);
  srv = await h.startServer('public', { log });
  browser = await h.launch();
  page = await browser.context.newPage();
  await h.openApp(page, srv.url);
});

after(async () => {
  await browser?.close();
  await srv?.stop();
});

const simStep = () => page.locator('[data-testid=sim-step]').textContent();

test('simulation reaches the broken mutex violation by picking rules', async () => {
  const native = h.nativeCheck(join('examples', 'broken-mutex.m'));
  const trace = native.violation.trace;
  await h.pickExample(page, 'broken-mutex.m');
  await page.locator('[data-testid=tab-simulate]').click();
  // First the start state, then the rules of the CLI's counterexample,
  // each picked from the enabled rules shown.
  await page.locator('[data-testid=sim-choice]').first().waitFor();
  assert.equal(await page.locator('[data-testid=sim-choice]').count(), 1, 'one start state');
  await page.locator('[data-testid=sim-choice]').first().click();
  await page.waitForFunction(() => document.querySelector('[data-testid=sim-step]')?.textContent === 'State 1 of 1');
  for (let i = 1; i < trace.length; i++) {
    const choice = page.locator(`[data-testid=sim-choice][data-rule="${trace[i].rule}"]`);
    await choice.waitFor();
    await choice.click();
    await page.waitForFunction((want) => document.querySelector('[data-testid=sim-step]')?.textContent === want, `State ${i + 1} of ${i + 1}`);
    const rows = await h.stateRows(page, 'sim');
    for (const v of trace[i].state) {
      assert.equal(rows.find((r) => r.name === v.name)?.value, v.value, `step ${i}: ${v.name}`);
    }
  }
  await page.locator('[data-testid=sim-problem]:not([hidden])').waitFor();
  assert.match(await page.locator('[data-testid=sim-problem]').textContent(), /invariant is false.*mutual exclusion/i);
  assert.ok(await page.locator('.cm-locus-violation').count() > 0, 'the invariant is marked in the editor');
  await h.screenshot(page, 'wide-sim-violation');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('[data-testid=sim]').scrollIntoViewIfNeeded();
  await h.screenshot(page, 'phone-sim-violation');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Back is one click and removes the violation.
  await page.locator('[data-testid=sim-back]').click();
  await page.waitForFunction((want) => document.querySelector('[data-testid=sim-step]')?.textContent === want, `State ${trace.length - 1} of ${trace.length - 1}`);
  assert.ok(await page.locator('[data-testid=sim-problem]').isHidden());
});

test('a random run steps on its own at the chosen speed and stops at a violation', async () => {
  await page.locator('[data-testid=sim-restart]').click();
  await page.locator('[data-testid=sim-choice]').first().click();
  await page.locator('[data-testid=sim-speed]').selectOption('50');
  await page.locator('[data-testid=sim-random]').click();
  // The broken mutex reaches its violation within a few random steps,
  // or the run goes on; either way states pile up.
  await page.waitForFunction(() => {
    const m = /State (\d+) of/.exec(document.querySelector('[data-testid=sim-step]')?.textContent || '');
    return (m && Number(m[1]) >= 6) || !document.querySelector('[data-testid=sim-problem]').hidden;
  }, null, { timeout: 60000 });
  if (await page.locator('[data-testid=sim-problem]').isVisible()) {
    assert.equal(await page.locator('[data-testid=sim-random]').textContent(), 'Run randomly', 'the random run stopped at the violation');
  } else {
    await page.locator('[data-testid=sim-random]').click(); // stop
  }
});

test('the state graph of peterson has the CLI state count, and a clicked state shows its path', async () => {
  const native = h.nativeCheck(join('examples', 'peterson.m'));
  await h.pickExample(page, 'peterson.m');
  await page.locator('[data-testid=tab-graph]').click();
  await page.locator('[data-testid=graph-draw]').click();
  await page.locator('svg.state-graph').waitFor({ timeout: 60000 });
  assert.equal(await page.locator('svg.state-graph g.node').count(), native.states);
  assert.match(await page.locator('[data-testid=graph-summary]').textContent(), new RegExp(`^${native.states} states, ${native.rules_fired} transitions`));
  // Click the state farthest from the start: the path to it is highlighted
  // and its states listed, ending with the state clicked.
  const far = await page.evaluate(() => {
    const g = [...document.querySelectorAll('svg.state-graph g.node')].map((n) => n.id);
    return g[g.length - 1];
  });
  await page.locator(`svg.state-graph g.node#${far}`).click();
  await page.waitForFunction(() => document.querySelector('[data-testid=graph-step]')?.textContent.startsWith('Step'));
  const path = await page.evaluate(() => JSON.parse(window.locus.graph.path()));
  assert.equal(path[path.length - 1], Number(far.slice(1)));
  assert.equal(await page.locator('svg.state-graph .node.on-path').count(), path.length);
  assert.equal(await page.locator('svg.state-graph .edge.on-path').count(), path.length - 1);
  assert.equal(await page.locator('[data-testid=graph-step]').textContent(), `Step ${path.length} of ${path.length} to state ${far.slice(1)}`);
  assert.ok((await h.stateRows(page, 'graph')).some((r) => r.name === 'turn'));
  await h.screenshot(page, 'wide-graph-peterson');
});

test('the state graph of the broken mutex highlights the counterexample', async () => {
  const native = h.nativeCheck(join('examples', 'broken-mutex.m'));
  await h.pickExample(page, 'broken-mutex.m');
  await page.locator('[data-testid=graph-draw]').click();
  await page.locator('svg.state-graph').waitFor({ timeout: 60000 });
  await page.waitForFunction(() => document.querySelectorAll('svg.state-graph .node.on-path').length > 0);
  const path = await page.evaluate(() => JSON.parse(window.locus.graph.path()));
  assert.equal(path.length, native.violation.trace.length, 'the path is as long as the CLI counterexample');
  assert.equal(await page.locator('svg.state-graph .edge.on-path').count(), path.length - 1);
  const rules = await page.evaluate(() => window.locus.traces.steps('graph'));
  assert.deepEqual(JSON.parse(rules).map((s) => s.rule), native.violation.trace.map((s) => s.rule));
  await h.screenshot(page, 'wide-graph-violation');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('[data-testid=graph]').scrollIntoViewIfNeeded();
  await h.screenshot(page, 'phone-graph');
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('the graph library is fetched only when the graph is first drawn', async () => {
  const { readFileSync } = await import('node:fs');
  const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => l.split(' '));
  const first = lines.findIndex(([, , path]) => path === '/dist/graph-worker.js');
  const ui = lines.findIndex(([, , path]) => path === '/locus-ui.wasm');
  assert.ok(first > ui, 'graph-worker.js came after the page had loaded');
  assert.equal(lines.filter(([, , path]) => path === '/dist/graph-worker.js').length, 1, 'and once');
});
