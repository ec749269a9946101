// graph-worker.js: lays out and draws state graphs with Graphviz (compiled
// to WebAssembly, @viz-js/viz) in its own Worker, so a large layout never
// blocks the page. Loaded only when the user first opens the graph view.
import { instance } from '@viz-js/viz';

const viz = instance();

self.onmessage = async (e) => {
  const { id, dot, engine } = e.data;
  try {
    const v = await viz;
    const result = v.render(dot, { format: 'svg', engine });
    if (result.status !== 'success') {
      const why = result.errors.map((x) => x.message).join('; ');
      self.postMessage({ id, error: why || 'Graphviz could not draw the graph' });
      return;
    }
    self.postMessage({ id, svg: result.output });
  } catch (err) {
    self.postMessage({ id, error: String(err && err.message ? err.message : err) });
  }
};
