import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { Status } from '../api';
import StatusLine from './StatusLine.svelte';

const index = {
  searchable: 12400, searchablePages: 12400, searchableFiles: 0, waiting: 7600, updating: 0, current: false, rebuilding: false,
  reason: '', phraseIndex: -1, phraseBehind: 0, error: '', summary: '12,400 of 20,000 pages searchable',
};
const status: Status = {
  path: '/data/w.mundaneum', fetched: 20000, queued: 300, failed: 2, skipped: 40, recorded: 0, redirected: 0, hosts: 3,
  links: 90000, index,
};

describe('StatusLine', () => {
  it('says how far behind the search index is', () => {
    render(StatusLine, { status, error: '' });
    expect(screen.getByText('12,400 of 20,000 pages searchable')).toBeTruthy();
  });

  it('says when the index is up to date', () => {
    render(StatusLine, { status: { ...status, index: { ...index, current: true, waiting: 0 } }, error: '' });
    expect(screen.getByText('search index up to date')).toBeTruthy();
  });

  it('names the links recorded apart from the pages, and says no skipped or failed that are none', () => {
    // The PostgreSQL manual: 1,169 pages, and 1,680 links to other sites, style sheets and
    // scripts, recorded and never meant to be fetched (it read "1,680 skipped").
    const pg = { ...status, fetched: 1169, queued: 0, failed: 0, skipped: 0, recorded: 1680 };
    const { container } = render(StatusLine, { status: pg, error: '' });
    const text = container.textContent?.replace(/\s+/g, ' ') ?? '';
    expect(text).toContain('1,169 pages');
    expect(text).toContain('1,680 links recorded, not pages');
    expect(text).not.toMatch(/skipped|failed|queued/);
  });
});
