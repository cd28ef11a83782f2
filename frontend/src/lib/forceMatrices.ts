// ForceAtlas2's iteration (graphology-layout-forceatlas2/iterate) works on two flat
// matrices. helpers.graphToByteArrays makes them from a graphology graph; the Graph view's
// worker makes them from plain arrays instead, so that the window's thread never builds a
// graph of every link to hand over.

/** Numbers per node in the node matrix (helpers.js's PPN): x and y first, mass at 6. */
const ppn = 10;
/** Numbers per link in the link matrix (helpers.js's PPE). */
const ppe = 3;

/** The node and link matrices of ForceAtlas2's iteration, as helpers.graphToByteArrays makes them. */
export function matrices(xy: Float32Array, size: Float32Array, links: Int32Array) {
  const n = size.length;
  const nodes = new Float32Array(n * ppn);
  for (let i = 0; i < n; i++) {
    const o = i * ppn;
    nodes[o] = xy[2 * i];
    nodes[o + 1] = xy[2 * i + 1];
    nodes[o + 6] = 1; // mass: 1 + the weighted degree
    nodes[o + 7] = 1; // convergence
    nodes[o + 8] = size[i] || 1;
  }
  const seen = new Set<number>();
  const edges = new Float32Array((links.length / 2) * ppe);
  let m = 0;
  for (let k = 0; k + 1 < links.length; k += 2) {
    const a = links[k];
    const b = links[k + 1];
    if (a === b || a < 0 || b < 0 || a >= n || b >= n || seen.has(a * n + b)) continue;
    seen.add(a * n + b);
    nodes[a * ppn + 6]++;
    nodes[b * ppn + 6]++;
    edges[m++] = a * ppn;
    edges[m++] = b * ppn;
    edges[m++] = 1;
  }
  return { nodes, edges: edges.slice(0, m) };
}

