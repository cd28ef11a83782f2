import { fireEvent, render, screen } from '@testing-library/svelte';
import { tick } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('../api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../api')>();
  return { ...orig, indexStatus: vi.fn(), rebuildIndex: vi.fn(), onEvent: vi.fn(() => () => {}) };
});

import { indexStatus, rebuildIndex, type IndexStatus } from '../api';
import IndexPanel from './IndexPanel.svelte';

const status = (s: Partial<IndexStatus>): IndexStatus => ({
  searchable: 22, searchablePages: 22, searchableFiles: 0, waiting: 0, updating: 0, current: true, rebuilding: false,
  reason: '', phraseIndex: -1, phraseBehind: 0, error: '', summary: '22 of 22 pages searchable', ...s,
});

afterEach(() => vi.clearAllMocks());

describe('IndexPanel', () => {
  it('never says "up to date" from a status asked before the rebuild was', async () => {
    // The first status (a poll under way at the click) answers only after the rebuild has
    // begun, with what it read before: the index was current then.
    let answerFirst!: (s: IndexStatus) => void;
    vi.mocked(indexStatus)
      .mockImplementationOnce(() => new Promise((resolve) => (answerFirst = resolve)))
      .mockResolvedValue(status({ current: false, rebuilding: true, searchable: 0, summary: 'rebuilding: 0 of 22 pages searchable' }));
    vi.mocked(rebuildIndex).mockResolvedValue(undefined);
    render(IndexPanel, {});
    await fireEvent.click(screen.getByRole('button', { name: 'Rebuild the index' }));
    await screen.findByText(/rebuilding: 0 of 22 pages searchable/);
    answerFirst(status({}));
    await tick();
    await Promise.resolve();
    await tick();
    expect(screen.queryByText(/up to date/)).toBeNull();
    expect(screen.getByText(/rebuilding: 0 of 22 pages searchable/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Rebuild the index' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says how many rows the phrase index is behind a crawl', async () => {
    vi.mocked(indexStatus).mockResolvedValue(status({ searchable: 60_000, searchablePages: 60_000, phraseIndex: 80, phraseBehind: 12_000 }));
    render(IndexPanel, {});
    await screen.findByText(/12,000 rows behind/);
  });
});
