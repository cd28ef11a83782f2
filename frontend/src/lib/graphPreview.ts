// The Graph view's picture of a force-directed layout. Handing positions to sigma costs a
// full re-index and redraw of every node and link, and where WebGL runs on the CPU
// (SwiftShader, llvmpipe) each primitive costs tens of microseconds, and the window waits
// for the whole picture when it is composited: at 10,000 pages that is most of a second,
// whether sigma draws it or another WebGL layer would. So the force layout is drawn as a
// raster on a plain 2D canvas over sigma's: nodes as small squares by colour, tree links,
// and once settled the other drawn links. The layout's worker draws it (the window's
// thread only puts its pixels); it stays the picture of the settled layout, redrawn by the
// worker when the camera or the colours change.
//
// The canvas maps positions as sigma would: the positions' extent fitted in the viewport
// (sigma's normalisation and correction ratio), then the camera. So sigma's camera (and
// the pan and zoom of graphMotion.ts) moves the raster exactly as it would move sigma's
// picture, and a click picks the node under the mouse.
import type { CameraView } from './graphMotion';

/** viewport x = ax·x + bx, viewport y = ay·y + by. */
export interface Frame {
  ax: number;
  bx: number;
  ay: number;
  by: number;
}

/** sigma's getCorrectionRatio: how the graph's shape fits the viewport's. */
function correction(width: number, height: number, gw: number, gh: number): number {
  const vr = height / width;
  const gr = gh / gw;
  if ((vr < 1 && gr > 1) || (vr > 1 && gr < 1)) return 1;
  return Math.min(Math.max(gr, 1 / gr), Math.max(1 / vr, vr));
}

/**
 * The affine map from positions (x, y at 2i, 2i+1) to the viewport that sigma would use
 * for the same positions, camera (angle 0), viewport and stage padding.
 */
export function previewFrame(xy: ArrayLike<number>, camera: CameraView, width: number, height: number, padding: number): Frame {
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 0; i + 1 < xy.length; i += 2) {
    const x = xy[i];
    const y = xy[i + 1];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  if (!(minX <= maxX)) [minX, maxX, minY, maxY] = [0, 1, 0, 1];
  let r = Math.max(maxX - minX, maxY - minY);
  if (r === 0 || !Number.isFinite(r)) r = 1;
  const dx = (maxX + minX) / 2;
  const dy = (maxY + minY) / 2;
  const k = correction(width, height, maxX - minX || 1, maxY - minY || 1) * (Math.min(width, height) - 2 * padding);
  return {
    ax: k / (r * camera.ratio),
    bx: width / 2 + (k * (0.5 - dx / r - camera.x)) / camera.ratio,
    ay: -k / (r * camera.ratio),
    by: height / 2 - (k * (0.5 - dy / r - camera.y)) / camera.ratio,
  };
}

/** What the preview draws besides the positions (the path is drawn over it: graphOverlay.ts). */
export interface Look {
  /** Node i's colour, as a pixel (pixel()). */
  colors: Uint32Array;
  /** Node i's parent in the tree (a link drawn), or -1. */
  parents: Int32Array;
  /** Node i's size as sigma takes it (3 for a page, 6 for a seed). */
  sizes: Float32Array;
  /** The tree links' colour, as a pixel. */
  edge: number;
  /** Other links drawn (pairs of node indexes: crossPairs), once the layout has settled. */
  cross?: Int32Array;
  /** Their colour, as a pixel. */
  crossEdge?: number;
}

/** Where the preview is drawn: the camera, the viewport in CSS pixels, sigma's stage padding, device pixels a CSS pixel. */
export interface View {
  camera: CameraView;
  width: number;
  height: number;
  padding: number;
  dpr: number;
}

