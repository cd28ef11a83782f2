// ForceAtlas2's own iteration (graphology-layout-forceatlas2/iterate) in a worker, so that a
// big graph settles while the window stays responsive. The page sends the node and edge
// matrices (helpers.graphToByteArrays) and a number of steps; the worker sends the
// positions back every few steps and when it is done.
import iterate from 'graphology-layout-forceatlas2/iterate.js';

interface Start {
  nodes: Float32Array;
  edges: Float32Array;
  settings: Record<string, unknown>;
  steps: number;
}

const every = 4;

self.onmessage = (e: MessageEvent<Start>) => {
  const { nodes, edges, settings, steps } = e.data;
  for (let k = 1; k <= steps; k++) {
    iterate(settings, nodes, edges);
    if (k % every === 0 || k === steps) (self as unknown as Worker).postMessage({ nodes: nodes.slice(), done: k, steps });
  }
};
