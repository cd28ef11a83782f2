import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../api')>();
  return { ...orig, crawlPages: vi.fn(), retention: vi.fn(async () => ({ crawlId: 2, keep: 'all', last: 10, own: false, versions: 0, bodies: 0, bytes: 0, prunedVersions: 0, prunedBytes: 0 })) };
});

import { crawlPages } from '../api';
import { router } from '../lib/router.svelte';
import CrawlView from './CrawlView.svelte';

let stop: () => void;
beforeEach(() => {
  history.replaceState(null, '', '#/crawls/2');
  stop = router.start();
  vi.mocked(crawlPages).mockResolvedValue({
    total: 250,
    pages: [
      { id: 1, url: 'https://a.org/', title: 'Home', state: 'fetched', reason: '', detail: '', status: 200, depth: 0 },
      { id: 2, url: 'https://a.org/private', title: '', state: 'skipped', reason: 'robots', detail: 'robots.txt: disallowed', status: 0, depth: 1 },
      { id: 3, url: 'https://a.org/gone', title: '', state: 'failed', reason: 'not-found', detail: '', status: 404, depth: 1 },
      { id: 4, url: 'https://a.org/a/a/a/a', title: '', state: 'skipped', reason: 'trap:repeated-segment', detail: '', status: 0, depth: 4 },
    ],
  });
});
afterEach(() => {
  stop();
  vi.clearAllMocks();
});

describe('CrawlView', () => {
  it('lists pages with human reasons, each linked to its page view', async () => {
    const { container } = render(CrawlView, { route: { name: 'crawl', id: 2, state: '', page: 1 } });
    await screen.findByRole('table');
    expect(crawlPages).toHaveBeenCalledWith(2, '', 0, 100);
    const text = container.textContent!;
    expect(text).toContain('Disallowed by robots.txt');
    expect(text).toContain('robots.txt: disallowed');
    expect(text).toContain('Not found (HTTP 404)');
    expect(text).toContain('Looks like a spider trap: a path segment keeps repeating');
    expect(text).toMatch(/250 pages/);
    expect(screen.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('#/page/1');
    expect(screen.getByRole('link', { name: 'https://a.org/gone' }).getAttribute('href')).toBe('#/page/3');
  });

  it('filters by state and pages through the list', async () => {
    render(CrawlView, { route: { name: 'crawl', id: 2, state: 'failed', page: 2 } });
    await screen.findByRole('table');
    expect(crawlPages).toHaveBeenCalledWith(2, 'failed', 100, 100);
    expect(screen.getByRole('radio', { name: /failed/ }).getAttribute('aria-checked')).toBe('true');
    await fireEvent.click(screen.getByRole('radio', { name: /skipped/ }));
    expect(location.hash).toBe('#/crawls/2?state=skipped');
    await fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(location.hash).toBe('#/crawls/2?state=failed&page=3'));
  });
});
