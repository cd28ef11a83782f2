import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';

vi.mock('../api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../api')>();
  return { ...orig, screenshot: vi.fn() };
});

import { screenshot, type ScreenshotInfo } from '../api';
import OfflineCopy from './OfflineCopy.svelte';

const hostile = '<script>parent.__pwned=1</script><img src=x onerror="parent.__pwned=2"><p>hello</p>';

function copy(over = {}) {
  return {
    pageId: 3, url: 'https://example.org/h', title: 't', contentType: 'text/html', fetchedAt: '2026-01-02T03:04:05Z',
    document: `<!doctype html><html><body>${hostile}</body></html>`, text: `text with ${hostile}`,
    blocks: [], asPage: true, assets: { shown: 0, missing: 0, bytes: 0 }, versionId: 0, replay: false, ...over,
  };
}

describe('OfflineCopy', () => {
  it('shows the text as text', () => {
    const { container } = render(OfflineCopy, { copy: copy(), tab: 'text', ontab: () => {} });
    const pre = container.querySelector('pre')!;
    expect(pre.textContent).toBe(`text with ${hostile}`);
    expect(container.querySelector('script, img, iframe')).toBeNull();
    expect(screen.getByRole('tab', { name: 'Text' }).getAttribute('aria-selected')).toBe('true');
  });

  it('shows the text blocks as text: headings, items, code and tables apart', () => {
    const blocks = [
      { kind: 'heading', level: 1, text: `Head ${hostile}` },
      { kind: 'p', text: 'line one\nline two' },
      { kind: 'li', depth: 1, marker: '3.', text: 'an item' },
      { kind: 'pre', text: 'func  main() {}' },
      { kind: 'row', head: true, cells: ['Name', hostile] },
      { kind: 'row', cells: ['RBU', '1895'] },
    ];
    const { container } = render(OfflineCopy, { copy: copy({ blocks }), tab: 'text', ontab: () => {} });
    expect(container.querySelector('h3')?.textContent).toBe(`Head ${hostile}`);
    expect(container.querySelector('pre code')?.textContent).toBe('func  main() {}');
    expect(container.querySelector('.li')?.textContent).toContain('3.an item');
    expect(container.querySelectorAll('table tr')).toHaveLength(2);
    expect(container.querySelector('th:last-child')?.textContent).toBe(hostile);
    expect(container.querySelector('script, img, iframe')).toBeNull();
  });

  it('shows the page in a frame sandboxed without scripts', () => {
    const { container } = render(OfflineCopy, { copy: copy(), tab: 'page', ontab: () => {} });
    const frames = container.querySelectorAll('iframe');
    expect(frames).toHaveLength(1);
    const f = frames[0];
    expect(f.getAttribute('sandbox')).toBe('allow-same-origin');
    expect(f.getAttribute('srcdoc')).toBe(copy().document);
    expect(f.hasAttribute('src')).toBe(false);
    expect(f.hasAttribute('allow')).toBe(false);
    expect((globalThis as { __pwned?: unknown }).__pwned).toBeUndefined();
  });

  it('switches tabs by click and arrow keys', async () => {
    const ontab = vi.fn();
    render(OfflineCopy, { copy: copy(), tab: 'text', ontab });
    await fireEvent.click(screen.getByRole('tab', { name: 'Page' }));
    expect(ontab).toHaveBeenLastCalledWith('page');
    await fireEvent.keyDown(screen.getByRole('tab', { name: 'Text' }), { key: 'ArrowRight' });
    expect(ontab).toHaveBeenLastCalledWith('page');
    await fireEvent.keyDown(screen.getByRole('tab', { name: 'Text' }), { key: 'End' });
    expect(ontab).toHaveBeenLastCalledWith('page');
  });

  it('says when an old version is replayed', () => {
    const { container } = render(OfflineCopy, { copy: copy({ replay: true, versionId: 4 }), tab: 'page', ontab: () => {} });
    expect(container.textContent).toContain('replayed: its links open the versions of their pages nearest in time');
  });

  it('says when there is nothing', () => {
    const { container } = render(OfflineCopy, { copy: copy({ document: '', text: '  ' }), tab: 'page', ontab: () => {} });
    expect(container.querySelector('iframe')).toBeNull();
    expect(container.textContent).toContain('No stored copy');
  });

  it('has a Screenshot tab only for a rendered page, and shows the image the backend gives', async () => {
    const none = render(OfflineCopy, { copy: copy(), tab: 'shot', ontab: () => {} });
    expect(screen.queryByRole('tab', { name: 'Screenshot' })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Text' }).getAttribute('aria-selected')).toBe('true');
    none.unmount();
    const shots: ScreenshotInfo[] = [
      { versionId: 9, kind: 'viewport', width: 1280, height: 800, bytes: 5000, takenAt: '2026-01-02T03:04:05Z' },
      { versionId: 9, kind: 'full', width: 1280, height: 3000, bytes: 9000, takenAt: '2026-01-02T03:04:05Z' },
    ];
    const url = 'data:image/jpeg;base64,/9j/4AAQ';
    vi.mocked(screenshot).mockImplementation(async (v: number, kind: string) => ({ versionId: v, kind, width: 1280, height: kind === 'full' ? 3000 : 800, dataUrl: url }));
    const { container } = render(OfflineCopy, { copy: copy(), tab: 'shot', ontab: () => {}, shots });
    expect(screen.getByRole('tab', { name: 'Screenshot' }).getAttribute('aria-selected')).toBe('true');
    const img = (await screen.findByRole('img', { name: /Screenshot of https:\/\/example\.org\/h .*first screen/ })) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe(url);
    expect(screenshot).toHaveBeenLastCalledWith(9, 'viewport');
    expect(container.querySelector('iframe, script')).toBeNull();
    await fireEvent.click(screen.getByRole('checkbox', { name: /the whole page/ }));
    await screen.findByRole('img', { name: /the whole page/ });
    expect(screenshot).toHaveBeenLastCalledWith(9, 'full');
  });
});
