import { render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../wailsjs/runtime/runtime', () => ({ BrowserOpenURL: vi.fn() }));
vi.mock('../api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../api')>();
  return { ...orig, page: vi.fn(), offlineCopy: vi.fn(), pageVersions: vi.fn(async () => []) };
});

import { offlineCopy, page, type Page } from '../api';
import PageView from './PageView.svelte';

const evil = '<img src=x onerror="window.__pwned=1">';

function pg(over: Partial<Page> = {}): Page {
  return {
    id: 5, url: `https://example.org/p?x=${encodeURIComponent(evil)}`, host: 'example.org', state: 'fetched', reason: '',
    detail: '', status: 200, finalUrl: '', contentType: 'text/html', charset: 'utf-8', lang: 'fr', title: `Title ${evil}`,
    description: `Desc ${evil}`, keywords: '', author: 'Paul Otlet', owner: '', canonical: '', size: 2048,
    duplicateOf: 0, duplicateUrl: '', etag: '"abc"', lastModified: '', expires: '', depth: 2,
    parentUrl: 'https://example.org/', crawlId: 1, problems: ['no-title', 'unclosed-quote'], noindex: false,
    nofollow: true, cached: true, discoveredAt: '2026-01-01T00:00:00Z', fetchedAt: '2026-01-01T00:01:00Z',
    changedAt: '', refreshAt: '', inlinks: 1, outlinks: 2,
    linksOut: [
      { pageId: 6, url: 'https://example.org/known', title: 'Known page', state: 'fetched', status: 200, kind: 'a', anchor: `words ${evil}`, rel: '' },
      { pageId: 0, url: 'javascript:alert(1)', title: '', state: '', status: 0, kind: 'img', anchor: '', rel: '' },
    ],
    linksIn: [{ pageId: 7, url: 'https://example.org/citing', title: 'Citing page', state: 'fetched', status: 200, kind: 'a', anchor: 'see this', rel: '' }],
    ...over,
  } as Page;
}

type G = { runtime?: unknown; __pwned?: unknown };
beforeEach(() => {
  (globalThis as G).runtime = {};
  vi.mocked(page).mockResolvedValue(pg());
  vi.mocked(offlineCopy).mockResolvedValue({
    pageId: 5, url: 'https://example.org/p', title: 't', contentType: 'text/html', fetchedAt: '',
    document: '<!doctype html><p>copy</p>', text: `the text ${evil}`,
    blocks: [], asPage: false, assets: { shown: 0, missing: 0, bytes: 0 }, versionId: 0, replay: false,
  });
});
afterEach(() => {
  delete (globalThis as G).runtime;
  vi.clearAllMocks();
});

