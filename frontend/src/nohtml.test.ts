// Crawled text and reports are hostile: no source file may use a raw-HTML sink. The one
// exception is SafeFrame (offline copies, reports), whose srcdoc holds the backend's
// sanitised document and whose sandbox attribute must stay exactly "allow-same-origin": no
// scripts (nothing in the copy runs, so same origin gives it nothing), no popups, no forms,
// no top navigation (SafeFrame says why the app needs the document's origin: to take its
// link clicks).
import { describe, expect, it } from 'vitest';

const sources = import.meta.glob(['./**/*.ts', './**/*.svelte', '!./**/*.test.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

const sinks = [/\{@html\b/, /\binnerHTML\b/, /\bouterHTML\b/, /\binsertAdjacentHTML\b/, /\bdocument\.write/, /\bsrcdoc\b/, /\beval\(/, /new Function\(/, /\bcreateContextualFragment\b/, /\bsetHTMLUnsafe\b/, /\bparseFromString\b/];

const frameFile = './lib/SafeFrame.svelte';
// The one parser of a document: the next copy shown in SafeFrame's frame is parsed inert
// (DOMParser: no browsing context, nothing runs or loads) and its nodes go only into the
// sandboxed frame's document (frameSwap.ts says why that is as strict as a new srcdoc).
const swapFile = './lib/frameSwap.ts';

/** The markup of a Svelte file, without its script and style blocks. */
function markup(text: string): string {
  return text.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<style[\s\S]*?<\/style>/g, '');
}

describe('no raw-HTML sinks', () => {
  it('finds the sources', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(5);
    expect(Object.keys(sources)).toContain('./lib/Snippet.svelte');
    expect(Object.keys(sources)).toContain(frameFile);
  });
  it.each(Object.entries(sources))('%s', (path, text) => {
    for (const re of sinks) {
      if (path === frameFile && re.source === '\\bsrcdoc\\b') continue;
      if (path === swapFile && re.source === '\\bparseFromString\\b') continue;
      expect(text).not.toMatch(re);
    }
  });
});

describe('the sandboxed frame', () => {
  const text = markup(sources[frameFile] ?? '');
  const frames = text.match(/<iframe\b[^>]*>/g) ?? [];

  it('takes the parsed documents of frameSwap.ts alone', () => {
    for (const [path, src] of Object.entries(sources)) {
      if (path !== frameFile && path !== swapFile) expect(src).not.toMatch(/frameSwap/);
    }
  });

  it('is the only frame, and the only srcdoc', () => {
    expect(frames).toHaveLength(1);
    expect(text.match(/\bsrcdoc\b/g)).toHaveLength(1);
    for (const [path, src] of Object.entries(sources)) {
      if (path !== frameFile) expect(markup(src)).not.toMatch(/<iframe\b/);
    }
  });

  it('has a static sandbox attribute before its srcdoc, without scripts, popups, forms or navigation', () => {
    const tag = frames[0] ?? '';
    expect(tag).toMatch(/\ssandbox="allow-same-origin"\s/);
    expect(tag.indexOf('sandbox=')).toBeLessThan(tag.indexOf('srcdoc'));
    expect(tag.match(/allow-/g)).toHaveLength(1);
    expect(tag).not.toMatch(/allow-(scripts|popups|forms|top|modals|downloads|pointer|presentation|orientation|storage)|sandbox=\{|\{\.\.\./);
  });

  it('reads only the marks and addresses of the frame’s links', () => {
    const script = (sources[frameFile] ?? '').match(/<script[\s\S]*?<\/script>/)?.[0] ?? '';
    // No markup, text or attribute of the document is read but through frameLinks.ts.
    expect(script).not.toMatch(/getAttribute|textContent|innerText|\.href\b|\.src\b|\.value\b|cloneNode|importNode|adoptNode/);
  });
});
