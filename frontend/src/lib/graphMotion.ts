// Panning and zooming the Graph view without redrawing it while it moves. sigma redraws
// every node, link and label on each camera change; at 10,000 pages a redraw takes
// hundreds of milliseconds where WebGL runs on the CPU (headless chromium's SwiftShader,
// Mesa's llvmpipe), far over a frame. So while the mouse drags or the wheel turns, the
// picture already drawn is moved and scaled by a CSS transform (the compositor's work, no
// redraw), and the camera is set once, when the motion rests: one redraw per gesture.
//
// The transform maps a point p of the drawn picture to s·p + t on the screen
// (transform-origin 0 0). The camera that draws without a transform what the transformed
// picture shows is centred on the graph point drawn at (c − t)/s, c the viewport's centre,
// with ratio/s as its ratio (restingCamera below).
import type Sigma from 'sigma';

/** A scale and a translation: screen = s·drawn + t. */
export interface Shift {
  s: number;
  tx: number;
  ty: number;
}

export interface CameraView {
  x: number;
  y: number;
  ratio: number;
}

/** The identity shift. */
export const still = (): Shift => ({ s: 1, tx: 0, ty: 0 });

/** The shift after a zoom by factor f about the screen point (px, py). */
export function zoomAbout(m: Shift, f: number, px: number, py: number): Shift {
  return { s: m.s * f, tx: px - f * (px - m.tx), ty: py - f * (py - m.ty) };
}

/** What remains of shift `now` once the picture has been redrawn for shift `done`. */
export function remainder(now: Shift, done: Shift): Shift {
  const s = now.s / done.s;
  return { s, tx: now.tx - s * done.tx, ty: now.ty - s * done.ty };
}

/**
 * The camera that draws, untransformed, what the picture drawn by `camera` shows under
 * `m`. `toFramed` maps a viewport point to the camera's (framed graph) coordinates under
 * `camera`: sigma's viewportToFramedGraph.
 */
export function restingCamera(
  camera: CameraView,
  m: Shift,
  width: number,
  height: number,
  toFramed: (p: { x: number; y: number }) => { x: number; y: number },
): CameraView {
  const c = toFramed({ x: (width / 2 - m.tx) / m.s, y: (height / 2 - m.ty) / m.s });
  return { x: c.x, y: c.y, ratio: camera.ratio / m.s };
}

/** One wheel event as a number of notches, positive to zoom in, at most one a event. */
export function wheelNotches(e: Pick<WheelEvent, 'deltaY' | 'deltaMode'>): number {
  const per = e.deltaMode === 1 ? 3 : e.deltaMode === 2 ? 1 : 100;
  return Math.max(-1, Math.min(1, -e.deltaY / per));
}

/** Zoom factor of one notch (sigma's zoomingRatio). */
const notch = 1.7;
/** The motion rests after this long without a move or a wheel event. */
const restMs = 150;
/** A press that moved further than this is a drag, not a click. */
const clickSlop = 4;

export interface Motion {
  /** True when the last press moved the picture (the click that ends it picks nothing). */
  dragged(): boolean;
  /**
   * Tells it that the picture for the camera set at rest is on the screen, when that picture
   * is not sigma's (`external` below): the transform that remains is then applied.
   */
  pictured(): void;
  /** True while the picture is moved by a transform that awaits a redraw. */
  moving(): boolean;
  /** Removes the listeners. */
  detach(): void;
}

/**
 * Takes over mouse panning and wheel zooming of `renderer`, whose container is `layer`
 * inside `frame`: the events are caught on their way down, before sigma's listeners, and
 * `layer` is transformed until the motion rests. Touch gestures stay with sigma. When
 * `external()` is true the picture is not sigma's but drawn elsewhere for the camera set
 * (the force layout's raster): `onrest` asks for it, and the transform stays until
 * `pictured()` says it is there.
 */
