import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../wailsjs/runtime/runtime', () => ({ BrowserOpenURL: vi.fn(), WindowSetBackgroundColour: vi.fn() }));
vi.mock('../api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../api')>();
  return { ...orig, search: vi.fn(), searchFacets: vi.fn(), openView: vi.fn(), saveView: vi.fn(), views: vi.fn(async () => []) };
});

import * as runtime from '../../wailsjs/runtime/runtime';
import { openView, search, searchFacets, type SearchResults } from '../api';
import { router } from '../lib/router.svelte';
import { searchState } from '../lib/search.svelte';
import SearchView from './SearchView.svelte';

type G = { runtime?: unknown };

function results(q: string, over: Partial<SearchResults> = {}): SearchResults {
  return {
    query: q,
    total: 3,
    totalApprox: false,
    totalAtLeast: false,
    window: 0,
    tookMs: 2.25,
    results: [0, 1, 2].map((i) => ({
      pageId: 10 + i, url: `https://example.org/${i}`, title: `Card ${i}`, host: 'example.org', type: 'html',
      state: 'fetched', status: 200, score: 1000 - i, snippet: ['about ', q, ' and more'], copies: i === 1 ? 2 : 0, alternates: 0, reason: '', new: false, fetchedAt: '', changedAt: '', versions: 1,
    })),
    facets: {
      host: [
        { value: 'example.org', count: 3, refine: 'host:example.org' },
        { value: 'other.net', count: 1, refine: 'host:other.net' },
      ],
      status: [{ value: '200', count: 3, refine: 'status:200' }],
    },
    facetsApprox: false,
    note: '',
    didYouMean: '',
    corrected: false,
    library: { total: 0, totalApprox: false, hits: [], note: '', tookMs: 0 },
    ...over,
  };
}

const route = (q: string) => ({ name: 'search' as const, q, page: 1, view: '' });

let stop: () => void;
beforeEach(() => {
  (globalThis as G).runtime = {};
  history.replaceState(null, '', '#/search');
  stop = router.start();
  searchState.clear();
  vi.mocked(search).mockImplementation(async (q: string) => results(q));
  // The facets come in the window's second request, with what results(q) has.
  vi.mocked(searchFacets).mockImplementation(async (q: string) => {
    const r = results(q);
    return { query: q, facets: r.facets, approx: r.facetsApprox, didYouMean: '', corrected: false, tookMs: 1 };
  });
});
afterEach(() => {
  stop();
  delete (globalThis as G).runtime;
  vi.clearAllMocks();
});

async function shown(q: string) {
  const r = render(SearchView, { route: route(q) });
  await waitFor(() => expect(r.container.querySelector(`ol.results[data-for="${q}"]`)).not.toBeNull());
  return r;
}

function li(container: HTMLElement, i: number): HTMLElement {
  return container.querySelector<HTMLElement>(`li[data-index="${i}"]`)!;
}

