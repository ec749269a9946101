// stateview.js: the state of one step of a trace, as a tree grid of
// variables (arrays and records collapse), with only the rows on screen in
// the DOM. Filtering by name or to the changed components scans typed
// arrays, never the DOM, so a state of hundreds of thousands of components
// stays as quick as a small one. Used for counterexamples, simulation and
// the states of the graph; driven from the Go UI through
// window.locus.stateview.
import { traces, slice } from './tracestore.js';

const ROW = 26;      // px per row (CSS keeps rows at this height)
const OVERSCAN = 6;  // rows rendered above and below the visible ones
const OPEN_UP_TO = 64; // arrays and records with at most this many leaves start expanded

class StateView {
  constructor(host, key) {
    this.key = key;
    this.trace = null;
    this.traceVersion = -1;
    this.step = 0;
    this.query = '';
    this.onlyChanged = false;
    this.active = 0; // index into rows of the keyboard-active row
    this.rows = new Int32Array(0);
    this.pool = [];
    this.id = 'sv-' + key;
    this.generation = 0;
    this.toggled = new Set();

    host.classList.add('stateview');
    host.innerHTML = '';
    this.grid = document.createElement('div');
    this.grid.className = 'sv-grid';
    this.grid.setAttribute('role', 'treegrid');
    this.grid.setAttribute('aria-label', 'Variables of the state shown');
    this.grid.setAttribute('aria-readonly', 'true');
    this.grid.tabIndex = 0;
    this.grid.dataset.testid = 'state-grid';
    const head = document.createElement('div');
    head.className = 'sv-row sv-head';
    head.setAttribute('role', 'row');
    head.setAttribute('aria-rowindex', '1');
    for (const [text, cls] of [['Variable', 'sv-name'], ['Value', 'sv-value'], ['Before this step', 'sv-prev']]) {
      const c = document.createElement('div');
      c.className = cls;
      c.setAttribute('role', 'columnheader');
      c.textContent = text;
      head.appendChild(c);
    }
    // The grid itself scrolls (so the focusable element is the scrolling
    // one); the header row sticks to its top.
    this.scroller = this.grid;
    this.spacer = document.createElement('div');
    this.spacer.className = 'sv-spacer';
    this.body = document.createElement('div');
    this.body.className = 'sv-body';
    this.body.setAttribute('role', 'rowgroup');
    this.empty = document.createElement('div');
    this.empty.className = 'sv-empty';
    this.empty.hidden = true;
    this.grid.append(head, this.empty, this.spacer, this.body);
    host.appendChild(this.grid);
    this.host = host;

    // The scroll position and height are kept from their events: reading
    // them while drawing would force a layout of the whole page.
    this.top = 0;
    this.height = 300;
    this.scroller.addEventListener('scroll', () => { this.top = this.scroller.scrollTop; this.renderSoon(); });
    this.grid.addEventListener('keydown', (e) => this.onKey(e));
    // The full name of a component shows on hover (made then, not for
    // every row drawn).
    this.body.addEventListener('mouseover', (e) => {
      const row = e.target.closest('.sv-row');
      const leaf = row && this.trace ? this.trace.leafOf[Number(row.dataset.node)] : -1;
      if (leaf >= 0 && !row.title) row.title = this.trace.name(leaf);
    });
    this.body.addEventListener('click', (e) => {
      const row = e.target.closest('.sv-row');
      if (!row) return;
      this.active = Number(row.dataset.index);
      if (e.target.closest('.sv-toggle')) this.toggle(Number(row.dataset.node));
      this.render();
    });
    new ResizeObserver((entries) => {
      const h = entries[entries.length - 1].contentRect.height;
      if (h > 0 && h !== this.height) { this.height = h; this.renderSoon(); }
    }).observe(this.scroller);
  }

  attach(host) {
    if (this.grid.parentNode !== host) {
      host.classList.add('stateview');
      host.replaceChildren(this.grid);
      this.host = host;
      this.renderSoon();
    }
  }

  // show displays step of the trace stored under this view's key. It is
  // called on every render of the page, so it does nothing when nothing
  // changed, and moving to another step redraws only the visible rows
  // unless a filter depends on the step.
  show(step) {
    const t = traces.get(this.key);
    let restructure = false;
    if (t !== this.trace || (t && t.version !== this.traceVersion)) {
      const fresh = t !== this.trace;
      this.trace = t;
      this.traceVersion = t ? t.version : -1;
      restructure = true;
      if (t && fresh) {
        this.toggled = new Set(); // nodes opened or closed by the user
        this.match = null;
        this.active = 0;
        this.scrollTo(0);
      }
    }
    if (!t) {
      this.rows = new Int32Array(0);
      this.render();
      return;
    }
    if (!restructure && t.cursor === Math.max(0, Math.min(step, t.steps.length - 1)) && this.step === t.cursor) return;
    t.moveTo(step);
    this.step = t.cursor;
    this.changedCounts();
    if (restructure || this.onlyChanged) this.rebuild();
    else this.render();
  }

