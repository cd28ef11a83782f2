import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';

const handlers: Record<string, (p: unknown) => void> = {};

vi.mock('../api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../api')>();
  return {
    ...orig,
    archiveJobs: vi.fn(async () => []),
    startExport: vi.fn(),
    startImport: vi.fn(),
    chooseExportFile: vi.fn(),
    chooseImportFile: vi.fn(),
    cancelArchiveJob: vi.fn(async () => {}),
    onEvent: vi.fn((name: string, cb: (p: unknown) => void) => {
      handlers[name] = cb;
      return () => {};
    }),
  };
});

vi.mock('./session.svelte', () => ({ session: { workspace: { canChoose: true } } }));

import { cancelArchiveJob, chooseExportFile, chooseImportFile, startExport, startImport, type ArchiveJob, type Crawl } from '../api';
import ArchivePanel from './ArchivePanel.svelte';

const evil = '<img src=x onerror="window.__pwned=1">';

function job(j: Partial<ArchiveJob>): ArchiveJob {
  return {
    id: 1, op: 'import', format: 'warc', name: 'h.warc.gz', path: '/tmp/h.warc.gz', state: 'running', done: 0, total: 1000,
    pages: 0, bytes: 0, elapsedMs: 0, rate: 0, byteRate: 0, note: '', error: '', crawlId: 0, ...j,
  } as ArchiveJob;
}

afterEach(() => vi.clearAllMocks());

describe('ArchivePanel', () => {
  it('exports to the file the dialog picks, as a job', async () => {
    vi.mocked(chooseExportFile).mockResolvedValue('/tmp/c.warc.gz');
    vi.mocked(startExport).mockResolvedValue(job({ id: 3, op: 'export', name: 'c.warc.gz', total: 0 }));
    render(ArchivePanel, { crawls: [{ id: 4, seeds: ['https://example.org/'] } as Crawl] });
    await fireEvent.change(screen.getByLabelText('What to export'), { target: { value: '4' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Export…' }));
    await vi.waitFor(() => expect(startExport).toHaveBeenCalledWith(4, 'warc', '/tmp/c.warc.gz'));
    expect(chooseExportFile).toHaveBeenCalledWith(4, 'warc');
    handlers['archive:job'](job({ id: 3, op: 'export', name: 'c.warc.gz', state: 'done', total: 0,
      export: { format: 'warc', records: 9, responses: 3, revisits: 1, bytes: 4096, skipped: 0 } }));
    await screen.findByText(/Exported 9 records \(3 responses, 1 revisits\)/);
  });

  it('a dialog cancelled starts nothing', async () => {
    vi.mocked(chooseImportFile).mockResolvedValue('');
    render(ArchivePanel, { crawls: [] });
    await fireEvent.click(screen.getByRole('button', { name: /Import a WARC/ }));
    await vi.waitFor(() => expect(chooseImportFile).toHaveBeenCalled());
    expect(startImport).not.toHaveBeenCalled();
  });

  it('shows an import’s progress, cancels it, and lists the records it skipped as text', async () => {
    vi.mocked(chooseImportFile).mockResolvedValue('/tmp/h.warc.gz');
    vi.mocked(startImport).mockResolvedValue(job({}));
    const onimported = vi.fn();
    const { container } = render(ArchivePanel, { crawls: [], onimported });
    await fireEvent.click(screen.getByRole('button', { name: /Import a WARC/ }));
    await vi.waitFor(() => expect(startImport).toHaveBeenCalledWith('/tmp/h.warc.gz'));
    handlers['archive:job'](job({ done: 400, pages: 120, rate: 60, bytes: 400, byteRate: 200, elapsedMs: 2000 }));
    await screen.findByText(/120 pages · 60 pages\/s/);
    expect(container.querySelector('progress')?.getAttribute('value')).toBe('40');
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(cancelArchiveJob).toHaveBeenCalledWith(1);
    handlers['archive:job'](job({
      state: 'cancelled', done: 500, pages: 150,
      import: {
        format: 'warc', crawlId: 7, records: 12, pages: 150, versions: 150, duplicates: 1, revisits: 2, other: 1, ignored: 3, kept: 0,
        problems: [{ where: 'byte 1234', url: `https://example.org/${evil}`, reason: `cut short ${evil}` }], problemCount: 1, bytes: 500,
      },
    }));
    await screen.findByText(/Kept as crawl 7: 150 pages from 12 records/);
    expect(screen.getByText('cancelled')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(onimported).toHaveBeenCalled();
    expect(container.textContent).toContain(`cut short ${evil}`);
    expect(container.querySelector('img, script')).toBeNull();
  });

  it('shows the error of an import refused', async () => {
    vi.mocked(chooseImportFile).mockResolvedValue('notes.txt');
    vi.mocked(startImport).mockRejectedValue(new Error('{"code":"invalid","message":"notes.txt is not a file in warc or wwww format"}'));
    render(ArchivePanel, { crawls: [] });
    await fireEvent.click(screen.getByRole('button', { name: /Import a WARC/ }));
    expect((await screen.findByRole('alert')).textContent).toContain('not a file in warc or wwww format');
  });
});
