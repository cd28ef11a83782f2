// ForceAtlas2's own iteration (graphology-layout-forceatlas2/iterate) in a worker, so that a
// big graph settles while the window stays responsive. The page sends the nodes' positions
// and sizes and every link as a pair of node indexes; the worker builds the iteration's
// matrices (as helpers.graphToByteArrays would from a graphology graph, which at 10,000
// pages took the window's thread for seconds), runs at most `steps` steps, and sends the
// positions back at most every `every` ms and when it is done. It stops early when the
// layout has converged: when the nodes' mean move in a step stays under a thousandth of the
// picture's extent for `calm` steps in a row.
import iterate from 'graphology-layout-forceatlas2/iterate.js';
import { matrices } from './forceMatrices';

export interface Start {
  /** x and y of node i at 2i and 2i+1. */
  xy: Float32Array;
  size: Float32Array;
  /** Links as pairs of node indexes; repeated pairs pull once. */
  links: Int32Array;
  settings: Record<string, unknown>;
  steps: number;
}

const every = 200;
const calm = 5;
const tolerance = 1e-3;
/** Numbers per node in the node matrix (helpers.js's PPN): x and y first. */
const ppn = 10;

self.onmessage = (e: MessageEvent<Start>) => {
  const { settings, steps } = e.data;
  const { nodes, edges } = matrices(e.data.xy, e.data.size, e.data.links);
  const n = nodes.length / ppn;
  const prev = new Float32Array(2 * n);
  const positions = () => {
    const xy = new Float32Array(2 * n);
    for (let i = 0; i < n; i++) {
      xy[2 * i] = nodes[i * ppn];
      xy[2 * i + 1] = nodes[i * ppn + 1];
    }
    return xy;
  };
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
      const xy = positions();
      (self as unknown as Worker).postMessage({ xy, done: k, last, converged: still >= calm }, [xy.buffer]);
      sent = now;
    }
    if (last) break;
  }
};
