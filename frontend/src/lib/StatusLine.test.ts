import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { Status } from '../api';
import StatusLine from './StatusLine.svelte';

const index = {
  searchable: 12400, waiting: 7600, updating: 0, current: false, rebuilding: false, reason: '', phraseIndex: -1,
  error: '', summary: '12,400 of 20,000 pages searchable',
};
const status: Status = {
  path: '/data/w.mundaneum', fetched: 20000, queued: 300, failed: 2, skipped: 40, hosts: 3, links: 90000, index,
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
});