describe('SearchView', () => {
  it("lists the library's matching postings above the pages, as text", async () => {
    const evil = '<img src=x onerror=alert(1)>';
    vi.mocked(search).mockImplementation(async (q: string) =>
      results(q, {
        library: {
          total: 7, totalApprox: false, note: '', tookMs: 1,
          hits: [{ id: 4, kind: 'pointer', title: `Otlet ${evil}`, url: 'https://example.org/otlet', path: '/People/Otlet', tags: ['people'], snippet: ['the ', 'otlet', ' card'], pageId: 0, status: 0, fetchedAt: '' }],
        },
      }),
    );
    const { container } = await shown('otlet');
    const hits = screen.getByRole('list', { name: 'Library postings found' });
    expect(hits.textContent).toContain(`Otlet ${evil}`);
    expect(hits.textContent).toContain('/People/Otlet');
    expect(screen.getByRole('link', { name: `Otlet ${evil}` }).getAttribute('href')).toBe('#/posting/4');
    expect(screen.getByRole('link', { name: 'all of them' }).getAttribute('href')).toBe('#/library?q=otlet');
    expect(container.querySelector('img, script')).toBeNull();
  });

  it('a saved view says how many are new since it was last opened, and when, with a space', async () => {
    vi.mocked(openView).mockImplementation(async (name: string) => ({
      view: { id: 1, name, query: 'otlet', createdAt: '', openedAt: '', lastTotal: 3 },
      results: results('otlet', {
        library: {
          total: 1, totalApprox: false, note: '', tookMs: 1,
          hits: [{ id: 4, kind: 'report', title: 'Otlet notes', url: '', path: '/Otlet notes', tags: [], snippet: ['the ', 'otlet', ' card'], pageId: 0, status: 0, fetchedAt: '' }],
        },
      }),
      new: 2,
      since: '2024-11-27T10:00:00Z',
    }) as Awaited<ReturnType<typeof openView>>);
    render(SearchView, { route: { name: 'search' as const, q: '', page: 1, view: 'mine' } });
    const banner = await screen.findByText(/since last opened/);
    expect(banner.textContent).toMatch(/since last opened \(.+\)\.$/);
    // The library's postings show as the same search shows them.
    expect(screen.getByRole('list', { name: 'Library postings found' }).textContent).toContain('Otlet notes');
  });

  it('runs the query of its route and shows count, time, snippets and copies', async () => {
    const { container } = await shown('otlet');
    expect(search).toHaveBeenCalledWith('otlet', 20, 0, false);
    expect(container.textContent).toMatch(/3 results in 2\.3 ms/);
    expect([...container.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['otlet', 'otlet', 'otlet']);
    expect(container.textContent).toContain('2 identical copies');
  });

  it('moves through results with the arrows and opens them with Enter, o and Ctrl+Enter', async () => {
    const { container } = await shown('otlet');
    const box = screen.getByRole('searchbox');
    box.focus();
    await fireEvent.keyDown(box, { key: 'ArrowDown' });
    await waitFor(() => expect(document.activeElement).toBe(li(container, 0)));
    await fireEvent.keyDown(li(container, 0), { key: 'ArrowDown' });
    await waitFor(() => expect(document.activeElement).toBe(li(container, 1)));
    expect(li(container, 1).classList.contains('selected')).toBe(true);
    expect(searchState.selected).toBe(1);

    await fireEvent.keyDown(li(container, 1), { key: 'Enter', ctrlKey: true });
    expect(runtime.BrowserOpenURL).toHaveBeenCalledWith('https://example.org/1');
    await fireEvent.keyDown(li(container, 1), { key: 'o' });
    expect(location.hash).toBe('#/page/11?copy=text');
    await fireEvent.keyDown(li(container, 1), { key: 'Enter' });
    expect(location.hash).toBe('#/page/11');

    // Up past the first result returns to the box.
    await fireEvent.keyDown(li(container, 1), { key: 'ArrowUp' });
    await fireEvent.keyDown(li(container, 0), { key: 'ArrowUp' });
    await waitFor(() => expect(document.activeElement).toBe(box));
    expect(searchState.selected).toBe(-1);
  });

  it('debounces typing and puts the query in the location without new history entries', async () => {
    await shown('otlet');
    const box = screen.getByRole('searchbox') as HTMLInputElement;
    const before = history.length;
    for (const q of ['otlet c', 'otlet ca', 'otlet cards']) await fireEvent.input(box, { target: { value: q } });
    await waitFor(() => expect(search).toHaveBeenCalledWith('otlet cards', 20, 0, false));
    // (The first key may be answered at once; the middle of a burst never is.)
    expect(search).not.toHaveBeenCalledWith('otlet ca', 20, 0, false);
    expect(location.hash).toBe('#/search?q=otlet+cards');
    expect(history.length).toBe(before);
  });

  it('asks for the facets apart from the results, and marks estimated counts', async () => {
    vi.mocked(searchFacets).mockImplementation(async (q: string) => ({
      query: q, facets: results(q).facets, approx: true, didYouMean: '', corrected: false, tookMs: 1,
    }));
    const { container } = await shown('otlet');
    const facet = await screen.findByRole('button', { name: /other\.net/ });
    expect(facet.textContent).toContain('≈');
    expect(container.textContent).toContain('Counts are estimates');
    expect(vi.mocked(search).mock.calls.every((c) => c[3] !== true)).toBe(true); // no search counts facets
    expect(searchFacets).toHaveBeenCalledWith('otlet');
  });

  it('adds a facet’s refine term to the query and searches at once', async () => {
    const { container } = await shown('otlet');
    const facet = await screen.findByRole('button', { name: /other\.net/ });
    expect(facet.getAttribute('aria-pressed')).toBe('false');
    await fireEvent.click(facet);
    await waitFor(() => expect(container.querySelector('ol.results[data-for="otlet host:other.net"]')).not.toBeNull());
    expect(searchState.query).toBe('otlet host:other.net');
    expect(location.hash).toBe('#/search?q=otlet+host%3Aother.net');
    const on = await screen.findByRole('button', { name: /other\.net/ });
    await waitFor(() => expect(on.getAttribute('aria-pressed')).toBe('true'));
    // Clicking it again takes it away.
    await fireEvent.click(on);
    await waitFor(() => expect(searchState.resultsFor).toBe('otlet'));
  });

  it('says when it corrected the query, with the original one click away', async () => {
    vi.mocked(search).mockImplementation(async (q: string) =>
      q === 'otlte' ? results(q, { corrected: true, didYouMean: 'otlet', note: 'nothing matched the query as typed: showing results for otlet' }) : results(q),
    );
    const { container } = await shown('otlte');
    expect(container.textContent).toContain('Showing results for otlet');
    expect(container.querySelector('.note')).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Search instead for otlte' }));
    expect(container.textContent).toContain('Nothing matches otlte as typed');
    expect(container.querySelector('ol.results')).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Search for otlet' }));
    await waitFor(() => expect(searchState.resultsFor).toBe('otlet'));
  });

  it('offers a did-you-mean, and shows notes', async () => {
    vi.mocked(search).mockImplementation(async (q: string) => results(q, { didYouMean: 'otlet cards', note: 'a quote was not closed' }));
    const { container } = await shown('otlet crads');
    expect(container.textContent).toContain('Did you mean');
    expect(container.querySelector('.note')!.textContent).toContain('a quote was not closed');
    await fireEvent.click(screen.getByRole('button', { name: 'otlet cards' }));
    await waitFor(() => expect(searchState.resultsFor).toBe('otlet cards'));
  });

  it('Esc in the box leaves it, the query kept; then j walks the results', async () => {
    // Issue 28 item 6: Esc never left the box, so j, k, o and g l were typed into the query.
    const { container } = await shown('otlet');
    const box = screen.getByRole('searchbox');
    box.focus();
    await fireEvent.keyDown(box, { key: 'Escape' });
    expect(document.activeElement).not.toBe(box);
    expect(searchState.query).toBe('otlet');
    expect(container.querySelector('ol.results')).not.toBeNull();
    await fireEvent.keyDown(document.body, { key: 'j' });
    await waitFor(() => expect(document.activeElement).toBe(li(container, 0)));
    await fireEvent.keyDown(li(container, 0), { key: 'j' });
    await waitFor(() => expect(document.activeElement).toBe(li(container, 1)));
    // Typed in the box, j is a letter.
    box.focus();
    await fireEvent.keyDown(box, { key: 'j' });
    expect(document.activeElement).toBe(box);
  });
});
