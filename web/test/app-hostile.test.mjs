// app-hostile: the engine Worker under hostile models. Runaway recursion
// and nesting at the front end's limit run to a verdict in Chromium's
// Worker (whose stack is much smaller than a native one), and every kind
// of engine crash ends the run in the page with an error verdict and the
// reason, never "Running…" forever.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as h from '../testlib/helpers.mjs';

const rep = (s, n) => s.repeat(n);

// Each shape nests one construct n levels deep; deepest is the most that
// core/murphi.MaxNesting (500) lets through (parentheses, indexes and calls
// cost the parser three levels each).
const shapes = [
  { name: 'chain of +', deepest: 497, model: (n) => `var x: 0..1;\nstartstate begin x := 0; end;\nrule begin x := x${rep(' + 0', n)}; end;\n` },
  { name: 'chain of &', deepest: 497, model: (n) => `var b: boolean;\nstartstate begin b := true; end;\nrule begin b := b${rep(' & b', n)}; end;\n` },
  { name: 'chain of ->', deepest: 495, model: (n) => `var b: boolean;\nstartstate begin b := true; end;\nrule begin b := ${rep('b -> ', n)}b; end;\n` },
  { name: 'parentheses', deepest: 165, model: (n) => `var x: 0..1;\nstartstate begin x := 0; end;\nrule begin x := ${rep('(', n)}x${rep(')', n)}; end;\n` },
  { name: 'unary minus', deepest: 494, model: (n) => `var x: -1..1;\nstartstate begin x := 0; end;\nrule begin x := ${rep('- ', n)}x; end;\n` },
  { name: 'conditional', deepest: 495, model: (n) => `var x: 0..1;\nstartstate begin x := 0; end;\nrule begin x := ${rep('x = 0 ? 1 : ', n)}0; end;\n` },
  { name: 'index chain', deepest: 165, model: (n) => `var a: array[0..1] of 0..1;\nstartstate begin a[0] := 0; a[1] := 0; end;\nrule begin a[0] := ${rep('a[', n)}0${rep(']', n)}; end;\n` },
  { name: 'calls', deepest: 165, model: (n) => `var x: 0..1;\nfunction f(y: 0..1): 0..1; begin return y; end;\nstartstate begin x := 0; end;\nrule begin x := ${rep('f(', n)}x${rep(')', n)}; end;\n` },
  { name: 'if statements', deepest: 495, model: (n) => `var x: 0..1;\nstartstate begin x := 0; end;\nrule begin ${rep('if x = 0 then ', n)}x := 1;${rep(' endif;', n)} x := 0; end;\n` },
  { name: 'array types', deepest: 496, model: (n) => `var x: ${rep('array[0..0] of ', n)}boolean;\nstartstate begin clear x; end;\nrule begin clear x; end;\n` },
  { name: 'rulesets', deepest: 494, model: (n) => `var x: 0..1;\nstartstate begin x := 0; end;\n${rep('ruleset i: 0..0 do ', n)}rule begin x := 1 - x; end;${rep(' end;', n)}\n` },
];

// recursion calls f(depth) = depth, whose recursive call sits under nest
// levels of expression.
const recursion = (depth, nest = 0) => `type t: 0..${depth};
var x: t;
function f(n: t): t;
begin
  if n = 0 then return 0; endif;
  return 1 + ${rep('(0 + ', nest)}f(n - 1)${rep(')', nest)};
end;
startstate begin x := 0; end;
rule "probe" x = 0 ==> begin x := f(${depth}); end;
rule "back" x != 0 ==> begin x := 0; end;
`;

// checkInWorker runs models one after another in one engine Worker, as the
// page does, and returns each outcome.
async function checkInWorker(page, jobs) {
  return page.evaluate(async (jobs) => {
    const w = new Worker('worker.js');
    let settle;
    w.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type === 'result' || m.type === 'error') settle(m);
    };
    w.onerror = (e) => settle({ type: 'error', message: 'Worker error event: ' + e.message });
    const out = [];
    for (const [i, job] of jobs.entries()) {
      const answer = new Promise((resolve) => { settle = resolve; });
      w.postMessage(JSON.stringify({ type: 'check', id: i + 1, filename: 'hostile.m', source: job.source, options: { memory_bytes: 256 << 20, deadlock: 'off' } }));
      const timeout = new Promise((resolve) => setTimeout(() => resolve({ type: 'timeout' }), 120000));
      const m = await Promise.race([answer, timeout]);
      out.push({ name: job.name, type: m.type, verdict: m.result?.verdict, kind: m.result?.violation?.kind, reason: m.result?.reason || m.message || '' });
      if (m.type !== 'result') break; // the Worker is gone
    }
    w.terminate();
    return out;
  }, jobs);
}

let srv, crashSrv, crashDir, browser;

