// Pure helpers for crawl lists and forms: merging live updates, progress figures, seed parsing.
import type { Crawl, CrawlRequest, Scope } from '../api';
import { count, duration } from './format';

/** States in which a crawl will not change again unless resumed. */
const finished = new Set(['done', 'cancelled']);

/** Pages a crawl has dealt with (fetched, failed or skipped). */
export function handled(c: Crawl): number {
  return c.fetched + c.failed + c.skipped;
}

/**
 * What a crawl's bar shows. While a crawl runs, only a limit (max pages, a time limit) says
 * what the end is: then `percent` is the share of the run done, which never moves back;
 * without one the bar is indeterminate (a growing queue says nothing of the end). A crawl
 * that is not running shows how its pages ended: fetched, failed and skipped as shares of
 * them.
 */
export function progress(c: Crawl): {
  indeterminate: boolean;
  percent: number | null;
  fetched: number;
  failed: number;
  skipped: number;
} {
  const none = { fetched: 0, failed: 0, skipped: 0 };
  if (c.state === 'running') {
    if (typeof c.done === 'number' && c.done >= 0) {
      const pct = Math.round(100 * Math.min(1, c.done));
      return { indeterminate: false, percent: pct, ...none, fetched: pct };
    }
    return { indeterminate: true, percent: null, ...none };
  }
  const total = handled(c) + Math.max(0, c.redirected ?? 0);
  if (total <= 0) return { indeterminate: false, percent: finished.has(c.state) ? 100 : 0, ...none };
  const pct = (n: number) => (100 * Math.max(0, n)) / total;
  return {
    indeterminate: false,
    percent: Math.round(pct(handled(c) + Math.max(0, c.redirected ?? 0))),
    fetched: pct(c.fetched + Math.max(0, c.redirected ?? 0)),
    failed: pct(c.failed),
    skipped: pct(c.skipped),
  };
}

/** Reports whether a crawl can be paused. */
export function canPause(c: Crawl): boolean {
  return c.state === 'running';
}

/** Reports whether a crawl can be resumed (paused, failed or interrupted). */
export function canResume(c: Crawl): boolean {
  return c.state !== 'running' && !finished.has(c.state);
}

/** Reports whether a crawl can be cancelled. */
export function canCancel(c: Crawl): boolean {
  return !finished.has(c.state);
}

/**
 * Merges one crawl update into a list kept newest first. Updates of the same state never
 * move counters backwards (a slow poll may answer after a newer event).
 */
export function upsertCrawl(list: Crawl[], c: Crawl): Crawl[] {
  const i = list.findIndex((x) => x.id === c.id);
  if (i < 0) return [...list, c].sort((a, b) => b.id - a.id);
  const old = list[i];
  if (old.state === c.state && handled(c) < handled(old)) return list;
  const next = list.slice();
  next[i] = c;
  return next;
}

/**
 * Replaces a list with a polled one, keeping per-crawl counters monotonic as upsertCrawl does.
 * The result is newest first with one entry per id. The crawls in newer (whose end was
 * reported while the poll was under way) keep the list's entry: the poll's may be from before
 * the end, and would show a finished crawl running again.
 */
export function mergeCrawls(list: Crawl[], polled: Crawl[], newer: ReadonlySet<number> = new Set()): Crawl[] {
  const byId = new Map(list.map((c) => [c.id, c]));
  const out = new Map<number, Crawl>();
  for (const c of polled) {
    if (out.has(c.id)) continue;
    const old = byId.get(c.id);
    const keep = old && (newer.has(c.id) || (old.state === c.state && handled(c) < handled(old)));
    out.set(c.id, keep ? old : c);
  }
  return [...out.values()].sort((a, b) => b.id - a.id);
}

/** Splits the seeds textarea into lines: trimmed, blank lines and # comments dropped, deduplicated. */
export function parseSeeds(text: string): string[] {
  const seen = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const s = line.trim();
    if (s === '' || s.startsWith('#')) continue;
    seen.add(s);
  }
  return [...seen];
}

