// app-offline: once loaded, the service worker keeps the whole app working
// with the server stopped and the network off.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as h from '../testlib/helpers.mjs';

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

test('the app reloads and verifies with the network gone', async () => {
  const file = 'two-process-mutex.m';
  const native = h.nativeCheck(join('examples', file));
  const page = await browser.context.newPage();
  await h.openApp(page, srv.url);
  // The service worker controls the page once it has cached every file.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60000 });
  const cached = await page.evaluate(async () => {
    const keys = await caches.keys();
    const cache = await caches.open(keys.find((k) => k.startsWith('locus-')));
    return (await cache.keys()).map((r) => new URL(r.url).pathname);
  });
  for (const f of ['/', '/index.html', '/locus-ui.wasm', '/engine.wasm', '/worker.js', '/wasm_exec.js', '/dist/app.js', '/examples/index.json', `/examples/${file}`]) {
    assert.ok(cached.includes(f), `${f} is cached (cached: ${cached.join(' ')})`);
  }

  await srv.stop();
  srv = null;
  await browser.context.setOffline(true);
  await page.reload();
  await page.locator('[data-testid=examples] option:nth-child(2)').waitFor({ state: 'attached', timeout: 60000 });
  await h.pickExample(page, file);
  assert.equal(await h.run(page), native.verdict);
  assert.equal(await h.statNumber(page, 'states'), native.states);
  await h.screenshot(page, 'wide-9-offline');
  await browser.context.setOffline(false);
});
