// Crawled text is hostile: no source file may use a raw-HTML sink.
import { describe, expect, it } from 'vitest';

const sources = import.meta.glob(['./**/*.ts', './**/*.svelte', '!./**/*.test.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

const sinks = [/\{@html\b/, /\binnerHTML\b/, /\bouterHTML\b/, /\binsertAdjacentHTML\b/, /\bdocument\.write/, /\bsrcdoc\b/, /\beval\(/, /new Function\(/];

describe('no raw-HTML sinks', () => {
  it('finds the sources', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(5);
    expect(Object.keys(sources)).toContain('./lib/Snippet.svelte');
  });
  it.each(Object.entries(sources))('%s', (_path, text) => {
    for (const re of sinks) expect(text).not.toMatch(re);
  });
});
