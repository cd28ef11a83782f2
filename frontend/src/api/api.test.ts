import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../wailsjs/runtime/runtime', () => ({
  BrowserOpenURL: vi.fn(),
  EventsOn: vi.fn(() => () => {}),
  WindowSetBackgroundColour: vi.fn(),
}));
vi.mock('../../wailsjs/go/app/App', () => ({
  Crawls: vi.fn(),
  Search: vi.fn(),
  Status: vi.fn(),
  StartCrawl: vi.fn(),
  PauseCrawl: vi.fn(),
  ResumeCrawl: vi.fn(),
  CancelCrawl: vi.fn(),
}));

import * as runtime from '../../wailsjs/runtime/runtime';
import * as App from '../../wailsjs/go/app/App';
import { ApiError, inBrowser, listCrawls, onEvent, openDocumentTab, openExternal, safeExternalURL, search, toApiError } from './index';

type G = { runtime?: unknown; go?: unknown };

beforeEach(() => {
  (globalThis as G).runtime = {};
  (globalThis as G).go = { app: { App: {} } };
});

afterEach(() => {
  delete (globalThis as G).runtime;
  delete (globalThis as G).go;
  vi.clearAllMocks();
});

describe('safeExternalURL', () => {
  it.each([
    ['https://example.org/a?b=c#d', 'https://example.org/a?b=c#d'],
    ['http://example.org', 'http://example.org/'],
    ['  HTTPS://Example.ORG/x  ', 'https://example.org/x'],
    ['http://[::1]:8080/', 'http://[::1]:8080/'],
  ])('allows %s', (raw, want) => {
    expect(safeExternalURL(raw)).toBe(want);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'vbscript:msgbox',
    'ftp://example.org/',
    'mailto:a@example.org',
    '//example.org/path',
    '/relative/path',
    'example.org',
    '',
    'http://',
    'https://exa mple.org/',
    'https://example.org/\u0000',
    'https://example.org/\n',
    `https://example.org/${'a'.repeat(9000)}`,
  ])('refuses %s', (raw) => {
    expect(safeExternalURL(raw)).toBeNull();
  });

  it('refuses non-strings', () => {
    expect(safeExternalURL(undefined as unknown as string)).toBeNull();
    expect(safeExternalURL(42 as unknown as string)).toBeNull();
  });
});

describe('openExternal', () => {
  it('hands http(s) URLs to the system browser', () => {
    expect(openExternal('https://example.org/page')).toBe(true);
    expect(runtime.BrowserOpenURL).toHaveBeenCalledWith('https://example.org/page');
  });

  it('never hands other schemes over', () => {
    for (const u of ['javascript:alert(1)', 'file:///etc/passwd', 'data:,x', 'about:blank']) {
      expect(openExternal(u)).toBe(false);
    }
    expect(runtime.BrowserOpenURL).not.toHaveBeenCalled();
  });

  it('does nothing without the Wails runtime', () => {
    delete (globalThis as G).runtime;
    expect(openExternal('https://example.org/')).toBe(false);
    expect(runtime.BrowserOpenURL).not.toHaveBeenCalled();
  });
});

