import { fireEvent, render } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../wailsjs/runtime/runtime', () => ({ BrowserOpenURL: vi.fn() }));

import * as runtime from '../../wailsjs/runtime/runtime';
import ResultItem from './ResultItem.svelte';

type G = { runtime?: unknown };

function result(url: string, title: string, over = {}) {
  return {
    pageId: 7, url, title, host: 'https://example.org', type: 'html', state: 'fetched', status: 200,
    score: 1000, snippet: ['a ', 'b'], copies: 0, alternates: 0, reason: '', new: false, fetchedAt: '', changedAt: '', versions: 1, ...over,
  };
}

beforeEach(() => {
  (globalThis as G).runtime = {};
});
afterEach(() => {
  delete (globalThis as G).runtime;
  vi.clearAllMocks();
});

describe('ResultItem', () => {
  it('marks a result whose summary came from a source, as text', () => {
    const { container } = render(ResultItem, { result: result('https://example.org/p', 'P', { source: '<b>peer</b>' }) });
    const chip = container.querySelector('.chip.source')!;
    expect(chip.textContent!.trim()).toBe('from <b>peer</b>');
    expect(chip.querySelector('b')).toBeNull();
    const plain = render(ResultItem, { result: result('https://example.org/q', 'Q') });
    expect(plain.container.querySelector('.chip.source')).toBeNull();
  });

  it('links the title to the page view and the URL to the system browser', async () => {
    const { container } = render(ResultItem, { result: result('https://example.org/p', 'Example') });
    const title = container.querySelector('a.title')!;
    expect(title.getAttribute('href')).toBe('#/page/7');
    expect(title.textContent).toBe('Example');
    const url = container.querySelector('a.url')!;
    expect(url.getAttribute('href')).toBe('https://example.org/p');
    const notPrevented = await fireEvent.click(url);
    expect(notPrevented).toBe(false);
    expect(runtime.BrowserOpenURL).toHaveBeenCalledWith('https://example.org/p');
    expect(container.querySelector('a.copy')!.getAttribute('href')).toBe('#/page/7?copy=text');
  });

  it('gives other schemes no external link at all', () => {
    const { container } = render(ResultItem, { result: result('javascript:alert(1)', 'x') });
    expect(container.querySelector('a.url')).toBeNull();
    for (const a of container.querySelectorAll('a')) expect(a.getAttribute('href')).toMatch(/^#\/page\/7/);
    expect(container.textContent).toContain('javascript:alert(1)');
  });

  it('renders a hostile title as text', () => {
    const title = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    const { container } = render(ResultItem, { result: result('https://example.org/', title) });
    expect(container.querySelector('img, script')).toBeNull();
    expect(container.querySelector('a.title')!.textContent).toBe(title);
  });

  it('falls back to the URL when there is no title', () => {
    const { container } = render(ResultItem, { result: result('https://example.org/x', '  ') });
    expect(container.querySelector('a.title')!.textContent).toBe('https://example.org/x');
  });

  it('says how many identical copies were folded into it, and marks the highlight', () => {
    const { container } = render(ResultItem, { result: result('https://example.org/x', 't', { copies: 3 }), selected: true });
    expect(container.textContent).toContain('3 identical copies');
    const li = container.querySelector('li')!;
    expect(li.getAttribute('tabindex')).toBe('0');
    expect(li.getAttribute('aria-current')).toBe('true');
    const one = render(ResultItem, { result: result('https://example.org/y', 't', { copies: 1 }) });
    expect(one.container.textContent).toContain('1 identical copy');
    expect(one.container.querySelector('li')!.getAttribute('tabindex')).toBe('-1');
  });
});

describe('ResultItem of a page that died', () => {
  it('calls a soft 404 or a parked domain what it is, in a view’s changed link too', () => {
    const dead = { new: true, changedAt: '2026-02-02T00:00:00Z', versions: 2, flag: 'parked' };
    const { container } = render(ResultItem, { result: result('https://example.org/x', 't', dead) });
    expect(container.querySelector('.flag')?.textContent).toContain('looks dead: a domain-parking page');
    expect(container.querySelector('a.changed')?.textContent).toContain('died');
    const soft = render(ResultItem, { result: result('https://example.org/y', 't', { flag: 'soft-404' }) });
    expect(soft.container.querySelector('.flag')?.textContent).toContain('looks dead: the site’s error page behind a 200');
    const alive = render(ResultItem, { result: result('https://example.org/z', 't', {}) });
    expect(alive.container.querySelector('.flag')).toBeNull();
  });
});

describe('ResultItem in an opened view', () => {
  it('links a page that changed since the view was last opened to its diff', () => {
    const changed = { new: true, changedAt: '2026-02-02T00:00:00Z', versions: 2 };
    const { container } = render(ResultItem, { result: result('https://example.org/x', 't', changed) });
    const link = container.querySelector('a.changed')!;
    expect(link.getAttribute('href')).toBe('#/page/7');
    expect(link.textContent).toContain('see the diff');
    // With the view's last opening, the diff is from the version in force then.
    const since = render(ResultItem, { result: result('https://example.org/x', 't', changed), since: '2026-01-01T00:00:00Z' });
    expect(since.container.querySelector('a.changed')!.getAttribute('href')).toBe('#/page/7?since=2026-01-01T00%3A00%3A00Z');
    // Not for a page that is new (one version), nor outside a view.
    for (const over of [{ ...changed, versions: 1 }, { ...changed, new: false }]) {
      const r = render(ResultItem, { result: result('https://example.org/y', 't', over) });
      expect(r.container.querySelector('a.changed')).toBeNull();
    }
  });
});
