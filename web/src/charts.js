// charts.js: the live progress charts (uPlot), driven from the Go UI through
// window.locus.charts. The Go side pushes one sample per progress message
// (about ten a second); the charts keep the data and redraw at most twice a
// second, thinning old samples so a long run stays cheap.
//
// The charts: states and queue over time ("time"), new states per BFS level
// ("levels"), memory against the budget ("memory"), disk I/O rates and the
// bytes on disk ("disk"), the disk cloud per table check of a disk-based
// search ("cloud"), and a cache's collision rate ("collisions").
import uPlot from 'uplot';

const REDRAW_MS = 500;
const MAX_POINTS = 2000;

function compact(n) {
  const a = Math.abs(n);
  if (a >= 1e9) return (n / 1e9).toFixed(a >= 1e10 ? 0 : 1) + 'G';
  if (a >= 1e6) return (n / 1e6).toFixed(a >= 1e7 ? 0 : 1) + 'M';
  if (a >= 1e3) return (n / 1e3).toFixed(a >= 1e4 ? 0 : 1) + 'k';
  return String(Math.round(n * 100) / 100);
}

// bytes writes a byte count in binary units, as the Go UI's rows do.
function bytes(n) {
  const a = Math.abs(n);
  if (a >= 2 ** 30) return (n / 2 ** 30).toFixed(1) + ' GiB';
  if (a >= 2 ** 20) return (n / 2 ** 20).toFixed(1) + ' MiB';
  if (a >= 2 ** 10) return (n / 2 ** 10).toFixed(1) + ' KiB';
  return Math.round(n) + ' B';
}
const percent = (n) => Math.round(n * 1000) / 10 + '%';

const ticks = (f) => (u, vals) => vals.map((v) => (v == null ? '' : f(v)));
const value = (f) => (u, v) => (v == null ? '' : f(v));

// The axes and grid take the page's ink and line colours (app.css), so the
// charts follow the page's colour scheme.
function ink() {
  const s = getComputedStyle(document.documentElement);
  return {
    ink: s.getPropertyValue('--muted').trim() || '#545d68',
    line: s.getPropertyValue('--line').trim() || '#d5dae0',
  };
}

function axis(extra) {
  const c = ink();
  return { stroke: c.ink, grid: { stroke: c.line, width: 1 }, ticks: { stroke: c.line, width: 1 }, ...extra };
}

const noLine = () => null;
// wholeSteps are tick spacings for counts (no half a block).
const wholeSteps = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 1e7, 1e8, 1e9];

// specs lists each chart: its series (after x) and axes, and how many data
// columns it keeps. Series colours keep a 3:1 contrast on the white card.
const specs = {
  time: {
    columns: 3,
    series: [
      { label: 's' },
      { label: 'states', stroke: '#2563eb', width: 2, scale: 'states', value: value(compact) },
      { label: 'queued', stroke: '#d97706', width: 2, scale: 'queue', value: value(compact) },
    ],
    axes: () => [
      axis({ label: 'seconds', size: 36 }),
      axis({ scale: 'states', values: ticks(compact), size: 50 }),
      axis({ scale: 'queue', side: 1, values: ticks(compact), size: 50, grid: { show: false } }),
    ],
  },
  levels: {
    columns: 2,
    series: [
      { label: 'level' },
      {
        label: 'new states per BFS level', stroke: '#059669', fill: 'rgba(5,150,105,0.35)',
        paths: uPlot.paths.bars({ size: [0.8, 40] }), points: { show: false }, value: value(compact),
      },
    ],
    axes: () => [axis({ label: 'BFS level', size: 36 }), axis({ values: ticks(compact), size: 50 })],
  },
  memory: {
    columns: 4,
    series: [
      { label: 's' },
      { label: 'used', stroke: '#2563eb', width: 2, fill: 'rgba(37,99,235,0.12)', value: value(bytes) },
      { label: 'peak', stroke: '#7c3aed', width: 1, value: value(bytes) },
      { label: 'budget', stroke: '#b91c1c', width: 2, dash: [6, 4], points: { show: false }, value: value(bytes) },
    ],
    scales: { y: { range: (u, min, max) => [0, max > 0 ? max * 1.05 : 1] } },
    axes: () => [axis({ label: 'seconds', size: 36 }), axis({ values: ticks(bytes), size: 70 })],
  },
  disk: {
    columns: 4,
    series: [
      { label: 's' },
      { label: 'write rate', stroke: '#c2410c', width: 2, scale: 'rate', value: value((v) => bytes(v) + '/s') },
      { label: 'read rate', stroke: '#0369a1', width: 2, scale: 'rate', value: value((v) => bytes(v) + '/s') },
      { label: 'on disk', stroke: '#4b5563', width: 2, dash: [4, 3], scale: 'bytes', value: value(bytes) },
    ],
    scales: { rate: { range: (u, min, max) => [0, max > 0 ? max * 1.05 : 1] }, bytes: { range: (u, min, max) => [0, max > 0 ? max * 1.05 : 1] } },
    axes: () => [
      axis({ label: 'seconds', size: 36 }),
      axis({ scale: 'rate', values: ticks((v) => bytes(v) + '/s'), size: 96 }),
      axis({ scale: 'bytes', side: 1, values: ticks(bytes), size: 80, grid: { show: false } }),
    ],
  },
  cloud: {
    columns: 4,
    series: [
      { label: 'check' },
      { label: "D's blocks", stroke: '#4b5563', width: 2, value: value(compact) },
      { label: 'blocks read (the disk cloud)', stroke: '#059669', width: 2, fill: 'rgba(5,150,105,0.2)', value: value(compact) },
      {
        label: 'calibration (reads all of D)', stroke: '#b91c1c', width: 0, paths: noLine,
        points: { show: true, size: 7, fill: '#b91c1c' }, value: value(compact),
      },
    ],
    scales: { y: { range: (u, min, max) => [0, max > 0 ? max * 1.05 : 1] } },
    axes: () => [axis({ label: 'table check', size: 36, incrs: wholeSteps }), axis({ label: 'blocks', values: ticks(compact), size: 60, incrs: wholeSteps })],
  },
  collisions: {
    columns: 4,
    series: [
      { label: 's' },
      { label: 'collision rate', stroke: '#b91c1c', width: 2, value: value((v) => v.toFixed(3)) },
      { label: 'cache filled', stroke: '#2563eb', width: 2, value: value(percent) },
      { label: 'omission estimate (PomIs)', stroke: '#7c3aed', width: 2, value: value((v) => v.toPrecision(3)) },
    ],
    scales: { y: { range: [0, 1] } },
    axes: () => [axis({ label: 'seconds', size: 36 }), axis({ values: ticks(percent), size: 50 })],
  },
};

