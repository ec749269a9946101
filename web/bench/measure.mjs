// measure.mjs: the same model, native CLI vs headless Chromium, back to back.
//
//   node web/bench/measure.mjs [MODEL.m] [--symmetry exact,heuristic] [--memory-mb 1024] [--algo auto] [--app-workers N]
//
// For each symmetry option it runs `bin/locus check --json` and then the web
// app (served by locus-serve, model given by share link), and prints states,
// rules fired, rules fired per second in each, their ratio, and how
// responsive the page stayed during the browser run: a setInterval timer on
// the page (every 20 ms) counts the ticks it was delivered against the ticks
// expected over the run's wall time. --app-workers picks N in the app's
// Workers menu (0: automatic, the default); "code" says what ran the model
// and on how many Workers. Needs the web build (scripts/web-build.sh).
//
//   node web/bench/measure.mjs MODEL.m --workers 1,2,4 [--transport shared,message] [--symmetry off] [--repeat 3]
//
// measures the engine alone instead: the page starts the engine Worker
// itself and posts the check (bfs, the given number of workers: the
// parallel search's parts run in Web Workers of their own, talking through
// SharedArrayBuffers when the page is cross-origin isolated, or through
// postMessage batches with --transport message), and the native CLI runs
// bfs with the same workers, back to back, --repeat times each. With
// --codegen, each one-worker check runs twice: on the compiled closures
// (the Worker's first message says {codegen: 'off'}) and in WebAssembly
// generated for the model (core/wasmgen) and compiled by the browser, the
// engine's default where the generator covers the model (code_gen says
// so; else the closures ran it, with a note). Without --codegen the
// one-worker check runs as the app would run it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import * as h from '../testlib/helpers.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : def;
};
const symmetries = opt('--symmetry', 'exact,heuristic').split(',');
const memoryMB = Number(opt('--memory-mb', '1024'));
// With --algo, both runs use that engine and the same memory budget; without
// it, the native run is an unbudgeted exact BFS (the reference).
const algo = opt('--algo', '');
const workersList = opt('--workers', '');
const appWorkers = opt('--app-workers', '');
const transports = opt('--transport', 'shared').split(',');
const repeat = Number(opt('--repeat', '1'));
const codegen = args.includes('--codegen');
if (codegen) args.splice(args.indexOf('--codegen'), 1);
const model = resolve(args[0] || resolve(h.root, '../shared/models/cmurphi/mux/n_peterson.m'));
const source = readFileSync(model, 'utf8');
const TICK_MS = 20;

// seconds parses the UI's duration format (see ui/format.go).
function seconds(text) {
  let m;
  if ((m = /^([\d.]+) ms$/.exec(text))) return Number(m[1]) / 1000;
  if ((m = /^([\d.]+) s$/.exec(text))) return Number(m[1]);
  if ((m = /^(\d+) min ([\d.]+) s$/.exec(text))) return Number(m[1]) * 60 + Number(m[2]);
  if ((m = /^(\d+) h (\d+) min$/.exec(text))) return Number(m[1]) * 3600 + Number(m[2]) * 60;
  throw new Error('unreadable duration ' + text);
}

// nativeRun runs the CLI and returns its JSON result and wall seconds.
function nativeRun(flags) {
  const t0 = process.hrtime.bigint();
  let out;
  try {
    out = execFileSync(resolve(h.root, 'bin/locus'), ['check', '--json', ...flags, model], { encoding: 'utf8', maxBuffer: 256 << 20 });
  } catch (e) {
    if (!e.stdout) throw e;
    out = e.stdout;
  }
  return { res: JSON.parse(out), wall: Number(process.hrtime.bigint() - t0) / 1e9 };
}

// engineRun posts one check to a fresh engine Worker started by the page
// and returns its result, wall seconds and whether the page was isolated.
async function engineRun(page, options, transport) {
  return page.evaluate(async ({ source, filename, options, transport }) => {
    const w = new Worker('worker.js' + (transport === 'message' ? '?transport=message' : ''));
    const t0 = performance.now();
    try {
      const result = await new Promise((resolve, reject) => {
        w.onmessage = (e) => {
          const m = JSON.parse(e.data);
          if (m.type === 'result') resolve(m.result);
          else if (m.type === 'error') reject(new Error(m.message));
        };
        w.onerror = (e) => reject(new Error(e.message));
        // No compiled module: the Worker fetches engine.wasm.
        w.postMessage({ module: null, codegen: transport === 'closures' ? 'off' : '' });
        w.postMessage(JSON.stringify({ type: 'check', id: 1, filename, source, options }));
      });
      return { result, wall: (performance.now() - t0) / 1000, isolated: self.crossOriginIsolated };
    } finally {
      w.terminate();
    }
  }, { source, filename: basename(model), options, transport });
}

