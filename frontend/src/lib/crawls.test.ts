import { describe, expect, it } from 'vitest';
import type { Crawl } from '../api';
import {
  buildCrawlRequest, canCancel, canPause, canResume, crawlLabel, formDefaults, mergeCrawls, parseSeeds, progress, upsertCrawl,
  validateCrawlForm,
} from './crawls';

function crawl(id: number, over: Partial<Crawl> = {}): Crawl {
  return {
    id,
    seeds: ['https://example.org/'],
    scope: 'site',
    state: 'running',
    fetched: 0,
    queued: 0,
    failed: 0,
    skipped: 0,
    redirected: 0,
    toVisit: 0,
    visited: 0,
    notDue: 0,
    bytes: 0,
    pagesPerSec: 0,
    elapsedSeconds: 0,
    done: -1,
    etaSeconds: 0,
    current: '',
    maxPages: 0,
    maxSeconds: 0,
    startedAt: '',
    finishedAt: '',
    note: '',
    error: '',
    searchable: 0,
    rules: '',
    toward: '',
    ...over,
  };
}

describe('parseSeeds', () => {
  it.each([
    ['', []],
    ['https://a/\n\n  https://b/  \r\n# comment\nhttps://a/', ['https://a/', 'https://b/']],
    ['   \n\t\n', []],
  ])('%j', (text, want) => {
    expect(parseSeeds(text)).toEqual(want);
  });
});

describe('progress', () => {
  it('never moves back while the queue grows: no share without a limit', () => {
    // Issue 18: 7% -> 11% -> 10% -> 7% as the queue grew.
    for (const [fetched, toVisit] of [[7, 93], [11, 89], [20, 180], [40, 500]]) {
      const p = progress(crawl(1, { fetched, toVisit }));
      expect(p.indeterminate).toBe(true);
      expect(p.percent).toBeNull();
    }
  });
  it('shows the share of a limit, as the backend keeps it', () => {
    const shares = [0.1, 0.25, 0.25, 0.6].map((done) => progress(crawl(1, { done, maxPages: 100 })).percent);
    expect(shares).toEqual([10, 25, 25, 60]);
  });
  it('splits a finished crawl by how its pages ended', () => {
    const p = progress(crawl(1, { state: 'done', fetched: 50, failed: 10, skipped: 15, redirected: 25 }));
    expect(p).toEqual({ indeterminate: false, percent: 100, fetched: 75, failed: 10, skipped: 15 });
    expect(progress(crawl(1, { state: 'done' })).percent).toBe(100);
    expect(progress(crawl(1, { state: 'paused' })).percent).toBe(0);
  });
});

describe('controls', () => {
  it.each([
    ['running', true, false, true],
    ['paused', false, true, true],
    ['failed', false, true, true],
    ['done', false, false, false],
    ['cancelled', false, false, false],
  ])('%s', (state, pause, resume, cancel) => {
    const c = crawl(1, { state });
    expect([canPause(c), canResume(c), canCancel(c)]).toEqual([pause, resume, cancel]);
  });
});

describe('upsertCrawl and mergeCrawls', () => {
  it('adds newest first and replaces by id', () => {
    let list = upsertCrawl([], crawl(1));
    list = upsertCrawl(list, crawl(3));
    list = upsertCrawl(list, crawl(2));
    expect(list.map((c) => c.id)).toEqual([3, 2, 1]);
    list = upsertCrawl(list, crawl(2, { fetched: 5 }));
    expect(list.find((c) => c.id === 2)!.fetched).toBe(5);
    expect(list).toHaveLength(3);
  });

  it('never moves counters backwards within a state', () => {
    const list = [crawl(1, { fetched: 10 })];
    expect(upsertCrawl(list, crawl(1, { fetched: 4 }))[0].fetched).toBe(10);
    expect(mergeCrawls(list, [crawl(1, { fetched: 4 })])[0].fetched).toBe(10);
    expect(upsertCrawl(list, crawl(1, { fetched: 4, state: 'paused' }))[0].state).toBe('paused');
  });

  it('keeps a crawl whose end was reported during the poll, not the poll\'s older state', () => {
    const list = [crawl(2, { state: 'failed' }), crawl(1, { state: 'running' })];
    const polled = [crawl(2, { state: 'running' }), crawl(1, { state: 'done' })];
    const merged = mergeCrawls(list, polled, new Set([2]));
    expect(merged.find((c) => c.id === 2)!.state).toBe('failed');
    expect(merged.find((c) => c.id === 1)!.state).toBe('done');
    // Without the report, the poll's state stands.
    expect(mergeCrawls(list, polled).find((c) => c.id === 2)!.state).toBe('running');
  });

  it('drops crawls the poll no longer lists and duplicate ids', () => {
    const list = [crawl(2), crawl(1)];
    expect(mergeCrawls(list, [crawl(1), crawl(1, { fetched: 3 })]).map((c) => c.id)).toEqual([1]);
  });
});

