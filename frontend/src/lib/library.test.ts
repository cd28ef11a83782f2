import { describe, expect, it } from 'vitest';
import type { LibImport, LibKnown, LibRemoval } from '../api';
import { childPath, dropPosition, escapeTitle, importText, knownLabel, knownTone, parseTags, removalText, safeImage } from './library';

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

describe('importText', () => {
  const base = { format: 'bookmarks', libraries: 1, pointers: 1, reports: 0, views: 0, merged: 0, duplicates: 0, elsewhere: 0, skipped: 0, problems: [], more: 0 } as unknown as LibImport;
  it('agrees its nouns and verbs with one', () => {
    expect(importText({ ...base, merged: 1, duplicates: 1, elsewhere: 1 } as LibImport)).toEqual([
      'Imported 2 from a bookmarks file: 1 library, 1 pointer.',
      '1 library was there already.',
      '1 link was in its library already and was left out.',
      '1 is elsewhere in the library too.',
    ]);
  });
  it('and with many', () => {
    expect(importText({ ...base, libraries: 2, pointers: 3, merged: 2, duplicates: 2, elsewhere: 2 } as LibImport)).toEqual([
      'Imported 5 from a bookmarks file: 2 libraries, 3 pointers.',
      '2 libraries were there already.',
      '2 links were in their library already and were left out.',
      '2 are elsewhere in the library too.',
    ]);
  });
});