const empty = (name) => Array.from({ length: specs[name].columns }, () => []);

const plots = {}; // name -> uPlot
const hosts = {}; // name -> host element
const data = {};  // name -> columns
for (const name of Object.keys(specs)) data[name] = empty(name);
let timer = 0;
let observer = null;

function size(host) {
  const w = Math.max(host.clientWidth, 200);
  return { width: w, height: Math.max(Math.min(Math.round(w * 0.42), 180), 120) };
}

function make(name, host) {
  const s = specs[name];
  return new uPlot({
    ...size(host),
    legend: { show: true, live: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: false }, ...(s.scales || {}) },
    series: s.series,
    axes: s.axes(),
  }, data[name], host);
}

function redrawSoon() {
  if (!timer) timer = setTimeout(redraw, REDRAW_MS);
}

function redraw() {
  timer = 0;
  for (const [name, p] of Object.entries(plots)) p.setData(data[name]);
}

// add appends one row to chart name, thinning it to half (keeping the
// newest) when it grows past MAX_POINTS.
function add(name, row) {
  let cols = data[name];
  row.forEach((v, i) => cols[i].push(v));
  if (cols[0].length > MAX_POINTS) {
    data[name] = cols = cols.map((c) => c.filter((_, i) => i % 2 === 0 || i === c.length - 1));
  }
  redrawSoon();
}

// cloudRow is a table check's row: its number, D's blocks, the blocks read
// and, at a calibration, a marker at the blocks read.
const cloudRow = (c) => [c.check, c.blocks, c.read, c.calibrate ? c.read : null];

export const charts = {
  // attach (re)places the chart named which into host.
  attach(which, host) {
    if (!specs[which]) throw new Error('no chart named ' + which);
    if (!plots[which]) plots[which] = make(which, host);
    const plot = plots[which];
    if (plot.root.parentNode !== host) host.replaceChildren(plot.root);
    if (hosts[which] === host) return;
    hosts[which] = host;
    if (!observer) {
      observer = new ResizeObserver((entries) => {
        for (const e of entries) {
          const name = Object.keys(hosts).find((n) => hosts[n] === e.target);
          if (name && e.target.clientWidth) plots[name].setSize(size(e.target));
        }
      });
    }
    observer.observe(host);
  },
  reset() {
    for (const name of Object.keys(specs)) data[name] = empty(name);
    redraw();
  },
  push(seconds, states, queued) {
    add('time', [seconds, states, queued]);
  },
  // points adds one sample's points, a JSON object with any of memory,
  // disk, cloud and collision (ui/chart-feed.go).
  points(json) {
    const p = JSON.parse(json);
    if (p.memory) add('memory', [p.memory.s, p.memory.used, p.memory.peak, p.memory.budget || null]);
    if (p.disk) add('disk', [p.disk.s, p.disk.write, p.disk.read, p.disk.on_disk]);
    if (p.cloud) add('cloud', cloudRow(p.cloud));
    if (p.collision) add('collisions', [p.collision.s, p.collision.rate, p.collision.fill, p.collision.pomis || null]);
  },
  // setCloud replaces the disk cloud's points with a JSON array of checks
  // (the result's history).
  setCloud(json) {
    const rows = (JSON.parse(json) || []).map(cloudRow);
    data.cloud = [0, 1, 2, 3].map((i) => rows.map((r) => r[i]));
    redrawSoon();
  },
  // setLevels replaces the per-level counts with a JSON array of numbers.
  setLevels(json) {
    const sizes = JSON.parse(json) || [];
    data.levels = [sizes.map((_, i) => i), sizes];
    redrawSoon();
  },
  // last returns the newest row chart which shows, or null (for tests).
  last(which) {
    const d = plots[which]?.data;
    return d && d[0].length ? d.map((c) => c[c.length - 1]) : null;
  },
  // drawn returns the number of points chart which shows (for tests).
  drawn(which) {
    return plots[which] ? plots[which].data[0].length : 0;
  },
};