/** What the crawl form holds; null is an empty field. */
export interface CrawlFormValues {
  seeds: string[];
  scope: Scope;
  maxDepth: number | null;
  maxPages: number | null;
  maxMinutes: number | null;
  maxPerHost: number | null;
  maxQueryVariants: number | null;
  sitemaps: boolean;
  agents: number | null;
  perHost: number | null;
  delayMs: number | null;
  refresh: boolean;
  /** The webbot's rules; optional. */
  rules?: string;
  /** A query the crawl goes toward (WebCrawler's real-time search); optional. */
  toward?: string;
  /** The document types to download (pdf, feed, zip...); optional: empty is the defaults. */
  types?: string[];
  /**
   * The crawl's own retention of page versions: all, last (keepLast of them) or none; empty
   * (or absent) leaves it as it is: a new crawl follows the workspace's setting.
   */
  keep?: '' | 'all' | 'last' | 'none';
  keepLast?: number | null;
  /** Store the pages' style sheets, images and fonts, to read them offline; optional. */
  requisites?: boolean;
  /**
   * Which pages are read in a browser after their scripts ran: auto (those whose HTML is an
   * empty shell), always or never; empty (or absent) is the workspace's setting.
   */
  render?: '' | RenderMode;
  /** Let rendered pages load from hosts outside the crawl's. */
  renderExternal?: boolean;
  /** Keep a screenshot of each rendered page whole, not only of its first screen. */
  renderFullPage?: boolean;
}

/** The crawl's choices of pages read in a browser (crawl --render). */
export const renderModes = ['auto', 'always', 'never'] as const;
export type RenderMode = (typeof renderModes)[number];

/** A field of the crawl form: its label, what empty means, and its bounds. */
interface FieldRule {
  key: keyof CrawlFormValues;
  label: string;
  min: number;
  max: number;
  integer: boolean;
}

/** The bounds the backend checks too (crawl.Config.Validate), with the form's words. */
const fieldRules: FieldRule[] = [
  { key: 'maxDepth', label: 'Depth', min: 0, max: 1000, integer: true },
  { key: 'maxPages', label: 'Max pages', min: 0, max: 100_000_000, integer: true },
  { key: 'maxMinutes', label: 'Time limit', min: 0, max: 60 * 24 * 365, integer: false },
  { key: 'maxPerHost', label: 'Pages per host', min: 1, max: 100_000_000, integer: true },
  { key: 'maxQueryVariants', label: 'Query variants per path', min: 1, max: 1_000_000, integer: true },
  { key: 'agents', label: 'Agents', min: 1, max: 256, integer: true },
  { key: 'perHost', label: 'Per host', min: 1, max: 64, integer: true },
  { key: 'delayMs', label: 'Delay', min: 0, max: 600_000, integer: true },
];

/**
 * Checks the form's numbers and returns a message per field in error (empty when all are
 * fine). Any whole number in range is fine: a 50 ms delay, 250 pages, a 7-minute limit.
 */
export function validateCrawlForm(f: CrawlFormValues): Partial<Record<keyof CrawlFormValues, string>> {
  const errors: Partial<Record<keyof CrawlFormValues, string>> = {};
  for (const r of fieldRules) {
    const v = f[r.key] as number | null;
    if (v === null) continue;
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      errors[r.key] = `${r.label} must be a number.`;
    } else if (r.integer && !Number.isInteger(v)) {
      errors[r.key] = `${r.label} must be a whole number.`;
    } else if (v < r.min) {
      errors[r.key] = r.min === 0 ? `${r.label} cannot be negative (0 means no limit).` : `${r.label} must be at least ${r.min}.`;
    } else if (v > r.max) {
      errors[r.key] = `${r.label} can be at most ${r.max.toLocaleString('en')}.`;
    }
  }
  if (f.keep === 'last') {
    const n = f.keepLast ?? null;
    if (n === null || !Number.isFinite(n)) errors.keepLast = 'Say how many versions to keep.';
    else if (!Number.isInteger(n)) errors.keepLast = 'Versions kept must be a whole number.';
    else if (n < 1) errors.keepLast = 'Versions kept must be at least 1.';
    else if (n > 1_000_000) errors.keepLast = 'Versions kept can be at most 1,000,000.';
  }
  return errors;
}

function orZero(v: number | null): number {
  return v === null || !Number.isFinite(v) ? 0 : v;
}

/**
 * Turns a valid form into a request. Empty limits mean none (0); empty guards and
 * politeness fields mean the workspace's settings (0, and -1 for the delay).
 */
export function buildCrawlRequest(f: CrawlFormValues): CrawlRequest {
  return {
    seeds: f.seeds,
    scope: f.scope,
    maxDepth: orZero(f.maxDepth),
    maxPages: orZero(f.maxPages),
    maxSeconds: Math.round(orZero(f.maxMinutes) * 60),
    maxPerHost: orZero(f.maxPerHost),
    maxQueryVariants: orZero(f.maxQueryVariants),
    sitemaps: f.sitemaps,
    agents: orZero(f.agents),
    perHost: orZero(f.perHost),
    delayMs: f.delayMs === null || !Number.isFinite(f.delayMs) ? -1 : f.delayMs,
    refresh: f.refresh,
    rules: (f.rules ?? '').trim(),
    toward: (f.toward ?? '').trim(),
    types: f.types ?? [],
    keep: f.keep ?? '',
    keepLast: f.keep === 'last' ? orZero(f.keepLast ?? null) : 0,
    requisites: f.requisites ?? false,
    render: f.render ?? '',
    renderExternal: f.renderExternal ?? false,
    renderFullPage: f.renderFullPage ?? false,
  };
}

