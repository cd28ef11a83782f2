// Pure helpers for crawl lists and forms: merging live updates, progress figures, seed parsing.
import type { Crawl, CrawlRequest, Scope } from '../api';

/** States in which a crawl will not change again unless resumed. */
const finished = new Set(['done', 'cancelled']);

/** Pages a crawl has dealt with (fetched, failed or skipped). */
export function handled(c: Crawl): number {
  return c.fetched + c.failed + c.skipped;
}

/** Progress figures for a crawl's bar: each part as a percentage of everything seen. */
export function progress(c: Crawl): { total: number; fetched: number; failed: number; skipped: number; percent: number } {
  const total = handled(c) + Math.max(0, c.queued);
  if (total <= 0) return { total: 0, fetched: 0, failed: 0, skipped: 0, percent: finished.has(c.state) ? 100 : 0 };
  const pct = (n: number) => (100 * Math.max(0, n)) / total;
  return {
    total,
    fetched: pct(c.fetched),
    failed: pct(c.failed),
    skipped: pct(c.skipped),
    percent: Math.round(pct(handled(c))),
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
 * The result is newest first with one entry per id.
 */
export function mergeCrawls(list: Crawl[], polled: Crawl[]): Crawl[] {
  const byId = new Map(list.map((c) => [c.id, c]));
  const out = new Map<number, Crawl>();
  for (const c of polled) {
    if (out.has(c.id)) continue;
    const old = byId.get(c.id);
    out.set(c.id, old && old.state === c.state && handled(c) < handled(old) ? old : c);
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
  agents: number | null;
  perHost: number | null;
  delayMs: number | null;
  refresh: boolean;
  /** The webbot's rules; optional. */
  rules?: string;
}

function intIn(v: number | null, lo: number, hi: number, fallback: number): number {
  if (v === null || typeof v !== 'number' || !Number.isFinite(v)) return fallback;
  return Math.min(hi, Math.max(lo, Math.trunc(v)));
}

/**
 * Turns the form into a request. Empty limits mean none (0); empty politeness fields mean
 * the workspace's defaults (0 for agents and per host, -1 for the delay).
 */
export function buildCrawlRequest(f: CrawlFormValues): CrawlRequest {
  return {
    seeds: f.seeds,
    scope: f.scope,
    maxDepth: intIn(f.maxDepth, 0, 1000, 0),
    maxPages: intIn(f.maxPages, 0, 100_000_000, 0),
    maxSeconds: f.maxMinutes === null || !Number.isFinite(f.maxMinutes) ? 0 : Math.max(0, Math.round(f.maxMinutes * 60)),
    agents: intIn(f.agents, 0, 256, 0),
    perHost: intIn(f.perHost, 0, 64, 0),
    delayMs: intIn(f.delayMs, 0, 3_600_000, -1),
    refresh: f.refresh,
    rules: (f.rules ?? '').trim(),
  };
}

/** A crawl's label: its first seed, and how many more. */
export function crawlLabel(c: Crawl): string {
  const seeds = c.seeds ?? [];
  if (seeds.length === 0) return `crawl ${c.id}`;
  return seeds.length > 1 ? `${seeds[0]} +${seeds.length - 1} more` : seeds[0];
}
