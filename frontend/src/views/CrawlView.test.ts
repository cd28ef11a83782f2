import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../api')>();
  return { ...orig, crawlPages: vi.fn(), retention: vi.fn(async () => ({ crawlId: 2, keep: 'all', last: 10, own: false, versions: 0, bodies: 0, bytes: 0, prunedVersions: 0, prunedBytes: 0 })) };
});

import { crawlPages } from '../api';
import { router } from '../lib/router.svelte';
import { session } from '../lib/session.svelte';
import type { Crawl } from '../api';
import CrawlView from './CrawlView.svelte';

let stop: () => void;
beforeEach(() => {
  history.replaceState(null, '', '#/crawls/2');
  stop = router.start();
  vi.mocked(crawlPages).mockResolvedValue({
    total: 250,
    pages: [
      { id: 1, url: 'https://a.org/', title: 'Home', state: 'fetched', reason: '', reasonText: '', detail: '', status: 200, depth: 0 },
      { id: 2, url: 'https://a.org/private', title: '', state: 'skipped', reason: 'robots', reasonText: '', detail: 'robots.txt: disallowed', status: 0, depth: 1 },
      { id: 3, url: 'https://a.org/gone', title: '', state: 'failed', reason: 'not-found', reasonText: '', detail: '', status: 404, depth: 1 },
      { id: 4, url: 'https://a.org/a/a/a/a', title: '', state: 'skipped', reason: 'trap:repeated-segment', reasonText: '', detail: '', status: 0, depth: 4 },
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

  it('names the links recorded apart from the pages skipped, and lists them on their own', async () => {
    // Issue 28 item 10: the PostgreSQL manual read "1,169 fetched · 1,680 skipped", the
    // skipped being style sheets, scripts and other sites' links: a good crawl read as failing.
    const pg = {
      id: 2, seeds: ['https://www.postgresql.org/docs/'], scope: 'tree', state: 'done', fetched: 1169, failed: 0, skipped: 3,
      recorded: 1680, redirected: 0, queued: 0, toVisit: 0, visited: 1172, notDue: 0, bytes: 0, pagesPerSec: 0,
      elapsedSeconds: 0, done: 1, etaSeconds: 0, current: '', maxPages: 0, maxSeconds: 0, startedAt: '', finishedAt: '',
      note: '', error: '',
    } as unknown as Crawl;
    session.crawls = [pg];
    vi.mocked(crawlPages).mockResolvedValue({
      total: 1680,
      pages: [{ id: 9, url: 'https://www.postgresql.org/style.css', title: '', state: 'skipped', reason: 'type', reasonText: '', detail: '', status: 0, depth: 1 }],
    });
    const { container } = render(CrawlView, { route: { name: 'crawl', id: 2, state: 'recorded', page: 1 } });
    await screen.findByRole('table');
    expect(crawlPages).toHaveBeenCalledWith(2, 'recorded', 0, 100);
    const text = container.textContent!.replace(/\s+/g, ' ');
    expect(text).toContain('1,169 fetched');
    expect(text).toContain('3 skipped');
    expect(text).toContain('1,680 links recorded, not pages');
    expect(screen.getByRole('radio', { name: 'recorded, not pages' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByRole('table').textContent).toContain('recorded, not a page');
    expect(screen.getByRole('table').textContent).not.toContain('skipped');
    session.crawls = [];
  });
});
