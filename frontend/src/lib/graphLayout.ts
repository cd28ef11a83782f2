// Pure helpers of the graph view: tree positions from family indexes (d3-hierarchy's tidy
// tree), colours by host, HTTP status or rule category, and the path to highlight.
import { stratify, tree } from 'd3-hierarchy';
import type { GraphNode } from '../api';
import type { GraphColor } from './routes';

/** Positions of the nodes as a top-down tree: x across, y down (sigma's y grows upwards). */
export function treePositions(nodes: Pick<GraphNode, 'parent'>[]): { x: Float64Array; y: Float64Array } {
  const x = new Float64Array(nodes.length);
  const y = new Float64Array(nodes.length);
  if (nodes.length === 0) return { x, y };
  // One virtual root above the seeds, so that several seeds make one tree.
  const root = -1;
  const rows = [{ id: root, parent: null as number | null }];
  nodes.forEach((n, i) => rows.push({ id: i, parent: n.parent >= 0 && n.parent < nodes.length && n.parent !== i ? n.parent : root }));
  const h = stratify<{ id: number; parent: number | null }>()
    .id((d) => String(d.id))
    .parentId((d) => (d.parent === null ? null : String(d.parent)))(rows);
  const laid = tree<{ id: number; parent: number | null }>().nodeSize([1, 1])(h);
  let minX = Infinity;
  let maxX = -Infinity;
  let depth = 0;
  laid.each((n) => {
    minX = Math.min(minX, n.x);
    maxX = Math.max(maxX, n.x);
    depth = Math.max(depth, n.depth);
  });
  // Levels spaced so that the tree is about twice as wide as it is tall (a screen's shape),
  // however many pages each level has.
  const dy = depth > 1 ? Math.max(1, (maxX - minX) / (2 * (depth - 1))) : 1;
  laid.each((n) => {
    if (n.data.id === root) return;
    x[n.data.id] = n.x;
    y[n.data.id] = -(n.depth - 1) * dy;
  });
  return { x, y };
}

/** A colour for a string, stable across runs: a hue from its hash. */
export function hashColor(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return hslHex((h >>> 0) % 360, 0.62, 0.46);
}

/** An HSL colour as #rrggbb (the WebGL renderer reads hex). */
export function hslHex(hue: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + hue / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(255 * c)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

const valueColors: Record<string, string> = {
  first: '#7b3fb5',
  next: '#2f8a5e',
  last: '#c98a00',
  rejected: '#c0392b',
  untested: '#8d8675',
};

/** The colour of a node: by host, HTTP status class, or the rules' category value. */
export function nodeColor(n: Pick<GraphNode, 'host' | 'status' | 'state' | 'value'>, by: GraphColor): string {
  switch (by) {
    case 'host':
      return hashColor(n.host);
    case 'category':
      return valueColors[n.value] ?? valueColors.untested;
    case 'status':
      return statusColor(n.status ?? 0, n.state);
  }
}

/** Status classes and their colours, for the legend too. */
export const statusLegend: { label: string; color: string }[] = [
  { label: '2xx', color: '#2f8a5e' },
  { label: '3xx', color: '#2b6a8f' },
  { label: '4xx', color: '#d9822b' },
  { label: '5xx', color: '#c0392b' },
  { label: 'no answer', color: '#8d8675' },
];

function statusColor(status: number, state: string): string {
  if (status >= 200 && status < 300) return statusLegend[0].color;
  if (status >= 300 && status < 400) return statusLegend[1].color;
  if (status >= 400 && status < 500) return statusLegend[2].color;
  if (status >= 500) return statusLegend[3].color;
  return state === 'redirected' ? statusLegend[1].color : statusLegend[4].color;
}

/** The category legend. */
export const categoryLegend = Object.entries(valueColors).map(([label, color]) => ({ label, color }));

/** The edges of a path given as page ids, as "from>to" keys of both directions. */
export function pathEdges(ids: number[]): Set<string> {
  const out = new Set<string>();
  for (let i = 1; i < ids.length; i++) {
    out.add(`${ids[i - 1]}>${ids[i]}`);
    out.add(`${ids[i]}>${ids[i - 1]}`);
  }
  return out;
}

/** The hosts of a graph, most pages first (the host legend). */
export function topHosts(nodes: Pick<GraphNode, 'host'>[], n: number): { label: string; color: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const x of nodes) counts.set(x.host, (counts.get(x.host) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, n)
    .map(([label, count]) => ({ label, color: hashColor(label), count }));
}

/** Nodes whose URL or title contains the words, best first (for picking pages by keyboard). */
export function findNodes(nodes: GraphNode[], q: string, limit: number): GraphNode[] {
  const words = q.toLowerCase().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return [];
  const out: GraphNode[] = [];
  for (const n of nodes) {
    const hay = `${n.url} ${n.title ?? ''}`.toLowerCase();
    if (words.every((w) => hay.includes(w))) {
      out.push(n);
      if (out.length >= limit) break;
    }
  }
  return out;
}
