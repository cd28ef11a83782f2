import { describe, expect, it } from 'vitest';
import { hasTerm, terms, toggleTerm } from './query';

describe('terms', () => {
  it('keeps phrases whole', () => {
    expect(terms('  otlet "index cards" -postal host:a.org ')).toEqual(['otlet', '"index cards"', '-postal', 'host:a.org']);
    expect(terms('')).toEqual([]);
    expect(terms('"unclosed phrase')).toEqual(['"unclosed phrase']);
  });
});

describe('toggleTerm (facet refine)', () => {
  it.each([
    ['catalogue', 'host:example.org', 'catalogue host:example.org'],
    ['  catalogue  ', 'type:pdf', 'catalogue type:pdf'],
    ['', 'status:404', 'status:404'],
    ['catalogue host:example.org', 'host:example.org', 'catalogue'],
    ['catalogue HOST:Example.org cards', 'host:example.org', 'catalogue cards'],
    ['"host:example.org" x', 'host:example.org', '"host:example.org" x host:example.org'],
    ['catalogue', '  ', 'catalogue'],
  ])('%j + %j = %j', (q, t, want) => {
    expect(toggleTerm(q, t)).toBe(want);
  });

  it('reports the terms a query has', () => {
    expect(hasTerm('a crawl:2 b', 'crawl:2')).toBe(true);
    expect(hasTerm('a crawl:22 b', 'crawl:2')).toBe(false);
    expect(hasTerm('a', '')).toBe(false);
  });
});
