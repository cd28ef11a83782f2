import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('../api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../api')>();
  return { ...orig, retention: vi.fn(), setRetention: vi.fn() };
});

import { retention, setRetention, type RetentionInfo } from '../api';
import RetentionPanel from './RetentionPanel.svelte';

const info = (r: Partial<RetentionInfo>): RetentionInfo =>
  ({ crawlId: 4, keep: 'all', last: 10, own: false, versions: 12, bodies: 5, bytes: 3 << 20, prunedVersions: 0, prunedBytes: 0, ...r }) as RetentionInfo;

afterEach(() => vi.clearAllMocks());

describe('RetentionPanel', () => {
  it('shows a crawl following the workspace, and gives it its own setting', async () => {
    vi.mocked(retention).mockResolvedValue(info({}));
    vi.mocked(setRetention).mockResolvedValue(info({ own: true, keep: 'last', last: 3, versions: 8, prunedVersions: 4, prunedBytes: 1 << 20 }));
    render(RetentionPanel, { crawlId: 4 });
    await screen.findByText(/Follows the workspace \(all\) · 12 versions of its pages, 5 bodies, 3 MiB/);
    expect((screen.getByLabelText('Versions kept') as HTMLSelectElement).value).toBe('default');
    await fireEvent.change(screen.getByLabelText('Versions kept'), { target: { value: 'last' } });
    await fireEvent.input(screen.getByLabelText('How many versions'), { target: { value: '3' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(setRetention).toHaveBeenCalledWith(4, 'last', 3);
    await screen.findByText(/Applied: 4 versions removed, 1 MiB freed/);
    await screen.findByText(/Own setting · 8 versions/);
  });

  it('the workspace has no "default"', async () => {
    vi.mocked(retention).mockResolvedValue(info({ crawlId: 0 }));
    render(RetentionPanel, {});
    await screen.findByText(/12 versions; earlier versions’ bodies take 3 MiB/);
    expect(screen.queryByRole('option', { name: /workspace’s setting/ })).toBeNull();
  });
});
