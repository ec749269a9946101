// app-load: a first visit downloads every file once, at most 3 MB
// compressed, and a repeat visit nothing (the service worker has it all).
// Prints click-to-verdict times of the small shipped examples (measured on
// the page; not asserted, timing depends on the machine).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as h from '../testlib/helpers.mjs';
import { measureLoad, summarize } from '../bench/load.mjs';

test('a first visit fetches each file once, at most 3 MB; a repeat visit fetches nothing', async () => {
  h.requireBuild();
  const r = await measureLoad('public', { examples: ['peterson.m', 'broken-mutex.m'], runs: 3 });
  const cold = summarize(r.cold);
  console.log(`# first visit: ${cold.requests} requests, ${cold.total} bytes: ${cold.table.slice(0, 4).map((x) => `${x.path} ${x.bytes}`).join(', ')}, ...`);
  console.log(`# click to verdict (ms): ${JSON.stringify(r.clicks)}`);
  assert.deepEqual(cold.twice, [], 'no file is downloaded twice');
  assert.ok(cold.total <= 3_000_000, `first visit downloads ${cold.total} bytes`);
  assert.ok(!cold.table.some((x) => x.path === '/dist/graph-worker.js'), 'the graph library is not part of the first load');
  const warm = summarize(r.warm);
  assert.equal(warm.total, 0, `a repeat visit downloads nothing (${JSON.stringify(warm.table)})`);
});
