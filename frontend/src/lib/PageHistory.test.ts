import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../api')>();
  return { ...orig, pageVersions: vi.fn(), comparePageVersions: vi.fn() };
});

import { comparePageVersions, pageVersions, type PageDiff, type PageVersion } from '../api';
import PageHistory from './PageHistory.svelte';

const evil = '<img src=x onerror="window.__pwned=1">';

function v(n: number, over: Partial<PageVersion> = {}): PageVersion {
  return {
    id: 10 + n, n, fetchedAt: `2026-01-0${n}T10:00:00Z`, confirmedAt: '', confirmedStatus: 0, status: 200, size: 1000 * n,
    contentType: 'text/html', title: `Title ${n} ${evil}`, flag: '', current: false, cached: true, crawlId: 1, hash: `h${n}`, ...over,
  };
}

beforeEach(() => {
  vi.mocked(pageVersions).mockResolvedValue([v(1), v(2, { flag: 'soft-404' }), v(3, { current: true })]);
  vi.mocked(comparePageVersions).mockImplementation(async (_page, from, to) => ({
    pageId: 5, url: 'https://example.org/', from: v(from - 10), to: v(to - 10), added: 2, removed: 1, same: false,
    ops: [{ kind: '=', text: 'the ' }, { kind: '-', text: 'old' }, { kind: '+', text: `new ${evil}` }, { kind: '=', text: ' wording' }],
  }) as PageDiff);
});
afterEach(() => vi.clearAllMocks());

describe('PageHistory', () => {
  it('lists the versions and diffs the two newest, as text', async () => {
    const onopen = vi.fn();
    const { container } = render(PageHistory, { pageId: 5, shown: 0, onopen });
    await screen.findByText('2 words added');
    expect(comparePageVersions).toHaveBeenCalledWith(5, 12, 13, false);
    expect(container.querySelectorAll('tbody tr')).toHaveLength(3);
    expect(container.textContent).toContain('soft-404');
    expect(container.querySelector('del')?.textContent).toBe('old');
    expect(container.querySelector('ins')?.textContent).toBe(`new ${evil}`);
    expect(container.querySelector('img, script')).toBeNull();
    expect((globalThis as { __pwned?: unknown }).__pwned).toBeUndefined();

    // Any two: the oldest against the newest.
    await fireEvent.click(screen.getByRole('radio', { name: /Compare from #1/ }));
    await waitFor(() => expect(comparePageVersions).toHaveBeenLastCalledWith(5, 11, 13, false));
    await fireEvent.click(screen.getByRole('checkbox', { name: 'whole text' }));
    await waitFor(() => expect(comparePageVersions).toHaveBeenLastCalledWith(5, 11, 13, true));

    // Open an older version's copy; the current one opens as the page's own copy (0).
    await fireEvent.click(screen.getByRole('button', { name: /Open the copy of #1/ }));
    expect(onopen).toHaveBeenLastCalledWith(11);
    await fireEvent.click(screen.getByRole('button', { name: /Open the copy of #3/ }));
    expect(onopen).toHaveBeenLastCalledWith(0);
  });

  it('from a saved view: diffs from the version in force when it was last opened', async () => {
    render(PageHistory, { pageId: 5, shown: 0, onopen: vi.fn(), since: '2026-01-01T12:00:00Z' });
    await screen.findByText(/What changed since the view was last opened/);
    expect(comparePageVersions).toHaveBeenCalledWith(5, 11, 13, false);
    await fireEvent.click(screen.getByRole('radio', { name: /Compare from #2/ }));
    await waitFor(() => expect(comparePageVersions).toHaveBeenLastCalledWith(5, 12, 13, false));
    expect(screen.queryByText(/What changed since the view was last opened/)).toBeNull();
  });

  it('says so when a page has no version', async () => {
    vi.mocked(pageVersions).mockResolvedValue([]);
    render(PageHistory, { pageId: 5, shown: 0, onopen: vi.fn() });
    await screen.findByText(/No version kept/);
    expect(comparePageVersions).not.toHaveBeenCalled();
  });
});