/** The form's first values: the backend's defaults (CrawlDefaults); a limit of 0 is empty. */
export function formDefaults(d: CrawlRequest): Omit<CrawlFormValues, 'seeds'> {
  const limit = (v: number) => (v > 0 ? v : null);
  return {
    scope: (d.scope || 'site') as Scope,
    maxDepth: limit(d.maxDepth),
    maxPages: limit(d.maxPages),
    maxMinutes: d.maxSeconds > 0 ? d.maxSeconds / 60 : null,
    maxPerHost: null,
    maxQueryVariants: null,
    sitemaps: d.sitemaps,
    agents: null,
    perHost: null,
    delayMs: null,
    refresh: d.refresh,
    types: d.types,
    render: renderModes.includes(d.render as RenderMode) ? (d.render as RenderMode) : '',
    renderExternal: false,
    renderFullPage: false,
  };
}

/** A crawl's label: its first seed, and how many more. */
export function crawlLabel(c: Crawl): string {
  const seeds = c.seeds;
  if (seeds.length === 0) return `crawl ${c.id}`;
  return seeds.length > 1 ? `${seeds[0]} +${seeds.length - 1} more` : seeds[0];
}

/**
 * The limits a crawl started from the window begins with, where the CLI's crawl has none
 * (its flags keep their defaults): a large site pasted into the form ran for days. The form
 * says what they are and lifts them with one click; the start page's crawl has them too.
 */
export const windowLimits = { maxPages: 2000, maxDepth: 5, maxMinutes: 60 } as const;

/** The limits a form starts with: the backend's where it has some, the window's elsewhere. */
export function boundedLimits(f: Pick<CrawlFormValues, 'maxPages' | 'maxDepth' | 'maxMinutes'>): {
  maxPages: number;
  maxDepth: number;
  maxMinutes: number;
} {
  return {
    maxPages: f.maxPages ?? windowLimits.maxPages,
    maxDepth: f.maxDepth ?? windowLimits.maxDepth,
    maxMinutes: f.maxMinutes ?? windowLimits.maxMinutes,
  };
}

/** Says where a crawl with these limits stops ("Stops after 2,000 pages or 1 h, 5 links deep at most."). */
export function limitsWords(maxPages: number | null, maxDepth: number | null, maxMinutes: number | null): string {
  const set = (v: number | null): v is number => v !== null && Number.isFinite(v) && v > 0;
  const stops: string[] = [];
  if (set(maxPages)) stops.push(`${count(maxPages)} page${maxPages === 1 ? '' : 's'}`);
  if (set(maxMinutes)) stops.push(duration(maxMinutes * 60));
  const parts: string[] = [];
  if (stops.length > 0) parts.push(`Stops after ${stops.join(' or ')}`);
  if (set(maxDepth)) parts.push(`${count(maxDepth)} link${maxDepth === 1 ? '' : 's'} deep at most`);
  if (parts.length === 0) return 'No limits: the crawl follows the site to its end (a large site can take days).';
  const s = parts.join(', ');
  return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
}

/** Names the links recorded, not pages (the backend's store.Recorded): "1,680 links recorded, not pages". */
export function recordedWords(n: number): string {
  return n === 1 ? '1 link recorded, not a page' : `${count(n)} links recorded, not pages`;
}

/**
 * The request of a crawl started from the start page's one box: the workspace's defaults,
 * bounded as the form's are, from one address (a bare host gets https://, as a browser's
 * address bar does). It returns null for text that is no http(s) address.
 */
export function quickCrawlRequest(d: CrawlRequest, address: string): CrawlRequest | null {
  let raw = address.trim();
  if (raw === '' || /\s/.test(raw)) return null;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(raw)) raw = `https://${raw}`;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return null;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.hostname === '') return null;
  const f = formDefaults(d);
  return buildCrawlRequest({ ...f, ...boundedLimits(f), seeds: [u.href] });
}

/** What a workspace holds, for the start page: nothing crawled, nothing in the library. */
export interface Holdings {
  crawls: number;
  pages: number;
  libraryItems: number;
}

/** Reports whether a workspace is empty: no crawl, no page, nothing in its library. */
export function emptyWorkspace(h: Holdings): boolean {
  return h.crawls === 0 && h.pages === 0 && h.libraryItems === 0;
}
