// ForceAtlas2's own iteration (graphology-layout-forceatlas2/iterate) in a worker, so that a
// big graph settles while the window stays responsive. The page sends the node and edge
// matrices (helpers.graphToByteArrays) and a bound on the steps; the worker sends the
// positions back at most every `every` ms and when it is done. It stops early when the
// layout has converged: when the nodes' mean move in a step stays under a thousandth of the
// picture's extent for `calm` steps in a row.
import iterate from 'graphology-layout-forceatlas2/iterate.js';

interface Start {
  nodes: Float32Array;
  edges: Float32Array;
  settings: Record<string, unknown>;
  steps: number;
}

const every = 200;
const calm = 5;
const tolerance = 1e-3;
/** Numbers per node in the matrix (helpers.js's PPN): x and y first. */
const ppn = 10;

self.onmessage = (e: MessageEvent<Start>) => {
  const { nodes, edges, settings, steps } = e.data;
  const n = nodes.length / ppn;
  const prev = new Float32Array(2 * n);
  let sent = performance.now();
  let still = 0;
  for (let k = 1; k <= steps; k++) {
    for (let i = 0; i < n; i++) {
      prev[2 * i] = nodes[i * ppn];
      prev[2 * i + 1] = nodes[i * ppn + 1];
    }
    iterate(settings, nodes, edges);
    let move = 0;
    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      const x = nodes[i * ppn];
      const y = nodes[i * ppn + 1];
      move += Math.hypot(x - prev[2 * i], y - prev[2 * i + 1]);
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
    const extent = Math.max(maxX - minX, maxY - minY, 1e-9);
    still = n > 0 && move / n / extent < tolerance ? still + 1 : 0;
    const last = k === steps || still >= calm;
    const now = performance.now();
    if (last || now - sent >= every) {
      (self as unknown as Worker).postMessage({ nodes: nodes.slice(), done: k, last, converged: still >= calm });
      sent = now;
    }
    if (last) break;
  }
};
