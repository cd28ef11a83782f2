import { render, waitFor } from '@testing-library/svelte';
import { expect, it, vi } from 'vitest';

vi.mock('../../wailsjs/runtime/runtime', () => ({ BrowserOpenURL: vi.fn() }));
vi.mock('../api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../api')>();
  return { ...orig, page: vi.fn(), offlineCopy: vi.fn(), pageVersions: vi.fn(async () => []) };
});

import { offlineCopy, page, pageVersions, type OfflineCopy, type Page, type PageVersion } from '../api';
import type { Route } from '../lib/routes';
import PageView from './PageView.svelte';

// Esc at once: the route changes and the page view goes in the same step, while its copy
// and facts are still on their way. What comes back after must not read the view's own
// derived values (Svelte warns "derived_inert": stale values of a destroyed view).
it('a page view left before its copy and facts came reads nothing of itself after', async () => {
  let giveCopy!: (c: OfflineCopy) => void;
  let givePage!: (p: Page) => void;
  vi.mocked(offlineCopy).mockReturnValueOnce(new Promise((r) => (giveCopy = r)));
  vi.mocked(page).mockReturnValueOnce(new Promise((r) => (givePage = r)));
  const warn = vi.spyOn(console, 'warn');
  const props = $state<{ route: Extract<Route, { name: 'page' }> }>({ route: { name: 'page', id: 5, copy: '' } });
  const { unmount } = render(PageView, { props });
  await waitFor(() => expect(offlineCopy).toHaveBeenCalled());
  props.route = { name: 'page', id: 6, copy: '' }; // (the App's route moved on; the view goes with it)
  unmount();
  giveCopy({
    pageId: 5, url: 'https://example.org/p', title: 't', contentType: 'text/html', fetchedAt: '',
    document: '<!doctype html><p>copy</p>', text: 'the text', blocks: [], asPage: false,
    assets: { shown: 0, missing: 0, bytes: 0 }, versionId: 0, replay: false,
  });
  givePage({ id: 5, url: 'https://example.org/p', title: 't', linksOut: [], linksIn: [], problems: [] } as unknown as Page);
  await new Promise((r) => setTimeout(r, 10));
  const inert = warn.mock.calls.map((c) => c.map(String).join(' ')).filter((m) => m.includes('derived_inert'));
  warn.mockRestore();
  expect(inert).toEqual([]);
});

// The same for the page's history below its facts: its versions on their way when the view
// goes. Its props are expressions of the view (derived values): reading one after is the
// warning.
it('a page view left before its versions came reads nothing of the view after', async () => {
  let giveVersions!: (v: PageVersion[]) => void;
  vi.mocked(offlineCopy).mockResolvedValueOnce({
    pageId: 5, url: 'https://example.org/p', title: 't', contentType: 'text/html', fetchedAt: '',
    document: '<!doctype html><p>copy</p>', text: 'the text', blocks: [], asPage: false,
    assets: { shown: 0, missing: 0, bytes: 0 }, versionId: 0, replay: false,
  });
  vi.mocked(page).mockResolvedValueOnce({ id: 5, url: 'https://example.org/p', title: 't', linksOut: [], linksIn: [], problems: [] } as unknown as Page);
  vi.mocked(pageVersions).mockReturnValueOnce(new Promise((r) => (giveVersions = r)));
  const warn = vi.spyOn(console, 'warn');
  const props = $state<{ route: Extract<Route, { name: 'page' }> }>({ route: { name: 'page', id: 5, copy: '' } });
  const { unmount } = render(PageView, { props });
  await waitFor(() => expect(pageVersions).toHaveBeenCalledWith(5));
  props.route = { name: 'page', id: 6, copy: '' };
  unmount();
  giveVersions([]);
  await new Promise((r) => setTimeout(r, 10));
  const inert = warn.mock.calls.map((c) => c.map(String).join(' ')).filter((m) => m.includes('derived_inert'));
  warn.mockRestore();
  expect(inert).toEqual([]);
});
