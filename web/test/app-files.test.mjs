// app-files: the user's models persist in the browser, and .m files go in
// (picker, drag-and-drop) and out (download) unchanged.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as h from '../testlib/helpers.mjs';

let srv, browser, page;
const text = () => page.evaluate(() => window.locus.editor.getText());
const filename = () => page.locator('[data-testid=filename]').textContent();
const saved = () => page.waitForFunction(() => document.querySelector('[data-testid=save-status]')?.textContent === 'saved in this browser', null, { timeout: 20000 });

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

test('an edited example is saved and comes back after a reload', async () => {
  await h.pickExample(page, 'peterson.m');
  assert.match(await page.locator('[data-testid=save-status]').textContent(), /example/);
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n-- my note\n');
  await saved();
  const edited = await text();
  assert.match(edited, /-- my note/);
  assert.equal(await filename(), 'peterson.m');
  await page.reload();
  // (A loaded machine can take a minute to start the page again.)
  await page.locator('body[data-loaded=true]').waitFor({ state: 'attached', timeout: 180000 });
  assert.equal(await text(), edited);
  assert.equal(await filename(), 'peterson.m');
  assert.equal(await page.locator('[data-testid=save-status]').textContent(), 'saved in this browser');
  await h.screenshot(page, 'wide-files-restored');
});

test('text pasted over an example is a new model called untitled.m', async () => {
  await h.pickExample(page, 'broken-mutex.m');
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText('var x: boolean;\nstartstate begin x := false; end;\nrule "flip" true ==> begin x := !x; end;\n');
  await saved();
  assert.equal(await filename(), 'untitled.m');
  // The example is untouched: picking it again shows the shipped text.
  await h.pickExample(page, 'broken-mutex.m');
  assert.match(await text(), /A broken lock/);
});

test('a .m file opened with the picker comes back byte for byte from Download', async () => {
  const dir = h.tempDir('locus-files-');
  const src = '-- opened from disk: ünïcode ✓\nvar y: 0..3;\nstartstate begin y := 0; end;\nrule "up" y < 3 ==> begin y := y + 1; end;\n';
  const file = join(dir, 'counter.m');
  writeFileSync(file, src);
  const chooser = page.waitForEvent('filechooser');
  await page.locator('[data-testid=open-file]').click();
  await (await chooser).setFiles(file);
  await page.waitForFunction((want) => window.locus.editor.getText() === want, src);
  assert.equal(await filename(), 'counter.m');
  await saved();
  const download = page.waitForEvent('download');
  await page.locator('[data-testid=download]').click();
  const d = await download;
  assert.equal(d.suggestedFilename(), 'counter.m');
  const out = join(dir, 'out.m');
  await d.saveAs(out);
  assert.equal(readFileSync(out, 'utf8'), src);
});

test('a .m file dropped on the page opens as a model', async () => {
  const src = 'var z: boolean;\nstartstate begin z := true; end;\n';
  await page.evaluate((src) => {
    const dt = new DataTransfer();
    dt.items.add(new File([src], 'dropped.m', { type: 'text/plain' }));
    document.querySelector('[data-testid=editor]').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, src);
  await page.waitForFunction((want) => window.locus.editor.getText() === want, src);
  assert.equal(await filename(), 'dropped.m');
});

test('my models: new, rename, duplicate, delete', async () => {
  await page.locator('[data-testid=files]').click();
  const names = () => page.locator('[data-testid=files-list] li').evaluateAll((ls) => ls.map((l) => l.dataset.name));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=files-list] li').length >= 3);
  const before = await names();
  for (const n of ['peterson.m', 'untitled.m', 'counter.m', 'dropped.m']) assert.ok(before.includes(n), `${n} in ${before}`);

  const item = (name) => page.locator(`[data-testid=files-list] li[data-name="${name}"]`);
  await item('counter.m').getByRole('button', { name: 'Rename counter.m' }).click();
  const box = page.getByRole('textbox', { name: 'New name for counter.m' });
  await box.fill('steps');
  await box.press('Enter');
  await page.waitForFunction(() => !!document.querySelector('[data-testid=files-list] li[data-name="steps.m"]'));
  await item('steps.m').getByRole('button', { name: 'Duplicate steps.m' }).click();
  await page.waitForFunction(() => !!document.querySelector('[data-testid=files-list] li[data-name="steps-copy.m"]'));
  await item('steps-copy.m').getByRole('button', { name: 'Delete steps-copy.m' }).click();
  await page.waitForFunction(() => !document.querySelector('[data-testid=files-list] li[data-name="steps-copy.m"]'));
  await h.screenshot(page, 'wide-files-list');
  await item('steps.m').getByRole('button', { name: 'Open steps.m' }).click();
  await page.waitForFunction(() => window.locus.editor.getText().includes('opened from disk'));
  assert.equal(await filename(), 'steps.m');

  await page.locator('[data-testid=files]').click();
  await page.locator('[data-testid=files-new]').click();
  assert.equal(await text(), '');
  assert.match(await filename(), /^untitled(-\d+)?\.m$/);
});
