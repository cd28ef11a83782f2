import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../api')>();
  return {
    ...orig,
    crawlDefaults: vi.fn(),
    startCrawl: vi.fn(),
    listCrawls: vi.fn(async () => []),
    status: vi.fn(async () => ({ fetched: 0 })),
    libraryPage: vi.fn(async () => ({ total: 0, libraries: [], postings: [] })),
    libraryImport: vi.fn(),
  };
});

import { crawlDefaults, libraryImport, startCrawl, type Crawl, type CrawlRequest, type LibImport } from '../api';
import { router } from '../lib/router.svelte';
import StartView from './StartView.svelte';

const defaults: CrawlRequest = {
  seeds: [], scope: 'site', maxDepth: 0, maxPages: 0, maxSeconds: 0, maxPerHost: 0, maxQueryVariants: 0, sitemaps: false, agents: 0,
  perHost: 0, delayMs: 1000, refresh: false, rules: '', toward: '', types: [], keep: '', keepLast: 0, requisites: false, render: '', renderExternal: false, renderFullPage: false,
} as CrawlRequest;

let stop: () => void;
beforeEach(() => {
  history.replaceState(null, '', '#/start');
  stop = router.start();
  vi.mocked(crawlDefaults).mockResolvedValue(defaults);
});
afterEach(() => {
  stop();
  vi.clearAllMocks();
});

describe('StartView', () => {
  it('says the workspace is empty and starts a bounded crawl from one address', async () => {
    vi.mocked(startCrawl).mockResolvedValue({ id: 7, seeds: ['https://a.org/docs/'], state: 'running' } as Crawl);
    render(StartView);
    await screen.findByText(/This workspace is empty/);
    expect(screen.getByText(/Stops after 2,000 pages or 1 h, 5 links deep at most\./)).toBeTruthy();
    const box = screen.getByRole('textbox', { name: 'Address of the site to crawl' });
    await fireEvent.input(box, { target: { value: 'javascript:alert(1)' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Crawl' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/address of a site/);
    expect(startCrawl).not.toHaveBeenCalled();

    await fireEvent.input(box, { target: { value: 'a.org/docs/' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Crawl' }));
    await waitFor(() => expect(startCrawl).toHaveBeenCalledTimes(1));
    expect(startCrawl).toHaveBeenCalledWith(expect.objectContaining({ seeds: ['https://a.org/docs/'], maxPages: 2000, maxDepth: 5, maxSeconds: 3600 }));
    await waitFor(() => expect(location.hash).toBe('#/crawls/7'));
  });

  it('imports bookmarks into the library in place', async () => {
    vi.mocked(libraryImport).mockResolvedValue({
      format: 'list', libraries: 0, pointers: 1, reports: 0, views: 0, merged: 0, duplicates: 0, elsewhere: 0, problems: [], more: 0,
    } as unknown as LibImport);
    render(StartView);
    await fireEvent.click(screen.getByRole('button', { name: 'Import bookmarks…' }));
    await fireEvent.input(screen.getByRole('textbox', { name: /Paste links/ }), { target: { value: 'https://example.org/ Example' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(libraryImport).toHaveBeenCalledWith(1, 'https://example.org/ Example', '', ''));
    await screen.findByText(/to see them/);
  });
});
