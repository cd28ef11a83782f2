import { describe, expect, it } from 'vitest';
import { labelled, overlayShapes, radius } from './graphOverlay';
import { previewFrame } from './graphPreview';

describe('overlayShapes', () => {
  const xy = [0, 0, 10, 5, -4, 2, 3, -8];
  const cam = { x: 0.5, y: 0.5, ratio: 0.25 };
  const f = previewFrame(xy, cam, 800, 500, 30);
  const at = (i: number) => [f.ax * xy[2 * i] + f.bx, f.ay * xy[2 * i + 1] + f.by];

  it('draws the path where the picture has its pages, the ends last and larger', () => {
    const s = overlayShapes(xy, f, { path: [0, 2, 3], from: 0, to: 3 }, cam);
    expect(s.links).toEqual([
      [...at(0), ...at(2)],
      [...at(2), ...at(3)],
    ]);
    expect(s.dots.map((d) => d.i)).toEqual([2, 0, 3]);
    expect(s.dots[0]).toEqual({ i: 2, x: at(2)[0], y: at(2)[1], r: radius(6, cam) });
    expect(s.dots[2].r).toBe(9 / Math.sqrt(0.25));
  });

  it('draws a chosen page without a path, and nothing without one', () => {
    const s = overlayShapes(xy, f, { path: [], from: 1, to: -1 }, cam);
    expect(s.links).toEqual([]);
    expect(s.dots.map((d) => d.i)).toEqual([1]);
    expect(overlayShapes(xy, f, { path: [], from: -1, to: -1 }, cam)).toEqual({ links: [], dots: [] });
  });

  it('leaves out indexes that are not pages', () => {
    const s = overlayShapes(xy, f, { path: [0, 7, 1], from: 0, to: 7 }, cam);
    expect(s.links).toEqual([]);
    expect(s.dots.map((d) => d.i)).toEqual([1, 0]);
  });
});

describe('labelled', () => {
  it('labels the pages drawn large enough on screen, one a cell, the largest first', () => {
    // Frame: x → 10x, y → 10y; a 300×200 screen in cells of 100.
    const f = { ax: 10, bx: 0, ay: 10, by: 0 };
    const xy = [1, 1, 2, 2, 15, 1, 25, 15, 40, 5, 5, 12];
    const sizes = [3, 6, 3, 3, 3, 1];
    // At ratio 1 radii are 3 and 6: only page 1 reaches 5.
    expect(labelled(xy, f, sizes, { x: 0.5, y: 0.5, ratio: 1 }, 300, 200, 5, 100)).toEqual([1]);
    // Zoomed in 4× (radii doubled): pages 0 and 1 share a cell (1 is larger), 2 and 3 have
    // their own, 4 is off screen, 5 is too small.
    expect(labelled(xy, f, sizes, { x: 0.5, y: 0.5, ratio: 0.25 }, 300, 200, 5, 100)).toEqual([1, 2, 3]);
  });
});