  setFilter(query, onlyChanged) {
    if (query === this.query && onlyChanged === this.onlyChanged) return;
    this.query = query;
    this.onlyChanged = onlyChanged;
    this.match = null;
    this.active = 0;
    this.scrollTo(0);
    this.rebuild();
  }

  // changedCounts counts, for each array and record, its components the
  // cursor step changed (walking up from the changed leaves only).
  changedCounts() {
    const t = this.trace;
    if (!this.counts || this.counts.length !== t.nodes) this.counts = new Int32Array(t.nodes);
    if (this.countedLeaves) for (const leaf of this.countedLeaves) {
      for (let n = t.parent[t.nodeOfLeaf[leaf]]; n >= 0; n = t.parent[n]) this.counts[n] = 0;
    }
    const changed = t.changedLeaves();
    for (const leaf of changed) {
      for (let n = t.parent[t.nodeOfLeaf[leaf]]; n >= 0; n = t.parent[n]) this.counts[n]++;
    }
    this.countedLeaves = changed;
  }

  // open reports whether an array or record is expanded: small ones start
  // open, and the user toggles.
  open(node) {
    return (this.trace.leafCount[node] <= OPEN_UP_TO) !== this.toggled.has(node);
  }

  // rebuild lists the rows to show: expanded nodes, or with a filter the
  // matching components and their arrays and records, all open. Big
  // states are scanned a slice at a time (see slice); a newer rebuild
  // cancels an older one.
  async rebuild() {
    const t = this.trace;
    if (!t) return;
    const gen = ++this.generation;
    const stale = () => gen !== this.generation || t !== this.trace;
    const n = t.nodes;
    let keep = null;
    const filtering = this.query !== '' || this.onlyChanged;
    if (filtering) {
      let hit = this.match;
      if (!hit) {
        hit = new Uint8Array(t.leaves);
        if (this.query !== '') {
          if (await t.search(this.query, hit, stale) < 0) return;
        } else {
          hit.fill(1);
        }
        this.match = hit;
      }
      keep = new Uint8Array(n);
      // Mark kept leaves, then their arrays and records (a parent always
      // comes before its children, so one backward pass suffices).
      const onlyChanged = this.onlyChanged;
      if (onlyChanged && this.query === '') {
        for (const leaf of t.changedLeaves()) keep[t.nodeOfLeaf[leaf]] = 1;
      } else if (!await slice(t.leaves, (from, to) => {
        for (let leaf = from; leaf < to; leaf++) {
          if (hit[leaf] && (!onlyChanged || t.changedMark[leaf])) keep[t.nodeOfLeaf[leaf]] = 1;
        }
      }, stale)) return;
      if (!await slice(n, (from, to) => {
        for (let k = n - 1 - from; k > n - 1 - to; k--) {
          if (keep[k] && t.parent[k] >= 0) keep[t.parent[k]] = 1;
        }
      }, stale)) return;
    }
    const rows = new Int32Array(n);
    let r = 0;
    let i = 0;
    const done = await slice(n, (from, to) => {
      // Walks nodes from i, skipping whole subtrees that are collapsed or
      // filtered out; 'to - from' bounds the rows made in this slice.
      for (let made = 0; i < n && made < to - from; made++) {
        if (keep && !keep[i]) { i += t.size[i]; continue; }
        rows[r++] = i;
        if (t.leafOf[i] < 0 && !keep && !this.open(i)) i += t.size[i];
        else i++;
      }
    }, stale);
    if (!done || stale()) return;
    this.rows = rows.subarray(0, r);
    this.filtering = filtering;
    if (this.active >= r) this.active = Math.max(0, r - 1);
    this.spacer.style.height = (r * ROW) + 'px';
    this.grid.setAttribute('aria-rowcount', String(r + 1));
    this.render();
  }

  toggle(node) {
    const t = this.trace;
    if (!t || t.leafOf[node] >= 0 || this.filtering) return;
    if (this.toggled.has(node)) this.toggled.delete(node);
    else this.toggled.add(node);
    this.rebuild();
  }

  scrollTo(top) {
    this.top = top;
    this.scroller.scrollTop = top;
  }

