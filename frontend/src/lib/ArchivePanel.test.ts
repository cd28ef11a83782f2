import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('../api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../api')>();
  return { ...orig, exportArchive: vi.fn(), importArchive: vi.fn() };
});

import { exportArchive, importArchive, type Crawl, type ImportReport } from '../api';
import ArchivePanel from './ArchivePanel.svelte';

const evil = '<img src=x onerror="window.__pwned=1">';

afterEach(() => vi.clearAllMocks());

describe('ArchivePanel', () => {
  it('exports a crawl in the format chosen', async () => {
    vi.mocked(exportArchive).mockResolvedValue({ format: 'warc', records: 9, responses: 3, revisits: 1, bytes: 4096, skipped: 0 });
    render(ArchivePanel, { crawls: [{ id: 4, seeds: ['https://example.org/'] } as Crawl] });
    await fireEvent.change(screen.getByLabelText('What to export'), { target: { value: '4' } });
    await fireEvent.input(screen.getByLabelText('Export to file'), { target: { value: '/tmp/c.warc.gz' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(exportArchive).toHaveBeenCalledWith(4, 'warc', '/tmp/c.warc.gz');
    await screen.findByText(/Exported 9 records \(3 responses, 1 revisits\)/);
  });

  it('imports a file and lists the records it skipped, as text', async () => {
    const rep: ImportReport = {
      format: 'warc', crawlId: 7, records: 12, pages: 5, versions: 5, duplicates: 1, revisits: 2, other: 1, ignored: 3, kept: 0,
      problems: [{ where: 'byte 1234', url: `https://example.org/${evil}`, reason: `cut short ${evil}` }], problemCount: 1, bytes: 9999,
    };
    vi.mocked(importArchive).mockResolvedValue(rep);
    const onimported = vi.fn();
    const { container } = render(ArchivePanel, { crawls: [], onimported });
    await fireEvent.input(screen.getByLabelText('Import file'), { target: { value: '~/h.warc.gz' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByText(/Imported as crawl 7: 5 pages from 12 records/);
    expect(importArchive).toHaveBeenCalledWith('~/h.warc.gz');
    expect(onimported).toHaveBeenCalled();
    expect(container.textContent).toContain(`cut short ${evil}`);
    expect(container.querySelector('img, script')).toBeNull();
  });

  it('shows the error of a failed import', async () => {
    vi.mocked(importArchive).mockRejectedValue(new Error('{"code":"invalid","message":"notes.txt is not a file in warc or wwww format"}'));
    render(ArchivePanel, { crawls: [] });
    await fireEvent.input(screen.getByLabelText('Import file'), { target: { value: 'notes.txt' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect((await screen.findByRole('alert')).textContent).toContain('not a file in warc or wwww format');
  });
});
