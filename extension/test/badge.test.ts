import { describe, expect, it } from 'vitest';
import { badgeFor, checkable, plain } from '../src/badge';

const place = (id: number, library: string) => ({ id, libraryId: id + 100, library, title: 't' });

describe('badge', () => {
  it('tells whether and where the page is in the library', () => {
    expect(badgeFor({ url: 'https://x.example/', places: [], page: null })).toEqual(plain);
    const one = badgeFor({ url: 'https://x.example/', places: [place(1, '/Reading')], page: null });
    expect(one.text).toBe('✓');
    expect(one.title).toBe('In Mundaneum: /Reading');
    const many = badgeFor({ url: 'u', places: [1, 2, 3, 4, 5, 6, 7].map((i) => place(i, `/L${i}`)), page: null });
    expect(many.text).toBe('7');
    expect(many.title).toBe('In Mundaneum: /L1, /L2, /L3, /L4, /L5, and 2 more');
  });
  it('asks only about web pages', () => {
    expect(checkable('https://x.example/')).toBe(true);
    expect(checkable('HTTP://x.example/')).toBe(true);
    for (const u of [undefined, '', 'chrome://extensions', 'about:blank', 'file:///x', 'moz-extension://x/popup.html', 'javascript:1']) {
      expect(checkable(u), String(u)).toBe(false);
    }
  });
});