before(async () => {
  h.requireBuild();
  srv = await h.startServer();
  // The same site with an engine that crashes on request (the model's
  // "-- crash: KIND" line; see wasm/worker/crash_hook.go).
  crashDir = mkdtempSync(join(tmpdir(), 'locus-crash-site-'));
  cpSync(join(h.root, 'public'), crashDir, { recursive: true });
  rmSync(join(crashDir, 'engine.wasm.gz'), { force: true });
  execFileSync('go', ['build', '-tags', 'locustestcrash', '-trimpath', '-o', join(crashDir, 'engine.wasm'), './wasm/worker'],
    { cwd: h.root, env: { ...process.env, GOOS: 'js', GOARCH: 'wasm' }, stdio: 'inherit' });
  crashSrv = await h.startServer(crashDir);
  browser = await h.launch();
});

after(async () => {
  await browser?.close();
  await srv?.stop();
  await crashSrv?.stop();
  if (crashDir) rmSync(crashDir, { recursive: true, force: true });
});

test('runaway and deep recursion end with a verdict in the page, not a dead Worker', async () => {
  const page = await browser.context.newPage();
  for (const [model, want] of [
    // Before, a recursion a few thousand calls deep killed the Worker.
    [recursion(9000), { verdict: 'pass' }],
    [recursion(20000), { verdict: 'fail', kind: 'recursion-limit' }],
    // A recursive call deep inside an expression.
    [recursion(1500, 100), { verdict: 'pass' }],
  ]) {
    await h.openApp(page, srv.url + h.shareFragment(model, { f: 'recursion.m', mem: '256' }));
    await page.waitForFunction((want) => window.locus.editor.getText() === want, model);
    assert.equal(await h.run(page), want.verdict);
    if (want.kind) {
      assert.match(await page.locator('[data-testid=verdict-panel]').textContent(), /calls nested more than 10000 deep/i);
    }
    assert.equal(await page.locator('[data-testid=run]').textContent(), 'Run');
  }
  await page.close();
});

test('nesting at the front end\'s limit runs in one Worker after its stack has grown', async () => {
  const page = await browser.context.newPage();
  await h.openApp(page, srv.url);
  // The deep recursion first: the engine goroutine's stack then stays
  // large, so later runs get no help from stack growth (which unwinds the
  // Worker's call stack): the worst case for the front end's recursion.
  const jobs = [{ name: 'recursion 10000 calls deep', source: recursion(9999) }];
  for (const s of shapes) jobs.push({ name: s.name, source: s.model(s.deepest) });
  // The checker runs this type bound's 1000 nested calls (its limit).
  jobs.push({ name: 'recursion 1000 deep in a type bound', source: `function r(n: 0..999): 0..999; begin if n = 0 then return 0; endif; return r(n - 1) + 1; end;
type t: 0 .. r(999);
var x: t;
startstate begin x := 0; end;
rule begin x := (x + 1) % 1000; end;
` });
  for (const s of shapes) jobs.push({ name: s.name + ' past the limit', source: s.model(s.deepest + 10) });
  const out = await checkInWorker(page, jobs);
  assert.equal(out.length, jobs.length, `the Worker died: ${JSON.stringify(out.at(-1))}`);
  for (const r of out) {
    const past = r.name.endsWith('past the limit');
    assert.equal(r.type, 'result', `${r.name}: ${r.type} ${r.reason}`);
    assert.equal(r.verdict, past ? 'rejected' : 'pass', `${r.name}: ${r.verdict} ${r.reason}`);
  }
  await page.close();
});

test('every kind of engine crash ends the run with an error verdict and the reason', async () => {
  const page = await browser.context.newPage();
  for (const [kind, reason] of [
    ['recursion', /RangeError: Maximum call stack size exceeded/],
    ['trap', /RuntimeError: memory access out of bounds/],
    ['panic', /internal error in the engine: a test panic/],
    ['goroutine', /panic: a test panic in a goroutine/],
  ]) {
    const model = `var x: boolean;\nstartstate begin x := true; end;\nrule begin x := !x; end;\n-- crash: ${kind}\n`;
    await h.openApp(page, crashSrv.url + h.shareFragment(model, { f: 'crash.m', mem: '256' }));
    await page.waitForFunction((want) => window.locus.editor.getText() === want, model);
    assert.equal(await h.run(page, { timeout: 60000 }), 'error', kind);
    const text = await page.locator('[data-testid=verdict-text]').textContent();
    assert.match(text, reason, kind);
    assert.match(text, /bug in Locus/, kind);
    assert.equal(await page.locator('[data-testid=run]').textContent(), 'Run', `${kind}: the page still says it is running`);
    if (kind === 'recursion') await h.screenshot(page, 'wide-hostile-crash');
  }
  await page.close();
});
