// app-offline: once loaded, the service worker keeps the whole app working
// with the server stopped and the network off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as h from '../testlib/helpers.mjs';

const app = h.serveAndLaunch();

test('the app reloads and verifies with the network gone', async () => {
  const file = 'peterson.m';
  const native = h.nativeCheck(join('examples', file));
  const page = await app.browser.context.newPage();
  await h.openApp(page, app.srv.url);
  // The service worker controls the page once it has cached every file.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60000 });
  const cached = await page.evaluate(async () => {
    const keys = await caches.keys();
    const cache = await caches.open(keys.find((k) => k.startsWith('locus-')));
    return (await cache.keys()).map((r) => new URL(r.url).pathname);
  });
  // (index.html is the same page as "/", which the worker serves for it.)
  for (const f of ['/', '/locus-ui.wasm', '/engine.wasm', '/worker.js', '/wasm_exec.js', '/dist/app.js', '/examples/index.json', `/examples/${file}`]) {
    assert.ok(cached.includes(f), `${f} is cached (cached: ${cached.join(' ')})`);
  }

  await app.srv.stop();
  app.srv = null;
  await app.browser.context.setOffline(true);
  await page.reload();
  await page.locator('[data-testid=examples] option[value$=".m"]').first().waitFor({ state: 'attached', timeout: 60000 });
  await h.pickExample(page, file);
  assert.equal(await h.run(page), native.verdict);
  assert.equal(await h.statNumber(page, 'states'), native.states);
  await h.screenshot(page, 'wide-9-offline');
  await app.browser.context.setOffline(false);
});

test('a new build replaces the cached one and the page offers to reload', async () => {
  // Serve a copy of the site, so the test can make a "new build" of it.
  const { cpSync, appendFileSync } = await import('node:fs');
  const { execFileSync } = await import('node:child_process');
  const site = join(h.tempDir('locus-site-'), 'public');
  cpSync(join(h.root, 'public'), site, { recursive: true });
  const copy = await h.startServer(site);
  const b = await h.launch();
  try {
    const page = await b.context.newPage();
    await h.openApp(page, copy.url);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60000 });
    const cacheNames = () => page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith('locus-')));
    const [before] = await cacheNames();

    // The new build changes one example; sitegen writes a new service worker.
    const examples = h.tempDir('locus-examples-');
    cpSync(join(h.root, 'examples'), examples, { recursive: true });
    appendFileSync(join(examples, 'peterson.m'), '\n-- changed in a new build\n');
    execFileSync('go', ['run', './web/sitegen', '-public', site, '-examples', examples, '-sw', 'web/src/sw.js'], { cwd: h.root, stdio: 'ignore' });

    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
    await page.locator('#update:not([hidden])').waitFor({ timeout: 60000 });
    // The old build's cache is replaced by the new one's (polled: waitForFunction
    // does not await an async predicate).
    let after = await cacheNames();
    for (let i = 0; i < 300 && (after.length !== 1 || after[0] === before); i++) {
      await page.waitForTimeout(100);
      after = await cacheNames();
    }
    assert.equal(after.length, 1, `one cache: ${after}`);
    assert.notEqual(after[0], before, 'a new versioned cache');
    await h.screenshot(page, 'wide-11-update-ready');
    await page.locator('#update-reload').click();
    await page.locator('[data-testid=examples] option[value$=".m"]').first().waitFor({ state: 'attached', timeout: 60000 });
    await h.pickExample(page, 'peterson.m');
    await page.waitForFunction(() => window.locus.editor.getText().includes('changed in a new build'));
  } finally {
    await b.close();
    await copy.stop();
  }
});
