import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../api')>();
  return { ...orig, search: vi.fn(), searchFacets: vi.fn(), openView: vi.fn() };
});

import { openView, search, searchFacets, type FacetResults, type SearchResults } from '../api';
import { facetDelay, pageSize, SearchState, typingDelay } from './search.svelte';

function results(q: string, over: Partial<SearchResults> = {}): SearchResults {
  return {
    query: q,
    total: 2,
    totalApprox: false,
    totalAtLeast: false,
    window: 0,
    tookMs: 1.5,
    results: [0, 1].map((i) => ({
      pageId: i + 1, url: `https://example.org/${q}/${i}`, title: `${q} ${i}`, host: 'example.org', type: 'html',
      state: 'fetched', status: 200, score: 1000 - i, snippet: ['', q], copies: 0, alternates: 0, reason: '', new: false, fetchedAt: '', changedAt: '', versions: 1,
    })),
    facets: {},
    facetsApprox: false,
    note: '',
    didYouMean: '',
    corrected: false,
    library: { total: 0, totalApprox: false, hits: [], note: '', tookMs: 0 },
    ...over,
  };
}

// A results request (facets false) or a facets request (SearchFacets: facets true, limit 0).
type Pending = { q: string; limit: number; offset: number; facets: boolean; resolve: (r: SearchResults) => void; resolveFacets: (r: FacetResults) => void };
let pending: Pending[];

beforeEach(() => {
  vi.useFakeTimers();
  pending = [];
  vi.mocked(search).mockImplementation(
    (q: string, limit = 50, offset = 0, facets = false) =>
      new Promise<SearchResults>((resolve) => pending.push({ q, limit, offset, facets, resolve, resolveFacets: () => {} })),
  );
  vi.mocked(searchFacets).mockImplementation(
    (q: string) =>
      new Promise<FacetResults>((resolveFacets) =>
        pending.push({ q, limit: 0, offset: 0, facets: true, resolve: () => {}, resolveFacets }),
      ),
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.clearAllMocks();
});

describe('SearchState', () => {
  it('answers the first key at once, the end of a burst after a pause, then counts facets', async () => {
    const s = new SearchState();
    s.input('o');
    expect(pending.map((p) => [p.q, p.limit, p.offset, p.facets])).toEqual([['o', pageSize, 0, false]]);
    s.input('ot');
    s.input('otlet');
    await vi.advanceTimersByTimeAsync(typingDelay - 1);
    expect(pending).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(pending.map((p) => [p.q, p.limit, p.offset, p.facets])).toEqual([
      ['o', pageSize, 0, false],
      ['otlet', pageSize, 0, false],
    ]);
    expect(s.busy).toBe(true);
    pending[0].resolve(results('o')); // overtaken: dropped
    pending[1].resolve(results('otlet'));
    await vi.advanceTimersByTimeAsync(0);
    expect(s.busy).toBe(false);
    expect(s.resultsFor).toBe('otlet');
    expect(s.results?.results).toHaveLength(2);
    expect(s.current).toBe(true);

    await vi.advanceTimersByTimeAsync(facetDelay);
    expect(pending[2]).toMatchObject({ q: 'otlet', facets: true });
    expect(search).toHaveBeenCalledTimes(2); // the facets are counted alone, not with a second search
    const facets = { host: [{ value: 'example.org', count: 2, refine: 'host:example.org' }] };
    pending[2].resolveFacets({ query: 'otlet', facets, approx: true, didYouMean: '', corrected: false, tookMs: 1 });
    await vi.advanceTimersByTimeAsync(0);
    expect(s.facets).toEqual(facets);
    expect(s.facetsApprox).toBe(true);
    expect(s.facetsFor).toBe('otlet');
  });

  it('does not count the facets of a query the user has typed past', async () => {
    const s = new SearchState();
    const a = s.run('cat');
    pending[0].resolve(results('cat'));
    await a;
    await vi.advanceTimersByTimeAsync(facetDelay - 10);
    s.input('cats'); // before the facets of "cat" were asked for
    await vi.advanceTimersByTimeAsync(typingDelay);
    expect(pending.map((p) => [p.q, p.facets])).toEqual([
      ['cat', false],
      ['cats', false],
    ]);
    pending[1].resolve(results('cats'));
    await vi.advanceTimersByTimeAsync(facetDelay);
    expect(pending.map((p) => [p.q, p.facets])).toEqual([
      ['cat', false],
      ['cats', false],
      ['cats', true],
    ]);
  });

  it('drops the answer to an older query', async () => {
    const s = new SearchState();
    const a = s.run('cat');
    const b = s.run('cats');
    pending[1].resolve(results('cats'));
    await b;
    pending[0].resolve(results('cat'));
    await a;
    expect(s.resultsFor).toBe('cats');
    expect(s.results?.query).toBe('cats');
  });

  it('keeps the old results on screen while the next are on their way (no layout jump)', async () => {
    const s = new SearchState();
    const a = s.run('cat');
    pending[0].resolve(results('cat'));
    await a;
    s.input('cats');
    expect(s.results?.query).toBe('cat');
    expect(s.current).toBe(false);
  });

  it('pages with an offset and keeps the facets of the query', async () => {
    const s = new SearchState();
    const a = s.run('cat');
    pending[0].resolve(results('cat', { total: 95 }));
    await a;
    expect(s.pages).toBe(5);
    const b = s.run('cat', 40);
    expect(pending[1]).toMatchObject({ q: 'cat', offset: 40, facets: false });
    pending[1].resolve(results('cat', { total: 95 }));
    await b;
    expect(s.page).toBe(3);
  });

  it('clears everything on an empty box', async () => {
    const s = new SearchState();
    const a = s.run('cat');
    pending[0].resolve(results('cat'));
    await a;
    s.selected = 1;
    s.input('   ');
    expect(s.results).toBeNull();
    expect(s.selected).toBe(-1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(pending).toHaveLength(1); // nothing more: not even the facets of "cat"
  });

  it('opens a saved view with its new count, and typing leaves it', async () => {
    vi.mocked(openView).mockResolvedValue({
      view: { id: 1, name: 'Cards', query: 'cards', createdAt: '', openedAt: '', lastTotal: 0 },
      results: results('cards', { facets: { type: [{ value: 'html', count: 2, refine: 'type:html' }] } }),
      new: 2,
      since: '2026-01-01T00:00:00Z',
    });
    const s = new SearchState();
    await s.openView('Cards');
    expect(s.query).toBe('cards');
    expect(s.view).toEqual({ name: 'Cards', query: 'cards', new: 2, since: '2026-01-01T00:00:00Z' });
    expect(s.facetsFor).toBe('cards');
    s.input('cards otlet');
    expect(s.view).toBeNull();
  });

  it('reports an error by its message', async () => {
    vi.mocked(search).mockRejectedValueOnce('{"code":"invalid","message":"bad query"}');
    const s = new SearchState();
    await s.run('x(');
    expect(s.error).toBe('bad query');
  });
});
