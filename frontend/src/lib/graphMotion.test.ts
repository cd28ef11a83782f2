import { describe, expect, it } from 'vitest';
import { matrixFromCamera, multiplyVec2 } from 'sigma/utils';
import { remainder, restingCamera, still, wheelNotches, zoomAbout, type CameraView, type Shift } from './graphMotion';

// sigma's own maps between framed graph coordinates and the viewport (angle 0).
const W = 800;
const H = 500;
const dims = { width: W, height: H };
const graphDims = { width: 3, height: 2 };
const pad = 30;
function toViewport(cam: CameraView, p: { x: number; y: number }) {
  const v = multiplyVec2(matrixFromCamera({ ...cam, angle: 0 }, dims, graphDims, pad), p);
  return { x: ((1 + v.x) * W) / 2, y: ((1 - v.y) * H) / 2 };
}
function toFramed(cam: CameraView, p: { x: number; y: number }) {
  const inv = matrixFromCamera({ ...cam, angle: 0 }, dims, graphDims, pad, true);
  return multiplyVec2(inv, { x: (2 * p.x) / W - 1, y: 1 - (2 * p.y) / H });
}
const apply = (m: Shift, p: { x: number; y: number }) => ({ x: m.s * p.x + m.tx, y: m.s * p.y + m.ty });

describe('restingCamera', () => {
  const cam = { x: 0.4, y: 0.6, ratio: 0.8 };
  const points = [
    { x: 0.1, y: 0.2 },
    { x: 0.5, y: 0.5 },
    { x: 0.9, y: 0.3 },
  ];
  const shifts: Shift[] = [still(), { s: 1, tx: 120, ty: -45 }, zoomAbout(still(), 1.7, 300, 200), zoomAbout({ s: 1, tx: -80, ty: 30 }, 1 / 1.7, 640, 90)];
  it('draws without a transform what the transformed picture showed', () => {
    for (const m of shifts) {
      const next = restingCamera(cam, m, W, H, (p) => toFramed(cam, p));
      for (const p of points) {
        const want = apply(m, toViewport(cam, p));
        const got = toViewport(next, p);
        expect(got.x).toBeCloseTo(want.x, 3);
        expect(got.y).toBeCloseTo(want.y, 3);
      }
    }
  });
  it('keeps the point under the mouse in place when zooming about it', () => {
    const m = zoomAbout(zoomAbout(still(), 1.7, 100, 100), 1.7, 100, 100);
    const under = toFramed(cam, { x: 100, y: 100 });
    const next = restingCamera(cam, m, W, H, (p) => toFramed(cam, p));
    const v = toViewport(next, under);
    expect(v.x).toBeCloseTo(100, 3);
    expect(v.y).toBeCloseTo(100, 3);
    expect(next.ratio).toBeCloseTo(cam.ratio / 1.7 / 1.7, 6);
  });
});

describe('remainder', () => {
  it('is what moved after the redraw', () => {
    const done = zoomAbout({ s: 1, tx: 50, ty: 10 }, 2, 200, 100);
    const now = zoomAbout({ s: done.s, tx: done.tx + 30, ty: done.ty - 5 }, 1.5, 400, 300);
    const r = remainder(now, done);
    for (const p of [{ x: 0, y: 0 }, { x: 123, y: 456 }]) {
      const a = apply(now, p);
      const b = apply(r, apply(done, p));
      expect(b.x).toBeCloseTo(a.x, 9);
      expect(b.y).toBeCloseTo(a.y, 9);
    }
    expect(remainder(done, done)).toEqual({ s: 1, tx: 0, ty: 0 });
  });
});

describe('wheelNotches', () => {
  it('reads pixels, lines and pages, one notch at most an event', () => {
    expect(wheelNotches({ deltaY: -100, deltaMode: 0 })).toBe(1);
    expect(wheelNotches({ deltaY: 120, deltaMode: 0 })).toBe(-1);
    expect(wheelNotches({ deltaY: 10, deltaMode: 0 })).toBeCloseTo(-0.1);
    expect(wheelNotches({ deltaY: -3, deltaMode: 1 })).toBe(1);
    expect(wheelNotches({ deltaY: 0, deltaMode: 0 })).toBe(-0);
  });
});

