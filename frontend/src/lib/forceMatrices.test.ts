import { describe, expect, it } from 'vitest';
import Graph from 'graphology';
import { graphToByteArrays } from 'graphology-layout-forceatlas2/helpers.js';
import { matrices } from './forceMatrices';

describe('matrices', () => {
  it('are what graphToByteArrays makes of the same graph', () => {
    const xy = new Float32Array([0, 0, 1, 2, -3, 4, 5, -6]);
    const size = new Float32Array([6, 3, 3, 0]);
    // 0>1 twice, 1>0 (the other direction: a link of its own), a self link and one out of range.
    const links = new Int32Array([0, 1, 1, 2, 0, 1, 1, 0, 2, 2, 3, 9, 2, 3]);
    const g = new Graph({ type: 'directed', multi: false, allowSelfLoops: false });
    for (let i = 0; i < 4; i++) g.addNode(String(i), { x: xy[2 * i], y: xy[2 * i + 1], size: size[i] || undefined });
    for (const [a, b] of [[0, 1], [1, 2], [1, 0], [2, 3]]) g.addEdge(String(a), String(b));
    const want = graphToByteArrays(g, () => 1);
    const got = matrices(xy, size, links);
    expect(Array.from(got.nodes)).toEqual(Array.from(want.nodes));
    expect(Array.from(got.edges)).toEqual(Array.from(want.edges));
  });
});
