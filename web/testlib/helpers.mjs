// helpers.mjs: shared setup for the browser tests (web/test/app-*.test.mjs):
// the site server, headless Chromium, and the native CLI to compare with.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { before, after } from 'node:test';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const chromiumPath = '/usr/bin/chromium';
export const screenshotDir = join(root, 'test-output', 'screenshots');

// The flags STACK-NOTES.md prescribes; without the background-networking
// ones Chromium's connections are refused by the closed network.
export const chromiumArgs = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

// requireBuild fails (never skips) when the browser or the built site is missing.
export function requireBuild() {
  if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} is missing: apt-get install -y chromium chromium-driver`);
  for (const f of ['index.html', 'locus-ui.wasm', 'engine.wasm', 'wasm_exec.js', 'dist/app.js', 'sw.js', 'examples/index.json']) {
    if (!existsSync(join(root, 'public', f))) throw new Error(`public/${f} is missing: run scripts/web-build.sh`);
  }
}

// startServer builds and starts locus-serve on a free port, serving dir;
// with log set, it appends "status bytes path" per request to that file.
export async function startServer(dir = 'public', { log = '' } = {}) {
  mkdirSync(join(root, 'bin'), { recursive: true });
  execFileSync('go', ['build', '-o', 'bin/locus-serve', './cmd/locus-serve'], { cwd: root, stdio: 'inherit' });
  const args = ['-dir', dir, '-addr', '127.0.0.1:0'];
  if (log) args.push('-log', log);
  const proc = spawn(join(root, 'bin', 'locus-serve'), args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /http:\/\/localhost:(\d+)\//.exec(out);
      if (m) resolve(`http://localhost:${m[1]}/`);
    });
    proc.on('exit', (code) => reject(new Error(`locus-serve exited with ${code}: ${out}`)));
  });
  return { url, stop: () => new Promise((r) => { proc.once('exit', r); proc.kill(); }) };
}

// launch starts Chromium with a fresh user-data-dir and returns its context.
export async function launch({ width = 1280, height = 800, serviceWorkers = 'allow' } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'locus-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
    viewport: { width, height },
    serviceWorkers,
  });
  const close = async () => {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { context, close };
}

// serveAndLaunch starts the site's server and a browser before a test
// file's tests and stops them after; the returned object's srv and browser
// are set once before() has run.
export function serveAndLaunch() {
  const app = { srv: null, browser: null };
  before(async () => {
    requireBuild();
    app.srv = await startServer();
    app.browser = await launch();
  });
  after(async () => {
    await app.browser?.close();
    await app.srv?.stop();
  });
  return app;
}

// tempDir makes a directory under the system's temporary one that is
// removed when the test process exits, however its tests end.
const tempDirs = [];
export function tempDir(prefix) {
  if (tempDirs.length === 0) {
    process.on('exit', () => tempDirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  }
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

// openApp opens the app and waits until the UI has rendered and loaded the examples.
export async function openApp(page, url) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.locator('[data-testid=examples] option[value$=".m"]').first().waitFor({ state: 'attached', timeout: 60000 });
  // The first model (a share link's, the last one edited, or the first
  // example) is in the editor.
  await page.locator('body[data-loaded=true]').waitFor({ state: 'attached', timeout: 60000 });
  return errors;
}

export async function pickExample(page, file) {
  await page.locator('[data-testid=examples]').selectOption(file);
  await page.waitForFunction((f) => document.querySelector('[data-testid=filename]')?.textContent === f, file);
}

// run starts a check (by the Run button, or by pressing keys such as
// 'Control+Enter') and waits for the verdict of that new run.
export async function run(page, { timeout = 120000, keys = '' } = {}) {
  const before = await page.locator('[data-testid=verdict-panel]').getAttribute('data-run');
  if (keys) await page.keyboard.press(keys);
  else await page.locator('[data-testid=run]').click();
  await page.waitForFunction((old) => {
    const p = document.querySelector('[data-testid=verdict-panel]');
    return p && !p.hidden && p.dataset.run !== old;
  }, before, { timeout });
  return (await page.locator('[data-testid=verdict]').textContent()).trim();
}

// statNumber reads a verdict statistic such as "stat-states" as a number.
export async function statNumber(page, key) {
  const text = await page.locator(`[data-testid=stat-${key}] dd`).textContent();
  return Number(text.replace(/,/g, ''));
}

// nativeCheck runs the native CLI on a model and returns its JSON result.
export function nativeCheck(file, flags = [], cwd = root) {
  return JSON.parse(nativeText(file, ['--json', ...flags], cwd));
}

// nativeText runs the native CLI on a model and returns what it prints.
// The compiled closures run it unless flags ask for generated code: by
// default the CLI builds the model's program beside them, and which is
// done first would change the notes and the time from run to run.
export function nativeText(file, flags = [], cwd = root) {
  execFileSync('go', ['build', '-o', 'bin/locus', './cmd/locus'], { cwd: root, stdio: 'inherit' });
  const env = { ...process.env, LOCUS_CODEGEN: 'off' };
  try {
    return execFileSync(join(root, 'bin', 'locus'), ['check', ...flags, file], { cwd, env, encoding: 'utf8', maxBuffer: 256 << 20 });
  } catch (e) {
    // locus exits non-zero for fail verdicts; its output is still on stdout.
    if (!e.stdout) throw e;
    return e.stdout;
  }
}

// stateRows returns the rows of a state view ("run", "sim" or "graph")
// that are in the DOM: {name, value, previous, changed}.
export function stateRows(page, key) {
  return page.evaluate((k) => window.locus.stateview.rows(k), key);
}

// typeModel replaces the editor's text as a user would (select all, type).
export async function typeModel(page, text) {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

// shareFragment encodes a model as a share link fragment, independently of the
// app's own Go encoder: raw DEFLATE, base64url.
export function shareFragment(source, params = {}) {
  const m = deflateRawSync(Buffer.from(source)).toString('base64url');
  return '#m=' + m + Object.entries(params).map(([k, v]) => `&${k}=${encodeURIComponent(v)}`).join('');
}

export async function screenshot(page, name) {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, name + '.png'), fullPage: false });
}

// rendererCPU returns the CPU time (ms) the main threads of the browser's
// renderer processes have used so far (Linux /proc): the page's own work,
// whatever else the machine is doing.
export function rendererCPU() {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('--type=renderer')) continue;
      const f = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      total += (Number(f[11]) + Number(f[12])) * 10; // utime + stime, in 10 ms ticks
    } catch { /* the process ended */ }
  }
  return total;
}
