import { describe, expect, it } from 'vitest';
import { localLines, segments, valueText } from './ruleText';

describe('segments', () => {
  const text = '+url:*.org/* -body:x';
  const spans = [
    { kind: 'category', from: 0, to: 1 },
    { kind: 'field', from: 1, to: 4 },
    { kind: 'punct', from: 4, to: 5 },
    { kind: 'glob', from: 5, to: 12 },
    { kind: 'category', from: 13, to: 14 },
    { kind: 'field', from: 14, to: 18 },
    { kind: 'punct', from: 18, to: 19 },
    { kind: 'glob', from: 19, to: 20 },
  ];
  it('covers the whole text in order', () => {
    const s = segments(text, spans);
    expect(s.map((x) => x.text).join('')).toBe(text);
    expect(s[0]).toEqual({ text: '+', kind: 'category', decided: false });
    expect(s[4]).toEqual({ text: ' ', kind: '', decided: false });
  });
  it('flags the deciding atom', () => {
    const s = segments(text, spans, { from: 13, to: 20 });
    expect(s.filter((x) => x.decided).map((x) => x.text).join('')).toBe('-body:x');
    expect(s.map((x) => x.text).join('')).toBe(text);
  });
  it('ignores spans out of range and keeps text after an error', () => {
    const s = segments('+url', [{ kind: 'error', from: 1, to: 99 }, { kind: 'category', from: 0, to: 1 }]);
    expect(s.map((x) => x.text).join('')).toBe('+url');
    expect(s).toHaveLength(2);
  });
  it('lets an error win over the span it covers', () => {
    const s = segments('+url:', [{ kind: 'punct', from: 4, to: 5 }, { kind: 'error', from: 4, to: 5 }]);
    expect(s[s.length - 1]).toEqual({ text: ':', kind: 'error', decided: false });
  });
  it('handles empty text', () => {
    expect(segments('', [])).toEqual([]);
  });
});

describe('valueText', () => {
  it('says what a value means', () => {
    expect(valueText('first')).toMatch(/imperative/);
    expect(valueText('untested')).toMatch(/read/);
  });
});

describe('localLines', () => {
  const verdict = { value: 'rejected', potential: 'rejected', reason: '-url:*/b matched', atom: '-url:*/b', line: 2, column: 16, from: 22, to: 30 };
  const none = { ...verdict, value: '', potential: '', reason: '', atom: '', line: 0, column: 0, from: 0, to: 0 };
  const locals = [
    { selector: 'url:*/a', line: 2, column: 1, from: 7, to: 31, active: true, through: 'http://x.org/a', ifActive: none },
    { selector: 'host:y.org', line: 3, column: 1, from: 32, to: 56, active: false, through: '', ifActive: verdict },
  ];
  it('names the path tested, the other paths and the blocks in force', () => {
    const lines = localLines({
      element: '01.01.02',
      elements: [
        { crawlId: 1, family: '01.01.02', visited: true, locals: [0], complete: true, ...verdict },
        { crawlId: 1, family: '01.02', visited: false, locals: [], complete: true, ...verdict, value: 'next', reason: '+url:* matched' },
      ],
      locals,
    });
    expect(lines.map((l) => l.text)).toEqual([
      'Tested as element 01.01.02 of crawl 1 (the path the crawl visited it by).',
      'Also reached as 01.02 of crawl 1: next (+url:* matched).',
      'LOCAL url:*/a (line 2) applies: reached through http://x.org/a.',
      'LOCAL host:y.org (line 3) does not apply on this path; through a page it selects, this would be rejected (-url:*/b matched).',
    ]);
    expect(lines[2]).toMatchObject({ from: 7, to: 31, active: true });
  });
  it('says plainly which blocks could apply to a URL no crawl reached', () => {
    const lines = localLines({ element: '', elements: [], locals: [{ ...locals[1] }] });
    expect(lines[0].text).toMatch(/No crawl reached this URL/);
    expect(lines[1].text).toBe('LOCAL host:y.org (line 3) could apply: through a page it selects, this would be rejected (-url:*/b matched).');
  });
  it('says nothing without blocks or paths', () => {
    expect(localLines({ element: '', elements: [], locals: [] })).toEqual([]);
  });
  it('says when a path is incomplete', () => {
    const lines = localLines({ element: '01.01', elements: [{ crawlId: 2, family: '01.01', visited: true, locals: [], complete: false, ...verdict }], locals: [] });
    expect(lines[lines.length - 1].text).toMatch(/no longer recorded/);
  });
});
