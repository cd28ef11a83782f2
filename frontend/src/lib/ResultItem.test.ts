import { fireEvent, render } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../wailsjs/runtime/runtime', () => ({ BrowserOpenURL: vi.fn() }));

import * as runtime from '../../wailsjs/runtime/runtime';
import ResultItem from './ResultItem.svelte';

type G = { runtime?: unknown };

function result(url: string, title: string) {
  return {
    pageId: 1, url, title, host: 'https://example.org', type: 'html', state: 'fetched', status: 200,
    score: 1000, snippet: ['a ', 'b'], copies: 0, fetchedAt: '',
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
  it('links http(s) results to the system browser, not the window', async () => {
    const { container } = render(ResultItem, { result: result('https://example.org/p', 'Example') });
    const a = container.querySelector('a')!;
    expect(a.getAttribute('href')).toBe('https://example.org/p');
    expect(a.textContent).toBe('Example');
    const notPrevented = await fireEvent.click(a);
    expect(notPrevented).toBe(false);
    expect(runtime.BrowserOpenURL).toHaveBeenCalledWith('https://example.org/p');
  });

  it('gives other schemes no link at all', () => {
    const { container } = render(ResultItem, { result: result('javascript:alert(1)', 'x') });
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toContain('javascript:alert(1)');
  });

  it('renders a hostile title as text', () => {
    const title = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    const { container } = render(ResultItem, { result: result('https://example.org/', title) });
    expect(container.querySelector('img, script')).toBeNull();
    expect(container.querySelector('a')!.textContent).toBe(title);
  });

  it('falls back to the URL when there is no title', () => {
    const { container } = render(ResultItem, { result: result('https://example.org/x', '  ') });
    expect(container.querySelector('a')!.textContent).toBe('https://example.org/x');
  });
});