/** The nearest node to (px, py) within `slop` pixels under frame f, or -1. */
export function nearest(xy: ArrayLike<number>, f: Frame, px: number, py: number, slop: number): number {
  let best = -1;
  let bestD = slop * slop;
  for (let i = 0; 2 * i + 1 < xy.length; i++) {
    const ddx = f.ax * xy[2 * i] + f.bx - px;
    const ddy = f.ay * xy[2 * i + 1] + f.by - py;
    const d = ddx * ddx + ddy * ddy;
    if (d <= bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** A #rgb or #rrggbb colour as an opaque pixel of an ImageData's Uint32Array (little-endian: ABGR). */
export function pixel(hex: string): number {
  let h = hex.replace('#', '');
  if (h.length === 3) h = h.replace(/./g, '$&$&');
  const v = Number.parseInt(h.slice(0, 6), 16);
  if (h.length < 6 || Number.isNaN(v)) return 0xff808080;
  return (0xff000000 | ((v & 0xff) << 16) | (v & 0xff00) | ((v >> 16) & 0xff)) >>> 0;
}

/**
 * Rasterises positions `xy` into `buf`, the pixels of a w×h ImageData (device pixels; `dpr`
 * device pixels a CSS pixel): the other drawn links and the tree links as one-pixel lines,
 * nodes as squares on top. Writing pixels and one putImageData is a few milliseconds for 10,000
 * nodes, where as many canvas fillRect and lineTo calls, drawn on the CPU, take tens. The
 * force layout's worker draws with it (the window's thread only puts the pixels), and the
 * window's thread where there is no worker.
 */
export function rasterPreview(buf: Uint32Array, w: number, h: number, dpr: number, xy: Float32Array, f: Frame, look: Look, camera: CameraView) {
  buf.fill(0);
  if (w <= 0 || h <= 0) return;
  const n = xy.length / 2;
  const X = (i: number) => (f.ax * xy[2 * i] + f.bx) * dpr;
  const Y = (i: number) => (f.ay * xy[2 * i + 1] + f.by) * dpr;
  const line = (x0: number, y0: number, x1: number, y1: number, c: number, width: number) => {
    // Both ends off the picture on one side: nothing to draw.
    if ((x0 < 0 && x1 < 0) || (y0 < 0 && y1 < 0) || (x0 >= w && x1 >= w) || (y0 >= h && y1 >= h)) return;
    const steps = Math.min(4 * (w + h), Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0))));
    const sx = steps ? (x1 - x0) / steps : 0;
    const sy = steps ? (y1 - y0) / steps : 0;
    let x = x0 + 0.5;
    let y = y0 + 0.5;
    if (width <= 1) {
      for (let k = 0; k <= steps; k++, x += sx, y += sy) {
        const xx = x | 0;
        const yy = y | 0;
        if (xx >= 0 && xx < w && yy >= 0 && yy < h) buf[yy * w + xx] = c;
      }
      return;
    }
    const half = (width - 1) >> 1;
    for (let k = 0; k <= steps; k++, x += sx, y += sy) {
      for (let oy = -half; oy <= half; oy++) {
        const yy = (y | 0) + oy;
        if (yy < 0 || yy >= h) continue;
        for (let ox = -half; ox <= half; ox++) {
          const xx = (x | 0) + ox;
          if (xx >= 0 && xx < w) buf[yy * w + xx] = c;
        }
      }
    }
  };
  const square = (cx: number, cy: number, side: number, c: number) => {
    const x0 = Math.max(0, Math.round(cx - side / 2));
    const y0 = Math.max(0, Math.round(cy - side / 2));
    const x1 = Math.min(w, Math.round(cx + side / 2));
    const y1 = Math.min(h, Math.round(cy + side / 2));
    for (let y = y0; y < y1; y++) buf.fill(c, y * w + x0, y * w + Math.max(x0, x1));
  };
  if (look.cross) {
    const c = look.crossEdge ?? look.edge;
    const k = look.cross;
    for (let j = 0; j + 1 < k.length; j += 2) {
      const a = k[j];
      const b = k[j + 1];
      if (a >= 0 && b >= 0 && a < n && b < n) line(X(a), Y(a), X(b), Y(b), c, 1);
    }
  }
  for (let i = 0; i < n; i++) {
    const p = look.parents[i];
    if (p >= 0 && p < n && p !== i) line(X(p), Y(p), X(i), Y(i), look.edge, 1);
  }
  // sigma's node sizes are radii in CSS pixels, scaled by the square root of the camera's ratio.
  const scale = dpr / Math.sqrt(camera.ratio);
  for (let i = 0; i < n; i++) square(X(i), Y(i), Math.max(2, 1.6 * look.sizes[i] * scale), look.colors[i]);
}

/**
 * The other links drawn besides the tree's, as sigma's drawn graph had them: `links` holds
 * pairs of node indexes, the first `tree` of them the tree's links (parent, child); of the
 * rest, a link is drawn unless it is a loop, repeats a drawn link (same direction) or its
 * source already has `perNode` drawn.
 */
export function crossPairs(n: number, links: Int32Array, tree: number, perNode: number): Int32Array {
  const seen = new Set<number>();
  for (let j = 0; j < tree; j++) seen.add(links[2 * j] * n + links[2 * j + 1]);
  const drawn = new Uint8Array(n);
  const out = new Int32Array(Math.max(0, links.length - 2 * tree));
  let k = 0;
  for (let j = 2 * tree; j + 1 < links.length; j += 2) {
    const a = links[j];
    const b = links[j + 1];
    if (a === b || a < 0 || b < 0 || a >= n || b >= n || drawn[a] >= perNode) continue;
    const key = a * n + b;
    if (seen.has(key)) continue;
    seen.add(key);
    drawn[a]++;
    out[k++] = a;
    out[k++] = b;
  }
  return out.slice(0, k);
}

/** The size in device pixels of the picture of `view`. */
export function pictureSize(view: View): { w: number; h: number } {
  return { w: Math.max(1, Math.round(view.width * view.dpr)), h: Math.max(1, Math.round(view.height * view.dpr)) };
}

/** Draws positions `xy` as seen in `view` into `buf` (pictureSize(view) pixels); returns the frame used. */
export function drawView(buf: Uint32Array, xy: Float32Array, view: View, look: Look): Frame {
  const { w, h } = pictureSize(view);
  const f = previewFrame(xy, view.camera, view.width, view.height, view.padding);
  rasterPreview(buf, w, h, view.dpr, xy, f, look, view.camera);
  return f;
}

/** The extent of positions xy, as sigma's custom bounding box. */
export function bbox(xy: Float32Array) {
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (let i = 0; i + 1 < xy.length; i += 2) {
    x0 = Math.min(x0, xy[i]);
    x1 = Math.max(x1, xy[i]);
    y0 = Math.min(y0, xy[i + 1]);
    y1 = Math.max(y1, xy[i + 1]);
  }
  if (!(x0 <= x1)) return { x: [0, 1] as [number, number], y: [0, 1] as [number, number] };
  return { x: [x0, x1] as [number, number], y: [y0, y1] as [number, number] };
}
