// The shortest path and the chosen pages, drawn over the Graph view's picture on a plain 2D
// canvas. sigma would draw them through its reducers, which means redrawing every node and
// link: where WebGL runs on the CPU that is most of a second at 10,000 pages, twice per
// path (once for the chosen page, once for the path). The overlay draws a few shapes
// instead: a veil that dims the rest of the picture, the path's links, its pages and their
// labels (as canvas text: crawled titles never become markup). Over the force layout's
// raster, which has no labels, it also labels the pages sigma would label. It maps positions as sigma
// does (previewFrame), so it lies exactly over sigma's picture or the force layout's raster,
// and it is inside the layer that graphMotion.ts moves, so it moves with them.
import type { CameraView } from './graphMotion';
import type { Frame } from './graphPreview';

/** The path to highlight, in order, and the chosen ends. */
export interface Marks {
  path: number[];
  from: number;
  to: number;
}

/** What the overlay draws, in CSS pixels of the viewport. */
export interface Shapes {
  /** The path's links: x0, y0, x1, y1. */
  links: [number, number, number, number][];
  /** The path's pages and the chosen ends: where, and the disc's radius (ends last, on top). */
  dots: { i: number; x: number; y: number; r: number }[];
}

/** sigma's node radius on screen: the size, scaled by the square root of the camera's ratio. */
export const radius = (size: number, camera: CameraView) => size / Math.sqrt(camera.ratio);

/** The shapes of marks `m` over positions `xy` mapped by frame `f`. */
export function overlayShapes(xy: ArrayLike<number>, f: Frame, m: Marks, camera: CameraView): Shapes {
  const n = Math.floor(xy.length / 2);
  const ok = (i: number) => Number.isInteger(i) && i >= 0 && i < n;
  const X = (i: number) => f.ax * xy[2 * i] + f.bx;
  const Y = (i: number) => f.ay * xy[2 * i + 1] + f.by;
  const links: Shapes['links'] = [];
  for (let k = 1; k < m.path.length; k++) {
    const a = m.path[k - 1];
    const b = m.path[k];
    if (ok(a) && ok(b)) links.push([X(a), Y(a), X(b), Y(b)]);
  }
  const ends = new Set([m.from, m.to].filter(ok));
  const dots: Shapes['dots'] = [];
  for (const i of new Set(m.path)) {
    if (ok(i) && !ends.has(i)) dots.push({ i, x: X(i), y: Y(i), r: radius(6, camera) });
  }
  for (const i of ends) dots.push({ i, x: X(i), y: Y(i), r: radius(9, camera) });
  return { links, dots };
}

/**
 * The pages labelled on the force layout's raster, as sigma would label its nodes: those
 * on screen whose drawn radius reaches `threshold` pixels (sigma's labelRenderedSizeThreshold),
 * at most one a `cell`×`cell` square of the screen (sigma's label grid), the largest (then
 * the first) in each.
 */
export function labelled(xy: ArrayLike<number>, f: Frame, sizes: ArrayLike<number>, camera: CameraView, width: number, height: number, threshold: number, cell: number): number[] {
  const cols = Math.max(1, Math.ceil(width / cell));
  const best = new Map<number, number>();
  const scale = 1 / Math.sqrt(camera.ratio);
  for (let i = 0; 2 * i + 1 < xy.length; i++) {
    const r = sizes[i] * scale;
    if (r < threshold) continue;
    const x = f.ax * xy[2 * i] + f.bx;
    const y = f.ay * xy[2 * i + 1] + f.by;
    if (!(x >= 0 && x < width && y >= 0 && y < height)) continue;
    const c = Math.floor(y / cell) * cols + Math.floor(x / cell);
    const had = best.get(c);
    if (had === undefined || sizes[i] > sizes[had]) best.set(c, i);
  }
  return [...best.values()].sort((a, b) => a - b);
}

export interface OverlayLook {
  /** Node i's colour (CSS). */
  color: (i: number) => string;
  /** Node i's label (plain text). */
  label: (i: number) => string;
  /** The picture's background (CSS), for the veil. */
  background: string;
  /** Node i's size as sigma takes it. */
  size?: (i: number) => number;
  /** Pages labelled besides the marks (labelled(); for the raster, which has no labels). */
  labels?: number[];
}

const pathColor = '#e0672b';

/**
 * Draws marks `m` on `canvas` (CSS size width×height, `dpr` device pixels a CSS pixel),
 * or clears it when there are none.
 */
export function drawOverlay(
  canvas: HTMLCanvasElement,
  width: number,
  height: number,
  dpr: number,
  xy: ArrayLike<number>,
  f: Frame,
  m: Marks,
  camera: CameraView,
  look: OverlayLook,
): void {
  const w = Math.max(1, Math.round(width * dpr));
  const h = Math.max(1, Math.round(height * dpr));
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, w, h);
  const { links, dots } = overlayShapes(xy, f, m, camera);
  const others = look.labels ?? [];
  if (dots.length === 0 && others.length === 0) return;
  ctx.scale(dpr, dpr);
  ctx.font = '14px Arial, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  const text = (i: number, x: number, y: number) => {
    const t = look.label(i);
    if (!t) return;
    ctx.lineWidth = 3;
    ctx.strokeStyle = 'rgba(255, 255, 255, 0.9)';
    ctx.fillStyle = '#000000';
    ctx.strokeText(t, x, y);
    ctx.fillText(t, x, y);
  };
  for (const i of others) {
    text(i, f.ax * xy[2 * i] + f.bx + radius(look.size?.(i) ?? 3, camera) + 3, f.ay * xy[2 * i + 1] + f.by);
  }
  // With a path, the rest of the picture is dimmed.
  if (links.length > 0) {
    ctx.globalAlpha = 0.7;
    ctx.fillStyle = look.background;
    ctx.fillRect(0, 0, width, height);
    ctx.globalAlpha = 1;
  }
  ctx.strokeStyle = pathColor;
  ctx.lineWidth = 3;
  ctx.lineCap = 'round';
  ctx.beginPath();
  for (const [x0, y0, x1, y1] of links) {
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
  }
  ctx.stroke();
  // Labels as sigma draws them, beside the disc, with a light halo so that they stay
  // legible over the links; the discs over them, so that a label never hides a page.
  for (const d of dots) text(d.i, d.x + d.r + 3, d.y);
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = '#ffffff';
  for (const d of dots) {
    ctx.beginPath();
    ctx.arc(d.x, d.y, d.r, 0, 2 * Math.PI);
    ctx.fillStyle = look.color(d.i);
    ctx.fill();
    ctx.stroke();
  }
}