describe('buildCrawlRequest and validateCrawlForm', () => {
  const form = {
    seeds: ['https://a.org/'], scope: 'tree' as const, maxDepth: 3 as number | null, maxPages: 500 as number | null,
    maxMinutes: null as number | null, maxPerHost: null as number | null, maxQueryVariants: null as number | null,
    sitemaps: false, agents: null as number | null, perHost: null as number | null, delayMs: null as number | null,
    refresh: false,
  };
  it('leaves empty politeness to the workspace and empty limits off', () => {
    expect(buildCrawlRequest(form)).toEqual({
      seeds: ['https://a.org/'], scope: 'tree', maxDepth: 3, maxPages: 500, maxSeconds: 0, maxPerHost: 0, maxQueryVariants: 0,
      sitemaps: false, agents: 0, perHost: 0, delayMs: -1, refresh: false, rules: '', toward: '', types: [],
      keep: '', keepLast: 0, requisites: false, render: '', renderExternal: false, renderFullPage: false,
    });
    expect(buildCrawlRequest({ ...form, types: ['pdf', 'feed'] }).types).toEqual(['pdf', 'feed']);
    expect(buildCrawlRequest({ ...form, requisites: true }).requisites).toBe(true);
  });
  it('takes the values WebKit refused with "Enter a valid value" (issue 18)', () => {
    const f = { ...form, delayMs: 50, maxPages: 250, maxMinutes: 7 };
    expect(validateCrawlForm(f)).toEqual({});
    expect(buildCrawlRequest(f)).toMatchObject({ delayMs: 50, maxPages: 250, maxSeconds: 420 });
    expect(buildCrawlRequest({ ...form, maxMinutes: 1.5 }).maxSeconds).toBe(90);
  });
  it('says what is wrong with a number, field by field', () => {
    const errs = validateCrawlForm({ ...form, maxDepth: -4, maxPages: 2.5, agents: 999, perHost: 0, delayMs: Number.NaN });
    expect(errs.maxDepth).toBe('Depth cannot be negative (0 means no limit).');
    expect(errs.maxPages).toBe('Max pages must be a whole number.');
    expect(errs.agents).toBe('Agents can be at most 256.');
    expect(errs.perHost).toBe('Per host must be at least 1.');
    expect(errs.delayMs).toBe('Delay must be a number.');
  });
  it('gives the crawl its own retention of versions, or leaves the workspace\'s', () => {
    expect(buildCrawlRequest({ ...form, keep: 'last', keepLast: 3 })).toMatchObject({ keep: 'last', keepLast: 3 });
    expect(buildCrawlRequest({ ...form, keep: 'none', keepLast: 3 })).toMatchObject({ keep: 'none', keepLast: 0 });
    expect(buildCrawlRequest({ ...form, keep: '' })).toMatchObject({ keep: '', keepLast: 0 });
    expect(validateCrawlForm({ ...form, keep: 'last', keepLast: 3 })).toEqual({});
    expect(validateCrawlForm({ ...form, keep: 'last', keepLast: 0 }).keepLast).toBe('Versions kept must be at least 1.');
    expect(validateCrawlForm({ ...form, keep: 'last', keepLast: null }).keepLast).toBe('Say how many versions to keep.');
    expect(validateCrawlForm({ ...form, keep: 'all', keepLast: 0 })).toEqual({});
  });
  it('starts from the backend\'s defaults', () => {
    const d = { seeds: [], scope: 'site', maxDepth: 0, maxPages: 0, maxSeconds: 0, maxPerHost: 100000, maxQueryVariants: 200,
      sitemaps: false, agents: 16, perHost: 2, delayMs: 1000, refresh: false, rules: '', toward: '',
      render: 'never', renderExternal: false, renderFullPage: false };
    expect(formDefaults(d)).toMatchObject({ scope: 'site', maxDepth: null, maxPages: null, maxMinutes: null, delayMs: null, render: 'never' });
  });
  it('labels a crawl by its seeds', () => {
    expect(crawlLabel(crawl(4, { seeds: ['https://a/', 'https://b/'] }))).toBe('https://a/ +1 more');
    expect(crawlLabel(crawl(4, { seeds: [] }))).toBe('crawl 4');
  });
});