h.requireBuild();
execFileSync('go', ['build', '-o', 'bin/locus', './cmd/locus'], { cwd: h.root, stdio: 'inherit' });
const srv = await h.startServer();
const browser = await h.launch();
const rows = [];
if (workersList) {
  try {
    const page = await browser.context.newPage();
    await page.goto(srv.url);
    for (const sym of symmetries) {
      for (let k = 0; k < repeat; k++) {
        for (const n of workersList.split(',').map(Number)) {
          const flags = ['--algo', 'bfs', '--workers', String(n), '--symmetry', sym, '--trace', 'none'];
          const nat = nativeRun(flags);
          for (const transport of n > 1 ? transports : codegen ? ['closures', '-'] : ['-']) {
            const options = { algorithm: 'bfs', symmetry: sym, memory_bytes: memoryMB << 20, workers: n, trace: 'none' };
            const b = await engineRun(page, options, transport);
            rows.push({
              symmetry: sym,
              workers: n,
              transport: n > 1 ? (b.isolated && transport === 'shared' ? 'SharedArrayBuffer' : 'postMessage') : '-',
              code_gen: b.result.code_gen || '',
              same: nat.res.verdict === b.result.verdict && nat.res.states === b.result.states && nat.res.rules_fired === b.result.rules_fired,
              states: b.result.states,
              rules_fired: b.result.rules_fired,
              native_s: +nat.res.seconds.toFixed(2),
              native_code_gen: nat.res.code_gen || '', // the CLI's default builds the model's program beside its closures
              native_wall_s: +nat.wall.toFixed(2),
              browser_s: +b.result.seconds.toFixed(2),
              browser_wall_s: +b.wall.toFixed(2),
              browser_rules_per_s: Math.round(b.result.rules_fired / b.result.seconds),
              browser_vs_native: +(nat.res.seconds / b.result.seconds).toFixed(2),
            });
            console.log(JSON.stringify(rows[rows.length - 1]));
          }
        }
      }
    }
  } finally {
    await browser.close();
    await srv.stop();
  }
  console.table(rows);
  process.exit(0);
}
try {
  for (const sym of symmetries) {
    const t0 = process.hrtime.bigint();
    let out;
    try {
      const extra = algo ? ['--algo', algo, '-m', `${memoryMB}M`] : [];
      out = execFileSync(resolve(h.root, 'bin/locus'), ['check', '--json', '--symmetry', sym, ...extra, model], { encoding: 'utf8', maxBuffer: 256 << 20 });
    } catch (e) {
      if (!e.stdout) throw e;
      out = e.stdout;
    }
    const nativeWall = Number(process.hrtime.bigint() - t0) / 1e9;
    const native = JSON.parse(out);

    const page = await browser.context.newPage();
    const params = { f: basename(model), sym, mem: String(memoryMB) };
    if (algo) params.a = algo;
    await h.openApp(page, srv.url + h.shareFragment(source, params));
    await page.waitForFunction((want) => window.locus.editor.getText() === want, source);
    if (appWorkers) await page.locator('[data-testid=opt-workers]').selectOption(appWorkers);
    await page.evaluate((ms) => { window.ticks = 0; window.tickTimer = setInterval(() => window.ticks++, ms); }, TICK_MS);
    await page.evaluate(() => { window.t0 = performance.now(); window.ticks = 0; });
    await page.locator('[data-testid=run]').click();
    await page.locator('[data-testid=verdict-panel]:not([hidden])').waitFor({ timeout: 3600_000 });
    const { ticks, wall } = await page.evaluate(() => ({ ticks: window.ticks, wall: (performance.now() - window.t0) / 1000 }));
    await page.evaluate(() => clearInterval(window.tickTimer));
    const verdict = (await page.locator('[data-testid=verdict]').textContent()).trim();
    const states = await h.statNumber(page, 'states');
    const rules = await h.statNumber(page, 'rules');
    const secs = seconds((await page.locator('[data-testid=stat-time] dd').textContent()).trim());
    const code = (await page.locator('[data-testid=stat-code] dd').textContent()).trim();
    await h.screenshot(page, `measure-${sym}`);
    await page.close();

    const nativeRate = native.rules_fired / native.seconds;
    const nativeStates = native.states ?? native.states_estimate;
    const browserRate = rules / secs;
    rows.push({
      symmetry: sym,
      verdict: `${native.verdict} / ${verdict}`,
      states: `${nativeStates} / ${states}`,
      same: native.verdict === verdict && nativeStates === states && native.rules_fired === rules,
      rules_fired: rules,
      native_s: +native.seconds.toFixed(2),
      native_wall_s: +nativeWall.toFixed(2),
      browser_s: +secs.toFixed(2),
      browser_wall_s: +wall.toFixed(2),
      native_rules_per_s: Math.round(nativeRate),
      browser_rules_per_s: Math.round(browserRate),
      browser_vs_native: +(browserRate / nativeRate).toFixed(2),
      ticks_delivered: ticks,
      ticks_expected: Math.floor((wall * 1000) / TICK_MS),
      responsiveness: +(ticks / Math.max(1, Math.floor((wall * 1000) / TICK_MS))).toFixed(2),
      code,
    });
  }
} finally {
  await browser.close();
  await srv.stop();
}
console.table(rows);
console.log(JSON.stringify(rows, null, 2));
