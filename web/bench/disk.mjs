// disk.mjs: a disk-based search in the web app against the in-browser exact
// run, on OPFS or on IndexedDB (OPFS hidden from the engine).
//
//   node web/bench/disk.mjs [--n 9] [--algo ldbfs] [--memory-mb 32] [--storage opfs|indexeddb]
//                           [--exact-mb 1024] [--no-exact]
//
// It copies ../shared/models/cmurphi/mux/n_peterson.m with N set, runs the
// native CLI's exact BFS for the reference counts, then in headless Chromium
// the exact run (bfs, --exact-mb) and the disk run (--algo under --memory-mb),
// and prints verdicts, counts, in-browser times, their ratio and the disk
// figures. Needs the web build (scripts/web-build.sh).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as h from '../testlib/helpers.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : def;
};
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? (args.splice(i, 1), true) : false;
};
const n = Number(opt('--n', '9'));
const algo = opt('--algo', 'ldbfs');
const memoryMB = opt('--memory-mb', '32');
const storage = opt('--storage', 'opfs');
const exactMB = opt('--exact-mb', '1024');
const noExact = flag('--no-exact');

// seconds parses the UI's duration format (see ui/format.go).
function seconds(text) {
  let m;
  if ((m = /^([\d.]+) ms$/.exec(text))) return Number(m[1]) / 1000;
  if ((m = /^([\d.]+) s$/.exec(text))) return Number(m[1]);
  if ((m = /^(\d+) min ([\d.]+) s$/.exec(text))) return Number(m[1]) * 60 + Number(m[2]);
  if ((m = /^(\d+) h (\d+) min$/.exec(text))) return Number(m[1]) * 3600 + Number(m[2]) * 60;
  throw new Error('unreadable duration ' + text);
}

const source = readFileSync(join(h.root, '..', 'shared', 'models', 'cmurphi', 'mux', 'n_peterson.m'), 'utf8')
  .replace(/^(\s*N\s*:\s*)\d+/m, `$1${n}`);
const file = join(mkdtempSync(join(tmpdir(), 'locus-disk-bench-')), `np${n}.m`);
writeFileSync(file, source);

h.requireBuild();
execFileSync('go', ['build', '-o', 'bin/locus', './cmd/locus'], { cwd: h.root, stdio: 'inherit' });
const native = JSON.parse(execFileSync(resolve(h.root, 'bin/locus'), ['check', '--json', file], { encoding: 'utf8', maxBuffer: 256 << 20 }));
console.log(`# native exact: ${native.verdict} ${native.states} states ${native.rules_fired} rules in ${native.seconds.toFixed(1)} s`);

const srv = await h.startServer();
const browser = await h.launch();

async function browserRun(a, mem) {
  const page = await browser.context.newPage();
  if (storage === 'indexeddb') await page.addInitScript(() => localStorage.setItem('locus-storage', 'indexeddb'));
  await h.openApp(page, srv.url + h.shareFragment(source, { f: `np${n}.m`, a, mem }));
  await page.waitForFunction((want) => window.locus.editor.getText() === want, source);
  const t0 = Date.now();
  const verdict = await h.run(page, { timeout: 4 * 3600_000 });
  const wall = (Date.now() - t0) / 1000;
  const stat = async (k) => ((await page.locator(`[data-testid=stat-${k}] dd`).count()) ? (await page.locator(`[data-testid=stat-${k}] dd`).textContent()).trim() : '');
  const row = {
    algo: a, memory_mb: Number(mem), storage: a === 'bfs' ? '-' : (await page.locator('.progress .storage').textContent()).trim(),
    verdict, states: await h.statNumber(page, 'states'), rules: await h.statNumber(page, 'rules'),
    seconds: seconds(await stat('time')), wall_s: +wall.toFixed(1), peak: await stat('memory'), disk: await stat('disk'),
    same_as_native: false,
  };
  row.same_as_native = row.verdict === native.verdict && row.states === native.states && row.rules === native.rules_fired;
  await h.screenshot(page, `disk-bench-${a}-${storage}-n${n}`);
  await page.close();
  return row;
}

const rows = [];
try {
  if (!noExact) rows.push(await browserRun('bfs', exactMB));
  rows.push(await browserRun(algo, memoryMB));
} finally {
  await browser.close();
  await srv.stop();
}
if (rows.length === 2) console.log(`# ${algo} / exact in-browser time: ${(rows[1].seconds / rows[0].seconds).toFixed(2)}x`);
console.table(rows);
console.log(JSON.stringify(rows));