export function attachMotion(frame: HTMLElement, layer: HTMLElement, renderer: Sigma, onrest?: () => void, external?: () => boolean): Motion {
  let shift = still();
  /** The shift the camera was last set for; the transform left is the remainder. */
  let pending: Shift | null = null;
  let down: { x: number; y: number; sx: number; sy: number } | null = null;
  let moved = false;
  let timer = 0;
  /** The camera is set and its picture, drawn elsewhere, not there yet. */
  let waiting = false;

  // The picture on screen is the one drawn before `pending` was set: it takes the whole shift.
  const apply = () => {
    const m = shift;
    const none = m.s === 1 && m.tx === 0 && m.ty === 0;
    layer.style.transform = none ? '' : `translate(${m.tx}px, ${m.ty}px) scale(${m.s})`;
  };

  const rest = () => {
    clearTimeout(timer);
    timer = 0;
    // A camera set and not yet drawn: drawn() comes back here.
    if (pending || (shift.s === 1 && shift.tx === 0 && shift.ty === 0)) return;
    const camera = renderer.getCamera();
    const state = camera.getState();
    const { width, height } = renderer.getDimensions();
    const next = restingCamera(state, shift, width, height, (p) => renderer.viewportToFramedGraph(p, { cameraState: state }));
    pending = shift;
    camera.setState(next); // sigma redraws on its next frame (afterRender below)
  };

  const later = () => {
    clearTimeout(timer);
    timer = window.setTimeout(rest, restMs);
  };

  // When sigma has drawn the camera set at rest, the transform that remains is whatever
  // moved since.
  const drawn = () => {
    if (!pending || waiting) return;
    if (external?.()) {
      waiting = true;
      onrest?.();
      return;
    }
    shown();
    onrest?.();
  };
  const shown = () => {
    if (!pending) return;
    const was = shift;
    shift = remainder(shift, pending);
    pending = null;
    if (down) {
      down.sx += shift.tx - was.tx;
      down.sy += shift.ty - was.ty;
    }
    apply();
    if (!down && !timer && !(shift.s === 1 && shift.tx === 0 && shift.ty === 0)) later();
  };
  renderer.on('afterRender', drawn);

  const local = (e: MouseEvent) => {
    const r = frame.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };

  const onDown = (e: MouseEvent) => {
    if (e.button !== 0) return;
    const p = local(e);
    down = { x: p.x, y: p.y, sx: shift.tx, sy: shift.ty };
    moved = false;
  };
  const onMove = (e: MouseEvent) => {
    if (!down) return;
    const p = local(e);
    const dx = p.x - down.x;
    const dy = p.y - down.y;
    if (!moved && Math.hypot(dx, dy) <= clickSlop) return;
    moved = true;
    // sigma never sees the drag: no camera change, no redraw, no hover picking.
    e.stopPropagation();
    shift = { s: shift.s, tx: down.sx + dx, ty: down.sy + dy };
    apply();
    later();
  };
  const onUp = () => {
    if (!down) return;
    down = null;
    if (moved) rest();
  };
  const onWheel = (e: WheelEvent) => {
    e.preventDefault();
    e.stopPropagation();
    const n = wheelNotches(e);
    if (!n) return;
    // The ratio stays within sigma's bounds. The drawn picture's ratio is the camera's,
    // or, when a camera is set and not yet drawn, the one before it.
    const camera = renderer.getCamera();
    const ratio = camera.getState().ratio * (pending ? pending.s : 1);
    const s = Math.max(ratio / (camera.maxRatio ?? Infinity), Math.min(ratio / (camera.minRatio ?? 0), shift.s * notch ** n));
    const f = s / shift.s;
    if (f === 1) return;
    const p = local(e);
    shift = zoomAbout(shift, f, p.x, p.y);
    if (down) {
      down.sx = shift.tx - (p.x - down.x);
      down.sy = shift.ty - (p.y - down.y);
    }
    apply();
    later();
  };
  const onClick = (e: MouseEvent) => {
    if (moved) e.stopPropagation();
  };

  frame.addEventListener('mousedown', onDown, true);
  window.addEventListener('mousemove', onMove, true);
  window.addEventListener('mouseup', onUp, true);
  frame.addEventListener('wheel', onWheel, { capture: true, passive: false });
  frame.addEventListener('click', onClick, true);
  return {
    dragged: () => moved,
    pictured() {
      if (!waiting) return;
      waiting = false;
      shown();
    },
    moving: () => timer !== 0 || pending !== null || down !== null,
    detach() {
      clearTimeout(timer);
      renderer.off('afterRender', drawn);
      frame.removeEventListener('mousedown', onDown, true);
      window.removeEventListener('mousemove', onMove, true);
      window.removeEventListener('mouseup', onUp, true);
      frame.removeEventListener('wheel', onWheel, true);
      frame.removeEventListener('click', onClick, true);
    },
  };
}
