import { describe, expect, it } from 'vitest';
import type { Crawl } from '../api';
import { buildCrawlRequest, canCancel, canPause, canResume, crawlLabel, mergeCrawls, parseSeeds, progress, upsertCrawl } from './crawls';

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
    bytes: 0,
    pagesPerSec: 0,
    startedAt: '',
    finishedAt: '',
    error: '',
    note: '',
    searchable: 0,
    rules: '',
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
  it('splits the bar by counters', () => {
    const p = progress(crawl(1, { fetched: 50, failed: 10, skipped: 15, queued: 25 }));
    expect(p).toEqual({ total: 100, fetched: 50, failed: 10, skipped: 15, percent: 75 });
  });
  it('is empty for a crawl that has seen nothing, full for a finished one', () => {
    expect(progress(crawl(1)).percent).toBe(0);
    expect(progress(crawl(1, { state: 'done' })).percent).toBe(100);
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

  it('drops crawls the poll no longer lists and duplicate ids', () => {
    const list = [crawl(2), crawl(1)];
    expect(mergeCrawls(list, [crawl(1), crawl(1, { fetched: 3 })]).map((c) => c.id)).toEqual([1]);
  });
});

describe('buildCrawlRequest', () => {
  const form = {
    seeds: ['https://a.org/'], scope: 'tree' as const, maxDepth: 3 as number | null, maxPages: 500 as number | null,
    maxMinutes: null as number | null, agents: null as number | null, perHost: null as number | null,
    delayMs: null as number | null, refresh: false,
  };
  it('leaves empty politeness to the workspace and empty limits off', () => {
    expect(buildCrawlRequest(form)).toEqual({
      seeds: ['https://a.org/'], scope: 'tree', maxDepth: 3, maxPages: 500, maxSeconds: 0, agents: 0, perHost: 0,
      delayMs: -1, refresh: false, rules: '',
    });
  });
  it('clamps and converts what is filled in', () => {
    const r = buildCrawlRequest({ ...form, maxDepth: -4, maxPages: null, maxMinutes: 1.5, agents: 999, perHost: 3.7, delayMs: 0, refresh: true });
    expect(r).toMatchObject({ maxDepth: 0, maxPages: 0, maxSeconds: 90, agents: 256, perHost: 3, delayMs: 0, refresh: true });
    expect(buildCrawlRequest({ ...form, delayMs: undefined as unknown as null }).delayMs).toBe(-1);
  });
  it('labels a crawl by its seeds', () => {
    expect(crawlLabel(crawl(4, { seeds: ['https://a/', 'https://b/'] }))).toBe('https://a/ +1 more');
    expect(crawlLabel(crawl(4, { seeds: [] }))).toBe('crawl 4');
  });
});
