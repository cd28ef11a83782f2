// ForceAtlas2's own iteration (graphology-layout-forceatlas2/iterate) in a worker, so that a
// big graph settles while the window stays responsive. The page sends the nodes' positions
// and sizes and every link as a pair of node indexes; the worker builds the iteration's
// matrices (as helpers.graphToByteArrays would from a graphology graph, which at 10,000
// pages took the window's thread for seconds), runs at most `steps` steps, and sends the
// positions back at most every `every` ms and when it is done. With each it sends the
// picture of those positions, drawn here (graphPreview.ts): the window's thread only puts
// its pixels on the preview canvas. The steps run in slices, so that the page's messages
// reach it: a new camera or colours (`view`, `look`) are drawn at once, `stop` ends the
// layout where it is. It stops early when the layout has converged: when the nodes' mean
// move in a step stays under a thousandth of the picture's extent for `calm` steps in a row.
// Once settled it stays, as the painter of the settled layout: its last picture, and each
// one after it, has the other drawn links too (graphPreview.ts crossPairs), and it draws
// a new picture for each new camera or look the page sends.
import iterate from 'graphology-layout-forceatlas2/iterate.js';
import { matrices } from './forceMatrices';
import { crossPairs, drawView, pictureSize, type Look, type View } from './graphPreview';

export interface Start {
  /** x and y of node i at 2i and 2i+1. */
  xy: Float32Array;
  size: Float32Array;
  /** Links as pairs of node indexes; repeated pairs pull once. The first `tree` pairs are the tree's links. */
  links: Int32Array;
  tree: number;
  /** At most this many other links out of a page are drawn once settled. */
  perNode: number;
  settings: Record<string, unknown>;
  steps: number;
}

/** A message from the page: the start, a new camera or look for the pictures, or stop. */
export interface ToWorker {
  start?: Start;
  view?: View;
  look?: Look;
  /** Ends the layout where it is (the last message follows). */
  stop?: boolean;
  /** The page's count of views and looks sent, echoed with the picture drawn for them. */
  seq: number;
}

/** A message to the page. */
export interface FromWorker {
  xy: Float32Array;
  done: number;
  /** The layout has ended: these are its positions. Pictures may follow, for new cameras and looks. */
  last: boolean;
  converged: boolean;
  /**
   * The positions drawn for view and look number `seq`, when the page sent them: as an
   * ImageBitmap where the worker can make one (the page shows it without copying), else as
   * pixels.
   */
  picture?: { pixels?: Uint32Array; bitmap?: ImageBitmap; w: number; h: number; seq: number };
}

const every = 200;
const calm = 5;
const tolerance = 1e-3;
/** Milliseconds of steps before the worker reads its messages. */
const slice = 50;
/** Numbers per node in the node matrix (helpers.js's PPN): x and y first. */
const ppn = 10;

let view: View | null = null;
let look: Look | null = null;
let seq = 0;
let stopped = false;
/** Sends the current positions and their picture (with the camera and look last sent). */
let send: ((last: boolean) => void) | null = null;

self.onmessage = (e: MessageEvent<ToWorker>) => {
  if (e.data.view) view = e.data.view;
  if (e.data.look) look = e.data.look;
  seq = e.data.seq;
  if (e.data.stop) stopped = true;
  if (e.data.start) run(e.data.start);
  else if ((e.data.view || e.data.look) && send && !painting) {
    // One picture for the cameras and looks that came meanwhile.
    painting = setTimeout(() => {
      painting = 0;
      send?.(false);
    });
  }
};
let painting: ReturnType<typeof setTimeout> | 0 = 0;
/** The messages being made (a bitmap is made asynchronously), in order. */
let queue: Promise<unknown> = Promise.resolve();

function run(start: Start) {
  const { settings, steps } = start;
  const { nodes, edges } = matrices(start.xy, start.size, start.links);
  const n = nodes.length / ppn;
  const prev = new Float32Array(2 * n);
  let done = 0;
  let converged = false;
  /** The other links drawn, once settled. */
  let cross: Int32Array | undefined;
  const positions = () => {
    const xy = new Float32Array(2 * n);
    for (let i = 0; i < n; i++) {
      xy[2 * i] = nodes[i * ppn];
      xy[2 * i + 1] = nodes[i * ppn + 1];
    }
    return xy;
  };
  send = (last: boolean) => {
    if (last) cross = crossPairs(n, start.links, start.tree, start.perNode);
    const xy = positions();
    const out: FromWorker = { xy, done, last, converged };
    const post = (transfer: Transferable[]) => (self as unknown as Worker).postMessage(out, transfer);
    if (!view || !look) {
      queue = queue.then(() => post([xy.buffer]));
      return;
    }
    const { w, h } = pictureSize(view);
    const pixels = new Uint32Array(w * h);
    drawView(pixels, xy, view, cross ? { ...look, cross } : look);
    const at = seq;
    if (typeof createImageBitmap !== 'function') {
      out.picture = { pixels, w, h, seq: at };
      queue = queue.then(() => post([xy.buffer, pixels.buffer]));
      return;
    }
    // Messages keep their order: the next one waits for this bitmap.
    const made = createImageBitmap(new ImageData(new Uint8ClampedArray(pixels.buffer), w, h)).then(
      (bitmap) => {
        out.picture = { bitmap, w, h, seq: at };
        return [xy.buffer, bitmap] as Transferable[];
      },
      () => {
        out.picture = { pixels, w, h, seq: at };
        return [xy.buffer, pixels.buffer] as Transferable[];
      },
    );
    queue = queue.then(() => made).then(post);
  };
  let sent = performance.now();
  let still = 0;
  let k = 1;
  const stepSome = () => {
    if (k > steps || stopped) {
      send!(true);
      return;
    }
    const t0 = performance.now();
    for (; k <= steps; k++) {
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
      done = k;
      converged = still >= calm;
      const now = performance.now();
      if (last || now - sent >= every) {
        send!(last);
        sent = performance.now();
      }
      if (last) return;
      if (performance.now() - t0 >= slice) {
        k++;
        break;
      }
    }
    setTimeout(stepSome, 0);
  };
  stepSome();
}
