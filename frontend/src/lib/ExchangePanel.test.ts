import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';

const handlers: Record<string, (p: unknown) => void> = {};
vi.mock('../api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../api')>();
  return {
    ...orig,
    exchangeTokens: vi.fn(async () => []),
    sources: vi.fn(async () => []),
    issueExchangeToken: vi.fn(),
    revokeExchangeToken: vi.fn(),
    addSource: vi.fn(),
    removeSource: vi.fn(),
    pullSource: vi.fn(async () => {}),
    cancelPull: vi.fn(async () => {}),
    onEvent: vi.fn((name: string, cb: (p: unknown) => void) => {
      handlers[name] = cb;
      return () => delete handlers[name];
    }),
  };
});

import { addSource, cancelPull, issueExchangeToken, pullSource, sources, type Source } from '../api';
import ExchangePanel from './ExchangePanel.svelte';

const peer: Source = {
  id: 3, kind: 'peer', url: 'http://127.0.0.1:8123/', name: '<img src=x onerror=alert(1)>', crawlId: 9,
  cursor: { seq: 0, time: 0 }, createdAt: 1, summaries: 0,
} as Source;

afterEach(() => vi.clearAllMocks());

describe('ExchangePanel', () => {
  it('shows an issued token once, and adds a source', async () => {
    vi.mocked(issueExchangeToken).mockResolvedValue({ id: 1, name: 'Ana', secret: 'mdx_secret', createdAt: 1, uses: 0 } as never);
    vi.mocked(addSource).mockResolvedValue(peer);
    render(ExchangePanel);
    await fireEvent.input(screen.getByLabelText('Token for whom'), { target: { value: 'Ana' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Issue a token' }));
    await waitFor(() => expect(screen.getByText('mdx_secret')).toBeTruthy());
    expect(issueExchangeToken).toHaveBeenCalledWith('Ana');
    await fireEvent.input(screen.getByLabelText('Source address'), { target: { value: peer.url } });
    await fireEvent.input(screen.getByLabelText('Source token'), { target: { value: 'mdx_t' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Add the source' }));
    await waitFor(() => expect(addSource).toHaveBeenCalledWith(peer.url, 'mdx_t'));
  });

  it('follows a pull with its progress, cancels it, and shows the outcome; names stay text', async () => {
    vi.mocked(sources).mockResolvedValue([peer]);
    const { container } = render(ExchangePanel);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Pull changes' })).toBeTruthy());
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText(peer.name)).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Pull changes' }));
    expect(pullSource).toHaveBeenCalledWith(3);
    handlers['source:progress']({ sourceId: 3, phase: 'apply', templates: 50, total: 100, bytes: 2048, applied: 50, seconds: 1 });
    await waitFor(() => expect(screen.getByText(/apply: 50 summaries/)).toBeTruthy());
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(cancelPull).toHaveBeenCalledWith(3);
    handlers['source:done']({ sourceId: 3, phase: 'done', templates: 100, total: 100, bytes: 4096, applied: 100, seconds: 2,
      report: { sourceId: 3, crawlId: 9, templates: 100, applied: 98, unchanged: 2, older: 0, bytes: 4096, seconds: 2 } });
    await waitFor(() => expect(screen.getByText(/100 summaries received, 98 new or changed, 2 unchanged/)).toBeTruthy());
  });
});
