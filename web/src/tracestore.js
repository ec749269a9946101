// tracestore.js: sequences of states (a counterexample, a simulation path,
// a path in the state graph) as the engine Worker sends them (see
// wasm/tracedata): component names once, a table of distinct values, the
// first state as value ids and each later step as the components it
// changed. Everything is typed arrays, so a state of a million components
// costs a few megabytes and moving one step touches only what changed.

const utf8 = new TextDecoder();

// text decodes UTF-8 bytes; short ASCII strings (nearly every name) skip
// the TextDecoder, which costs more per call than the few bytes do.
function text(bytes) {
  if (bytes.length < 256) {
    let ascii = true;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] >= 128) { ascii = false; break; }
    if (ascii) return String.fromCharCode.apply(null, bytes);
  }
  return utf8.decode(bytes);
}

function i32(a) { return a instanceof Int32Array ? a : new Int32Array(a || []); }

// slice runs work(from, to) over [0, n) in pieces, yielding to the browser
// between pieces, so that a loop over a million components never holds
// the main thread for long; it resolves to false if cancelled() turned
// true meanwhile.
export async function slice(n, work, cancelled) {
  const step = 2048;
  let t0 = performance.now();
  for (let from = 0; from < n; from += step) {
    work(from, Math.min(n, from + step));
    if (performance.now() - t0 > 6 && from + step < n) {
      await new Promise((r) => setTimeout(r, 0));
      if (cancelled && cancelled()) return false;
      t0 = performance.now();
    }
  }
  return true;
}

export class Trace {
  constructor(p) {
    this.names = p.names;
    const t = p.tree;
    this.depth = i32(t.depth);
    this.size = i32(t.size);
    this.leafOf = i32(t.leaf);
    this.labels = t.labels;
    this.ends = i32(t.ends);
    this.parent = i32(t.parent);
    this.leafCount = i32(t.leafCount);
    this.nodeOfLeaf = i32(t.nodeOfLeaf);
    this.nameStarts = i32(t.nameStarts);
    this.values = [];
    this.steps = [];
    this.start = i32(p.start);
    this.leaves = this.start.length;
    this.state = Int32Array.from(this.start); // values at the end of the sequence
    this.cur = Int32Array.from(this.start);   // values at the cursor
    this.cursor = 0;
    this.changedMark = new Uint8Array(this.leaves);
    this.version = 0; // bumped when steps are added or removed
    this.append(p);
  }

  get nodes() { return this.depth.length; }

  // append adds a payload's steps after cutting the sequence to p.base steps.
  append(p) {
    for (const v of p.values) this.values.push(v);
    const infos = typeof p.steps === 'string' ? JSON.parse(p.steps) : p.steps;
    let first = 0;
    if (p.names) {
      this.steps = [{ rule: infos[0].rule, pos: infos[0].pos || '', idx: null, newv: null, oldv: null }];
      first = 1;
    } else {
      this.cut(p.base);
    }
    const ch = i32(p.changes);
    let at = 0;
    for (let k = first; k < infos.length; k++) {
      const n = ch[at++];
      const idx = new Int32Array(n);
      const newv = new Int32Array(n);
      const oldv = new Int32Array(n);
      for (let j = 0; j < n; j++) {
        idx[j] = ch[at++];
        newv[j] = ch[at++];
        oldv[j] = this.state[idx[j]];
        this.state[idx[j]] = newv[j];
      }
      this.steps.push({ rule: infos[k].rule, pos: infos[k].pos || '', idx, newv, oldv });
    }
    this.version++;
  }

  // cut drops the steps after the first n.
  cut(n) {
    if (this.cursor >= n) this.moveTo(Math.max(0, n - 1));
    while (this.steps.length > n) {
      const s = this.steps.pop();
      for (let j = s.idx.length - 1; j >= 0; j--) this.state[s.idx[j]] = s.oldv[j];
    }
    this.version++;
  }

  // moveTo makes step k the cursor: its values, and its changed components
  // marked.
  moveTo(k) {
    k = Math.max(0, Math.min(k, this.steps.length - 1));
    const here = this.steps[this.cursor];
    if (here && here.idx) for (const i of here.idx) this.changedMark[i] = 0;
    while (this.cursor < k) {
      const s = this.steps[++this.cursor];
      for (let j = 0; j < s.idx.length; j++) this.cur[s.idx[j]] = s.newv[j];
    }
    while (this.cursor > k) {
      const s = this.steps[this.cursor--];
      for (let j = s.idx.length - 1; j >= 0; j--) this.cur[s.idx[j]] = s.oldv[j];
    }
    const s = this.steps[this.cursor];
    if (s && s.idx) for (const i of s.idx) this.changedMark[i] = 1;
  }

  value(leaf) { return this.values[this.cur[leaf]]; }
  changed(leaf) { return this.changedMark[leaf] === 1; }

  // previous returns the value a changed component had before the cursor step.
  previous(leaf) {
    const s = this.steps[this.cursor];
    if (!s || !s.idx || !this.changedMark[leaf]) return null;
    for (let j = 0; j < s.idx.length; j++) if (s.idx[j] === leaf) return this.values[s.oldv[j]];
    return null;
  }

  changedLeaves() {
    const s = this.steps[this.cursor];
    return s && s.idx ? s.idx : new Int32Array(0);
  }

  label(node) {
    const from = node > 0 ? this.ends[node - 1] : 0;
    return text(this.labels.subarray(from, this.ends[node]));
  }

  name(leaf) {
    const s = this.nameStarts;
    return text(this.names.subarray(s[leaf], s[leaf + 1] - 1));
  }

  // search marks in out (one byte per component) the components whose
  // name contains query, ignoring ASCII case, a slice at a time; it
  // resolves to the number of matches, or -1 if cancelled.
  async search(query, out, cancelled) {
    const q = new TextEncoder().encode(query.toLowerCase());
    out.fill(0);
    if (q.length === 0) return 0;
    const hay = this.names;
    const starts = this.nameStarts;
    const lower = (c) => (c >= 65 && c <= 90 ? c + 32 : c);
    let hits = 0;
    const done = await slice(this.leaves, (from, to) => {
      for (let leaf = from; leaf < to; leaf++) {
        const end = starts[leaf + 1] - 1 - q.length;
        outer: for (let i = starts[leaf]; i <= end; i++) {
          for (let j = 0; j < q.length; j++) if (lower(hay[i + j]) !== q[j]) continue outer;
          out[leaf] = 1;
          hits++;
          break;
        }
      }
    }, cancelled);
    return done ? hits : -1;
  }
}

const store = new Map();
const listeners = new Set();

export const traces = {
  load(p) {
    const old = store.get(p.key);
    if (p.names || !old) store.set(p.key, new Trace(p));
    else old.append(p);
    for (const f of listeners) f(p.key);
  },
  get(key) { return store.get(key) || null; },
  drop(key) { store.delete(key); for (const f of listeners) f(key); },
  onChange(f) { listeners.add(f); },
  // steps returns the rule and position of every step, as JSON (for the Go UI).
  steps(key) {
    const t = store.get(key);
    return JSON.stringify(t ? t.steps.map((s) => ({ rule: s.rule, pos: s.pos })) : []);
  },
  length(key) { const t = store.get(key); return t ? t.steps.length : 0; },
  cut(key, n) { const t = store.get(key); if (t) t.cut(n); for (const f of listeners) f(key); },
};
