import { describe, expect, it } from 'vitest';
import { createNormalizationFunction, matrixFromCamera, multiplyVec2 } from 'sigma/utils';
import { bbox, crossPairs, nearest, pixel, previewFrame, rasterPreview } from './graphPreview';

// Where sigma draws position p: its normalisation over the positions' extent, then the camera.
function sigmaViewport(xy: number[], cam: { x: number; y: number; ratio: number }, W: number, H: number, pad: number, p: { x: number; y: number }) {
  const xs = xy.filter((_, i) => i % 2 === 0);
  const ys = xy.filter((_, i) => i % 2 === 1);
  const extent = { x: [Math.min(...xs), Math.max(...xs)] as [number, number], y: [Math.min(...ys), Math.max(...ys)] as [number, number] };
  const f = createNormalizationFunction(extent)(p);
  const g = { width: extent.x[1] - extent.x[0] || 1, height: extent.y[1] - extent.y[0] || 1 };
  const v = multiplyVec2(matrixFromCamera({ ...cam, angle: 0 }, { width: W, height: H }, g, pad), f);
  return { x: ((1 + v.x) * W) / 2, y: ((1 - v.y) * H) / 2 };
}

describe('previewFrame', () => {
  it('maps positions where sigma draws them', () => {
    const cases = [
      { xy: [0, 0, 10, 5, -4, 2, 3, -8], cam: { x: 0.5, y: 0.5, ratio: 1 }, W: 800, H: 500 },
      { xy: [0, 0, 1, 30, -2, 12], cam: { x: 0.3, y: 0.7, ratio: 0.25 }, W: 600, H: 900 },
      { xy: [100, 100, 400, 130, 250, 90], cam: { x: 0.55, y: 0.45, ratio: 3 }, W: 1280, H: 860 },
    ];
    for (const c of cases) {
      const f = previewFrame(c.xy, c.cam, c.W, c.H, 30);
      for (let i = 0; i < c.xy.length; i += 2) {
        const want = sigmaViewport(c.xy, c.cam, c.W, c.H, 30, { x: c.xy[i], y: c.xy[i + 1] });
        expect(f.ax * c.xy[i] + f.bx).toBeCloseTo(want.x, 3);
        expect(f.ay * c.xy[i + 1] + f.by).toBeCloseTo(want.y, 3);
      }
    }
  });
});

describe('nearest', () => {
  it('finds the node under the mouse, or none within the slop', () => {
    const xy = [0, 0, 10, 0, 20, 0];
    const f = { ax: 10, bx: 5, ay: -10, by: 50 };
    expect(nearest(xy, f, 106, 52, 8)).toBe(1);
    expect(nearest(xy, f, 200, 52, 8)).toBe(2);
    expect(nearest(xy, f, 150, 52, 8)).toBe(-1);
  });
});

describe('rasterPreview', () => {
  it('draws nodes in their colour over the tree links, and the other links once given', () => {
    const w = 40;
    const h = 30;
    const buf = new Uint32Array(w * h);
    const xy = new Float32Array([0, 0, 30, 0, 30, 20]);
    const f = { ax: 1, bx: 5, ay: 1, by: 5 };
    const look = {
      colors: Uint32Array.from(['#ff0000', '#00ff00', '#0000ff'], pixel),
      parents: new Int32Array([-1, 0, 1]),
      sizes: new Float32Array([3, 3, 3]),
      edge: pixel('#101010'),
    };
    rasterPreview(buf, w, h, 1, xy, f, look, { x: 0.5, y: 0.5, ratio: 1 });
    expect(buf[5 * w + 5]).toBe(pixel('#ff0000'));
    expect(buf[5 * w + 35]).toBe(pixel('#00ff00'));
    expect(buf[25 * w + 35]).toBe(pixel('#0000ff'));
    expect(buf[5 * w + 20]).toBe(pixel('#101010')); // the link 0-1
    expect(buf[15 * w + 35]).toBe(pixel('#101010')); // the link 1-2
    expect(buf[20 * w + 15]).toBe(0);
    // The link 0-2 is drawn once given, under the tree's links and the nodes.
    expect(buf[15 * w + 20]).toBe(0);
    rasterPreview(buf, w, h, 1, xy, f, { ...look, cross: new Int32Array([0, 2]), crossEdge: pixel('#777777') }, { x: 0.5, y: 0.5, ratio: 1 });
    expect(buf[15 * w + 20]).toBe(pixel('#777777'));
    expect(buf[5 * w + 20]).toBe(pixel('#101010'));
    expect(buf[5 * w + 5]).toBe(pixel('#ff0000'));
  });
  it('reads colours as little-endian RGBA pixels', () => {
    expect(pixel('#102030')).toBe(0xff302010);
    expect(pixel('#abc')).toBe(0xffccbbaa);
    expect(pixel('nonsense')).toBe(0xff808080);
  });
});

describe('crossPairs', () => {
  it('draws at most perNode other links a page, never a tree link, a loop or a repeat', () => {
    // Tree: 0->1, 0->2. Then 0->1 (tree), 1->1 (loop), 1->2, 1->2 (repeat), 1->0, 1->3, 1->4 (over 2 a page), 2->0, 9->0 (no page 9).
    const links = new Int32Array([0, 1, 0, 2, 0, 1, 1, 1, 1, 2, 1, 2, 1, 0, 1, 3, 1, 4, 2, 0, 9, 0]);
    expect([...crossPairs(5, links, 2, 2)]).toEqual([1, 2, 1, 0, 2, 0]);
    // The reverse of a tree link is another link.
    expect([...crossPairs(3, new Int32Array([0, 1, 1, 0]), 1, 3)]).toEqual([1, 0]);
  });
});

describe('bbox', () => {
  it('is the extent of the positions, and a unit box when there are none', () => {
    expect(bbox(new Float32Array([1, -2, 3, 4, -5, 0]))).toEqual({ x: [-5, 3], y: [-2, 4] });
    expect(bbox(new Float32Array())).toEqual({ x: [0, 1], y: [0, 1] });
  });
});
