// graph.js: the state graph view. The engine Worker enumerates the states
// and edges (core/verify.BuildGraph); this file turns them into Graphviz
// DOT, has dist/graph-worker.js (loaded on first use, so it adds nothing
// to the page's first load) lay them out, and shows the SVG with the
// counterexample (or the path to the selected state) highlighted.
import { engine } from './engine.js';

let vizWorker = null;
let nextID = 0;
const waiting = new Map();

function layout(dot, layoutEngine) {
  if (!vizWorker) {
    vizWorker = new Worker('dist/graph-worker.js');
    vizWorker.onmessage = (e) => {
      const w = waiting.get(e.data.id);
      waiting.delete(e.data.id);
      if (!w) return;
      if (e.data.error) w.reject(new Error(e.data.error));
      else w.resolve(e.data.svg);
    };
    vizWorker.onerror = (e) => {
      for (const w of waiting.values()) w.reject(new Error(e.message || 'the graph drawing worker failed'));
      waiting.clear();
      vizWorker = null;
    };
  }
  const id = ++nextID;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    vizWorker.postMessage({ id, dot, engine: layoutEngine });
  });
}

const quote = (s) => '"' + String(s).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, ' ') + '"';

// toDot draws states as numbered circles (start states doubled, violations
// red, deadlocks amber) and merges the rules between the same two states
// into one edge; rule names label the edges of small graphs and are the
// tooltips of all.
function toDot(g) {
  const small = g.nodes.length <= 40;
  const lines = [
    'digraph states {',
    `graph [rankdir=TB, nodesep=0.25, ranksep=0.45, bgcolor="transparent", fontname="sans-serif"${g.nodes.length > 400 ? ', splines=false' : ''}];`,
    'node [shape=circle, fontname="sans-serif", fontsize=11, width=0.38, height=0.38, fixedsize=true, style=filled, fillcolor="#ffffff", color="#4b5563"];',
    'edge [fontname="sans-serif", fontsize=9, color="#6b7280", arrowsize=0.6];',
  ];
  g.nodes.forEach((n, i) => {
    const attrs = [`id="n${i}"`, `tooltip=${quote(`state ${i}, level ${n.depth}${n.kind ? ': ' + n.kind : ''}`)}`];
    if (n.parent < 0) attrs.push('shape=doublecircle', 'width=0.46', 'height=0.46');
    if (n.kind === 'deadlock') attrs.push('fillcolor="#fde68a"', 'color="#b45309"');
    else if (n.kind) attrs.push('fillcolor="#fecaca"', 'color="#b91c1c"');
    lines.push(`n${i} [label="${i}", ${attrs.join(', ')}];`);
  });
  const merged = new Map();
  for (const e of g.edges) {
    const k = e.from + '_' + e.to;
    if (!merged.has(k)) merged.set(k, []);
    merged.get(k).push(g.rules[e.rule]);
  }
  for (const [k, rules] of merged) {
    const [from, to] = k.split('_');
    const uniq = [...new Set(rules)];
    const attrs = [`id="e${k}"`, `tooltip=${quote(uniq.join('; '))}`];
    if (small) attrs.push(`label=${quote(uniq.length > 2 ? uniq.slice(0, 2).join('\n') + ` (+${uniq.length - 2})` : uniq.join('\n'))}`);
    lines.push(`n${from} -> n${to} [${attrs.join(', ')}];`);
  }
  lines.push('}');
  return lines.join('\n');
}

class GraphView {
  constructor() {
    this.host = null;
    this.graph = null;
    this.svg = null;
    this.onSelect = null;
    this.path = [];
    this.selected = -1;
    this.status = '';
  }

  attach(host, onSelect) {
    this.onSelect = onSelect;
    if (this.host === host) return;
    this.host = host;
    host.addEventListener('click', (e) => {
      const node = e.target.closest('g.node');
      if (!node || !node.id.startsWith('n')) return;
      const i = Number(node.id.slice(1));
      this.select(i);
      if (this.onSelect) this.onSelect(i);
    });
    if (this.svg) host.replaceChildren(this.svg);
  }

  // draw lays out the graph of request id; it resolves to "" or an error.
  async draw(id) {
    const text = engine.takeGraph(id);
    if (!text) return 'no graph was received';
    const g = JSON.parse(text);
    this.graph = g;
    this.selected = -1;
    this.path = g.path || [];
    const layoutEngine = g.nodes.length > 1500 ? 'sfdp' : 'dot';
    try {
      const svgText = await layout(toDot(g), layoutEngine);
      const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
      const svg = document.importNode(doc.documentElement, true);
      svg.setAttribute('role', 'img');
      svg.setAttribute('aria-label', `State graph: ${g.nodes.length} states, ${g.edges.length} transitions`);
      svg.removeAttribute('width');
      svg.removeAttribute('height');
      svg.classList.add('state-graph');
      this.svg = svg;
      if (this.host) this.host.replaceChildren(svg);
      this.highlight(this.path);
      return '';
    } catch (err) {
      return String(err && err.message ? err.message : err);
    }
  }

  // highlight marks the nodes of path and the edges between them.
  highlight(path) {
    this.path = path || [];
    if (!this.svg) return;
    for (const el of this.svg.querySelectorAll('.on-path')) el.classList.remove('on-path');
    this.path.forEach((n, i) => {
      const node = this.svg.getElementById ? this.svg.getElementById('n' + n) : this.svg.querySelector('#n' + n);
      if (node) node.classList.add('on-path');
      if (i > 0) {
        const edge = this.svg.querySelector(`#e${this.path[i - 1]}_${n}`);
        if (edge) edge.classList.add('on-path');
      }
    });
  }

  select(i) {
    this.selected = i;
    if (!this.svg) return;
    for (const el of this.svg.querySelectorAll('.selected')) el.classList.remove('selected');
    const node = this.svg.querySelector('#n' + i);
    if (node) {
      node.classList.add('selected');
      node.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
  }

  pathTo(i) {
    const g = this.graph;
    const out = [];
    for (let n = i; g && n >= 0 && n < g.nodes.length; n = g.nodes[n].parent) out.push(n);
    return out.reverse();
  }
}

const view = new GraphView();

export const graph = {
  attach(host, onSelect) { view.attach(host, onSelect); },
  draw(id) { return view.draw(id); },
  // show highlights the path to node i (from a start state) and selects it.
  show(i) { view.select(i); view.highlight(view.pathTo(i)); },
  highlight(pathJSON) { view.highlight(JSON.parse(pathJSON)); },
  nodes() { return view.graph ? view.graph.nodes.length : 0; },
  path() { return JSON.stringify(view.path); },
};
