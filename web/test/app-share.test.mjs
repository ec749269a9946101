// app-share: a share link carries the model and options to a fresh browser,
// and a damaged or oversized link gets a friendly message instead of a model.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as h from '../testlib/helpers.mjs';

let srv;

before(async () => {
  h.requireBuild();
  srv = await h.startServer();
});

after(async () => {
  await srv?.stop();
});

const text = (page) => page.evaluate(() => window.locus.editor.getText());

test('a share link opens the same model and options in a fresh browser', async () => {
  const a = await h.launch({ width: 390, height: 844 });
  let link, source;
  try {
    const page = await a.context.newPage();
    await h.openApp(page, srv.url);
    await h.pickExample(page, 'broken-mutex.m');
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n-- edited before sharing\n');
    await page.locator('[data-testid=opt-algorithm]').selectOption('dfs');
    await page.locator('[data-testid=opt-deadlock]').selectOption('stuck');
    await page.locator('[data-testid=opt-symmetry]').selectOption('off');
    await page.locator('[data-testid=opt-memory]').selectOption('64');
    source = await text(page);
    await page.locator('[data-testid=share]').click();
    await page.locator('[data-testid=share-url]:visible').waitFor();
    link = await page.locator('[data-testid=share-url]').inputValue();
    assert.match(link, /#m=[A-Za-z0-9_-]+&/);
    assert.equal(await page.evaluate(() => location.href), link, 'the address bar holds the link too');
    await h.screenshot(page, 'phone-4-share');
  } finally {
    await a.close();
  }

  const b = await h.launch();
  try {
    const page = await b.context.newPage();
    await h.openApp(page, link);
    await page.waitForFunction((want) => window.locus.editor.getText() === want, source);
    assert.equal(await page.locator('[data-testid=filename]').textContent(), 'broken-mutex.m');
    assert.equal(await page.locator('[data-testid=opt-algorithm]').inputValue(), 'dfs');
    assert.equal(await page.locator('[data-testid=opt-deadlock]').inputValue(), 'stuck');
    assert.equal(await page.locator('[data-testid=opt-symmetry]').inputValue(), 'off');
    assert.equal(await page.locator('[data-testid=opt-memory]').inputValue(), '64');
    assert.match(await page.locator('[data-testid=notice]').textContent(), /share link/);
    await h.screenshot(page, 'wide-5-opened-share-link');
  } finally {
    await b.close();
  }
});

test('a link made elsewhere (raw deflate, base64url) opens too', async () => {
  const b = await h.launch();
  try {
    const page = await b.context.newPage();
    const model = '-- from a teacher\nvar x: boolean;\nstartstate begin x := false; end;\nrule "flip" true ==> begin x := !x; end;\n';
    await h.openApp(page, srv.url + h.shareFragment(model, { f: 'flip.m', a: 'bfs' }));
    await page.waitForFunction((want) => window.locus.editor.getText() === want, model);
    assert.equal(await page.locator('[data-testid=filename]').textContent(), 'flip.m');
  } finally {
    await b.close();
  }
});

test('damaged and oversized links give a friendly message', async () => {
  const b = await h.launch();
  try {
    const page = await b.context.newPage();
    const good = h.shareFragment('var x: boolean;\n'.repeat(50));
    for (const [fragment, want] of [
      [good.slice(0, 30), /damaged/],
      ['#m=***', /damaged/],
      ['#m=' + randomBytes(90000).toString('base64url'), /longer than/],
    ]) {
      await page.goto('about:blank');
      await h.openApp(page, srv.url + fragment);
      const notice = page.locator('[data-testid=notice]');
      await notice.waitFor({ state: 'visible' });
      assert.match(await notice.textContent(), want, fragment.slice(0, 40));
      assert.equal(await notice.getAttribute('class'), 'notice error');
    }
    await h.screenshot(page, 'wide-6-bad-link');
  } finally {
    await b.close();
  }
});
