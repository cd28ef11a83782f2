import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('./api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('./api')>();
  return {
    ...orig,
    listCrawls: vi.fn(async () => []),
    status: vi.fn(async () => ({ path: '/w.mundaneum', fetched: 3, queued: 0, failed: 0, skipped: 0, hosts: 1, links: 2 })),
    views: vi.fn(async () => [{ id: 1, name: 'Cards', query: 'cards', createdAt: '', openedAt: '', lastTotal: 0 }]),
    settings: vi.fn(async () => ({ userAgentSuffix: '', from: '', delayMs: 1000, perHost: 2, agents: 16, theme: 'system' })),
    workspace: vi.fn(async () => ({ path: '/w.mundaneum', bytes: 1, canChoose: false })),
    search: vi.fn(),
    openView: vi.fn(),
    page: vi.fn(),
    onEvent: vi.fn(() => () => {}),
    libraryPage: vi.fn(async () => ({ total: 2, libraries: [], postings: [] })),
    crawlDefaults: vi.fn(async () => ({ seeds: [], scope: 'site', maxDepth: 0, maxPages: 0, maxSeconds: 0, delayMs: 1000, types: [] })),
  };
});

import { libraryPage, openView, page, status, type LibPage, type Status } from './api';
import App from './App.svelte';

beforeEach(() => {
  history.replaceState(null, '', '#/');
  vi.mocked(page).mockRejectedValue('{"code":"not-found","message":"no page"}');
});
afterEach(() => {
  vi.clearAllMocks();
});

function key(k: string, init: KeyboardEventInit = {}) {
  return fireEvent.keyDown(document.body, { key: k, ...init });
}

describe('App', () => {
  it('navigates with the sidebar, the keys and Back', async () => {
    render(App);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(screen.getByRole('link', { name: /search/i }).getAttribute('aria-current')).toBe('page');
    await fireEvent.click(screen.getByRole('link', { name: /crawls/i }));
    expect(location.hash).toBe('#/crawls');
    await screen.findByRole('heading', { name: 'Crawls', level: 2 });

    await key('3', { ctrlKey: true });
    await screen.findByRole('heading', { name: 'Settings', level: 2 });
    expect(location.hash).toBe('#/settings');
    await key('g');
    await key('c');
    await screen.findByRole('heading', { name: 'Crawls', level: 2 });
    expect(nav.querySelector('[aria-current="page"]')!.textContent).toContain('Crawls');

    // "/" goes to the search box from anywhere.
    await key('/');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('searchbox')));
    expect(location.hash).toBe('#/search');
    // It renders every view in turn: 5-6 s on two cores at load 30, so more than vitest's 5 s.
  }, 20000);

  it('opens a page view from a link and comes back with Esc', async () => {
    render(App);
    history.replaceState(null, '', '#/crawls');
    window.dispatchEvent(new PopStateEvent('popstate'));
    await screen.findByRole('heading', { name: 'Crawls', level: 2 });
    const a = document.createElement('a');
    a.href = '#/page/42';
    a.textContent = 'a page';
    document.getElementById('main')!.append(a);
    await fireEvent.click(a);
    expect(location.hash).toBe('#/page/42');
    await screen.findByRole('heading', { name: 'No such page' });
    await key('Escape');
    await waitFor(() => expect(location.hash).toBe('#/crawls'));
  });

  it('opens a saved view from the sidebar', async () => {
    vi.mocked(openView).mockResolvedValue({
      view: { id: 1, name: 'Cards', query: 'cards', createdAt: '', openedAt: '', lastTotal: 0 },
      results: { query: 'cards', total: 0, totalApprox: false, totalAtLeast: false, window: 0, tookMs: 1, results: [], facets: {}, facetsApprox: false, note: '', didYouMean: '', corrected: false, library: { total: 0, totalApprox: false, hits: [], note: '', tookMs: 0 } },
      new: 0,
      since: '',
    });
    render(App);
    const link = await screen.findByRole('link', { name: 'Cards' });
    await fireEvent.click(link);
    await waitFor(() => expect(openView).toHaveBeenCalledTimes(1));
    expect(openView).toHaveBeenCalledWith('Cards', 20);
    expect(location.hash).toBe('#/search?view=Cards');
    await screen.findByText(/0 new/);
    // Clicking it again opens it afresh.
    await fireEvent.click(link);
    await waitFor(() => expect(openView).toHaveBeenCalledTimes(2));
  });

  it('shows the workspace counts', async () => {
    render(App);
    await screen.findByText('3 pages');
  });

  it('opens an empty workspace on the start page, and a workspace with something in it on Search', async () => {
    // Issue 28 item 2: an empty workspace opened on Search with the query-language table.
    const none = { path: '/w.mundaneum', fetched: 0, queued: 0, failed: 0, skipped: 0, recorded: 0, redirected: 0, hosts: 0, links: 0 } as unknown as Status;
    vi.mocked(status).mockResolvedValue(none);
    vi.mocked(libraryPage).mockResolvedValue({ total: 0, libraries: [], postings: [] } as unknown as LibPage);
    const { unmount } = render(App);
    await screen.findByRole('heading', { name: 'Start', level: 2 });
    expect(location.hash).toBe('#/start');
    await screen.findByText(/This workspace is empty/);
    expect(screen.getByRole('textbox', { name: 'Address of the site to crawl' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Import bookmarks…' })).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Open the library' })[0].getAttribute('href')).toBe('#/library');
    // The Search view says what to do first, with a way back here.
    await fireEvent.click(screen.getByRole('link', { name: /search/i }));
    const hint = await screen.findByText(/Nothing crawled yet/);
    expect(hint.querySelector('a')?.getAttribute('href')).toBe('#/start');
    unmount();

    // Opened at a route of its own, it stays there.
    history.replaceState(null, '', '#/settings');
    const second = render(App);
    await screen.findByRole('heading', { name: 'Settings', level: 2 });
    await waitFor(() => expect(libraryPage).toHaveBeenCalled());
    expect(location.hash).toBe('#/settings');
    second.unmount();

    // Something in the library: Search, without the start page.
    history.replaceState(null, '', '#/');
    vi.mocked(libraryPage).mockClear();
    vi.mocked(libraryPage).mockResolvedValue({ total: 1, libraries: [], postings: [] } as unknown as LibPage);
    render(App);
    await waitFor(() => expect(libraryPage).toHaveBeenCalled());
    await screen.findByRole('searchbox');
    expect(screen.queryByRole('heading', { name: 'Start', level: 2 })).toBeNull();
    expect(location.hash).not.toBe('#/start');
  }, 20000);
});
