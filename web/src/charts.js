// charts.js: the live progress charts (uPlot), driven from the Go UI through
// window.locus.charts. The Go side pushes one sample per progress message
// (about ten a second); the charts keep the data and redraw at most five
// times a second, thinning old samples so a long run stays cheap.
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
const ticks = (u, vals) => vals.map(compact);

let time = null;   // uPlot: states and queue over time
let levels = null; // uPlot: states per BFS level
let hosts = [null, null];
let series = [[], [], []]; // seconds, states, queued
let levelData = [[], []];  // level, states
let timer = 0;
let observer = null;

function size(host) {
  const w = Math.max(host.clientWidth, 200);
  return { width: w, height: Math.max(Math.min(Math.round(w * 0.42), 180), 120) };
}

function makeTime(host) {
  return new uPlot({
    ...size(host),
    legend: { show: true, live: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: false } },
    series: [
      { label: 's' },
      { label: 'states', stroke: '#2563eb', width: 2, scale: 'states', value: (u, v) => v == null ? '' : compact(v) },
      { label: 'queued', stroke: '#d97706', width: 2, scale: 'queue', value: (u, v) => v == null ? '' : compact(v) },
    ],
    axes: [
      { label: 'seconds', size: 36 },
      { scale: 'states', values: ticks, size: 50, stroke: '#2563eb' },
      { scale: 'queue', side: 1, values: ticks, size: 50, stroke: '#d97706', grid: { show: false } },
    ],
  }, series, host);
}

function makeLevels(host) {
  return new uPlot({
    ...size(host),
    legend: { show: true, live: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: false } },
    series: [
      { label: 'level' },
      {
        label: 'new states per BFS level', stroke: '#059669', fill: 'rgba(5,150,105,0.35)',
        paths: uPlot.paths.bars({ size: [0.8, 40] }), points: { show: false },
        value: (u, v) => v == null ? '' : compact(v),
      },
    ],
    axes: [{ label: 'BFS level', size: 36 }, { values: ticks, size: 50 }],
  }, levelData, host);
}

function redrawSoon() {
  if (!timer) timer = setTimeout(redraw, REDRAW_MS);
}

function redraw() {
  timer = 0;
  if (time) time.setData(series);
  if (levels) levels.setData(levelData);
}

// thin halves the number of samples, keeping the newest.
function thin() {
  series = series.map((s) => s.filter((_, i) => i % 2 === 0 || i === s.length - 1));
}

export const charts = {
  // attach (re)places the chart named which ("time" or "levels") into host.
  attach(which, host) {
    const i = which === 'time' ? 0 : 1;
    if (i === 0 && !time) time = makeTime(host);
    if (i === 1 && !levels) levels = makeLevels(host);
    const plot = i === 0 ? time : levels;
    if (plot.root.parentNode !== host) host.replaceChildren(plot.root);
    if (hosts[i] === host) return;
    hosts[i] = host;
    if (!observer) {
      observer = new ResizeObserver((entries) => {
        for (const e of entries) {
          const p = e.target === hosts[0] ? time : e.target === hosts[1] ? levels : null;
          if (p && e.target.clientWidth) p.setSize(size(e.target));
        }
      });
    }
    observer.observe(host);
  },
  reset() {
    series = [[], [], []];
    levelData = [[], []];
    redraw();
  },
  push(seconds, states, queued) {
    series[0].push(seconds);
    series[1].push(states);
    series[2].push(queued);
    if (series[0].length > MAX_POINTS) thin();
    redrawSoon();
  },
  // setLevels replaces the per-level counts with a JSON array of numbers.
  setLevels(json) {
    const sizes = JSON.parse(json) || [];
    levelData = [sizes.map((_, i) => i), sizes];
    redrawSoon();
  },
};
