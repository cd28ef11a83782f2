import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('../api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../api')>();
  return { ...orig, crawlDefaults: vi.fn(), documentTypes: vi.fn(), retention: vi.fn(), startCrawl: vi.fn() };
});

import { crawlDefaults, documentTypes, retention, startCrawl, type Crawl, type CrawlRequest, type RetentionInfo } from '../api';
import CrawlForm from './CrawlForm.svelte';
import { crawlPrefill } from './crawlPrefill.svelte';

const defaults = {
  seeds: [], scope: 'site', maxDepth: 0, maxPages: 0, maxSeconds: 0, maxPerHost: 100000, maxQueryVariants: 200,
  sitemaps: false, agents: 16, perHost: 2, delayMs: 1000, refresh: false, rules: '', toward: '', types: ['pdf'],
  render: '', renderExternal: false, renderFullPage: false,
} as CrawlRequest;
const ws = { crawlId: 0, keep: 'last', last: 5, own: false, versions: 1234, bodies: 40, bytes: 3 << 20, prunedVersions: 0, prunedBytes: 0 } as RetentionInfo;

afterEach(() => vi.clearAllMocks());

describe('CrawlForm', () => {
  it('shows the workspace’s retention with the disk history takes, and sets the crawl’s own', async () => {
    vi.mocked(crawlDefaults).mockResolvedValue(defaults);
    vi.mocked(documentTypes).mockResolvedValue([]);
    vi.mocked(retention).mockResolvedValue(ws);
    vi.mocked(startCrawl).mockResolvedValue({ id: 7 } as Crawl);
    const onstarted = vi.fn();
    render(CrawlForm, { onstarted });
    await screen.findByRole('option', { name: /the workspace’s setting: the last 5 · history takes 3 MiB in 1,234 versions/ });
    const keep = screen.getByLabelText('Versions kept') as HTMLSelectElement;
    expect(keep.value).toBe('');
    await fireEvent.input(screen.getByRole('textbox', { name: /Seeds/ }), { target: { value: 'https://example.org/' } });
    await fireEvent.change(keep, { target: { value: 'last' } });
    const n = screen.getByLabelText('How many versions');
    await fireEvent.input(n, { target: { value: '0' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Start crawl' }));
    await screen.findByText('Versions kept must be at least 1.', { selector: '[role=alert]' });
    expect(startCrawl).not.toHaveBeenCalled();
    await fireEvent.input(n, { target: { value: '3' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Start crawl' }));
    await vi.waitFor(() => expect(onstarted).toHaveBeenCalled());
    expect(startCrawl).toHaveBeenCalledWith(expect.objectContaining({ seeds: ['https://example.org/'], keep: 'last', keepLast: 3 }));
  });
});

describe('CrawlForm rendering', () => {
  it('starts from the workspace’s render mode and sends the one chosen, with its switches', async () => {
    vi.mocked(crawlDefaults).mockResolvedValue({ ...defaults, render: 'auto' } as CrawlRequest);
    vi.mocked(documentTypes).mockResolvedValue([]);
    vi.mocked(retention).mockResolvedValue(ws);
    vi.mocked(startCrawl).mockResolvedValue({ id: 8 } as Crawl);
    const onstarted = vi.fn();
    render(CrawlForm, { onstarted });
    const mode = (await screen.findByLabelText('Render pages in a browser')) as HTMLSelectElement;
    await vi.waitFor(() => expect(mode.value).toBe('auto'));
    await fireEvent.input(screen.getByRole('textbox', { name: /Seeds/ }), { target: { value: 'https://example.org/app/' } });
    await fireEvent.change(mode, { target: { value: 'always' } });
    await fireEvent.click(screen.getByRole('checkbox', { name: /Screenshot whole pages/ }));
    await fireEvent.click(screen.getByRole('button', { name: 'Start crawl' }));
    await vi.waitFor(() => expect(onstarted).toHaveBeenCalled());
    expect(startCrawl).toHaveBeenCalledWith(expect.objectContaining({ render: 'always', renderFullPage: true, renderExternal: false }));
  });
});

describe('CrawlForm limits', () => {
  it('starts bounded, says so, and lifts the limits with one click', async () => {
    vi.mocked(crawlDefaults).mockResolvedValue(defaults); // the CLI's: no limits
    vi.mocked(documentTypes).mockResolvedValue([]);
    vi.mocked(retention).mockResolvedValue(ws);
    vi.mocked(startCrawl).mockResolvedValue({ id: 8 } as Crawl);
    render(CrawlForm, { onstarted: vi.fn() });
    await screen.findByText('Stops after 2,000 pages or 1 h, 5 links deep at most.');
    expect((screen.getByRole('spinbutton', { name: /max pages/i }) as HTMLInputElement).value).toBe('2000');
    expect((screen.getByRole('spinbutton', { name: /depth/i }) as HTMLInputElement).value).toBe('5');
    expect((screen.getByRole('spinbutton', { name: /time limit/i }) as HTMLInputElement).value).toBe('60');
    await fireEvent.input(screen.getByRole('textbox', { name: /Seeds/ }), { target: { value: 'https://example.org/' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Start crawl' }));
    await vi.waitFor(() => expect(startCrawl).toHaveBeenCalledTimes(1));
    expect(startCrawl).toHaveBeenLastCalledWith(expect.objectContaining({ maxPages: 2000, maxDepth: 5, maxSeconds: 3600 }));

    await fireEvent.click(screen.getByRole('button', { name: 'Lift the limits' }));
    await screen.findByText(/^No limits: the crawl follows the site to its end/);
    await fireEvent.click(screen.getByRole('button', { name: 'Start crawl' }));
    await vi.waitFor(() => expect(startCrawl).toHaveBeenCalledTimes(2));
    expect(startCrawl).toHaveBeenLastCalledWith(expect.objectContaining({ maxPages: 0, maxDepth: 0, maxSeconds: 0 }));

    // A limit typed by hand is said as typed; the button puts the window's back.
    await fireEvent.input(screen.getByRole('spinbutton', { name: /max pages/i }), { target: { value: '250' } });
    await screen.findByText('Stops after 250 pages.');
    await fireEvent.click(screen.getByRole('button', { name: 'Lift the limits' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Put the limits back' }));
    await screen.findByText('Stops after 2,000 pages or 1 h, 5 links deep at most.');
  });

  it('shows a prefilled address only with its preset ("crawl from here"), never before the defaults it overrides', async () => {
    let give!: (d: CrawlRequest) => void;
    vi.mocked(crawlDefaults).mockReturnValue(new Promise((r) => (give = r)));
    vi.mocked(documentTypes).mockResolvedValue([]);
    vi.mocked(retention).mockResolvedValue(ws);
    crawlPrefill.pending = { seeds: ['https://example.org/new/'], scope: 'tree', requisites: true };
    render(CrawlForm, {});
    const seeds = screen.getByRole('textbox', { name: /Seeds/ }) as HTMLTextAreaElement;
    const req = screen.getByRole('checkbox', { name: /style sheets, images and fonts/ }) as HTMLInputElement;
    await vi.waitFor(() => expect(crawlDefaults).toHaveBeenCalled());
    expect(seeds.value).toBe('');
    give(defaults);
    await vi.waitFor(() => expect(seeds.value).toBe('https://example.org/new/'));
    expect(req.checked).toBe(true);
    expect((screen.getByLabelText(/Scope/) as HTMLSelectElement).value).toBe('tree');
  });
});

describe('CrawlForm defaults that come late', () => {
  it('keeps what the user changed before the defaults came and fills the rest', async () => {
    let answer: (d: CrawlRequest) => void = () => {};
    vi.mocked(crawlDefaults).mockReturnValue(new Promise<CrawlRequest>((r) => (answer = r)));
    vi.mocked(documentTypes).mockResolvedValue([]);
    vi.mocked(retention).mockResolvedValue(ws);
    render(CrawlForm, { onstarted: vi.fn() });
    const pages = screen.getByRole('spinbutton', { name: /max pages/i }) as HTMLInputElement;
    await fireEvent.input(pages, { target: { value: '40' } });
    answer(defaults);
    await screen.findByText(/Stops after 40 pages or 1 h, 5 links deep at most\./);
    expect(pages.value).toBe('40');
    expect((screen.getByRole('spinbutton', { name: /depth/i }) as HTMLInputElement).value).toBe('5');
    expect((screen.getByRole('spinbutton', { name: /time limit/i }) as HTMLInputElement).value).toBe('60');
  });
});