describe('PageView', () => {
  it('shows the facts, problems and links, with crawled strings as text', async () => {
    const { container } = render(PageView, { route: { name: 'page', id: 5, copy: '' } });
    await screen.findByRole('heading', { level: 2, name: `Title ${evil}` });
    expect(container.querySelector('img, script')).toBeNull();
    expect(container.textContent).toContain(`Desc ${evil}`);
    expect(container.textContent).toContain('No <title> element');
    expect(container.textContent).toContain('An attribute’s quote is never closed');
    expect(container.textContent).toContain('Paul Otlet');
    expect(container.textContent).toContain('nofollow');
    // Links: known pages link to their page view; others are text; only http(s) goes out.
    const out = screen.getByRole('table', { name: 'Links out' });
    expect(out.textContent).toContain(`words ${evil}`);
    expect(out.textContent).toContain('image');
    expect(screen.getByRole('link', { name: 'Known page' }).getAttribute('href')).toBe('#/page/6');
    expect(screen.getByRole('link', { name: 'Citing page' }).getAttribute('href')).toBe('#/page/7');
    expect(screen.getByRole('table', { name: 'Cited by' }).textContent).toContain('see this');
    for (const a of container.querySelectorAll('a')) expect(a.getAttribute('href')).toMatch(/^(#\/|https?:\/\/)/);
    // The offline copy, as text first.
    await waitFor(() => expect(container.querySelector('pre')?.textContent).toBe(`the text ${evil}`));
    expect(offlineCopy).toHaveBeenCalledWith(5);
    expect((globalThis as G).__pwned).toBeUndefined();
  });

  it('shows the copy as a sandboxed page when asked', async () => {
    const { container } = render(PageView, { route: { name: 'page', id: 5, copy: 'page' } });
    await waitFor(() => expect(container.querySelector('iframe')).not.toBeNull());
    expect(container.querySelector('iframe')!.getAttribute('sandbox')).toBe('allow-same-origin');
  });

  it('opens a page’s copy on the Page tab when it reads best as a page', async () => {
    vi.mocked(offlineCopy).mockResolvedValue({ ...(await offlineCopy(5)), asPage: true });
    const { container } = render(PageView, { route: { name: 'page', id: 5, copy: '' } });
    await waitFor(() => expect(container.querySelector('iframe')).not.toBeNull());
    expect(screen.getByRole('tab', { name: 'Page' }).getAttribute('aria-selected')).toBe('true');
  });

  it('reads page after page in the same view, asking for each page once', async () => {
    const { rerender, container } = render(PageView, { route: { name: 'page', id: 5, copy: 'page' } });
    await screen.findByRole('heading', { level: 2, name: `Title ${evil}` });
    vi.mocked(page).mockResolvedValue(pg({ id: 6, title: 'The next page' }));
    vi.mocked(offlineCopy).mockResolvedValue({ ...(await offlineCopy(5)), pageId: 6, document: '<!doctype html><p>next</p>' });
    await rerender({ route: { name: 'page', id: 6, copy: 'page' } });
    await screen.findByRole('heading', { level: 2, name: 'The next page' }, { timeout: 3000 });
    await new Promise((r) => setTimeout(r, 300));
    expect(vi.mocked(page).mock.calls.map((c) => c[0])).toEqual([5, 6]);
    expect(container.querySelectorAll('iframe')).toHaveLength(1);
  });

  it('says why a page failed, and has no copy to show', async () => {
    vi.mocked(page).mockResolvedValue(pg({ state: 'failed', reason: 'not-found', status: 404, detail: '', cached: false, problems: [] }));
    vi.mocked(offlineCopy).mockRejectedValue('{"code":"not-found","message":"cached copy of page 5: not found"}');
    const { container } = render(PageView, { route: { name: 'page', id: 5, copy: '' } });
    await screen.findByRole('heading', { level: 2 });
    expect(container.textContent).toContain('Not found (HTTP 404)');
    expect(container.textContent).toContain('No offline copy is stored');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says when there is no such page', async () => {
    vi.mocked(page).mockRejectedValue('{"code":"not-found","message":"page 5: not found"}');
    render(PageView, { route: { name: 'page', id: 5, copy: '' } });
    await screen.findByRole('heading', { name: 'No such page' });
    expect(screen.getByRole('alert').textContent).toContain('There is no page 5');
  });

  it('says why a page was rendered, and why a shell was not', async () => {
    vi.mocked(page).mockResolvedValueOnce(pg({
      render: { state: 'rendered', why: 'shell', signal: 'empty-root', detail: 'rendered in 1.2s (3 requests, 1 refused)',
        text: 'rendered because its HTML as served is a shell: an empty application root' },
      screenshots: [{ versionId: 4, kind: 'viewport', width: 1280, height: 800, bytes: 4000, takenAt: '2026-01-01T00:01:00Z' }],
    }));
    const first = render(PageView, { route: { name: 'page', id: 5, copy: '' } });
    const why = await screen.findByTestId('render-why');
    expect(why.textContent).toContain('rendered because its HTML as served is a shell: an empty application root');
    expect(screen.getByText('rendered in 1.2s (3 requests, 1 refused)')).toBeTruthy();
    await screen.findByRole('tab', { name: 'Screenshot' });
    first.unmount();
    vi.mocked(page).mockResolvedValueOnce(pg({
      render: { state: 'shell', why: 'no-browser', signal: 'noscript', detail: '', text: 'not rendered (no browser: install chromium), though its HTML looks like a shell' },
      screenshots: [],
    }));
    render(PageView, { route: { name: 'page', id: 5, copy: '' } });
    expect((await screen.findByTestId('render-why')).textContent).toContain('not rendered (no browser');
    expect(screen.queryByRole('tab', { name: 'Screenshot' })).toBeNull();
  });
});