  renderSoon() {
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => { this.pending = 0; this.render(); });
  }

  render() {
    const t = this.trace;
    const total = this.rows.length;
    this.empty.hidden = total > 0;
    if (total === 0) {
      this.empty.textContent = !t ? 'No state to show.' : this.query ? `No variable matches “${this.query}”.` : 'No variable changed in this step.';
    }
    const top = Math.min(this.top, Math.max(0, total * ROW - this.height));
    const first = Math.max(0, Math.floor(top / ROW) - OVERSCAN);
    const last = Math.min(total, Math.ceil((top + this.height) / ROW) + OVERSCAN);
    // (this.height includes the sticky header: one row of overscan more.)
    const want = last - first;
    while (this.pool.length < want) this.pool.push(this.makeRow());
    for (let k = 0; k < this.pool.length; k++) {
      const el = this.pool[k];
      if (k >= want) {
        if (el.parentNode) el.remove();
        continue;
      }
      if (!el.parentNode) this.body.appendChild(el);
      this.fill(el, first + k);
    }
    this.grid.setAttribute('aria-activedescendant', total ? `${this.id}-r${this.active}` : '');
  }

  makeRow() {
    const el = document.createElement('div');
    el.className = 'sv-row';
    el.setAttribute('role', 'row');
    const name = document.createElement('div');
    name.className = 'sv-name';
    name.setAttribute('role', 'rowheader');
    const toggle = document.createElement('span');
    toggle.className = 'sv-toggle';
    toggle.setAttribute('aria-hidden', 'true');
    const label = document.createElement('span');
    label.className = 'sv-label';
    name.append(toggle, label);
    const value = document.createElement('div');
    value.className = 'sv-value';
    value.setAttribute('role', 'gridcell');
    const prev = document.createElement('div');
    prev.className = 'sv-prev';
    prev.setAttribute('role', 'gridcell');
    el.append(name, value, prev);
    el.parts = { toggle, label, value, prev, name };
    return el;
  }

  fill(el, r) {
    const t = this.trace;
    const node = this.rows[r];
    const leaf = t.leafOf[node];
    const p = el.parts;
    el.style.transform = `translateY(${r * ROW}px)`;
    el.dataset.index = r;
    el.dataset.node = node;
    el.id = `${this.id}-r${r}`;
    el.setAttribute('aria-rowindex', String(r + 2));
    el.setAttribute('aria-level', String(t.depth[node] + 1));
    el.classList.toggle('active', r === this.active);
    p.name.style.paddingLeft = (4 + 14 * t.depth[node]) + 'px';
    p.label.textContent = t.label(node);
    if (leaf >= 0) {
      el.removeAttribute('aria-expanded');
      p.toggle.textContent = '';
      const changed = t.changed(leaf);
      el.classList.toggle('changed', changed);
      p.value.textContent = t.value(leaf);
      const before = changed ? t.previous(leaf) : null;
      p.prev.textContent = before === null ? '' : before;
      el.title = '';
    } else {
      const open = this.filtering || this.open(node);
      el.setAttribute('aria-expanded', String(open));
      p.toggle.textContent = open ? '▾' : '▸';
      const c = this.counts[node];
      el.classList.toggle('changed', c > 0);
      const n = t.leafCount[node];
      p.value.textContent = `${n} component${n === 1 ? '' : 's'}`;
      p.prev.textContent = c > 0 ? `${c} changed` : '';
      el.title = '';
    }
  }

  onKey(e) {
    const total = this.rows.length;
    if (!total) return;
    const page = Math.max(1, Math.floor(this.height / ROW) - 1);
    const t = this.trace;
    const node = this.rows[this.active];
    let handled = true;
    switch (e.key) {
      case 'ArrowDown': this.active = Math.min(total - 1, this.active + 1); break;
      case 'ArrowUp': this.active = Math.max(0, this.active - 1); break;
      case 'PageDown': this.active = Math.min(total - 1, this.active + page); break;
      case 'PageUp': this.active = Math.max(0, this.active - page); break;
      case 'Home': this.active = 0; break;
      case 'End': this.active = total - 1; break;
      case 'ArrowRight':
        if (t.leafOf[node] < 0 && !this.filtering && !this.open(node)) this.toggle(node);
        else if (t.leafOf[node] < 0) this.active = Math.min(total - 1, this.active + 1);
        break;
      case 'ArrowLeft':
        if (t.leafOf[node] < 0 && !this.filtering && this.open(node)) this.toggle(node);
        else if (t.parent[node] >= 0) this.active = Math.max(0, this.rows.indexOf(t.parent[node]));
        break;
      case 'Enter': case ' ':
        this.toggle(node);
        break;
      default: handled = false;
    }
    if (!handled) return;
    e.preventDefault();
    e.stopPropagation();
    const top = this.active * ROW;
    if (top < this.top) this.scrollTo(top);
    else if (top + ROW > this.top + this.height) this.scrollTo(top + ROW - this.height);
    this.render();
  }

  // visibleRows returns the rows in the DOM as {name, value, previous,
  // changed} (for tests and the "copy state" button).
  visibleRows() {
    return [...this.body.children].sort((a, b) => a.dataset.index - b.dataset.index).map((el) => ({
      name: this.trace.leafOf[Number(el.dataset.node)] >= 0 ? this.trace.name(this.trace.leafOf[Number(el.dataset.node)]) : el.parts.label.textContent,
      value: el.parts.value.textContent,
      previous: el.parts.prev.textContent,
      changed: el.classList.contains('changed'),
    }));
  }
}

const views = new Map();

export const stateview = {
  // attach puts the view of trace key into host (creating it once).
  attach(key, host) {
    let v = views.get(key);
    if (!v) {
      v = new StateView(host, key);
      views.set(key, v);
    } else {
      v.attach(host);
    }
    return v;
  },
  show(key, step) { const v = views.get(key); if (v) v.show(step); },
  filter(key, query, onlyChanged) { const v = views.get(key); if (v) v.setFilter(query, onlyChanged); },
  rows(key) { const v = views.get(key); return v ? v.visibleRows() : []; },
};
