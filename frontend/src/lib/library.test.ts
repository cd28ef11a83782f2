import { describe, expect, it } from 'vitest';
import type { LibKnown, LibRemoval } from '../api';
import { childPath, dropPosition, escapeTitle, knownLabel, knownTone, parseTags, removalText, safeImage } from './library';

describe('library helpers', () => {
  it('escapes titles into paths as the backend reads them', () => {
    expect(escapeTitle('TCP/IP')).toBe('TCP\\/IP');
    expect(escapeTitle('a\\b')).toBe('a\\\\b');
    expect(escapeTitle('#1 hits')).toBe('\\#1 hits');
    expect(childPath('/', 'Go')).toBe('/Go');
    expect(childPath('/Computing', 'TCP/IP')).toBe('/Computing/TCP\\/IP');
  });

  it('says what the crawler knows', () => {
    const now = Date.parse('2024-01-10T00:00:00Z');
    const k = { pageId: 1, title: 't', state: 'fetched', status: 200, fetchedAt: '2024-01-09T00:00:00Z', copy: true } as LibKnown;
    expect(knownLabel(k, now)).toBe('fetched 200 · 1 day ago · offline copy');
    expect(knownLabel(null)).toBe('not in the workspace');
    expect(knownTone(k)).toBe('ok');
    expect(knownTone({ ...k, state: 'failed', status: 404 } as LibKnown)).toBe('bad');
  });

  it('parses tags', () => {
    expect(parseTags(' go, Go ,lang,,  machine   learning ')).toEqual(['go', 'lang', 'machine learning']);
  });

  it('says what a delete removes', () => {
    const r = { libraries: 2, pointers: 5, reports: 1, views: 0, titles: ['Go'], protected: [] } as LibRemoval;
    expect(removalText(r)).toBe('“Go” and everything in it: 2 libraries, 5 pointers, 1 report');
    expect(removalText({ ...r, libraries: 0, pointers: 2, reports: 0, titles: ['a', 'b'] } as LibRemoval)).toBe('2 postings: 2 pointers');
  });

  it('places a dropped posting', () => {
    expect(dropPosition([1, 2, 3, 4], 4, 2, false)).toBe(1);
    expect(dropPosition([1, 2, 3, 4], 1, 3, true)).toBe(2);
    expect(dropPosition([1, 2, 3], 2, 9, true)).toBe(-1);
  });

  it('shows only raster data pictures', () => {
    expect(safeImage('data:image/png;base64,iVBORw0KGgo=')).not.toBe('');
    expect(safeImage('data:image/svg+xml;base64,PHN2Zz4=')).toBe('');
    expect(safeImage('javascript:alert(1)')).toBe('');
    expect(safeImage('https://evil.example/x.png')).toBe('');
  });
});