describe('bound calls', () => {
  it('turn a rejected string into an ApiError', async () => {
    vi.mocked(App.Crawls).mockRejectedValueOnce('database is closed');
    const err = await listCrawls().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('database is closed');
  });

  it('keep a code from a structured error', () => {
    const e = toApiError({ code: 'invalid', message: 'bad scope' });
    expect(e.code).toBe('invalid');
    expect(e.message).toBe('bad scope');
  });

  it('decode the JSON error text bound methods reject with', async () => {
    vi.mocked(App.Crawls).mockRejectedValueOnce('{"code":"not-found","message":"crawl 7: not found"}');
    const err = (await listCrawls().catch((e: unknown) => e)) as ApiError;
    expect(err.code).toBe('not-found');
    expect(err.message).toBe('crawl 7: not found');
  });

  it.each([
    ['{"code":"weird","message":"m"}', 'internal', 'm'],
    ['{not json', 'internal', '{not json'],
    ['{"code":"invalid"}', 'internal', '{"code":"invalid"}'],
    ['plain text', 'internal', 'plain text'],
  ])('map %s to a known code', (raw, code, message) => {
    const e = toApiError(raw);
    expect([e.code, e.message]).toEqual([code, message]);
  });

  it('fail clearly without the bridge', async () => {
    delete (globalThis as G).go;
    const err = await search('x').catch((e: unknown) => e);
    expect((err as ApiError).code).toBe('unavailable');
    expect(App.Search).not.toHaveBeenCalled();
  });

  // Lists arrive as [] (Go's app.ListsNotNull, at each transport's boundary: see
  // app/lists_test.go and app/web/lists_test.go); maps and absent objects may be null.
  it('normalise null maps and absent objects from Go', async () => {
    vi.mocked(App.Search).mockResolvedValueOnce({
      query: 'q', total: 0, totalApprox: false, totalAtLeast: false, window: 0, tookMs: 1, results: [],
      facets: null as unknown as Record<string, never>, facetsApprox: false, note: '', didYouMean: '', corrected: false,
      library: null as unknown as Awaited<ReturnType<typeof search>>['library'],
    });
    const r = await search('q');
    expect(r.facets).toEqual({});
    expect(r.library.hits).toEqual([]);
  });
});

describe('onEvent', () => {
  it('subscribes through the runtime and drops non-object payloads', () => {
    let handler: ((p: unknown) => void) | undefined;
    const off = vi.fn();
    vi.mocked(runtime.EventsOn).mockImplementationOnce((_name, cb) => {
      handler = cb;
      return off;
    });
    const cb = vi.fn();
    const unsubscribe = onEvent('crawl:progress', cb);
    expect(runtime.EventsOn).toHaveBeenCalledWith('crawl:progress', expect.any(Function));
    handler?.(null);
    handler?.('x');
    handler?.({ id: 1 });
    expect(cb).toHaveBeenCalledTimes(1);
    unsubscribe();
    expect(off).toHaveBeenCalled();
  });

  it('is a no-op without the runtime', () => {
    delete (globalThis as G).runtime;
    const off = onEvent('crawl:done', () => {});
    off();
    expect(runtime.EventsOn).not.toHaveBeenCalled();
  });
});

describe('openDocumentTab (serve)', () => {
  let meta: HTMLMetaElement;
  beforeEach(() => {
    meta = document.createElement('meta');
    meta.name = 'mundaneum-token';
    meta.content = 'a'.repeat(64);
    document.head.append(meta);
  });
  afterEach(() => {
    meta.remove();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('asks for a ticket with the token and opens it in a tab without an opener', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ url: '/document?ticket=t1' }), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    expect(inBrowser()).toBe(true);
    await openDocumentTab(7);
    expect(fetch).toHaveBeenCalledWith('/files/document?id=7', { method: 'POST', headers: { 'X-Mundaneum-Token': 'a'.repeat(64) } });
    expect(clicked).toHaveLength(1);
    expect(clicked[0].getAttribute('href')).toBe('/document?ticket=t1');
    expect(clicked[0].target).toBe('_blank');
    expect(clicked[0].rel).toBe('noopener noreferrer');
  });

  it('opens nothing but the ticket address, and reports the server\'s error', async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ url: 'https://evil.example/' }), { status: 200 })));
    await expect(openDocumentTab(7)).rejects.toThrow();
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ code: 'invalid', message: 'the offline copy is not a PDF' }), { status: 400 })));
    const err = await openDocumentTab(7).catch((e) => toApiError(e));
    expect(err).toMatchObject({ code: 'invalid', message: 'the offline copy is not a PDF' });
    expect(click).not.toHaveBeenCalled();
  });
});
